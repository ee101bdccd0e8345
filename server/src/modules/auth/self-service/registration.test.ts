import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantMemberships, userRoles, users } from '../../../../../db/schema/index.js';
import { bearer, claimsOf, createTestUser, GOOD_PASSWORD } from '../../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../testing/harness.js';
import { client, codeIn, mailsTo, post, tokenIn } from './self-service-test-kit.js';

/** Self-registration and e-mail verification over HTTP, codes and links read from the outbox. */

let server: TestServer;
const deps = () => server.runtime.deps;
beforeAll(async () => {
  server = await startTestServer({
    config: { App: { TrustForwardedHeaders: true }, Saas: { Auth: { CaptchaEnabled: false } } },
  });
});
afterAll(() => server.close());

let n = 0;
const newEmail = () => `reg-${process.pid}-${++n}@example.test`;
const register = (body: Record<string, unknown>, headers = client()) =>
  post(server, '/api/Auth/Register', body, headers);
const passwordLogin = (username: string, password = GOOD_PASSWORD) =>
  post(server, '/api/Auth/Login', { username, password });

describe('Register', () => {
  it('creates an inactive member of the default tenant, mails a code and a link, and the code activates it', async () => {
    const email = newEmail();
    const res = await register({
      email: email.toUpperCase(),
      password: GOOD_PASSWORD,
      username: 'new_person',
      nickName: 'New Person',
      phone: '+1 555 0199',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      userName: 'new_person',
      requiresEmailVerification: true,
      expiresInSeconds: 600,
    });
    expect(res.body.data).not.toHaveProperty('debugCode');
    const [user] = await deps()
      .db.select()
      .from(users)
      .where(eq(users.id, BigInt(res.body.data.userId)));
    expect(user).toMatchObject({
      email,
      tenantId: 1n,
      isActive: false,
      emailVerified: false,
      status: 'Enabled',
      nickName: 'New Person',
      phone: '+15550199',
      phoneVerified: false,
    });
    expect(await deps().db.select().from(userRoles).where(eq(userRoles.userId, user!.id))).toEqual([]);
    const [membership] = await deps().db.select().from(tenantMemberships).where(eq(tenantMemberships.userId, user!.id));
    expect(membership).toMatchObject({ tenantId: 1n, memberType: 'Member', status: 'Active' });

    // Inactive: the password is right but the account cannot log in yet.
    const early = await passwordLogin(email);
    expect(early.status).toBe(400);
    expect(early.body.data).toMatch(/not activated/);

    const [mail] = await mailsTo(server, email, 'email-verification');
    expect(mail).toMatchObject({ subject: 'Verify your e-mail address' });
    expect(mail!.html).toContain('<a href="http://localhost:7777/#/auth/verify-email?token=');
    const wrong = await post(server, '/api/Auth/VerifyEmail', {
      email,
      code: codeIn(mail!.text) === '000000' ? '000001' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.data).toBe('The verification code or link is invalid or has expired.');
    // The code was spent by the wrong guess: a new one is mailed on request.
    expect((await post(server, '/api/Auth/ResendEmailVerification', { email })).body.data).toEqual({ accepted: true });
    const fresh = (await mailsTo(server, email, 'email-verification')).at(-1)!;
    const ok = await post(server, '/api/Auth/VerifyEmail', { email, code: codeIn(fresh.text) });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ verified: true });

    const login = await passwordLogin(email);
    expect(login.status).toBe(200);
    // Exactly one membership: the login lands in the default tenant.
    expect(claimsOf(login.body.data.token.accessToken).TenantId).toBe('1');
    expect(
      (await server.json('/api/Auth/UserInfo', { headers: bearer(login.body.data.token.accessToken) })).body.data.roles,
    ).toEqual([]);
  });

  it('verifies with the mailed link once, and derives a user name when none is given', async () => {
    const email = newEmail();
    const res = await register({ email, password: GOOD_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.data.userName).toMatch(/^reg-\d+-\d+_[0-9a-f]{6}$/);
    const mail = (await mailsTo(server, email, 'email-verification'))[0]!;
    const token = tokenIn(mail.text);
    expect((await post(server, '/api/Auth/VerifyEmail', { token })).body.data).toEqual({ verified: true });
    expect((await post(server, '/api/Auth/VerifyEmail', { token })).status).toBe(400);
    expect((await passwordLogin(email)).status).toBe(200);
    // The code of the same mail is void once the link was used.
    expect((await post(server, '/api/Auth/VerifyEmail', { email, code: codeIn(mail.text) })).status).toBe(400);
  });

  it('answers duplicates with 409: the e-mail in any case, the user name in the tenant', async () => {
    const email = newEmail();
    const name = `dup_${n}`;
    expect((await register({ email, password: GOOD_PASSWORD, username: name })).status).toBe(200);
    const sameEmail = await register({ email: email.toUpperCase(), password: GOOD_PASSWORD });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.data).toBe('This e-mail address is already used by another account.');
    const sameName = await register({ email: newEmail(), password: GOOD_PASSWORD, username: name.toUpperCase() });
    expect(sameName.status).toBe(409);
    expect(sameName.body.data).toBe('This user name is already taken.');
    const existing = await createTestUser(deps());
    expect((await register({ email: existing.email, password: GOOD_PASSWORD })).status).toBe(409);
  });

  it('parallel registrations of one e-mail: exactly one account', async () => {
    const email = newEmail();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => register({ email, password: GOOD_PASSWORD, username: `race_${n}_${i}` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const rows = await deps().db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
    expect(rows).toHaveLength(1);
  });

  it('applies the password rules: 8 to 128 characters and the policy', async () => {
    for (const password of ['Sh0rt!', `${'Aa1!'.repeat(32)}x`, 'alllowercaseletters', 'Password123!'.slice(0, 8)]) {
      const res = await register({ email: newEmail(), password });
      expect(res.status, password).toBe(400);
      expect(res.body.data, password).toMatch(/does not meet the requirements/);
    }
    const personal = await register({ email: newEmail(), password: 'Xx#chosen_name1', username: 'chosen_name1' });
    expect(personal.body.data).toMatch(/must not contain the user name/);
    expect((await register({ email: newEmail(), password: 'x'.repeat(1025) })).status).toBe(400);
  });

  it('answers bad input with a clear 400 and refuses the reserved placeholder domain', async () => {
    for (const body of [
      {},
      { password: GOOD_PASSWORD },
      { email: 'nope', password: GOOD_PASSWORD },
      { email: newEmail() },
      { email: newEmail(), password: GOOD_PASSWORD, username: 'a b' },
      { email: newEmail(), password: GOOD_PASSWORD, phone: 'call me' },
    ]) {
      const res = await register(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Array.isArray(res.body.data), JSON.stringify(body)).toBe(true);
    }
    const reserved = await register({ email: 'someone@external.local', password: GOOD_PASSWORD });
    expect(reserved.status).toBe(400);
    expect(reserved.body.data).toMatch(/reserved/);
    expect((await post(server, '/api/Auth/VerifyEmail', {})).status).toBe(400);
    expect((await post(server, '/api/Auth/VerifyEmail', { token: 'made-up' })).status).toBe(400);
  });

  it('resends only to unverified accounts, with the same answer for any address, at most one mail a minute (a repeat is accepted, not 429)', async () => {
    const verified = await createTestUser(deps());
    for (const email of [verified.email!, 'nobody@example.test']) {
      const res = await post(server, '/api/Auth/ResendEmailVerification', { email });
      expect(res.body.data).toEqual({ accepted: true });
      expect(await mailsTo(server, email)).toEqual([]);
    }
    const email = newEmail();
    await register({ email, password: GOOD_PASSWORD });
    const headers = client();
    expect((await post(server, '/api/Auth/ResendEmailVerification', { email }, headers)).status).toBe(200);
    const repeat = await post(server, '/api/Auth/ResendEmailVerification', { email }, headers);
    expect(repeat.status).toBe(200);
    expect(repeat.body.data).toEqual({ accepted: true });
    // From another client address too: the window is the mailbox's.
    expect((await post(server, '/api/Auth/ResendEmailVerification', { email }, client())).status).toBe(200);
    expect(await mailsTo(server, email, 'email-verification')).toHaveLength(2);
  });
});

describe('registration switched off', () => {
  let closed: TestServer;
  beforeAll(async () => {
    closed = await startTestServer({ config: { Saas: { Auth: { RegistrationEnabled: false } } } });
  });
  afterAll(() => closed.close());

  it('answers 403 and creates nothing', async () => {
    const email = newEmail();
    const res = await closed.json('/api/Auth/Register', {
      method: 'POST',
      json: { email, password: GOOD_PASSWORD },
      headers: { 'x-language': 'en-US' },
    });
    expect(res.status).toBe(403);
    expect(res.body.data).toBe('Self-registration is not open.');
    expect(await closed.runtime.deps.db.select().from(users).where(eq(users.email, email))).toEqual([]);
  });
});
