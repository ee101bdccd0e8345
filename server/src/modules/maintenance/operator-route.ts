import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors/app-error.js';
import { commonErrors } from '../../errors/common.js';
import { validationFailed } from '../../errors/validation.js';
import { readJsonBody } from '../../http/body.js';
import type { HonoEnv } from '../../http/request-context.js';
import { respondError, respondSuccess } from '../../http/respond.js';
import { hitRateLimit } from '../../stores/rate-limit.js';
import type { MaintenanceControl } from './control.js';
import { operatorRequest } from './control.js';
import { maintenanceErrors } from './errors.js';

export const OPERATOR_PATH = '/ops/maintenance';
/** Calls per minute and address, counted before the key is compared (so guessing gains nothing). */
const CALLS_PER_MINUTE = 30;
const MAX_BODY_BYTES = 4096;

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The operator's switch over HTTP, outside the API (no user token: during maintenance nobody can
 * log in): GET reads it, PUT `{ on, retryAfterSeconds?, reason? }` changes it on every node.
 * Authorized by `Authorization: Bearer <operator key>`; answers during maintenance. Without a
 * key (production that set none) the path does not exist.
 */
export function mountOperatorSwitch(app: Hono<HonoEnv>, deps: AppDeps, control: MaintenanceControl, key: string | undefined): void {
  if (!key) return;
  const expected = digest(key);

  async function authorize(c: Context<HonoEnv>): Promise<void> {
    const { ip } = c.get('info');
    // The switch must work in the outage it is for: without the store, no limit (the key is
    // long and compared in constant time).
    const limit = await hitRateLimit(deps.store, `ops:${ip}`, CALLS_PER_MINUTE, 60_000).catch((error: unknown) => {
      deps.logger.warn('operator call limit unavailable; the call is let through', { error });
      return { allowed: true, retryAfterSeconds: 0 };
    });
    if (!limit.allowed) {
      throw appError(maintenanceErrors.TOO_MANY_CALLS, { params: { seconds: limit.retryAfterSeconds }, headers: { 'Retry-After': String(limit.retryAfterSeconds) } });
    }
    const presented = /^Bearer +(\S+) *$/i.exec(c.req.header('authorization') ?? '')?.[1];
    // Compared as digests: equal lengths, and no timing that depends on where they differ.
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      deps.logger.warn('refused operator call: wrong or missing key', { ip, method: c.req.method });
      throw appError(maintenanceErrors.OPERATOR_KEY_INVALID, { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
  }

  async function readRequest(c: Context<HonoEnv>) {
    const { input } = await readJsonBody(c, MAX_BODY_BYTES);
    const parsed = operatorRequest.safeParse(input);
    if (!parsed.success) throw validationFailed(parsed.error.issues as unknown as Parameters<typeof validationFailed>[0], c.get('info').culture);
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
    respondError(c, deps, appError(commonErrors.METHOD_NOT_ALLOWED, { params: { method: c.req.method, allow: 'GET, PUT' }, headers: { Allow: 'GET, PUT' } })),
  );
}
