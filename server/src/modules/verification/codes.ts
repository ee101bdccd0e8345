import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { EphemeralStore } from '../../stores/store.js';

/**
 * One-time numeric codes (e-mail, phone, second factor, captcha). Only a keyed hash of a code is
 * stored, under its purpose and target; reading it deletes it, whether the guess is right or
 * wrong (SPEC "Verification codes and captcha"), so each code allows exactly one guess.
 */
export type CodePurpose =
  | 'captcha'
  | 'login-email'
  | 'login-phone'
  | 'two-factor-email'
  | 'two-factor-phone'
  | 'verify-email'
  | 'verify-phone'
  | 'change-email'
  | 'change-phone'
  | 'setup-two-factor-email'
  | 'setup-two-factor-phone';

export interface CodeService {
  /** A new code replaces any earlier one for the same purpose and target. */
  issue(purpose: CodePurpose, target: string, options?: { digits?: number; ttlMs?: number }): Promise<string>;
  /** True only for the right code, once; the code is gone afterwards either way. */
  consume(purpose: CodePurpose, target: string, code: string): Promise<boolean>;
  /** Removes a code (a message that could not be sent must not leave a usable code). */
  discard(purpose: CodePurpose, target: string): Promise<void>;
}

export const CODE_TTL_MS = 10 * 60_000;

export function createCodeService(store: EphemeralStore, secret: string): CodeService {
  const key = (purpose: string, target: string) => `otc:${purpose}:${target.trim().toLowerCase()}`;
  const digest = (purpose: string, target: string, code: string) =>
    createHmac('sha256', secret).update(`${purpose}\u0000${target.trim().toLowerCase()}\u0000${code}`).digest();

  return {
    async issue(purpose, target, options = {}) {
      const digits = options.digits ?? 6;
      const code = String(randomInt(0, 10 ** digits)).padStart(digits, '0');
      await store.set(
        key(purpose, target),
        digest(purpose, target, code).toString('base64'),
        options.ttlMs ?? CODE_TTL_MS,
      );
      return code;
    },
    async consume(purpose, target, code) {
      const stored = await store.take(key(purpose, target));
      if (!stored || typeof code !== 'string' || !/^\d{1,12}$/.test(code)) return false;
      const expected = Buffer.from(stored, 'base64');
      const given = digest(purpose, target, code);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
    async discard(purpose, target) {
      await store.delete(key(purpose, target));
    },
  };
}
