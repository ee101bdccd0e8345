import { randomBytes, timingSafeEqual } from 'node:crypto';
import { decodeBase32IgnorePadding, encodeBase32UpperCaseNoPadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';

/**
 * Time-based one-time passwords (RFC 6238): HMAC-SHA1, 6 digits, 30-second steps, a tolerance of
 * one step either way, Base32 secrets. Unlike the original, a code is accepted only once: each
 * successful check returns its step, the caller stores it, and codes of that step or earlier are
 * refused from then on.
 */

/** Seconds per step. */
export const TOTP_PERIOD_SECONDS = 30;
/** Digits per code. */
export const TOTP_DIGITS = 6;
/** Steps accepted on either side of the current one (clock drift, a code typed at a boundary). */
export const TOTP_TOLERANCE_STEPS = 1;
/**
 * Secret size: 20 bytes (160 bits), the length RFC 4226 recommends and the HMAC-SHA1 block
 * output, giving the 32-character Base32 secret every authenticator app accepts. The original
 * used 32 bytes (52 characters); those secrets still verify, since any length is read.
 */
export const TOTP_SECRET_BYTES = 20;

const CODE = /^\d{6}$/;

/** A new random secret, RFC 4648 Base32 upper case without padding. */
export function generateTotpSecret(): string {
  return encodeBase32UpperCaseNoPadding(randomBytes(TOTP_SECRET_BYTES));
}

/** Decodes a Base32 secret as apps and people write it: any case, spaces and padding ignored. */
function secretBytes(secret: string): Uint8Array {
  const bytes = decodeBase32IgnorePadding(secret.replace(/[\s=]/g, '').toUpperCase());
  if (bytes.length === 0) throw new TypeError('The TOTP secret is empty');
  return bytes;
}

/** Percent-encodes like .NET's Uri.EscapeDataString (RFC 3986 unreserved characters kept). */
function escapeData(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The provisioning URI an authenticator app scans:
 * `otpauth://totp/<issuer>:<account>?secret=<SECRET>&period=30&digits=6&issuer=<issuer>`.
 * The first three parameters are in the spec's order; `issuer` is appended because the Key URI
 * format asks for it and some apps (Google Authenticator among them) file the entry by it rather
 * than by the label prefix. Issuer and account are escaped like .NET's Uri.EscapeDataString, as
 * the original did; the secret is written upper case without spaces or padding.
 */
export function totpUri(input: { issuer: string; account: string; secret: string }): string {
  const issuer = escapeData(input.issuer);
  const secret = input.secret.replace(/[\s=]/g, '').toUpperCase();
  return (
    `otpauth://totp/${issuer}:${escapeData(input.account)}` +
    `?secret=${secret}&period=${TOTP_PERIOD_SECONDS}&digits=${TOTP_DIGITS}&issuer=${issuer}`
  );
}

/** The step (RFC 6238 T) a moment falls in. */
export function totpStep(timeMs: number): number {
  return Math.floor(timeMs / 1000 / TOTP_PERIOD_SECONDS);
}

function codeForStep(key: Uint8Array, step: number): string {
  return generateHOTP(key, BigInt(step), TOTP_DIGITS);
}

/** The code for a moment (milliseconds since the epoch). */
export function totpCode(secret: string, timeMs: number): string {
  return codeForStep(secretBytes(secret), totpStep(timeMs));
}

/** The result of a check: the step matched, to be stored as the new lastUsedStep. */
export type TotpCheck = { ok: true; step: number } | { ok: false };

/**
 * Checks a code against the steps around nowMs. A code whose step is at or before lastUsedStep
 * is refused, so a code seen once (over a shoulder, in a log, replayed) is worthless afterwards.
 * All candidate steps are compared, in constant time, whatever matches first; if a code happens
 * to match two steps, the later one is returned so the stored step moves as far as it can.
 * Throws only on a secret that is not Base32, which is a stored-data fault, not a wrong code.
 */
export function verifyTotp(secret: string, code: string, nowMs: number, lastUsedStep?: number | null): TotpCheck {
  const key = secretBytes(secret);
  if (!CODE.test(code)) return { ok: false };
  const given = Buffer.from(code, 'ascii');
  const current = totpStep(nowMs);
  let matched: number | null = null;
  for (let step = current - TOTP_TOLERANCE_STEPS; step <= current + TOTP_TOLERANCE_STEPS; step++) {
    if (step < 0) continue; // before 1970: no such step
    const equal = timingSafeEqual(given, Buffer.from(codeForStep(key, step), 'ascii'));
    const fresh = lastUsedStep === null || lastUsedStep === undefined || step > lastUsedStep;
    if (equal && fresh) matched = step;
  }
  return matched === null ? { ok: false } : { ok: true, step: matched };
}
