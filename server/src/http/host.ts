import { Hono, type Context } from 'hono';
import type { HostDeps } from '../app-deps.js';
import { appError } from '../errors/app-error.js';
import { commonErrors } from '../errors/common.js';
import { isMaintenanceExempt } from './maintenance.js';
import { resolveRequestInfo, type HonoEnv } from './request-context.js';
import { enveloped, respondError, respondSuccess } from './respond.js';

/**
 * The host shell: the front door, health and readiness, and envelope answers for unknown paths
 * and unexpected errors. It needs no database, so the process can serve it (health passes,
 * everything else 503) from the first moment, while the database opens and upgrades; the full
 * app adds the API, /trpc and the docs on top of the same shell.
 */
/** What the front door reports of every answered request (metrics). */
export type RequestObserver = (method: string, path: string, status: number, seconds: number) => void;

export function createHost(
  deps: HostDeps,
  api?: (c: Context<HonoEnv>) => Promise<Response>,
  observe?: RequestObserver,
): Hono<HonoEnv> {
  const app = new Hono<HonoEnv>();

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
    } else if (api && path.length >= 5 && path.slice(0, 5).toLowerCase() === '/api/') {
      c.res = await api(c);
    } else {
      await next();
      if (!enveloped.has(c.res)) c.res.headers.set('X-Trace-Id', info.traceId);
    }
    const elapsedMs = performance.now() - info.startedAt;
    observe?.(c.req.method, path, c.res.status, elapsedMs / 1000);
    if (deps.logger.isEnabled('info')) {
      deps.logger.info('request', {
        traceId: info.traceId,
        method: c.req.method,
        path,
        status: c.res.status,
        durationMs: Math.round(elapsedMs * 100) / 100,
        ip: info.ip,
        ...(info.userId ? { userId: info.userId, tenantId: info.tenantId } : {}),
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
          // A probe polls this every few seconds while the service starts: one line each, without a stack.
          deps.logger.warn('readiness check failed', {
            check: name,
            reason: error instanceof Error ? error.message : String(error),
          });
          return { name, status: 'Unhealthy' };
        }
      }),
    );
    const failed = results.filter((r) => r.status !== 'Healthy');
    if (failed.length) {
      return respondError(
        c,
        deps,
        appError(commonErrors.NOT_READY, {
          params: { reason: failed.map((f) => f.name).join(', ') },
          detail: { status: 'Unhealthy', checks: results },
        }),
      );
    }
    if (deps.maintenance.on) {
      return respondError(
        c,
        deps,
        appError(commonErrors.NOT_READY, {
          params: { reason: 'maintenance' },
          detail: { status: 'Maintenance', checks: results },
        }),
      );
    }
    return respondSuccess(c, deps, { status: 'Healthy', checks: results });
  });

  app.notFound((c) => respondError(c, deps, appError(commonErrors.ROUTE_NOT_FOUND)));
  app.onError((error, c) => {
    if (!c.get('info')) c.set('info', resolveRequestInfo(c, deps));
    return respondError(c, deps, error);
  });
  return app;
}
