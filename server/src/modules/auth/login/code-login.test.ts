import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLogs, users, userSecurity, userSessions } from '../../../../../db/schema/index.js';
import { ManualClock } from '../../../infra/clock.js';
import { bearer, claimsOf, createTestTenant, createTestUser, watchCodes } from '../../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../testing/harness.js';
import { LoginResult } from '../../login-log/write.js';
import { client, codeIn, mailsTo, post } from '../self-service/self-service-test-kit.js';
import { generateTotpSecret, totpCode } from '../two-factor/totp.js';
import { TwoFactorFlags } from '../two-factor/two-factor.js';

/** E-mail and phone one-time-code login over HTTP, codes read from the outbox like mail. */

let server: TestServer;
let codes: ReturnType<typeof watchCodes>;
const deps = () => server.runtime.deps;
beforeAll(async () => {
  server = await startTestServer({ config: { App: { TrustForwardedHeaders: true } } });
  codes = watchCodes(deps());
});
afterAll(() => server.close());

async function mailedCode(email: string): Promise<string> {
  const mail = (await mailsTo(server, email, 'login-code')).at(-1);
  if (!mail) throw new Error(`no login code mailed to ${email}`);
  return codeIn(mail.text);
}

async function emailCodeLogin(email: string, extra: Record<string, unknown> = {}) {
  expect((await post(server, '/api/Auth/EmailLoginCode', { email })).status).toBe(200);
  return post(server, '/api/Auth/EmailLogin', { email, code: await mailedCode(email), ...extra });
}

describe('EmailLoginCode / EmailLogin', () => {
  it('mails a 6-digit code valid 10 minutes and signs in with it, once', async () => {
    const user = await createTestUser(deps(), { phone: '+15550100' });
    const res = await post(server, '/api/Auth/EmailLoginCode', { email: user.email!.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ expiresInSeconds: 600 });
    const [mail] = await mailsTo(server, user.email!, 'login-code');
    expect(mail).toMatchObject({ channel: 'email', subject: 'Your sign-in code' });
    expect(mail!.text).toMatch(/valid for 10 minutes/);
    const code = codeIn(mail!.text);

    const login = await post(server, '/api/Auth/EmailLogin', { email: user.email, code, deviceId: 'laptop-1' });
    expect(login.status).toBe(200);
    expect(login.body.data).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600 });
    expect(login.body.data).not.toHaveProperty('requiresTwoFactor');
    expect(claimsOf(login.body.data.accessToken)).toMatchObject({
      UserId: String(user.id),
      Email: user.email,
      DeviceFingerprint: 'laptop-1',
    });
    expect((await server.json('/api/Auth/UserInfo', { headers: bearer(login.body.data.accessToken) })).status).toBe(
      200,
    );
    const [session] = await deps().db.select().from(userSessions).where(eq(userSessions.userId, user.id));
    expect(session!.loginMethod).toBe('email-code');
    const logged = await deps()
      .db.select()
      .from(loginLogs)
      .where(and(eq(loginLogs.userId, user.id), eq(loginLogs.result, LoginResult.Success)));
    expect(logged.map((l) => l.loginMethod)).toEqual(['email-code']);

    // One use: the same code again is refused.
    const again = await post(server, '/api/Auth/EmailLogin', { email: user.email, code });
    expect(again.status).toBe(400);
    expect(again.body.data).toBe('The sign-in code is invalid or has expired.');
  });

  it('consumes the code on a wrong guess too', async () => {
    const user = await createTestUser(deps());
    await post(server, '/api/Auth/EmailLoginCode', { email: user.email });
    const code = await mailedCode(user.email!);
    const wrong = code === '000000' ? '000001' : '000000';
    expect((await post(server, '/api/Auth/EmailLogin', { email: user.email, code: wrong })).status).toBe(400);
    expect((await post(server, '/api/Auth/EmailLogin', { email: user.email, code })).status).toBe(400);
    const failures = await deps()
      .db.select()
      .from(loginLogs)
      .where(and(eq(loginLogs.userId, user.id), eq(loginLogs.result, LoginResult.InvalidCredentials)));
    expect(failures).toHaveLength(2);
    // First-factor code failures do not count toward the lockout.
    const [security] = await deps().db.select().from(userSecurity).where(eq(userSecurity.userId, user.id));
    expect(security!.failedLoginAttempts).toBe(0);
  });

  it('answers an unknown, disabled or inactive address exactly like a known one, and sends nothing', async () => {
    const known = await createTestUser(deps());
    const disabled = await createTestUser(deps(), { status: 'Disabled' });
    const inactive = await createTestUser(deps(), { isActive: false });
    const answers: Array<{ status: number; data: unknown; keys: string[] }> = [];
    for (const email of [known.email!, 'nobody-here@example.test', disabled.email!, inactive.email!]) {
      const res = await post(server, '/api/Auth/EmailLoginCode', { email });
      answers.push({ status: res.status, data: res.body.data, keys: Object.keys(res.body).sort() });
    }
    expect(answers.every((a) => JSON.stringify(a) === JSON.stringify(answers[0]))).toBe(true);
    expect(await mailsTo(server, 'nobody-here@example.test')).toEqual([]);
    expect(await mailsTo(server, disabled.email!)).toEqual([]);
    expect(await mailsTo(server, inactive.email!)).toEqual([]);
    expect(await mailsTo(server, known.email!, 'login-code')).toHaveLength(1);
  });

  it('allows one request per e-mail and client address in a 60-second window (429 with Retry-After)', async () => {
    const user = await createTestUser(deps());
    const headers = client();
    expect((await post(server, '/api/Auth/EmailLoginCode', { email: user.email }, headers)).status).toBe(200);
    const second = await post(server, '/api/Auth/EmailLoginCode', { email: user.email }, headers);
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(second.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(second.body.data).toMatch(/Requested too often/);
    // Unknown addresses are throttled the same way (no difference to observe).
    const unknownHeaders = client();
    await post(server, '/api/Auth/EmailLoginCode', { email: 'ghost@example.test' }, unknownHeaders);
    expect(
      (await post(server, '/api/Auth/EmailLoginCode', { email: 'ghost@example.test' }, unknownHeaders)).status,
    ).toBe(429);
    // Another address of the client, or the same e-mail from elsewhere, is not affected.
    expect((await post(server, '/api/Auth/EmailLoginCode', { email: user.email }, client())).status).toBe(200);
  });

  it('answers bad input with a clear 400 envelope, never a 500', async () => {
    for (const body of [
      undefined,
      {},
      { email: '' },
      { email: 'not-an-address' },
      { email: 42 },
      { email: 'a@b.c'.repeat(60) },
    ]) {
      const res = await server.json('/api/Auth/EmailLoginCode', {
        method: 'POST',
        headers: client(),
        ...(body === undefined ? {} : { json: body }),
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe(400);
      expect(JSON.stringify(res.body.data)).toMatch(body === undefined ? /expected object/ : /email/);
    }
    const noCode = await post(server, '/api/Auth/EmailLogin', { email: 'a@example.test' });
    expect(noCode.status).toBe(400);
    expect(noCode.body.data).toBe('The sign-in code is invalid or has expired.');
    for (const code of ['abcdef', '1'.repeat(13), '']) {
      const res = await post(server, '/api/Auth/EmailLogin', { email: 'a@example.test', code });
      expect(res.status).toBe(400);
    }
    const text = await server.json('/api/Auth/EmailLogin', {
      method: 'POST',
      headers: { ...client(), 'content-type': 'text/plain' },
      body: 'email=x',
    });
    expect(text.status).toBe(415);
  });

  it('refuses a locked, disabled or inactive account even with a right code', async () => {
    const locked = await createTestUser(deps());
    await post(server, '/api/Auth/EmailLoginCode', { email: locked.email });
    await deps()
      .db.update(userSecurity)
      .set({ lockoutEndTime: new Date(Date.now() + 10 * 60_000) })
      .where(eq(userSecurity.userId, locked.id));
    const res = await post(server, '/api/Auth/EmailLogin', {
      email: locked.email,
      code: await mailedCode(locked.email!),
    });
    expect(res.status).toBe(400);
    expect(res.body.data).toMatch(/locked/);

    const later = await createTestUser(deps());
    await post(server, '/api/Auth/EmailLoginCode', { email: later.email });
    await deps().db.update(users).set({ status: 'Disabled' }).where(eq(users.id, later.id));
    const disabled = await post(server, '/api/Auth/EmailLogin', {
      email: later.email,
      code: await mailedCode(later.email!),
    });
    expect(disabled.status).toBe(400);
    expect(disabled.body.data).toBe('The account is disabled.');

    // A code issued while active, then the account deactivated: the right code does not sign in.
    const inactive = await createTestUser(deps());
    await post(server, '/api/Auth/EmailLoginCode', { email: inactive.email });
    await deps().db.update(users).set({ isActive: false }).where(eq(users.id, inactive.id));
    const refused = await post(server, '/api/Auth/EmailLogin', {
      email: inactive.email,
      code: await mailedCode(inactive.email!),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.data).toMatch(/not (been )?activated|inactive/i);
  });

  it('signs in an account whose password expired (the code does not use the password), while password login refuses it', async () => {
    const user = await createTestUser(deps(), { passwordExpiresTime: new Date(Date.now() - 1000) });
    const res = await emailCodeLogin(user.email!);
    expect(res.status).toBe(200);
    expect((await server.json('/api/Auth/UserInfo', { headers: bearer(res.body.data.accessToken) })).status).toBe(200);
    const headers = client();
    const captchaId = (await server.json('/api/Auth/Captcha', { headers })).body.data.captchaId as string;
    const viaPassword = await post(
      server,
      '/api/Auth/Login',
      { username: user.email, password: user.password, captchaId, captchaCode: codes.last('captcha', captchaId) },
      headers,
    );
    expect(viaPassword.status).toBe(400);
    expect(viaPassword.body.data).toMatch(/expired/i);
  });

  it('lands like a password login: one membership lands in that tenant', async () => {
    const tenant = await createTestTenant(deps());
    const user = await createTestUser(deps(), { tenantId: tenant, memberOf: [tenant] });
    const res = await emailCodeLogin(user.email!);
    expect(res.status).toBe(200);
    expect(claimsOf(res.body.data.accessToken).TenantId).toBe(String(tenant));
  });

  it('keeps the forced password change of an account an administrator flagged', async () => {
    const user = await createTestUser(deps(), { mustChangePassword: true });
    const res = await emailCodeLogin(user.email!);
    expect(res.status).toBe(200);
    const info = await server.json('/api/Auth/UserInfo', {
      headers: { ...bearer(res.body.data.accessToken), 'x-language': 'en-US' },
    });
    expect(info.status).toBe(423);
    expect(info.body.data).toMatchObject({ reason: 'PasswordChangeRequired' });
  });

  it('20 parallel EmailLogin with one code: exactly one succeeds', async () => {
    const user = await createTestUser(deps());
    await post(server, '/api/Auth/EmailLoginCode', { email: user.email });
    const code = await mailedCode(user.email!);
    const headers = client();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => post(server, '/api/Auth/EmailLogin', { email: user.email, code }, headers)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    const sessions = await deps().db.select().from(userSessions).where(eq(userSessions.userId, user.id));
    expect(sessions).toHaveLength(1);
  });
});

describe('second factor after a code login', () => {
  it('answers a challenge with a ticket; the ticket with a TOTP code gives the tokens, once', async () => {
    const secret = generateTotpSecret();
    const user = await createTestUser(deps(), { twoFactorMethod: TwoFactorFlags.Totp, twoFactorSecret: secret });
    const first = await emailCodeLogin(user.email!);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      requiresTwoFactor: true,
      availableTwoFactorMethods: ['totp'],
      twoFactorMethod: 'totp',
      codeSent: false,
    });
    expect(first.body.data).not.toHaveProperty('accessToken');
    const ticket = first.body.data.twoFactorTicket as string;
    const logs = await deps()
      .db.select()
      .from(loginLogs)
      .where(and(eq(loginLogs.userId, user.id), eq(loginLogs.result, LoginResult.RequiresTwoFactor)));
    expect(logs).toHaveLength(1);

    const wrong = await post(server, '/api/Auth/EmailLogin', {
      email: user.email,
      twoFactorTicket: ticket,
      twoFactorMethod: 'totp',
      twoFactorCode: '000000' === totpCode(secret, Date.now()) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.data).toMatch(/verification code is invalid/);
    const [security] = await deps().db.select().from(userSecurity).where(eq(userSecurity.userId, user.id));
    expect(security!.failedLoginAttempts).toBe(1);

    const ok = await post(server, '/api/Auth/EmailLogin', {
      email: user.email,
      twoFactorTicket: ticket,
      twoFactorMethod: 'totp',
      twoFactorCode: totpCode(secret, Date.now()),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.accessToken).toBeTruthy();
    const reuse = await post(server, '/api/Auth/EmailLogin', {
      email: user.email,
      twoFactorTicket: ticket,
      twoFactorMethod: 'totp',
      twoFactorCode: totpCode(secret, Date.now() + 30_000),
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.data).toMatch(/Two-factor verification has expired/);
  });

  it('does not offer the first factor\u2019s channel; an account with only that factor must use its password', async () => {
    const secret = generateTotpSecret();
    const both = await createTestUser(deps(), {
      twoFactorMethod: TwoFactorFlags.Totp | TwoFactorFlags.Email,
      twoFactorSecret: secret,
    });
    const first = await emailCodeLogin(both.email!);
    expect(first.body.data).toMatchObject({ requiresTwoFactor: true, availableTwoFactorMethods: ['totp'] });

    const emailOnly = await createTestUser(deps(), { twoFactorMethod: TwoFactorFlags.Email });
    const refused = await emailCodeLogin(emailOnly.email!);
    expect(refused.status).toBe(400);
    expect(refused.body.data).toMatch(/same channel as this sign-in method/);
  });

  it('sends an e-mail second-factor code after a phone login, and TwoFactorLogin completes it', async () => {
    const user = await createTestUser(deps(), {
      twoFactorMethod: TwoFactorFlags.Email | TwoFactorFlags.Phone,
      phone: '+15550111',
      phoneVerified: true,
    });
    await post(server, '/api/Auth/PhoneLoginCode', { phone: '+1 555-0111' });
    const sms = (await mailsTo(server, '+15550111', 'login-code')).at(-1)!;
    expect(sms.channel).toBe('sms');
    const first = await post(server, '/api/Auth/PhoneLogin', { phone: '+15550111', code: codeIn(sms.text) });
    expect(first.body.data).toMatchObject({
      requiresTwoFactor: true,
      availableTwoFactorMethods: ['email'],
      twoFactorMethod: 'email',
      codeSent: true,
    });
    const mail = (await mailsTo(server, user.email!, 'two-factor-code')).at(-1)!;
    const done = await post(server, '/api/Auth/TwoFactorLogin', {
      twoFactorTicket: first.body.data.twoFactorTicket,
      twoFactorMethod: 'email',
      twoFactorCode: codeIn(mail.text),
    });
    expect(done.status).toBe(200);
    expect(done.body.data.requiresTwoFactor).toBe(false);
    expect(claimsOf(done.body.data.token.accessToken).UserId).toBe(String(user.id));
    const [session] = await deps().db.select().from(userSessions).where(eq(userSessions.userId, user.id));
    expect(session!.loginMethod).toBe('phone-code');
  });

  it('limits second-factor re-sends like sign-in codes: one a minute per number and client address, 10 texts a day per number', async () => {
    const user = await createTestUser(deps(), {
      twoFactorMethod: TwoFactorFlags.Phone,
      phone: '+15550999',
      phoneVerified: true,
    });
    const first = await emailCodeLogin(user.email!);
    expect(first.body.data).toMatchObject({ requiresTwoFactor: true, twoFactorMethod: 'phone', codeSent: true });
    const resend = { twoFactorTicket: first.body.data.twoFactorTicket, twoFactorMethod: 'phone' };
    const headers = client();
    expect((await post(server, '/api/Auth/TwoFactorLogin', resend, headers)).status).toBe(200);
    const again = await post(server, '/api/Auth/TwoFactorLogin', resend, headers);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(50);
    // From other addresses, up to the number's 10 texts of the day (the challenge's included).
    for (let i = 0; i < 8; i++) expect((await post(server, '/api/Auth/TwoFactorLogin', resend)).status).toBe(200);
    expect((await post(server, '/api/Auth/TwoFactorLogin', resend)).status).toBe(429);
    expect(await mailsTo(server, '+15550999', 'two-factor-code')).toHaveLength(10);
  });

  it('throttles TwoFactorLogin per client address', async () => {
    // All at once: the limit admits 30 together, then one every 2 s.
    const headers = client();
    const answers = await Promise.all(
      Array.from({ length: 31 }, (_, i) =>
        post(
          server,
          '/api/Auth/TwoFactorLogin',
          { twoFactorTicket: `made-up-${i}`, twoFactorMethod: 'totp', twoFactorCode: '123456' },
          headers,
        ),
      ),
    );
    expect(answers.filter((r) => r.status === 400)).toHaveLength(30);
    const throttled = answers.filter((r) => r.status === 429);
    expect(throttled).toHaveLength(1);
    expect(throttled[0]!.headers.get('retry-after')).toBeTruthy();
  });

  it('voids a ticket posted for another address, and refuses made-up tickets', async () => {
    const secret = generateTotpSecret();
    const owner = await createTestUser(deps(), { twoFactorMethod: TwoFactorFlags.Totp, twoFactorSecret: secret });
    const other = await createTestUser(deps());
    const ticket = (await emailCodeLogin(owner.email!)).body.data.twoFactorTicket;
    const stolen = await post(server, '/api/Auth/EmailLogin', {
      email: other.email,
      twoFactorTicket: ticket,
      twoFactorMethod: 'totp',
      twoFactorCode: totpCode(secret, Date.now()),
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.data).toMatch(/Two-factor verification has expired/);
    const owners = await post(server, '/api/Auth/EmailLogin', {
      email: owner.email,
      twoFactorTicket: ticket,
      twoFactorMethod: 'totp',
      twoFactorCode: totpCode(secret, Date.now()),
    });
    expect(owners.status).toBe(400);
    const madeUp = await post(server, '/api/Auth/TwoFactorLogin', {
      twoFactorTicket: 'made-up',
      twoFactorMethod: 'totp',
      twoFactorCode: '123456',
    });
    expect(madeUp.status).toBe(400);
    expect((await post(server, '/api/Auth/TwoFactorLogin', {})).status).toBe(400);
  });
});

describe('PhoneLoginCode / PhoneLogin', () => {
  it('texts a code to a verified phone and signs in with it', async () => {
    const user = await createTestUser(deps(), { phone: '+8613800000001', phoneVerified: true });
    const res = await post(server, '/api/Auth/PhoneLoginCode', { phone: '+86 138 0000 0001' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ expiresInSeconds: 600 });
    const [sms] = await mailsTo(server, '+8613800000001', 'login-code');
    expect(sms).toMatchObject({ channel: 'sms' });
    expect(sms).not.toHaveProperty('subject');
    const login = await post(server, '/api/Auth/PhoneLogin', { phone: '+8613800000001', code: codeIn(sms!.text) });
    expect(login.status).toBe(200);
    expect(claimsOf(login.body.data.accessToken)).toMatchObject({ UserId: String(user.id), Phone: '+8613800000001' });
    expect(
      (await post(server, '/api/Auth/PhoneLogin', { phone: '+8613800000001', code: codeIn(sms!.text) })).status,
    ).toBe(400);
  });

  it('sends nothing to an unverified or unknown phone, with the same answer', async () => {
    await createTestUser(deps(), { phone: '+8613800000002', phoneVerified: false });
    const a = await post(server, '/api/Auth/PhoneLoginCode', { phone: '+8613800000002' });
    const b = await post(server, '/api/Auth/PhoneLoginCode', { phone: '+8613899999999' });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data).toEqual(b.body.data);
    expect(await mailsTo(server, '+8613800000002')).toEqual([]);
    expect(codes.all.filter((c) => c.target === '+8613800000002')).toEqual([]);
  });

  it('throttles per number and address, and caps a number at 10 texts a day', async () => {
    await createTestUser(deps(), { phone: '+8613800000003', phoneVerified: true });
    const headers = client();
    expect((await post(server, '/api/Auth/PhoneLoginCode', { phone: '+8613800000003' }, headers)).status).toBe(200);
    expect((await post(server, '/api/Auth/PhoneLoginCode', { phone: '+8613800000003' }, headers)).status).toBe(429);
    for (let i = 0; i < 9; i++)
      expect((await post(server, '/api/Auth/PhoneLoginCode', { phone: '+8613800000003' })).status).toBe(200);
    const capped = await post(server, '/api/Auth/PhoneLoginCode', { phone: '+8613800000003' });
    expect(capped.status).toBe(429);
    expect(await mailsTo(server, '+8613800000003')).toHaveLength(10);
  });

  it('sends nothing to a number verified on two accounts (signs in neither)', async () => {
    await createTestUser(deps(), { phone: '+8613800000007', phoneVerified: true });
    await createTestUser(deps(), { phone: '+8613800000007', phoneVerified: true });
    expect((await post(server, '/api/Auth/PhoneLoginCode', { phone: '+8613800000007' })).status).toBe(200);
    expect(await mailsTo(server, '+8613800000007')).toEqual([]);
    expect(codes.all.filter((c) => c.target === '+8613800000007')).toEqual([]);
  });

  it('caps texts at 50 a day per client address, whatever the numbers', async () => {
    const headers = client();
    // Unknown numbers: the cap counts requests, not texts, so nobody can run up the bill.
    const answers = [];
    for (let i = 0; i < 51; i++)
      answers.push(
        (await post(server, '/api/Auth/PhoneLoginCode', { phone: `+4930${String(i).padStart(6, '0')}` }, headers))
          .status,
      );
    expect(answers.slice(0, 50).every((s) => s === 200)).toBe(true);
    expect(answers[50]).toBe(429);
  });

  it('answers a malformed number with 400', async () => {
    for (const phone of ['', 'abc', '12', '+'.repeat(3), '1'.repeat(30)]) {
      expect((await post(server, '/api/Auth/PhoneLoginCode', { phone })).status, phone).toBe(400);
      expect((await post(server, '/api/Auth/PhoneLogin', { phone, code: '123456' })).status, phone).toBe(400);
    }
  });
});

describe('code expiry (frozen clock, in-process store)', () => {
  let frozen: TestServer;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    frozen = await startTestServer({
      clock,
      config: { Redis: { Url: undefined }, App: { TrustForwardedHeaders: true } },
    });
  });
  afterAll(() => frozen.close());

  it('refuses a code after 10 minutes', async () => {
    const user = await createTestUser(frozen.runtime.deps);
    await post(frozen, '/api/Auth/EmailLoginCode', { email: user.email });
    const mail = (await mailsTo(frozen, user.email!, 'login-code'))[0]!;
    clock.advance(10 * 60_000 + 1000);
    const late = await post(frozen, '/api/Auth/EmailLogin', { email: user.email, code: codeIn(mail.text) });
    expect(late.status).toBe(400);
    // A new window: a new code may be requested and works.
    await post(frozen, '/api/Auth/EmailLoginCode', { email: user.email });
    const fresh = (await mailsTo(frozen, user.email!, 'login-code')).at(-1)!;
    expect((await post(frozen, '/api/Auth/EmailLogin', { email: user.email, code: codeIn(fresh.text) })).status).toBe(
      200,
    );
  });
});
