import { serve, type HttpBindings, type Http2Bindings, type ServerType } from '@hono/node-server';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AppConfig, Culture } from '../config/schema.js';
import type { Clock } from '../infra/clock.js';
import { codeMessage } from '../i18n/code-messages.js';
import { coalesceResponses } from './coalesce.js';
import { envelopeJson } from './envelope.js';
import { resolveTraceId } from './request-info.js';

/** The HTTP server's `upgrade` event handler. */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

type FetchHandler = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

/** Node's own choice of status for a request its parser refuses (lib/_http_server.js). */
const STATUS_OF_PARSER_ERROR: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * Answers a request Node refuses before the app sees it (request line and headers over 16 KiB,
 * malformed HTTP, a request that took too long to arrive) with an envelope, like every other
 * answer; Node's own handler writes a bare status line. No header was read, so the message is
 * in the default culture and the trace id is new. Like Node, it answers only when no response
 * has begun on the connection, and then closes it.
 */
export function answerClientError(culture: Culture, clock: Clock) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    const status = STATUS_OF_PARSER_ERROR[error.code ?? ''] ?? 400;
    const traceId = resolveTraceId(undefined);
    const body = envelopeJson(status, codeMessage(culture, status), undefined, traceId, clock.now());
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
        `x-trace-id: ${traceId}\r\nconnection: close\r\n\r\n${body}`,
    );
  };
}

/**
 * Listens the way the service does in production (main.ts), for tests and benchmarks too:
 * responses coalesced per event-loop turn (coalesce.ts), envelope answers to what Node's parser
 * refuses.
 */
export function serveApp(
  options: { fetch: FetchHandler; config: Pick<AppConfig, 'App' | 'Localization'>; clock: Clock; port: number; hostname: string; upgrade?: UpgradeHandler },
  onListen?: (address: AddressInfo) => void,
): ServerType {
  const { config } = options;
  const server = serve({ fetch: coalesceResponses(options.fetch, config.App.CoalesceResponses), port: options.port, hostname: options.hostname }, onListen);
  server.on('clientError', answerClientError(config.Localization.DefaultCulture, options.clock));
  // WebSocket upgrades (the hubs); without a handler Node closes such a connection.
  if (options.upgrade) server.on('upgrade', options.upgrade);
  return server;
}
