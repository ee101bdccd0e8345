import { serve, type HttpBindings, type Http2Bindings, type ServerType } from '@hono/node-server';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AppConfig, Culture } from '../config/schema.js';
import type { Clock } from '../infra/clock.js';
import { coalesceResponses } from './coalesce.js';
import { statusEnvelopeJson } from './envelope.js';
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

/** The most a request line and its header lines may take together, however they are split (431 beyond). */
export const MAX_REQUEST_HEAD_BYTES = 16 * 1024;
/**
 * The shortest header line is 4 bytes (`a:` CRLF), so a request with this many headers is over
 * the limit whatever they hold. Node keeps at most this many (it drops the rest unseen), which
 * bounds what it holds for a request before it is refused.
 */
const MAX_HEADER_LINES = Math.floor(MAX_REQUEST_HEAD_BYTES / 4) + 1;

/**
 * The size of a request's line and header lines as clients write them (`METHOD url HTTP/x.y`,
 * `Name: value`, each ending in CRLF, and the empty line). Node's own limit (`maxHeaderSize`)
 * counts only the URL, the names and the values, so the separators of many small headers (a
 * third of the bytes of 2,500 of them) pass uncounted, and past 2,000 headers Node drops the
 * rest silently.
 * Whitespace around a value, which Node discards before anyone sees it, is not counted.
 */
export function requestHeadBytes(
  request: Pick<IncomingMessage, 'method' | 'url' | 'httpVersion' | 'rawHeaders'>,
): number {
  const raw = request.rawHeaders;
  // Two spaces, "HTTP/", CRLF; then per header ": " and CRLF; then the empty line.
  let bytes =
    (request.method?.length ?? 0) + (request.url?.length ?? 0) + request.httpVersion.length + 9 + raw.length * 2 + 2;
  for (let i = 0; i < raw.length; i++) bytes += raw[i]!.length;
  return bytes;
}

function isHeadTooLarge(request: IncomingMessage): boolean {
  return request.rawHeaders.length >= MAX_HEADER_LINES * 2 || requestHeadBytes(request) > MAX_REQUEST_HEAD_BYTES;
}

/** The envelope of a refusal written before the app (no header is honoured: the default culture, a new trace id). */
function refusal(status: number, culture: Culture, clock: Clock): { body: string; traceId: string } {
  const traceId = resolveTraceId(undefined);
  return { body: statusEnvelopeJson(status, culture, traceId, clock.now()), traceId };
}

function writeRefusal(socket: Duplex, status: number, culture: Culture, clock: Clock): void {
  const { body, traceId } = refusal(status, culture, clock);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `x-trace-id: ${traceId}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * Answers a request Node refuses before the app sees it (request line and headers over 16 KiB
 * by its count, malformed HTTP, a request that took too long to arrive) with an envelope, like
 * every other answer; Node's own handler writes a bare status line. No header was read, so the
 * message is in the default culture and the trace id is new. Like Node, it answers only when no
 * response has begun on the connection, and then closes it.
 */
export function answerClientError(culture: Culture, clock: Clock) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    writeRefusal(socket, STATUS_OF_PARSER_ERROR[error.code ?? ''] ?? 400, culture, clock);
  };
}

/**
 * Listens the way the service does in production (main.ts), for tests and benchmarks too:
 * responses coalesced per event-loop turn (coalesce.ts), envelope answers to what Node's parser
 * refuses, and 431 for a request line and headers over MAX_REQUEST_HEAD_BYTES however they are
 * split (answered like Node's own 431, and the connection closed), hub upgrades included.
 */
export function serveApp(
  options: {
    fetch: FetchHandler;
    config: Pick<AppConfig, 'App' | 'Localization'>;
    clock: Clock;
    port: number;
    hostname: string;
    upgrade?: UpgradeHandler;
  },
  onListen?: (address: AddressInfo) => void,
): ServerType {
  const { config, clock } = options;
  const culture = config.Localization.DefaultCulture;
  const app = coalesceResponses(options.fetch, config.App.CoalesceResponses);
  const fetch: FetchHandler = (request, env) => {
    const incoming = (env as HttpBindings).incoming;
    if (!isHeadTooLarge(incoming)) return app(request, env);
    const { body, traceId } = refusal(431, culture, clock);
    return new Response(body, {
      status: 431,
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-trace-id': traceId, connection: 'close' },
    });
  };
  // Node's own count is set to the same figure: it counts a part of the same bytes, so whatever
  // it refuses is over the limit too (and a command-line --max-http-header-size changes nothing).
  const server = serve(
    { fetch, port: options.port, hostname: options.hostname, serverOptions: { maxHeaderSize: MAX_REQUEST_HEAD_BYTES } },
    onListen,
  );
  (server as Server).maxHeadersCount = MAX_HEADER_LINES;
  server.on('clientError', answerClientError(culture, clock));
  // WebSocket upgrades (the hubs); without a handler Node closes such a connection.
  const upgrade = options.upgrade;
  if (upgrade) {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (isHeadTooLarge(request)) return writeRefusal(socket, 431, culture, clock);
      upgrade(request, socket, head);
    });
  }
  return server;
}
