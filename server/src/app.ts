import type { AnyRouter } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { Context, Hono } from 'hono';
import type { AppDeps } from './app-deps.js';
import type { Services } from './services.js';
import { appRouter, serviceRoutes } from './app-router.js';
import { errorToEnvelope } from './errors/to-envelope.js';
import { readBodyLimited } from './http/body.js';
import { buildEnvelope } from './http/envelope.js';
import { codeMessage } from './i18n/code-messages.js';
import { mountDocs } from './http/docs.js';
import { createHost } from './http/host.js';
import { createRequestContext, type HonoEnv } from './http/request-context.js';
import { respondError } from './http/respond.js';
import type { ServiceRouteOptions } from './routes/derive.js';
import { buildOpenApiDocument } from './routes/openapi.js';
import { createRestFacade } from './routes/rest.js';
import { buildRouteTable, type RouteEntry } from './routes/table.js';
import { GUARD } from './rpc/trpc.js';
import { createOpenApiGate, signedRequestOf } from './modules/openapi/gate.js';
import { createOAuthWeb } from './modules/oauth/web.js';
import { mountOperatorSwitch } from './modules/maintenance/operator-route.js';
import { NOTIFICATION_HUB } from './modules/hubs/notification-hub.js';

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

/**
 * Every procedure that is not declared anonymous must pass through the authentication guard:
 * a procedure built on the wrong base would otherwise be open to anyone. Checked at start-up.
 */
function assertGuarded(router: AnyRouter, table: RouteEntry[]): void {
  const procedures = router._def.procedures as Record<string, { _def: { middlewares: Array<Record<symbol, unknown>> } }>;
  for (const entry of table) {
    if (entry.meta.auth === 'anonymous') continue;
    if (!procedures[entry.key]!._def.middlewares.some((m) => m[GUARD])) {
      throw new Error(`${entry.key} is not anonymous but does not pass through the authentication guard (use authedProcedure)`);
    }
  }
}

export const API_TITLE = 'Portcullis identity and access API';

/** The Hono host: REST facade, /trpc, docs, health; every response in the envelope. */
export interface ApiDefinition {
  router: AnyRouter;
  services: Record<string, ServiceRouteOptions>;
}

export function createApp(deps: AppDeps, services: Services, api: ApiDefinition = { router: appRouter, services: serviceRoutes }): { app: Hono<HonoEnv>; table: RouteEntry[] } {
  const table = buildRouteTable(api.router, api.services);
  assertGuarded(api.router, table);
  const rest = createRestFacade(api.router, table, deps, services);
  // The signature check (OpenApiSecurity) sits in front of the facade; when it is off, the
  // facade is served as it is.
  const gate = deps.config.OpenApiSecurity.IsEnabled ? createOpenApiGate(deps, services) : undefined;
  const facade = gate ? gate.wrap(rest.handle) : rest.handle;
  // The OAuth browser redirects (plain routes, not procedures) answer first: a browser cannot sign them.
  const oauth = createOAuthWeb(deps, services);
  const app = createHost(deps, (c) => oauth.handle(c) ?? facade(c));
  // Protected prefixes outside /api (the front door serves /api itself, before any middleware).
  if (gate?.outsideApi) app.use('*', gate.middleware);
  let document: unknown;
  const openApi = () => (document ??= buildOpenApiDocument(table, { title: API_TITLE, version: deps.config.App.Version }));

  mountDocs(app, openApi);
  mountOperatorSwitch(app, deps, services.maintenanceControl, deps.config.App.OperatorKey);
  // The hub's negotiate answer is read by the SignalR client: plain JSON (refusals in the envelope).
  app.post(`${NOTIFICATION_HUB}/negotiate`, async (c) => {
    const body = await services.notificationHub.negotiate(c.req.raw);
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json; charset=utf-8', 'x-trace-id': c.get('info').traceId } });
  });

  // /trpc serves the same procedures as the REST facade, so a procedure whose REST path is
  // protected needs the signature on /trpc as well, whether or not /trpc itself is listed. The
  // keys are read from the path as tRPC's fetch adapter reads them (URL-normalized, one slash
  // trimmed at each end, decoded, split for batches), and only keys known to be unprotected go
  // unsigned: whatever else tRPC might make of a path, the signature is asked for first.
  const protectedKeys = new Set(gate ? table.filter((e) => gate.protects(e.path)).map((e) => e.key) : []);
  const unsignedKeys = new Set(table.filter((e) => !protectedKeys.has(e.key)).map((e) => e.key));
  const trimSlashes = (path: string) => path.replace(/^\//, '').replace(/\/$/, '');
  const needsSignature = (url: string) => {
    if (protectedKeys.size === 0) return false;
    let keys = trimSlashes(trimSlashes(new URL(url).pathname).slice('trpc'.length));
    try {
      keys = decodeURIComponent(keys);
    } catch {
      return true; // not a procedure path anyway; the signature is asked for rather than skipped
    }
    return keys.split(',').some((key) => !unsignedKeys.has(key));
  };

  app.all('/trpc/*', async (c) => {
    let request = c.req.raw;
    let signed = gate && signedRequestOf(request);
    let sealAnswer = false;
    if (gate && !signed && needsSignature(request.url)) {
      try {
        signed = await gate.verify(c);
      } catch (error) {
        return respondError(c, deps, error);
      }
      sealAnswer = !!signed.encryptResponse;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      try {
        // A body the signature check read was held to the signed limit, which governs signed calls.
        const body = signed?.body ?? (await readBodyLimited(request, deps.config.App.MaxRequestBodyBytes));
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
      createContext: () => {
        const ctx = createRequestContext(c, deps, services, 'trpc');
        if (signed) ctx.signed = signed;
        return ctx;
      },
      responseMeta({ errors, ctx, info }) {
        // tRPC would answer 500 for a business error; the envelope's status is the truth. A
        // batch answers one status only when every call failed with it; a batch with mixed
        // outcomes answers 207, and each call's own status is in its envelope.
        if (!errors.length || !ctx) return {};
        const mapped = errors.map((e) => errorToEnvelope(e, ctx));
        const calls = info?.calls.length ?? 1;
        const uniform = errors.length === calls && mapped.every((m) => m.status === mapped[0]!.status);
        return { status: uniform ? mapped[0]!.status : 207, headers: new Headers(uniform ? mapped[0]!.headers : {}) };
      },
      onError({ error, ctx }) {
        if (!ctx) return;
        const result = errorToEnvelope(error, ctx);
        if (result.unexpected) deps.logger.error('trpc call failed', { traceId: ctx.traceId, error: error.cause ?? error });
      },
    });
    const answer = response.ok ? response : await withTrpcEnvelope(c, deps, response);
    return sealAnswer && gate && signed ? gate.seal(signed, answer) : answer;
  });


  return { app, table };
}
