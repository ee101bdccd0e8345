import type { AppDeps } from '../../../app-deps.js';
import { appError, type ErrorDefinition } from '../../../errors/app-error.js';
import { hitRateLimit, type RateLimitResult } from '../../../stores/rate-limit.js';
import { selfServiceErrors } from './self-service-errors.js';

/** Throws the throttle error (429 + Retry-After) when any of the limits is exceeded. */
export function throwIfThrottled(
  results: RateLimitResult[],
  error: ErrorDefinition = selfServiceErrors.REQUESTED_TOO_OFTEN,
): void {
  const blocked = results.filter((r) => !r.allowed);
  if (blocked.length === 0) return;
  const seconds = Math.max(...blocked.map((r) => r.retryAfterSeconds));
  throw appError(error, { params: { seconds }, headers: { 'Retry-After': String(seconds) } });
}

/**
 * The limits on sending a code, shared by sign-in, second-factor and profile (contact) codes:
 * one a minute per destination and client address (per purpose); texts, which cost money, also
 * 10 a day per number and 50 a day per client address, counted across all purposes. Profile
 * e-mails have the same daily caps, counted apart. The daily caps count only the requests the
 * one-a-minute rule let through. Throws 429 with Retry-After.
 */
export async function checkSendLimits(
  store: AppDeps['store'],
  purpose: 'login-code' | 'two-factor' | 'profile',
  channel: 'email' | 'phone',
  target: string,
  ip: string,
): Promise<void> {
  throwIfThrottled([await hitRateLimit(store, `${purpose}:${channel}:${target}:${ip}`, 1, 60_000)]);
  if (channel !== 'phone') {
    if (purpose === 'profile') {
      throwIfThrottled(
        await Promise.all([
          hitRateLimit(store, `profile-code:email-day:${target.trim().toLowerCase()}`, 10, 86_400_000),
          hitRateLimit(store, `profile-code:email-day-ip:${ip}`, 50, 86_400_000),
        ]),
      );
    }
    return;
  }
  // The number without separators, so that one number is one key however it was written.
  const number = target.replace(/[\s\-().]/g, '');
  throwIfThrottled(
    await Promise.all([
      hitRateLimit(store, `login-code:phone-day:${number}`, 10, 86_400_000),
      hitRateLimit(store, `login-code:phone-day-ip:${ip}`, 50, 86_400_000),
    ]),
  );
}

/**
 * A silent window for the endpoints that always answer the same (PasswordResetRequest): the
 * first request for a key in `windowMs` claims it atomically (of parallel requests one wins) and
 * may send; the others send nothing and are not told. Resolves to a release for the claimant,
 * which calls it when its send failed (a failed send leaves nothing usable, so the next request
 * may send again); undefined while the window is held.
 */
export async function claimSilentWindow(
  store: AppDeps['store'],
  key: string,
  windowMs: number,
): Promise<(() => Promise<void>) | undefined> {
  const name = `send-window:${key}`;
  if (!(await store.putIfAbsent(name, '1', windowMs))) return undefined;
  return async () => {
    await store.delete(name);
  };
}
