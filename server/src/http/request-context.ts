import type { Context } from 'hono';
import type { AppDeps, HostDeps } from '../app-deps.js';
import type { Services } from '../services.js';
import type { Culture } from '../config/schema.js';
import type { RequestContext } from '../rpc/context.js';
import { resolveTimeZone } from './datetime.js';
import { resolveCulture, resolveTraceId } from './request-info.js';

/** Per-request facts resolved once by the first middleware and shared by every handler. */
export interface RequestInfo {
  traceId: string;
  culture: Culture;
  timeZone: string;
  ip: string;
  userAgent: string;
  /** The Authorization header, read with the rest (the gate needs it on most requests). */
  authorization: string | undefined;
  startedAt: number;
  /** Who the request acted for, once authentication has run: the access log line names them. */
  userId?: string;
  tenantId?: string;
}

interface NodeIncoming {
  headers?: Record<string, string | string[] | undefined>;
  socket?: object & { remoteAddress?: string };
}

export type HonoEnv = { Variables: { info: RequestInfo }; Bindings: { incoming?: NodeIncoming } };

/** Peer address per socket: `remoteAddress` asks the kernel each time, and keep-alive reuses sockets. */
const peers = new WeakMap<object, string>();

function peerAddress(incoming: NodeIncoming | undefined): string {
  const socket = incoming?.socket;
  if (!socket) return '127.0.0.1';
  let address = peers.get(socket);
  if (address === undefined) {
    const remote = socket.remoteAddress ?? '127.0.0.1';
    // IPv4 clients of a dual-stack socket show up as ::ffff:a.b.c.d.
    address = remote.startsWith('::ffff:') ? remote.slice(7) : remote;
    peers.set(socket, address);
  }
  return address;
}

type RawHeaders = Record<string, string | string[] | undefined>;

/**
 * Reads a request header from Node's already-parsed header object when serving over node:http
 * (the Fetch Headers view costs microseconds a lookup), else from the Fetch Headers (tests).
 */
function readHeader(c: Context<HonoEnv>, raw: RawHeaders | undefined, name: string): string | undefined {
  if (!raw) return c.req.header(name);
  const v = raw[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

export function resolveRequestInfo(c: Context<HonoEnv>, deps: HostDeps): RequestInfo {
  const { config } = deps;
  const raw = c.env?.incoming?.headers;
  const header = (name: string) => readHeader(c, raw, name);
  let ip = peerAddress(c.env?.incoming);
  if (config.App.TrustForwardedHeaders) {
    const first = header('x-forwarded-for')?.split(',')[0]?.trim();
    if (first) ip = first.slice(0, 64);
  }
  return {
    traceId: resolveTraceId(header('x-trace-id')),
    culture: resolveCulture(
      header('x-language'),
      header('accept-language'),
      config.Localization.SupportedCultures,
      config.Localization.DefaultCulture,
    ),
    timeZone: resolveTimeZone(header('x-timezone'), config.App.DefaultTimeZone),
    ip,
    userAgent: (header('user-agent') ?? '').slice(0, 512),
    authorization: header('authorization'),
    startedAt: performance.now(),
  };
}

export function createRequestContext(
  c: Context<HonoEnv>,
  deps: AppDeps,
  services: Services,
  transport: RequestContext['transport'],
): RequestContext {
  const info = c.get('info');
  return {
    deps,
    services,
    traceId: info.traceId,
    culture: info.culture,
    timeZone: info.timeZone,
    ip: info.ip,
    userAgent: info.userAgent,
    authorization: info.authorization,
    headers: c.req.raw.headers,
    transport,
    responseHeaders: {},
    accessLog: info,
  };
}
