import type { Context, Hono } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors/app-error.js';
import { commonErrors } from '../../errors/common.js';
import { validationFailed } from '../../errors/validation.js';
import { readJsonBody } from '../../http/body.js';
import type { HonoEnv } from '../../http/request-context.js';
import { respondError, respondSuccess } from '../../http/respond.js';
import type { MaintenanceControl } from './control.js';
import { operatorRequest } from './control.js';
import { operatorKeyCheck } from './operator-key.js';

export const OPERATOR_PATH = '/ops/maintenance';
const MAX_BODY_BYTES = 4096;

/**
 * The operator's switch over HTTP, outside the API (no user token: during maintenance nobody can
 * log in): GET reads it, PUT `{ on, retryAfterSeconds?, reason? }` changes it on every node.
 * Authorized by `Authorization: Bearer <operator key>`; answers during maintenance. Without a
 * key (production that set none) the path does not exist.
 */
export function mountOperatorSwitch(
  app: Hono<HonoEnv>,
  deps: AppDeps,
  control: MaintenanceControl,
  key: string | undefined,
): void {
  if (!key) return;
  const authorize = operatorKeyCheck(deps, key, 'ops');

  async function readRequest(c: Context<HonoEnv>) {
    const { input } = await readJsonBody(c, MAX_BODY_BYTES);
    const parsed = operatorRequest.safeParse(input);
    if (!parsed.success)
      throw validationFailed(
        parsed.error.issues as unknown as Parameters<typeof validationFailed>[0],
        c.get('info').culture,
      );
    return parsed.data;
  }

  app.on(['GET', 'HEAD'], OPERATOR_PATH, async (c) => {
    await authorize(c);
    return respondSuccess(c, deps, control.status());
  });
  app.put(OPERATOR_PATH, async (c) => {
    await authorize(c);
    const request = await readRequest(c);
    const status = await control.set(request, `operator@${c.get('info').ip}`);
    deps.logger.warn('operator switched maintenance', { on: request.on, ip: c.get('info').ip, reason: request.reason });
    return respondSuccess(c, deps, status);
  });
  app.all(OPERATOR_PATH, (c) =>
    respondError(
      c,
      deps,
      appError(commonErrors.METHOD_NOT_ALLOWED, {
        params: { method: c.req.method, allow: 'GET, PUT' },
        headers: { Allow: 'GET, PUT' },
      }),
    ),
  );
}
