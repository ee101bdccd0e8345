import type { AnyRouter } from '@trpc/server';
import type { Hono } from 'hono';
import type { AppDeps } from './app-deps.js';
import type { Services } from './services.js';
import { appRouter, serviceRoutes } from './app-router.js';
import { mountDocs } from './http/docs.js';
import { createHost } from './http/host.js';
import type { HonoEnv } from './http/request-context.js';
import type { ServiceRouteOptions } from './routes/derive.js';
import { buildOpenApiDocument } from './routes/openapi.js';
import { createRestFacade } from './routes/rest.js';
import { createTrpcEndpoint } from './routes/trpc-endpoint.js';
import { buildRouteTable, type RouteEntry } from './routes/table.js';
import { GUARD } from './rpc/trpc.js';
import { passesThrough } from './rpc/trpc-internals.js';
import { createOpenApiGate } from './modules/openapi/gate.js';
import { createOAuthWeb } from './modules/oauth/web.js';
import { mountOperatorSwitch } from './modules/maintenance/operator-route.js';
import { createMetrics, type Metrics } from './modules/metrics/collector.js';
import { mountMetrics } from './modules/metrics/route.js';
import { NOTIFICATION_HUB } from './modules/hubs/notification-hub.js';

/**
 * Every procedure that is not declared anonymous must pass through the authentication guard:
 * a procedure built on the wrong base would otherwise be open to anyone. Checked at start-up.
 */
function assertGuarded(router: AnyRouter, table: RouteEntry[]): void {
  for (const entry of table) {
    if (entry.meta.auth === 'anonymous') continue;
    if (!passesThrough(router, entry.key, GUARD)) {
      throw new Error(
        `${entry.key} is not anonymous but does not pass through the authentication guard (use authedProcedure)`,
      );
    }
  }
}

export const API_TITLE = 'Portcullis identity and access API';

/** The Hono host: REST facade, /trpc, docs, health; every response in the envelope. */
export interface ApiDefinition {
  router: AnyRouter;
  services: Record<string, ServiceRouteOptions>;
}

export function createApp(
  deps: AppDeps,
  services: Services,
  api: ApiDefinition = { router: appRouter, services: serviceRoutes },
): { app: Hono<HonoEnv>; table: RouteEntry[]; metrics: Metrics } {
  const table = buildRouteTable(api.router, api.services);
  const metrics = createMetrics({ ...deps, notificationHub: services.notificationHub });
  metrics.useRoutes(table);
  assertGuarded(api.router, table);
  const rest = createRestFacade(api.router, table, deps, services);
  // The signature check (OpenApiSecurity) sits in front of the facade; when it is off, the
  // facade is served as it is.
  const gate = deps.config.OpenApiSecurity.IsEnabled ? createOpenApiGate(deps, services) : undefined;
  const facade = gate ? gate.wrap(rest.handle) : rest.handle;
  // The OAuth browser redirects (plain routes, not procedures) answer first: a browser cannot sign them.
  const oauth = createOAuthWeb(deps, services);
  const app = createHost(
    deps,
    (c) => oauth.handle(c) ?? facade(c),
    deps.config.Metrics.Enabled ? (...args) => metrics.observe(...args) : undefined,
  );
  // Protected prefixes outside /api (the front door serves /api itself, before any middleware).
  if (gate?.outsideApi) app.use('*', gate.middleware);
  let document: unknown;
  const openApi = () =>
    (document ??= buildOpenApiDocument(table, { title: API_TITLE, version: deps.config.App.Version }));

  mountDocs(app, openApi);
  mountOperatorSwitch(app, deps, services.maintenanceControl, deps.config.App.OperatorKey);
  mountMetrics(app, deps, metrics);
  // The hub's negotiate answer is read by the SignalR client: plain JSON (refusals in the envelope).
  app.post(`${NOTIFICATION_HUB}/negotiate`, async (c) => {
    const body = await services.notificationHub.negotiate(c.req.raw);
    return new Response(JSON.stringify(body), {
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-trace-id': c.get('info').traceId },
    });
  });

  app.all('/trpc/*', createTrpcEndpoint(api.router, table, deps, services, gate));

  return { app, table, metrics };
}
