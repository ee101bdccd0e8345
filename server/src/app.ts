import type { AnyRouter } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { Hono, type Context } from 'hono';
import type { AppDeps } from './app-deps.js';
import { appRouter, serviceRoutes } from './app-router.js';
import { appError } from './errors/app-error.js';
import { commonErrors } from './errors/common.js';
import { errorToEnvelope } from './errors/to-envelope.js';
import { readBodyLimited } from './http/body.js';
import { buildEnvelope } from './http/envelope.js';
import { codeMessage } from './i18n/code-messages.js';
import { mountDocs } from './http/docs.js';
import { isMaintenanceExempt } from './http/maintenance.js';
import { createRequestContext, resolveRequestInfo, type HonoEnv } from './http/request-context.js';
import { enveloped, respondError, respondSuccess } from './http/respond.js';
import type { ServiceRouteOptions } from './routes/derive.js';
import { buildOpenApiDocument } from './routes/openapi.js';
import { createRestFacade } from './routes/rest.js';
import { buildRouteTable, type RouteEntry } from './routes/table.js';

/**
 * tRPC answers some refusals (wrong content type, unknown procedure) before it builds a context,
 * so its error formatter cannot add the envelope; it is added here from the HTTP status.
 */
async function withTrpcEnvelope(c: Context<HonoEnv>, deps: AppDeps, response: Response): Promise<Response> {
  const text = await response.text();
  let body: { error?: { data?: { envelope?: unknown; httpStatus?: number } } } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const data = body?.error?.data;
  if (data && !data.envelope) {
    const info = c.get('info');
    const status = data.httpStatus ?? response.status;
    data.envelope = buildEnvelope(status, codeMessage(info.culture, status), undefined, info.traceId, deps.clock.now());
  }
  return new Response(body ? JSON.stringify(body) : text, { status: response.status, headers: response.headers });
}

export const API_TITLE = 'Portcullis identity and access API';

/** The Hono host: REST facade, /trpc, docs, health; every response in the envelope. */
export interface ApiDefinition {
  router: AnyRouter;
  services: Record<string, ServiceRouteOptions>;
}

export function createApp(deps: AppDeps, api: ApiDefinition = { router: appRouter, services: serviceRoutes }): { app: Hono<HonoEnv>; table: RouteEntry[] } {
  const app = new Hono<HonoEnv>();
  const table = buildRouteTable(api.router, api.services);
  const rest = createRestFacade(api.router, table, deps);
  let document: unknown;
  const openApi = () => (document ??= buildOpenApiDocument(table, { title: API_TITLE, version: deps.config.App.Version }));

  // The front door, for every request: trace id, culture and zone resolved once; maintenance;
  // the REST facade (case-insensitive /api prefix, so it cannot be a Hono pattern); the trace id
  // on every response; one log line. One middleware rather than several: each level of Hono's
  // compose costs a little on every request.
  app.use('*', async (c, next) => {
    const info = resolveRequestInfo(c, deps);
    c.set('info', info);
    const path = c.req.path;
    if (deps.maintenance.on && !isMaintenanceExempt(path)) {
      const retry = String(deps.maintenance.retryAfterSeconds);
      c.res = respondError(c, deps, appError(commonErrors.MAINTENANCE, { headers: { 'Retry-After': retry } }));
    } else if (path.length >= 5 && path.slice(0, 5).toLowerCase() === '/api/') {
      c.res = await rest.handle(c);
    } else {
      await next();
      if (!enveloped.has(c.res)) c.res.headers.set('X-Trace-Id', info.traceId);
    }
    if (deps.logger.isEnabled('info')) {
      deps.logger.info('request', {
        traceId: info.traceId,
        method: c.req.method,
        path,
        status: c.res.status,
        durationMs: Math.round((performance.now() - info.startedAt) * 100) / 100,
        ip: info.ip,
      });
    }
  });

  app.get('/health', (c) => respondSuccess(c, deps, { status: 'Healthy' }));
  app.get('/health/ready', async (c) => {
    const results = await Promise.all(
      deps.readiness.map(async ({ name, check }) => {
        try {
          await check();
          return { name, status: 'Healthy' };
        } catch (error) {
          deps.logger.warn('readiness check failed', { check: name, error });
          return { name, status: 'Unhealthy' };
        }
      }),
    );
    const failed = results.filter((r) => r.status !== 'Healthy');
    if (failed.length) {
      return respondError(c, deps, appError(commonErrors.NOT_READY, { params: { reason: failed.map((f) => f.name).join(', ') }, detail: { status: 'Unhealthy', checks: results } }));
    }
    if (deps.maintenance.on) {
      return respondError(c, deps, appError(commonErrors.NOT_READY, { params: { reason: 'maintenance' }, detail: { status: 'Maintenance', checks: results } }));
    }
    return respondSuccess(c, deps, { status: 'Healthy', checks: results });
  });

  mountDocs(app, openApi);

  app.all('/trpc/*', async (c) => {
    let request = c.req.raw;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      try {
        const body = await readBodyLimited(request, deps.config.App.MaxRequestBodyBytes);
        const headers = new Headers(request.headers);
        // A mutation without input may come with no body and no content type; tRPC needs one.
        if (!headers.has('content-type') && body.byteLength === 0) headers.set('content-type', 'application/json');
        request = new Request(request.url, { method: request.method, headers, body: body.byteLength ? body : null });
      } catch (error) {
        return respondError(c, deps, error);
      }
    }
    const response = await fetchRequestHandler({
      endpoint: '/trpc',
      req: request,
      router: api.router,
      allowBatching: true,
      maxBatchSize: 20,
      createContext: () => createRequestContext(c, deps, 'trpc'),
      responseMeta({ errors, ctx }) {
        // tRPC would answer 500 for a business error; the envelope's status is the truth.
        const first = errors[0];
        if (!first || !ctx) return {};
        const { status, headers } = errorToEnvelope(first, ctx);
        return { status: errors.length === 1 ? status : 207, headers: new Headers(headers) };
      },
      onError({ error, ctx }) {
        if (!ctx) return;
        const result = errorToEnvelope(error, ctx);
        if (result.unexpected) deps.logger.error('trpc call failed', { traceId: ctx.traceId, error: error.cause ?? error });
      },
    });
    return response.ok ? response : withTrpcEnvelope(c, deps, response);
  });


  app.notFound((c) => respondError(c, deps, appError(commonErrors.ROUTE_NOT_FOUND)));
  app.onError((error, c) => {
    if (!c.get('info')) c.set('info', resolveRequestInfo(c, deps));
    return respondError(c, deps, error);
  });

  return { app, table };
}
