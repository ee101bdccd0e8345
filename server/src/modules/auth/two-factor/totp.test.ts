import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateTotpSecret, totpCode, totpStep, totpUri, verifyTotp } from './totp.js';

// `which oathtool` finds nothing on this machine, so the cross-check is against a second HOTP
// written here from RFC 4226 with node:crypto alone, sharing no code with the module.

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(bytes: Buffer): string {
  let bits = '';
  for (const b of bytes) bits += b.toString(2).padStart(8, '0');
  bits = bits.padEnd(Math.ceil(bits.length / 5) * 5, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += B32[Number.parseInt(bits.slice(i, i + 5), 2)];
  return out;
}

function referenceHotp(key: Buffer, counter: number): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(msg).digest();
  const offset = mac[19]! & 0xf;
  const value = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, '0');
}

// RFC 6238 Appendix B, SHA1 rows: the seed is the ASCII "12345678901234567890". The 6-digit code
// is the same dynamic truncation mod 10^6, i.e. the last six digits of the 8-digit value.
const RFC_SECRET = base32(Buffer.from('12345678901234567890', 'ascii'));
const RFC_VECTORS: [seconds: number, eightDigits: string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP codes', () => {
  it('match the RFC 6238 Appendix B SHA1 vectors', () => {
    expect(RFC_SECRET).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    for (const [seconds, eight] of RFC_VECTORS) {
      expect(totpCode(RFC_SECRET, seconds * 1000), String(seconds)).toBe(eight.slice(2));
      expect(verifyTotp(RFC_SECRET, eight.slice(2), seconds * 1000)).toEqual({
        ok: true,
        step: Math.floor(seconds / 30),
      });
    }
  });

  it('agree with an independent HOTP on a few hundred random secrets and times', () => {
    for (let i = 0; i < 400; i++) {
      const key = randomBytes(randomInt(10, 41));
      const ms = randomInt(0, 2 ** 47); // up to the year 6429
      const expected = referenceHotp(key, Math.floor(ms / 30_000));
      expect(totpCode(base32(key), ms), `${key.toString('hex')} @ ${ms}`).toBe(expected);
    }
  });

  it('read secrets in lower case, with spaces and with padding', () => {
    const t = 1111111111_000;
    const want = totpCode(RFC_SECRET, t);
    expect(totpCode(RFC_SECRET.toLowerCase(), t)).toBe(want);
    expect(totpCode(RFC_SECRET.replace(/(.{4})/g, '$1 '), t)).toBe(want);
    const key = Buffer.from('abc');
    expect(totpCode(`${base32(key)}===`, t)).toBe(referenceHotp(key, Math.floor(t / 30_000)));
  });

  it('throw on a secret that is not Base32', () => {
    expect(() => totpCode('not base32!', 0)).toThrow();
    expect(() => verifyTotp('', '123456', 0)).toThrow();
  });
});

describe('verifyTotp', () => {
  const secret = generateTotpSecret();
  const now = Date.UTC(2026, 4, 1, 12, 0, 10);
  const step = totpStep(now);
  const at = (s: number): string => totpCode(secret, s * 30_000);

  it('accepts the current step and one either side, returning the step matched', () => {
    expect(verifyTotp(secret, at(step), now)).toEqual({ ok: true, step });
    expect(verifyTotp(secret, at(step - 1), now)).toEqual({ ok: true, step: step - 1 });
    expect(verifyTotp(secret, at(step + 1), now)).toEqual({ ok: true, step: step + 1 });
  });

  it('refuses codes two steps away', () => {
    for (const s of [step - 2, step + 2]) {
      // Skip the one-in-a-million case where the far code equals a near one.
      if ([step - 1, step, step + 1].some((n) => at(n) === at(s))) continue;
      expect(verifyTotp(secret, at(s), now)).toEqual({ ok: false });
    }
  });

  it('refuses a replay: a code whose step is at or before the last one used', () => {
    const first = verifyTotp(secret, at(step), now);
    expect(first).toEqual({ ok: true, step });
    expect(verifyTotp(secret, at(step), now, step)).toEqual({ ok: false });
    expect(verifyTotp(secret, at(step), now + 29_000, step)).toEqual({ ok: false });
    expect(verifyTotp(secret, at(step - 1), now, step)).toEqual({ ok: false });
    expect(verifyTotp(secret, at(step + 1), now, step)).toEqual({ ok: true, step: step + 1 });
    expect(verifyTotp(secret, at(step), now, null)).toEqual({ ok: true, step });
  });

  it('refuses anything but six ASCII digits', () => {
    const good = at(step);
    for (const bad of [
      '',
      good.slice(1),
      `${good}0`,
      ` ${good}`,
      `${good}\n`,
      good.replace(/\d$/, 'a'),
      '１２３４５６',
      '+12345',
      '12 345',
    ]) {
      expect(verifyTotp(secret, bad, now), JSON.stringify(bad)).toEqual({ ok: false });
    }
  });

  it('handles the first steps after the epoch', () => {
    expect(verifyTotp(RFC_SECRET, '287082', 59_000)).toEqual({ ok: true, step: 1 });
    expect(verifyTotp(RFC_SECRET, totpCode(RFC_SECRET, 0), 10_000)).toEqual({ ok: true, step: 0 });
  });
});

describe('secrets and URIs', () => {
  it('generates 160-bit Base32 secrets that differ', () => {
    const a = generateTotpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(generateTotpSecret()).not.toBe(a);
  });

  it('writes the provisioning URI in the spec order, issuer appended, parts escaped', () => {
    expect(totpUri({ issuer: 'Portcullis', account: 'alice', secret: 'JBSWY3DPEHPK3PXP' })).toBe(
      'otpauth://totp/Portcullis:alice?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&issuer=Portcullis',
    );
    expect(totpUri({ issuer: 'XiHan BasicApp', account: "o'neil+1@example.com", secret: 'jbsw y3dp' })).toBe(
      'otpauth://totp/XiHan%20BasicApp:o%27neil%2B1%40example.com?secret=JBSWY3DP&period=30&digits=6&issuer=XiHan%20BasicApp',
    );
    expect(totpUri({ issuer: 'A:B&C', account: '张三', secret: 'AA' })).toBe(
      'otpauth://totp/A%3AB%26C:%E5%BC%A0%E4%B8%89?secret=AA&period=30&digits=6&issuer=A%3AB%26C',
    );
  });
});
