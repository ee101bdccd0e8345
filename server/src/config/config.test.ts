import { mkdtemp, readFile, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './load.js';
import { resolveJwtSecret, resolveOperatorKey, secretWeakness } from './secrets.js';

describe('loadConfig', () => {
  it('maps ASP.NET-style variables, case-insensitively, with arrays as __0, __1', () => {
    const c = loadConfig({
      Saas__Auth__CaptchaEnabled: 'false',
      JWT__ACCESSTOKENMINUTES: '15',
      OpenApiSecurity__IsEnabled: 'true',
      OpenApiSecurity__ProtectedPathPrefixes__1: '/api/other',
      OpenApiSecurity__ProtectedPathPrefixes__0: '/api/openapi',
      Unrelated__Thing: 'x',
      App__CoalesceResponses: 'false',
    });
    expect(c.Saas.Auth.CaptchaEnabled).toBe(false);
    expect(c.App.CoalesceResponses).toBe(false);
    expect(c.Jwt.AccessTokenMinutes).toBe(15);
    expect(c.OpenApiSecurity.IsEnabled).toBe(true);
    expect(c.OpenApiSecurity.ProtectedPathPrefixes).toEqual(['/api/openapi', '/api/other']);
  });

  it('maps the plain variables of the set-up guide', () => {
    const c = loadConfig({
      PORT: '9001',
      HOST: '127.0.0.1',
      APP_ENV: 'production',
      DATA_DIR: '/srv/p',
      DATABASE_URL: 'postgres://x',
      REDIS_URL: 'redis://y',
      SEED_ADMIN_EMAIL: 'a@b.c',
      SEED_ADMIN_PASSWORD: 'pw',
    });
    expect(c.App).toMatchObject({ Port: 9001, Host: '127.0.0.1', Env: 'production', DataDir: '/srv/p' });
    expect(c.Database.Url).toBe('postgres://x');
    expect(c.Redis.Url).toBe('redis://y');
    expect(c.Saas.Seed).toMatchObject({ AdminEmail: 'a@b.c', AdminPassword: 'pw' });
  });

  it('has the spec defaults', () => {
    const c = loadConfig({});
    expect(c.Jwt).toMatchObject({
      AccessTokenMinutes: 60,
      RefreshTokenDays: 7,
      ClockSkewMinutes: 5,
      RefreshReuseGraceSeconds: 10,
    });
    expect(c.Saas.Auth.CaptchaEnabled).toBe(true);
    expect(c.App.CoalesceResponses).toBe(true);
    expect(c.Localization.DefaultCulture).toBe('zh-CN');
    expect(c.Localization.SupportedCultures).toEqual(['zh-CN', 'zh-TW', 'en-US', 'ja-JP', 'ko-KR', 'de-DE', 'hi-IN']);
    expect(c.OpenApiSecurity).toMatchObject({
      IsEnabled: false,
      ProtectedPathPrefixes: ['/api'],
      AllowUnsignedRequests: false,
      RequireContentSignature: true,
      EnableReplayProtection: true,
      TimestampToleranceSeconds: 300,
      NonceExpireSeconds: 300,
      DefaultSignatureAlgorithm: 'HMACSHA256',
      DefaultContentSignatureAlgorithm: 'SHA256',
      MaxRequestBodySize: 2097152,
    });
  });

  it('refuses bad values and names every bad key', () => {
    expect(() => loadConfig({ PORT: 'eighty', APP_ENV: 'staging' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', APP_ENV: 'staging' });
    } catch (e) {
      expect(String(e)).toContain('App__Port');
      expect(String(e)).toContain('App__Env');
    }
    expect(() => loadConfig({ Localization__SupportedCultures__0: 'xx-YY' })).toThrow(ConfigError);
    expect(() => loadConfig({ App__DefaultTimeZone: 'Mars/Olympus_Mons' })).toThrow(/App__DefaultTimeZone/);
    expect(loadConfig({ App__DefaultTimeZone: 'Asia/Shanghai' }).App.DefaultTimeZone).toBe('Asia/Shanghai');
  });
});

describe('Jwt__RefreshReuseGraceSeconds', () => {
  it('reads 0 (no grace) to 300 seconds and refuses anything else', () => {
    expect(loadConfig({ Jwt__RefreshReuseGraceSeconds: '0' }).Jwt.RefreshReuseGraceSeconds).toBe(0);
    expect(loadConfig({ Jwt__RefreshReuseGraceSeconds: '30' }).Jwt.RefreshReuseGraceSeconds).toBe(30);
    for (const bad of ['-1', '301', '2.5', 'soon'])
      expect(() => loadConfig({ Jwt__RefreshReuseGraceSeconds: bad })).toThrow(/Jwt__RefreshReuseGraceSeconds/);
  });
});

describe('OpenApiSecurity algorithms', () => {
  it('reads header spellings and refuses a default no unpinned credential could use, at start-up', () => {
    expect(
      loadConfig({
        OpenApiSecurity__DefaultSignatureAlgorithm: 'hmac-sha512',
        OpenApiSecurity__DefaultContentSignatureAlgorithm: 'sha_512',
      }).OpenApiSecurity,
    ).toMatchObject({ DefaultSignatureAlgorithm: 'HMACSHA512', DefaultContentSignatureAlgorithm: 'SHA512' });
    for (const algorithm of ['SM2', 'RSASHA256'])
      expect(() => loadConfig({ OpenApiSecurity__DefaultSignatureAlgorithm: algorithm })).toThrow(/needs a public key/);
    expect(() => loadConfig({ OpenApiSecurity__DefaultSignatureAlgorithm: 'HMACSHA1' })).toThrow(
      /AllowLegacySignatureAlgorithms/,
    );
    expect(() => loadConfig({ OpenApiSecurity__DefaultContentSignatureAlgorithm: 'MD5' })).toThrow(
      /AllowLegacySignatureAlgorithms/,
    );
    expect(
      loadConfig({
        OpenApiSecurity__DefaultSignatureAlgorithm: 'HMACSHA1',
        OpenApiSecurity__AllowLegacySignatureAlgorithms: 'true',
      }).OpenApiSecurity.DefaultSignatureAlgorithm,
    ).toBe('HMACSHA1');
  });
});

describe('JWT secret', () => {
  it('judges secrets', () => {
    expect(secretWeakness(undefined)).toBe('missing');
    expect(secretWeakness('short')).toMatch(/32/);
    expect(secretWeakness('a'.repeat(40))).toMatch(/variety/);
    expect(secretWeakness('3f9a7c0e5b1d4a2f8e6c9b0a7d5e3f1c2b4a6d8e')).toBeUndefined();
  });

  it('production refuses to start with a missing or weak secret', async () => {
    await expect(resolveJwtSecret(loadConfig({ APP_ENV: 'production' }))).rejects.toThrow(/production/);
    await expect(resolveJwtSecret(loadConfig({ APP_ENV: 'production', Jwt__SecretKey: 'changeme' }))).rejects.toThrow(
      ConfigError,
    );
    const strong = 'k7Hq2vN9xP4mT8wZ1cR5bY3uJ6fA0dLs';
    await expect(resolveJwtSecret(loadConfig({ APP_ENV: 'production', Jwt__SecretKey: strong }))).resolves.toBe(strong);
  });

  it('development generates one and keeps it under DATA_DIR', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'portcullis-'));
    const config = loadConfig({ DATA_DIR: dir });
    const first = await resolveJwtSecret(config);
    expect(secretWeakness(first)).toBeUndefined();
    expect(await resolveJwtSecret(config)).toBe(first);
    const file = path.join(dir, 'secrets', 'jwt-secret');
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    expect((await stat(file)).mode & 0o077).toBe(0);
  });
});

describe('operator key', () => {
  it('production has no switch without one and refuses a weak one', async () => {
    await expect(resolveOperatorKey(loadConfig({ APP_ENV: 'production' }))).resolves.toBeUndefined();
    await expect(
      resolveOperatorKey(loadConfig({ APP_ENV: 'production', App__OperatorKey: 'changeme' })),
    ).rejects.toThrow(/OperatorKey/);
    const strong = 'Qm4xT9vB2nK7pW1cZ8rY5uL3hF6dS0aJ';
    await expect(resolveOperatorKey(loadConfig({ APP_ENV: 'production', App__OperatorKey: strong }))).resolves.toBe(
      strong,
    );
  });

  it('development generates one and keeps it under DATA_DIR, apart from the JWT secret', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'portcullis-'));
    const config = loadConfig({ DATA_DIR: dir });
    const first = await resolveOperatorKey(config);
    expect(secretWeakness(first)).toBeUndefined();
    expect(await resolveOperatorKey(config)).toBe(first);
    expect(await resolveJwtSecret(config)).not.toBe(first);
    const file = path.join(dir, 'secrets', 'operator-key');
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    expect((await stat(file)).mode & 0o077).toBe(0);
  });
});

describe('process.env', () => {
  it('is read only by the config loader and the two entry points (main.ts, cli/main.ts)', async () => {
    const root = path.resolve(import.meta.dirname, '..');
    const offenders: string[] = [];
    const walk = async (dir: string) => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
          const rel = path.relative(root, full);
          // Test support may read the environment CI sets (DATABASE_URL, REDIS_URL).
          if (
            rel === 'main.ts' ||
            rel === path.join('cli', 'main.ts') ||
            rel.startsWith('config/') ||
            rel.startsWith('testing/') ||
            rel.startsWith('stores/testing-')
          )
            continue;
          if ((await readFile(full, 'utf8')).includes('process.env')) offenders.push(rel);
        }
      }
    };
    await walk(root);
    expect(offenders).toEqual([]);
  });
});
