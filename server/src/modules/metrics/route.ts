import type { Hono } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import type { HonoEnv } from '../../http/request-context.js';
import { operatorKeyCheck } from '../maintenance/operator-key.js';
import type { Metrics } from './collector.js';

export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics` on the API's port, for the operator key only (`Authorization: Bearer
 * <App:OperatorKey>`): the figures tell an outsider how busy the service is and which logins
 * fail. Without a key, or with Metrics:Port set (a listener of its own, for a scraper on a
 * private network), it is not mounted here.
 */
export function mountMetrics(app: Hono<HonoEnv>, deps: AppDeps, metrics: Metrics): void {
  const key = deps.config.App.OperatorKey;
  if (!deps.config.Metrics.Enabled || deps.config.Metrics.Port > 0 || !key) return;
  const authorize = operatorKeyCheck(deps, key, 'metrics');
  app.get(METRICS_PATH, async (c) => {
    await authorize(c);
    const { contentType, body } = await metrics.render();
    return c.body(body, 200, { 'content-type': contentType });
  });
}
