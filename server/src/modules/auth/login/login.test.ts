import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLogs, users, userSecurity } from '../../../../../db/schema/index.js';
import {
  bearer,
  claimsOf,
  createTestTenant,
  createTestUser,
  GOOD_PASSWORD,
  grantRole,
  watchCodes,
} from '../../../testing/auth-fixtures.js';
import { ManualClock } from '../../../infra/clock.js';
import { startTestServer, type TestServer } from '../../../testing/harness.js';
import { LoginResult } from '../../login-log/write.js';

// The login throttles are fixed windows of a minute (SPEC): a clock that stands still, a second
// into a window, keeps every test inside one window however slow the machine.
const clock = new ManualClock(Math.floor(Date.now() / 60_000) * 60_000 + 1_000);
let server: TestServer;
let codes: ReturnType<typeof watchCodes>;
beforeAll(async () => {
  // Addresses come from X-Forwarded-For here, so each test can be its own client.
  server = await startTestServer({ clock, config: { App: { TrustForwardedHeaders: true } } });
  codes = watchCodes(server.runtime.deps);
});
afterAll(() => server.close());

let ipCounter = 0;
/** Each test logs in from an address of its own, so the per-IP throttle of one never hits another. */
const fromIp = () => ({ 'x-forwarded-for': `10.9.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });

async function captcha(headers: Record<string, string>) {
  const res = await server.json('/api/Auth/Captcha', { headers });
  return {
    captchaId: res.body.data.captchaId as string,
    captchaCode: codes.last('captcha', res.body.data.captchaId)!,
    res,
  };
}

async function login(body: Record<string, unknown>, headers = fromIp()) {
  const c = await captcha(headers);
  return server.json('/api/Auth/Login', {
    method: 'POST',
    json: { captchaId: c.captchaId, captchaCode: c.captchaCode, ...body },
    headers: { ...headers, 'x-language': 'en-US' },
  });
}

describe('LoginConfig and captcha', () => {
  it('lists the login methods and says the captcha is on by default', async () => {
    const { body } = await server.json('/api/Auth/LoginConfig');
    expect(body.data).toEqual({ loginMethods: ['password'], oAuthProviders: [], captchaEnabled: true });
  });

  it('leaves out the code logins that are switched off', async () => {
    const off = await startTestServer({
      config: {
        Saas: { Auth: { LoginMethods: ['password', 'email', 'phone-code', 'SMS'], PhoneCodeLoginEnabled: false } },
      },
    });
    try {
      expect((await off.json('/api/Auth/LoginConfig')).body.data.loginMethods).toEqual(['password', 'email']);
    } finally {
      await off.close();
    }
  });

  it('issues a 4-digit captcha as an SVG image valid 5 minutes, consumed on the first check right or wrong', async () => {
    const headers = fromIp();
    const { captchaId, captchaCode, res } = await captcha(headers);
    expect(res.body.data.expiresInSeconds).toBe(300);
    expect(res.body.data.image).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(captchaCode).toMatch(/^\d{4}$/);
    const user = await createTestUser(server.runtime.deps);
    const wrong = String((Number(captchaCode) + 1) % 10000).padStart(4, '0');
    const first = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: user.email, password: user.password, captchaId, captchaCode: wrong },
      headers: { ...headers, 'x-language': 'en-US' },
    });
    expect(first.status).toBe(400);
    expect(first.body.data).toMatch(/captcha/i);
    const again = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: user.email, password: user.password, captchaId, captchaCode },
      headers,
    });
    expect(again.status).toBe(400);
  });

  it('refuses a login without a captcha when it is on', async () => {
    const user = await createTestUser(server.runtime.deps);
    const res = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: user.email, password: user.password },
      headers: { ...fromIp(), 'x-language': 'en-US' },
    });
    expect(res.status).toBe(400);
    expect(res.body.data).toMatch(/captcha/i);
  });
});

describe('password login', () => {
  it('answers a LoginToken with the exact claims of the spec', async () => {
    const user = await createTestUser(server.runtime.deps, { phone: '+8613800000000' });
    const res = await login({ username: user.email, password: user.password, deviceId: 'device-1' });
    expect(res.status).toBe(200);
    expect(res.body.data.requiresTwoFactor).toBe(false);
    const token = res.body.data.token;
    expect(token).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600 });
    expect(token.issuedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(token.expiresAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(Buffer.from(token.refreshToken, 'base64url').length).toBeGreaterThanOrEqual(32);
    const claims = claimsOf(token.accessToken);
    expect(Object.keys(claims).sort()).toEqual(
      [
        'DeviceFingerprint',
        'Email',
        'Phone',
        'SessionId',
        'UserId',
        'UserName',
        'aud',
        'exp',
        'iat',
        'iss',
        'jti',
        'nbf',
        'sub',
      ].sort(),
    );
    expect(claims).toMatchObject({
      sub: String(user.id),
      UserId: String(user.id),
      UserName: user.userName,
      Email: user.email,
      Phone: '+8613800000000',
      DeviceFingerprint: 'device-1',
    });
    expect(claims).not.toHaveProperty('TenantId');
    expect(claims).not.toHaveProperty('permission');
    expect((await server.json('/api/Auth/UserInfo', { headers: bearer(token.accessToken) })).status).toBe(200);
    const [row] = await server.runtime.deps.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.lastLoginTime).toBeInstanceOf(Date);
    expect(row!.lastLoginIp).toMatch(/^10\.9\./);
  });

  it('carries one role claim per role, and * only for the super-administrator', async () => {
    const tenant = await createTestTenant(server.runtime.deps);
    const user = await createTestUser(server.runtime.deps, { tenantId: tenant, memberOf: [tenant] });
    await grantRole(server.runtime.deps, user.id, tenant, ['saas:user:read'], `reader_${user.id}`);
    await grantRole(server.runtime.deps, user.id, tenant, [], `viewer_${user.id}`);
    const claims = claimsOf(
      (await login({ username: user.email, password: user.password })).body.data.token.accessToken,
    );
    expect((claims.role as string[]).sort()).toEqual([`reader_${user.id}`, `viewer_${user.id}`]);
    expect(claims.TenantId).toBe(String(tenant));
    expect(claims).not.toHaveProperty('permission');
    const admin = await login({
      username: server.runtime.deps.config.Saas.Seed.AdminEmail,
      password: server.runtime.deps.config.Saas.Seed.AdminPassword,
    });
    expect(claimsOf(admin.body.data.token.accessToken)).toMatchObject({ role: ['super_admin'], permission: '*' });
  });

  it('lets platform accounts log in by user name too, case-insensitively, but not tenant accounts', async () => {
    const platform = await createTestUser(server.runtime.deps, { userName: `Plat_${clock.nowMs()}` });
    expect(
      (await login({ username: `  ${platform.userName.toUpperCase()} `, password: platform.password })).status,
    ).toBe(200);
    const tenant = await createTestTenant(server.runtime.deps);
    const member = await createTestUser(server.runtime.deps, { tenantId: tenant, memberOf: [tenant] });
    expect((await login({ username: member.userName, password: member.password })).status).toBe(400);
    expect((await login({ username: member.email!.toUpperCase(), password: member.password })).status).toBe(200);
  });

  it('answers the same error for an unknown account and a wrong password, in a similar time', async () => {
    const user = await createTestUser(server.runtime.deps);
    const time = async (body: Record<string, unknown>) => {
      const headers = fromIp();
      const c = await captcha(headers);
      const started = performance.now();
      const res = await server.json('/api/Auth/Login', {
        method: 'POST',
        json: { ...c, ...body, res: undefined },
        headers: { ...headers, 'x-language': 'en-US' },
      });
      return { res, ms: performance.now() - started };
    };
    // Interleaved pairs, compared by their medians: one sample of each is at the mercy of
    // whatever else the machine runs at that moment (other test files, in parallel).
    const unknowns: number[] = [];
    const wrongs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const unknown = await time({ username: 'nobody-here@example.test', password: 'Whatever#123' });
      const wrong = await time({ username: user.email, password: 'Wrong#Password1' });
      expect(unknown.res.status).toBe(400);
      expect(wrong.res.status).toBe(400);
      expect(unknown.res.body.data).toBe(wrong.res.body.data);
      expect(unknown.res.body.message).toBe(wrong.res.body.message);
      unknowns.push(unknown.ms);
      wrongs.push(wrong.ms);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Both spend one argon2 verification; neither answers in a fraction of the other's time.
    const ratio = median(unknowns) / median(wrongs);
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(4);
  });

  it('refuses inactive, disabled and expired-password accounts only once the password is right', async () => {
    const inactive = await createTestUser(server.runtime.deps, { isActive: false });
    const disabled = await createTestUser(server.runtime.deps, { status: 'Disabled' });
    const expired = await createTestUser(server.runtime.deps, { passwordExpiresTime: new Date(clock.nowMs() - 1000) });
    expect((await login({ username: inactive.email, password: inactive.password })).body.data).toMatch(/not activated/);
    expect((await login({ username: disabled.email, password: disabled.password })).body.data).toMatch(/disabled/);
    expect((await login({ username: expired.email, password: expired.password })).body.data).toMatch(/expired/);
    for (const u of [inactive, disabled, expired]) {
      expect((await login({ username: u.email, password: 'Wrong#Password1' })).body.data).toBe(
        'Wrong user name or password.',
      );
    }
  });

  it('locks an account after 5 consecutive failures for 30 minutes, telling only whoever knows the password', async () => {
    const user = await createTestUser(server.runtime.deps);
    for (let i = 0; i < 5; i++)
      expect((await login({ username: user.email, password: `Wrong#${i}aaaa` })).status).toBe(400);
    const [row] = await server.runtime.deps.db.select().from(userSecurity).where(eq(userSecurity.userId, user.id));
    expect(row!.failedLoginAttempts).toBe(5);
    expect(row!.lockoutEndTime!.getTime()).toBeGreaterThan(clock.nowMs() + 29 * 60_000);
    const right = await login({ username: user.email, password: user.password });
    expect(right.status).toBe(400);
    expect(right.body.data).toMatch(/locked/);
    expect((await login({ username: user.email, password: 'Wrong#Again1' })).body.data).toBe(
      'Wrong user name or password.',
    );
    // Once the lockout has passed, the right password works and the count starts again.
    await server.runtime.deps.db
      .update(userSecurity)
      .set({ lockoutEndTime: new Date(clock.nowMs() - 1) })
      .where(eq(userSecurity.userId, user.id));
    expect((await login({ username: user.email, password: user.password })).status).toBe(200);
    const [after] = await server.runtime.deps.db.select().from(userSecurity).where(eq(userSecurity.userId, user.id));
    expect(after!.failedLoginAttempts).toBe(0);
  });

  it('answers a missing body with the two-factor-expired message (SPEC Errors rule 2) and bad input with 400', async () => {
    const empty = await server.json('/api/Auth/Login', { method: 'POST', headers: { 'x-language': 'en-US' } });
    expect(empty.status).toBe(400);
    expect(empty.body.data).toMatch(/Two-factor verification has expired/);
    for (const body of [
      { username: 5, password: 'x' },
      { username: 'a@b.c' },
      { username: 'a'.repeat(300), password: 'x' },
      { username: 'a@b.c', password: 'x', twoFactorMethod: 'carrier-pigeon' },
    ]) {
      const res = await server.json('/api/Auth/Login', { method: 'POST', json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Array.isArray(res.body.data)).toBe(true);
    }
  });

  it('verifies hashes imported from the original service and re-hashes them to argon2id', async () => {
    const salt = randomBytes(32);
    const imported = `1:600000:SHA256:${salt.toString('base64')}:${pbkdf2Sync(GOOD_PASSWORD, salt, 600000, 32, 'sha256').toString('base64')}`;
    const user = await createTestUser(server.runtime.deps, { passwordHash: imported });
    expect((await login({ username: user.email, password: user.password })).status).toBe(200);
    const [row] = await server.runtime.deps.db.select().from(userSecurity).where(eq(userSecurity.userId, user.id));
    expect(row!.passwordHash.startsWith('$argon2id$')).toBe(true);
    expect((await login({ username: user.email, password: user.password })).status).toBe(200);
  });
});

describe('throttling', () => {
  it('answers 429 with Retry-After past 5 attempts per account and address in a minute', async () => {
    const user = await createTestUser(server.runtime.deps);
    const headers = fromIp();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 6; i++) {
      last = await login({ username: user.email, password: `Wrong#${i}abcd` }, headers);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(last!.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // The same account from another address is not throttled by it.
    expect((await login({ username: user.email, password: user.password })).status).not.toBe(429);
  });

  it('counts in fixed windows of a minute: nothing more until the next window, then 5 again', async () => {
    const user = await createTestUser(server.runtime.deps);
    const headers = fromIp();
    const attempt = async () => (await login({ username: user.email, password: 'Wrong#abcd1' }, headers)).status;
    for (let i = 0; i < 5; i++) expect(await attempt()).toBe(400);
    const refused = await login({ username: user.email, password: 'Wrong#abcd1' }, headers);
    expect(refused.status).toBe(429);
    // Retry-After: the rest of the window (windows are whole minutes of the clock).
    const rest = 60_000 - (clock.nowMs() % 60_000);
    expect(refused.headers.get('retry-after')).toBe(String(Math.ceil(rest / 1000)));
    // A token bucket would let one through every 12 s; a fixed window lets none until it ends.
    clock.advance(rest - 1);
    expect(await attempt()).toBe(429);
    clock.advance(1);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push(await attempt());
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('answers 429 past 30 attempts per address in a minute, whatever the accounts', async () => {
    const headers = fromIp();
    const statuses = (
      await Promise.all(
        Array.from({ length: 31 }, (_, i) =>
          login({ username: `someone${i}@example.test`, password: 'Whatever#1' }, headers),
        ),
      )
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
  });

  it('keeps exact counts when 50 wrong attempts arrive at once', async () => {
    const user = await createTestUser(server.runtime.deps);
    const headers = fromIp();
    server.runtime.deps.config.Saas.Auth.CaptchaEnabled = false;
    try {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          server.json('/api/Auth/Login', {
            method: 'POST',
            json: { username: user.email, password: `Wrong#${i}xyz` },
            headers,
          }),
        ),
      );
      expect(results.filter((r) => r.status === 429)).toHaveLength(45);
      expect(results.filter((r) => r.status === 400)).toHaveLength(5);
      const [row] = await server.runtime.deps.db.select().from(userSecurity).where(eq(userSecurity.userId, user.id));
      expect(row!.failedLoginAttempts).toBe(5);
      const logged = await server.runtime.deps.db
        .select()
        .from(loginLogs)
        .where(and(eq(loginLogs.userId, user.id), eq(loginLogs.result, LoginResult.InvalidCredentials)));
      expect(logged).toHaveLength(5);
    } finally {
      server.runtime.deps.config.Saas.Auth.CaptchaEnabled = true;
    }
  });
});

describe('login log', () => {
  // The clock stands still: each attempt a second later, so the rows have an order.
  const later = (body: Record<string, unknown>, headers: ReturnType<typeof fromIp>) => {
    clock.advance(1_000);
    return login(body, headers);
  };

  it('writes one row per attempt, with the risk flag for a new device', async () => {
    const user = await createTestUser(server.runtime.deps);
    const headers = fromIp();
    await later({ username: user.email, password: 'Wrong#Password1' }, headers);
    await later({ username: user.email, password: user.password, deviceId: 'laptop' }, headers);
    await later({ username: user.email, password: user.password, deviceId: 'laptop' }, headers);
    await later({ username: user.email, password: user.password, deviceId: 'stolen-phone' }, headers);
    const rows = await server.runtime.deps.db
      .select()
      .from(loginLogs)
      .where(eq(loginLogs.userId, user.id))
      .orderBy(loginLogs.loginTime);
    expect(rows.map((r) => [r.result, r.isRiskLogin])).toEqual([
      [LoginResult.InvalidCredentials, false],
      [LoginResult.Success, false],
      [LoginResult.Success, false],
      [LoginResult.Success, true],
    ]);
    expect(rows.every((r) => r.traceId && r.loginIp)).toBe(true);
    const [latest] = await server.runtime.deps.db
      .select()
      .from(loginLogs)
      .where(eq(loginLogs.userId, user.id))
      .orderBy(desc(loginLogs.loginTime))
      .limit(1);
    expect(latest!.deviceFingerprint).toBe('stolen-phone');
  });

  it('writes the success row with the session when no device id is sent (browser and OS stand for the device)', async () => {
    const user = await createTestUser(server.runtime.deps);
    const firefox = {
      ...fromIp(),
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    };
    const safari = {
      ...firefox,
      'user-agent':
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    };
    const sessions: string[] = [];
    for (const headers of [firefox, firefox, safari]) {
      const res = await later({ username: ` ${user.email!.toUpperCase()} `, password: user.password }, headers);
      expect(res.status).toBe(200);
      sessions.push(String(claimsOf(res.body.data.token.accessToken).SessionId));
    }
    const rows = await server.runtime.deps.db
      .select()
      .from(loginLogs)
      .where(eq(loginLogs.userId, user.id))
      .orderBy(loginLogs.loginTime);
    expect(rows.map((r) => [r.result, r.isRiskLogin, String(r.sessionId)])).toEqual([
      [LoginResult.Success, false, sessions[0]],
      [LoginResult.Success, false, sessions[1]],
      [LoginResult.Success, true, sessions[2]],
    ]);
    expect(rows[0]).toMatchObject({
      userName: user.email!.toLowerCase(),
      loginMethod: 'password',
      message: 'Login succeeded',
      loginIp: firefox['x-forwarded-for'],
      loginLocation: '10.9.0.0/16',
    });
    expect(rows[0]!.deviceFingerprint).toMatch(/^Firefox.*\|Linux/);
    expect(rows.every((r) => r.traceId && r.tenantId === 0n)).toBe(true);
  });

  it('flags a known device from a network (/16) none of the recent successes came from', async () => {
    const user = await createTestUser(server.runtime.deps);
    const home = { 'x-forwarded-for': '172.20.1.1' };
    const sameNetwork = { 'x-forwarded-for': '172.20.200.9' };
    const elsewhere = { 'x-forwarded-for': '172.31.1.1' };
    for (const headers of [home, sameNetwork, elsewhere])
      expect((await later({ username: user.email, password: user.password, deviceId: 'laptop' }, headers)).status).toBe(
        200,
      );
    const rows = await server.runtime.deps.db
      .select()
      .from(loginLogs)
      .where(eq(loginLogs.userId, user.id))
      .orderBy(loginLogs.loginTime);
    expect(rows.map((r) => [r.loginLocation, r.isRiskLogin])).toEqual([
      ['172.20.0.0/16', false],
      ['172.20.0.0/16', false],
      ['172.31.0.0/16', true],
    ]);
  });

  it('never logs the password or the captcha code', async () => {
    server.logs.length = 0;
    const user = await createTestUser(server.runtime.deps);
    const c = await captcha(fromIp());
    await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: user.email, password: 'Secret#Pass9!', captchaId: c.captchaId, captchaCode: c.captchaCode },
    });
    const text = server.logs.join('\n');
    expect(text).not.toContain('Secret#Pass9!');
    expect(text).not.toContain(`"${c.captchaCode}"`);
  });
});
