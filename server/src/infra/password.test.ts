import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { hash, parseOptions } from '@node-rs/argon2';
import { afterAll, describe, expect, it } from 'vitest';
import { ARGON2_OPTIONS, createPasswordHasher } from './password.js';
import { decodeStrictBase64, MAX_PBKDF2_ITERATIONS, parseIdentityHash, parseOriginalHash } from './password-legacy.js';

/** What the original's PasswordHasher.HashPassword writes (the original service). */
function originalHash(
  password: string,
  iterations = 600_000,
  algorithm = 'SHA256',
  saltBytes = 32,
  hashBytes = 32,
): string {
  const digest = algorithm.toLowerCase();
  const salt = randomBytes(saltBytes);
  const key = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, iterations, hashBytes, digest);
  return `1:${iterations}:${algorithm}:${salt.toString('base64')}:${key.toString('base64')}`;
}

/** ASP.NET Core Identity v3, laid out byte by byte as PasswordHasher.HashPasswordV3 does. */
function identityV3(password: string, prf: number, iterations: number, salt: Buffer, subkeyBytes: number): string {
  const digest = ['sha1', 'sha256', 'sha512'][prf] ?? 'sha256';
  const subkey = pbkdf2Sync(password, salt, iterations, subkeyBytes, digest);
  const header = Buffer.alloc(13);
  header[0] = 0x01;
  header.writeUInt32BE(prf, 1);
  header.writeUInt32BE(iterations, 5);
  header.writeUInt32BE(salt.length, 9);
  return Buffer.concat([header, salt, subkey]).toString('base64');
}

/** ASP.NET Identity v2: [0x00][16-byte salt][32-byte PBKDF2-HMACSHA1 subkey, 1000 rounds]. */
function identityV2(password: string, salt: Buffer): string {
  const subkey = pbkdf2Sync(password, salt, 1000, 32, 'sha1');
  return Buffer.concat([Buffer.from([0x00]), salt, subkey]).toString('base64');
}

// Published vectors of dotnet/aspnetcore (src/Identity/test/Identity.Test/PasswordHasherTest.cs).
const ASPNET_PASSWORD = 'my password';
const ASPNET_V2 = 'AAABAgMEBQYHCAkKCwwNDg+ukCEMDf0yyQ29NYubggHIVY0sdEUfdyeM+E1LtH1uJg==';
const ASPNET_V3 = [
  'AQAAAAAAAAD6AAAAEAhftMyfTJylOlZT+eEotFXd1elee8ih5WsjXaR3PA9M', // SHA1, 250 iterations
  'AQAAAAEAA9CQAAAAIESkQuj2Du8Y+kbc5lcN/W/3NiAZFEm11P27nrSN5/tId+bR1SwV8CO1Jd72r4C08OLvplNlCDc3oQZ8efcW+jQ=', // SHA256, 250000
  'AQAAAAIAAAAyAAAAEOMwvh3+FZxqkdMBz2ekgGhwQ4B6pZWND6zgESBuWiHw', // SHA512, 50
  'AQAAAAIAACcQAAAAEAABAgMEBQYHCAkKCwwNDg9B0Oxwty+PGIDSp95gcCfzeDvA4sGapUIUov8usXfD6A==', // SHA512, 10000
];

const hasher = createPasswordHasher();
afterAll(() => hasher.close());
const hashPassword = hasher.hash;
const verifyPassword = hasher.verify;
const verifyArgon2 = hasher.verifyArgon2;
const verifyAgainstDummy = hasher.verifyAgainstDummy;
const DUMMY_HASH = hasher.dummyHash;

describe('argon2id', () => {
  it('verifies its own hashes and needs no rehash at the current parameters', async () => {
    const stored = await hashPassword('Correct horse 1!');
    expect(stored.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(stored, 'Correct horse 1!')).toEqual({ ok: true, needsRehash: false });
    expect(await verifyPassword(stored, 'Correct horse 1?')).toEqual({ ok: false, needsRehash: false });
    expect(await verifyArgon2(stored, 'Correct horse 1!')).toBe(true);
  });

  it('asks for a rehash when the parameters are weaker, and not when they are stronger', async () => {
    const weak = await hash('pw', { algorithm: 2, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    expect(await verifyPassword(weak, 'pw')).toEqual({ ok: true, needsRehash: true });
    const argon2i = await hash('pw', { ...ARGON2_OPTIONS, algorithm: 1 });
    expect(await verifyPassword(argon2i, 'pw')).toEqual({ ok: true, needsRehash: true });
    const stronger = await hash('pw', { ...ARGON2_OPTIONS, memoryCost: 32768, timeCost: 3 });
    expect(await verifyPassword(stronger, 'pw')).toEqual({ ok: true, needsRehash: false });
  });

  it('treats a malformed PHC string as a mismatch', async () => {
    const stored = await hashPassword('pw');
    for (const bad of ['$argon2id$', '$argon2id$v=19$m=19456,t=2,p=1$garbage', stored.slice(0, -5)]) {
      expect(await verifyPassword(bad, 'pw')).toEqual({ ok: false, needsRehash: false });
    }
  });
});

describe("the original service's PBKDF2 format", () => {
  it('verifies the default layout (600,000 rounds of SHA256) and always asks for a rehash', async () => {
    const stored = originalHash('Pässwörd-123');
    expect(stored).toMatch(/^1:600000:SHA256:[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword(stored, 'Pässwörd-123')).toEqual({ ok: true, needsRehash: true });
    expect(await verifyPassword(stored, 'Passwörd-123')).toEqual({ ok: false, needsRehash: false });
  });

  it('reads every algorithm the original names, case-insensitively, with any hash size', async () => {
    for (const alg of ['SHA1', 'SHA256', 'SHA384', 'SHA512', 'MD5', 'sha512']) {
      const stored = originalHash('pw', 1000, alg, 16, 64);
      expect(await verifyPassword(stored, 'pw'), alg).toEqual({ ok: true, needsRehash: true });
      expect(await verifyPassword(stored, 'px'), alg).toEqual({ ok: false, needsRehash: false });
    }
  });

  it('refuses an unsupported algorithm instead of guessing SHA256 as the original did', async () => {
    const stored = originalHash('pw', 1000).replace(':SHA256:', ':SHA3-256:');
    expect(parseOriginalHash(stored)).toBeNull();
    expect((await verifyPassword(stored, 'pw')).ok).toBe(false);
  });

  it('refuses truncated, garbled and non-canonical strings', async () => {
    const stored = originalHash('pw', 1000);
    const [v, i, a, s, h] = stored.split(':') as [string, string, string, string, string];
    const bad = [
      stored.slice(0, stored.lastIndexOf(':')),
      `${v}:${i}:${a}:${s}:${h.slice(0, -4)}x`,
      `${v}:${i}:${a}:${s}:${h.replace(/[A-Za-z]/, '!')}`,
      `${v}:${i}:${a}:${s}:${h.slice(0, 20)}`, // a 15-byte key: too short to trust
      `${v}:${i}:${a}:${s}:${h}:extra`,
      `${v}:-5:${a}:${s}:${h}`,
      `${v}:0:${a}:${s}:${h}`,
      `x:${i}:${a}:${s}:${h}`,
      `${v}:${i}:${a}: ${s}:${h}`,
      ':::::',
      'not a hash',
    ];
    for (const b of bad) expect(await verifyPassword(b, 'pw'), b).toEqual({ ok: false, needsRehash: false });
  });

  it('refuses absurd iteration counts at once instead of hashing for minutes', async () => {
    const stored = originalHash('pw', 1000).replace(':1000:', `:${MAX_PBKDF2_ITERATIONS + 1}:`);
    const start = performance.now();
    expect(await verifyPassword(stored, 'pw')).toEqual({ ok: false, needsRehash: false });
    expect(performance.now() - start).toBeLessThan(50);
  });

  it('does not block the event loop while deriving', async () => {
    const stored = originalHash('pw', 600_000, 'SHA512');
    let ticks = 0;
    let maxGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      ticks++;
    }, 2);
    const started = performance.now();
    const result = await verifyPassword(stored, 'pw');
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(result.ok).toBe(true);
    expect(ticks).toBeGreaterThan(3);
    // A synchronous derivation of 600,000 SHA512 rounds would hold the loop for the whole run
    // (the gap would be the elapsed time, a second or more); a loaded machine delays a tick by
    // 100 ms and more now and then, so the bound leaves room for that.
    expect(maxGap).toBeLessThan(Math.max(250, elapsed / 4));
  });
});

describe('ASP.NET Core Identity hashes', () => {
  it('verifies the published v2 and v3 vectors', async () => {
    expect(await verifyPassword(ASPNET_V2, ASPNET_PASSWORD)).toEqual({ ok: true, needsRehash: true });
    for (const stored of ASPNET_V3) {
      expect(await verifyPassword(stored, ASPNET_PASSWORD), stored).toEqual({ ok: true, needsRehash: true });
      expect(await verifyPassword(stored, 'my passworD'), stored).toEqual({ ok: false, needsRehash: false });
    }
  });

  it('verifies v3 hashes built byte by byte for every PRF', async () => {
    for (const prf of [0, 1, 2]) {
      const stored = identityV3('Secret#42', prf, 10_000, randomBytes(16), 32);
      expect(parseIdentityHash(stored)).toMatchObject({ iterations: 10_000 });
      expect(await verifyPassword(stored, 'Secret#42')).toEqual({ ok: true, needsRehash: true });
      expect((await verifyPassword(stored, 'Secret#43')).ok).toBe(false);
    }
  });

  it('verifies v2 hashes built byte by byte', async () => {
    const stored = identityV2('Secret#42', randomBytes(16));
    expect(await verifyPassword(stored, 'Secret#42')).toEqual({ ok: true, needsRehash: true });
    expect((await verifyPassword(stored, 'secret#42')).ok).toBe(false);
  });

  it('refuses malformed headers and payloads', async () => {
    const salt = randomBytes(16);
    const good = Buffer.from(identityV3('pw', 1, 1000, salt, 32), 'base64');
    const variant = (edit: (b: Buffer) => Buffer): string => edit(Buffer.from(good)).toString('base64');
    const bad = [
      variant((b) => b.subarray(0, 12)), // header cut short
      variant((b) => b.subarray(0, 13 + 16 + 8)), // subkey under 16 bytes
      variant((b) => {
        b.writeUInt32BE(3, 1);
        return b;
      }), // unknown PRF
      variant((b) => {
        b.writeUInt32BE(0, 5);
        return b;
      }), // zero iterations
      variant((b) => {
        b.writeUInt32BE(0xffffffff, 5);
        return b;
      }), // absurd iterations
      variant((b) => {
        b.writeUInt32BE(8, 9);
        return b;
      }), // salt under 16 bytes
      variant((b) => {
        b.writeUInt32BE(0xffffffff, 9);
        return b;
      }), // salt longer than the payload
      variant((b) => {
        b[0] = 0x02;
        return b;
      }), // unknown version
      Buffer.from(identityV2('pw', salt), 'base64').subarray(0, 48).toString('base64'), // v2 one byte short
      ASPNET_V3[0]!.slice(0, -4),
      `${ASPNET_V3[0]!.slice(0, -1)}!`,
      ASPNET_V3[0]!.replace('A', ' A'),
      'AR==', // non-canonical base64
      '',
    ];
    for (const b of bad) expect(await verifyPassword(b, 'pw'), b).toEqual({ ok: false, needsRehash: false });
  });

  it('decodes only canonical base64', () => {
    expect(decodeStrictBase64('AQ==')).toEqual(Buffer.from([1]));
    for (const b of ['AR==', 'AQ=', 'AQ', 'A Q==', 'AQ==\n', '-_8=']) expect(decodeStrictBase64(b), b).toBeNull();
  });
});

describe('unknown accounts', () => {
  it('DUMMY_HASH is one argon2id hash with the current parameters, verifying nothing', async () => {
    const first = await DUMMY_HASH;
    expect(await DUMMY_HASH).toBe(first);
    const p = parseOptions(first);
    expect([p.algorithm, p.memoryCost, p.timeCost, p.parallelism]).toEqual([
      ARGON2_OPTIONS.algorithm,
      ARGON2_OPTIONS.memoryCost,
      ARGON2_OPTIONS.timeCost,
      ARGON2_OPTIONS.parallelism,
    ]);
    expect(await verifyAgainstDummy('anything')).toBe(false);
  });

  it('an empty password or stored string never matches', async () => {
    expect(await verifyPassword('', 'pw')).toEqual({ ok: false, needsRehash: false });
    expect(await verifyPassword(await hashPassword('x'), '')).toEqual({ ok: false, needsRehash: false });
  });

  it('verifyAgainstDummy takes about as long as verifying a real account', async () => {
    const stored = await hashPassword('the real one');
    await DUMMY_HASH;
    await verifyPassword(stored, 'warm-up');
    const real: number[] = [];
    const dummy: number[] = [];
    // Interleaved, so a burst of load from a neighbouring test file hits both series alike.
    for (let i = 0; i < 7; i++) {
      let t = performance.now();
      await verifyPassword(stored, `wrong ${i}`);
      real.push(performance.now() - t);
      t = performance.now();
      await verifyAgainstDummy(`wrong ${i}`);
      dummy.push(performance.now() - t);
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const ratio = median(dummy) / median(real);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});

describe('password hashing concurrency', () => {
  it('runs at most App:PasswordHashConcurrency key derivations at once, and every caller gets its answer', async () => {
    const stored = await hashPassword('Gate#Passw0rd');
    const gated = createPasswordHasher({ concurrency: 2 });
    const passwordHashLoad = gated.load;
    try {
      let peak = 0;
      const watch = setInterval(() => (peak = Math.max(peak, passwordHashLoad().active)), 0);
      const checks = Array.from({ length: 6 }, (_, i) => gated.verifyArgon2(stored, i % 2 ? 'Gate#Passw0rd' : 'wrong'));
      expect(passwordHashLoad()).toMatchObject({ active: 2, waiting: 4, limit: 2 });
      expect(await Promise.all(checks)).toEqual([false, true, false, true, false, true]);
      clearInterval(watch);
      expect(peak).toBe(2);
      expect(passwordHashLoad().active).toBe(0);
    } finally {
      await gated.close();
    }
    expect(createPasswordHasher().load().limit).toBeGreaterThanOrEqual(1);
  });
});
