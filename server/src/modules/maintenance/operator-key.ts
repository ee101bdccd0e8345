import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors/app-error.js';
import type { HonoEnv } from '../../http/request-context.js';
import { hitRateLimit } from '../../stores/rate-limit.js';
import { maintenanceErrors } from './errors.js';

/** Calls per minute and address, counted before the key is compared (so guessing gains nothing). */
const CALLS_PER_MINUTE = 30;

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The check of the operator's routes (`Authorization: Bearer <App:OperatorKey>`): a limit per
 * address first, then the key compared as digests (equal lengths, no timing that depends on where
 * they differ). Without the store the call is let through the limit: the maintenance switch must
 * work in the outage it is for, and the key is long.
 */
export function operatorKeyCheck(deps: Pick<AppDeps, 'store' | 'logger'>, key: string, scope: string) {
  const expected = digest(key);
  return async (c: Context<HonoEnv>): Promise<void> => {
    const { ip } = c.get('info');
    const limit = await hitRateLimit(deps.store, `${scope}:${ip}`, CALLS_PER_MINUTE, 60_000).catch((error: unknown) => {
      deps.logger.warn('operator call limit unavailable; the call is let through', { error });
      return { allowed: true, retryAfterSeconds: 0 };
    });
    if (!limit.allowed) {
      throw appError(maintenanceErrors.TOO_MANY_CALLS, {
        params: { seconds: limit.retryAfterSeconds },
        headers: { 'Retry-After': String(limit.retryAfterSeconds) },
      });
    }
    const presented = /^Bearer +(\S+) *$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      deps.logger.warn('refused operator call: wrong or missing key', { ip, method: c.req.method, path: c.req.path });
      throw appError(maintenanceErrors.OPERATOR_KEY_INVALID, { headers: { 'WWW-Authenticate': 'Bearer' } });
    }
  };
}
