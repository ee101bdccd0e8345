import { randomInt } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Equal answer times for the endpoints that answer the same for any address (EmailLoginCode,
 * PhoneLoginCode, PasswordResetRequest, ResendEmailVerification). A real recipient waits for
 * the mail or SMS transport (SMTP takes 50 to 500 ms) while an unknown or ineligible address
 * would answer at once, so without this the answer time tells whether an account exists.
 *
 * The work done only for a real recipient (storing the code or link, then the send) is timed,
 * and an address that gets nothing waits a duration drawn at random from the recent successful
 * ones of the same kind and channel. A random recent sample reproduces the distribution of real
 * answers, spread included; a median with jitter would be told apart by its shape over many
 * requests. Sends are not made fire-and-forget because a failed send must still answer 502 and
 * leave no usable code; such failures throw past the timing and do not feed the window.
 *
 * Durations are real monotonic time, not the injected business clock: an attacker measures
 * real elapsed time, and a test's frozen clock would record every send as 0 ms (and a sleep on
 * it would never end). The timer is a factory argument so unit tests can replace it.
 */

export type SendChannel = 'email' | 'sms';

/** What is sent; timings are kept per kind and channel (an SMS gateway is not an SMTP server). */
export interface SendKind {
  kind: string;
  channel: SendChannel;
}

export interface SendTimer {
  /** Milliseconds on a monotonic scale. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realTimer: SendTimer = { now: () => performance.now(), sleep: (ms) => delay(ms) };

/** Recent successful sends kept per kind: enough to follow a transport that slows down. */
export const WINDOW_SIZE = 32;
/** Before any real send of a kind (a fresh node): a typical SMTP or SMS-API round trip. */
export const COLD_START_MS = { min: 100, max: 250 } as const;

export interface SendTimingOptions {
  /** Longest wait per channel: a real send that slow would have timed out and answered 502. */
  capMs: Record<SendChannel, number>;
  timer?: SendTimer;
  /** A random integer in [0, n). */
  pick?: (n: number) => number;
  windowSize?: number;
}

export interface SendTiming {
  /** Runs the work of a real recipient and, when it succeeds, records how long it took. */
  timed<T>(kind: SendKind, work: () => Promise<T>): Promise<T>;
  /** Waits about as long as a real recipient's work of that kind takes (nothing is sent). */
  imitate(kind: SendKind): Promise<void>;
  /** The wait `imitate` would choose now. */
  nextWaitMs(kind: SendKind): number;
}

export function createSendTiming(options: SendTimingOptions): SendTiming {
  const timer = options.timer ?? realTimer;
  const pick = options.pick ?? ((n: number) => randomInt(n));
  const size = options.windowSize ?? WINDOW_SIZE;
  const windows = new Map<string, number[]>();
  const keyOf = (k: SendKind) => `${k.channel}:${k.kind}`;

  function nextWaitMs(kind: SendKind): number {
    const samples = windows.get(keyOf(kind));
    const wait = samples?.length
      ? samples[pick(samples.length)]!
      : COLD_START_MS.min + pick(COLD_START_MS.max - COLD_START_MS.min + 1);
    return Math.min(Math.max(0, wait), options.capMs[kind.channel]);
  }

  return {
    async timed(kind, work) {
      const started = timer.now();
      const result = await work();
      const key = keyOf(kind);
      const samples = windows.get(key) ?? [];
      samples.push(timer.now() - started);
      if (samples.length > size) samples.shift();
      windows.set(key, samples);
      return result;
    },
    imitate: (kind) => timer.sleep(nextWaitMs(kind)),
    nextWaitMs,
  };
}
