import { attempt, signalOf, type FetchInput } from './request-parts.js';
import { readOutcome } from './response-outcome.js';

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal | null) => Promise<void>;

/** The timer-based wait used unless a test or a platform supplies another. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** How `withThrottleRetry` waits and how often it tries again. */
export interface ThrottleRetryOptions {
  /** Retries after the first 429; 0 turns retrying off. */
  maxRetries: number;
  /** The longest single wait, whatever Retry-After asks for. */
  maxBackoffMs: number;
  sleep?: Sleep;
  /** For the HTTP-date form of Retry-After. */
  now?: () => number;
}

/** Base of the exponential backoff used when the server gives no Retry-After. */
const BACKOFF_BASE_MS = 1_000;

/** Retry-After in milliseconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** 1 s, 2 s, 4 s… with jitter (each wait is 50–100 % of its step), so clients do not retry in step. */
function backoffMs(retry: number): number {
  return BACKOFF_BASE_MS * 2 ** retry * (0.5 + Math.random() / 2);
}

/**
 * A fetch that answers 429 by waiting and sending again, a bounded number of times, then hands
 * back the last 429 for the caller to report. Only a response in which every call was throttled
 * is retried: in a tRPC batch where another call ran, sending again would run it twice.
 */
export function withThrottleRetry(base: typeof fetch, options: ThrottleRetryOptions): typeof fetch {
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  return async (input: FetchInput, init?: RequestInit) => {
    for (let retry = 0; ; retry++) {
      const response = await base(...attempt(input, init));
      if (response.status !== 429 && response.status !== 207) return response;
      if (retry >= options.maxRetries || !(await readOutcome(response)).all(429)) return response;
      const wait = Math.min(options.maxBackoffMs, retryAfterMs(response.headers, now()) ?? backoffMs(retry));
      // The body is not needed; releasing it frees the connection during the wait.
      await response.body?.cancel().catch(() => undefined);
      await sleep(wait, signalOf(input, init));
    }
  };
}
