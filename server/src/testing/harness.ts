import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { boot, type BootOptions, type Runtime } from '../bootstrap.js';
import { loadConfig } from '../config/load.js';
import { createLogger } from '../infra/logger.js';

export interface TestServer {
  url: string;
  runtime: Runtime;
  /** Log lines written while the server ran (JSON text). */
  logs: string[];
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Sends and parses the envelope. */
  json<T = any>(path: string, init?: RequestInit & { json?: unknown }): Promise<{ status: number; headers: Headers; body: T }>;
  close(): Promise<void>;
}

function deepMerge(a: Record<string, any>, b: Record<string, any>): Record<string, any> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && typeof a[k] === 'object' ? deepMerge(a[k], v) : v;
  }
  return out;
}

/** Boots the real host on an ephemeral port with test defaults (in-memory, quiet, captured logs). */
export async function startTestServer(options: { config?: Record<string, any>; env?: Record<string, string> } & BootOptions = {}): Promise<TestServer> {
  const logs: string[] = [];
  const config = loadConfig(options.env ?? {}, deepMerge({ App: { Env: 'test', LogLevel: 'debug' }, Database: { InMemory: true } }, options.config ?? {}));
  const logger = options.logger ?? createLogger({ level: 'debug', sink: (line) => logs.push(line) });
  const runtime = await boot(config, { ...options, logger });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: runtime.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const request = (path: string, init?: RequestInit) => fetch(url + path, init);
  return {
    url,
    runtime,
    logs,
    request,
    async json(path, init = {}) {
      const { json, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (json !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
      const res = await request(path, { ...rest, headers, body: json !== undefined ? JSON.stringify(json) : rest.body });
      const text = await res.text();
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      return { status: res.status, headers: res.headers, body };
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await runtime.close();
    },
  };
}
