import { createHmac } from 'node:crypto';
import { bearer } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';

/**
 * Shared by profile/two-factor-*.test.ts: the second-factor calls over HTTP, and a TOTP written
 * here from RFC 4648 and RFC 6238 alone (node's HMAC, no code of the service), so that the
 * secrets the service hands out are checked against an implementation that is not its own.
 */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of text.replace(/=+$/, '')) {
    const index = BASE32.indexOf(ch);
    if (index < 0) throw new Error(`not Base32: ${ch}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 HOTP with RFC 6238's counter (T = floor(unix seconds / 30)). */
export function referenceTotp(
  key: Buffer,
  timeMs: number,
  digits = 6,
  algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1',
): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timeMs / 1000 / 30)));
  const mac = createHmac(algorithm, key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/** The code an authenticator app shows for a Setup2FA shared key at a moment. */
export const appCode = (sharedKey: string, timeMs: number) => referenceTotp(base32Decode(sharedKey), timeMs);

/** The profile's second-factor calls of one token, in en-US. */
export function twoFactorApi(server: TestServer, token: string) {
  const headers = { ...bearer(token), 'x-language': 'en-US' };
  const post = (path: string, json?: unknown) =>
    server.json(`/api/Profile/${path}`, { method: 'POST', headers, ...(json === undefined ? {} : { json }) });
  return {
    state: () => server.json('/api/Profile/TwoFactor', { headers }),
    setup: () => post('Setup2FA'),
    sendCode: (method: unknown) => post('Send2FASetupCode', { method }),
    enable: (method: unknown, code: unknown) => post('Enable2FA', { method, code }),
    disable: (body: Record<string, unknown>) => post('Disable2FA', body),
    regenerate: (password: unknown) => post('RegenerateRecoveryCodes', { password }),
    post,
    /** A raw body, for malformed input. */
    raw: (path: string, body: string) =>
      server.json(`/api/Profile/${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
      }),
    userInfo: () => server.json('/api/Auth/UserInfo', { headers }),
    logout: () => server.json('/api/Auth/Logout', { method: 'POST', headers, json: {} }),
  };
}
