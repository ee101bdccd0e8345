import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './collector.js';
import { METRICS_PATH } from './route.js';

/**
 * Metrics on a port of their own (Metrics:Port), without a key: for a scraper on a private
 * network, with the listener bound to Metrics:Host (127.0.0.1 unless configured). Anything but
 * `GET /metrics` answers 404.
 */
export function startMetricsListener(
  metrics: Metrics,
  options: { port: number; host: string },
): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || new URL(request.url ?? '/', 'http://metrics').pathname !== METRICS_PATH) {
      response.writeHead(404).end();
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      () => response.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
