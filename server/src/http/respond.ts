import type { Context } from 'hono';
import type { HostDeps } from '../app-deps.js';
import { errorToEnvelope } from '../errors/to-envelope.js';
import { successEnvelopeJson, trpcErrorShape } from './envelope.js';
import type { HonoEnv } from './request-context.js';
import { toWireJson } from './serialize.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Responses are built with a plain header record including X-Trace-Id: touching `.headers` of a
 * finished response would turn it into a Fetch Headers object, which costs more than the rest of
 * a small request. Marked so the host does not set the trace id a second time.
 */
export const enveloped = new WeakSet<Response>();

function respond(
  body: string,
  status: number,
  traceId: string,
  extra?: Record<string, string>,
  more?: Record<string, string>,
): Response {
  const headers: Record<string, string> = { 'content-type': JSON_TYPE, 'x-trace-id': traceId, ...extra, ...more };
  const response = new Response(body, { status, headers });
  enveloped.add(response);
  return response;
}

/** Writes a success envelope around `data`, serialized by the shared conventions. */
export function respondSuccess(
  c: Context<HonoEnv>,
  deps: HostDeps,
  data: unknown,
  code = 200,
  headers?: Record<string, string>,
): Response {
  const info = c.get('info');
  const body = successEnvelopeJson(
    code,
    info.culture,
    toWireJson(data, { timeZone: info.timeZone }),
    info.traceId,
    deps.clock.now(),
  );
  return respond(body, code, info.traceId, undefined, headers);
}

function isTrpcPath(path: string): boolean {
  return path === '/trpc' || path.startsWith('/trpc/');
}

/**
 * Writes the envelope of any thrown value; unexpected ones are logged with their stack. For a
 * /trpc call refused by the host (maintenance, body limit) the envelope is wrapped in tRPC's
 * error shape, so the typed client reports it like any other error.
 */
export function respondError(
  c: Context<HonoEnv>,
  deps: HostDeps,
  error: unknown,
  extraHeaders?: Record<string, string>,
): Response {
  const info = c.get('info');
  const result = errorToEnvelope(error, {
    culture: info.culture,
    traceId: info.traceId,
    timeZone: info.timeZone,
    deps,
  });
  if (result.unexpected) {
    deps.logger.error('request failed', { traceId: info.traceId, method: c.req.method, path: c.req.path, error });
  }
  const body = isTrpcPath(c.req.path) ? { error: trpcErrorShape(result.status, result.envelope) } : result.envelope;
  return respond(JSON.stringify(body), result.status, info.traceId, result.headers, extraHeaders);
}
