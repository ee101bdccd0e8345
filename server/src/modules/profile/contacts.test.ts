import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, users } from '../../../../db/schema/index.js';
import { ManualClock } from '../../infra/clock.js';
import { createTestUser, watchCodes } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { client, codeIn, mailsTo } from '../auth/self-service/self-service-test-kit.js';
import { startSessionServer } from '../auth/session/sessions-test-kit.js';
import { impersonate, profileCall, signedInOn } from './profile-test-kit.js';

/**
 * The contact operations over real HTTP: change and verify e-mail and phone in two steps, codes
 * read from the outbox as a user reads them; limits, bars, one use under concurrency, no
 * enumeration, nothing half-written.
 */

let server: TestServer;
let codes: ReturnType<typeof watchCodes>;
beforeAll(async () => {
  server = await startSessionServer({ config: { App: { TrustForwardedHeaders: true } } });
  codes = watchCodes(server.runtime.deps);
});
afterAll(() => server.close());
const deps = () => server.runtime.deps;
const auditOf = (userId: bigint, action: string) =>
  deps()
    .db.select()
    .from(auditEntries)
    .where(and(eq(auditEntries.action, action), eq(auditEntries.userId, userId)));
const rowOf = async (userId: bigint) => (await deps().db.select().from(users).where(eq(users.id, userId)))[0]!;

/** A user signed in; every call comes from its own client address unless one is given. */
async function signedIn(options: Parameters<typeof signedInOn>[2] = {}) {
  const { user, tokens } = await signedInOn(server, ['laptop'], options);
  const call = profileCall(server, tokens.laptop!);
  return {
    user,
    token: tokens.laptop!,
    call: (method: 'GET' | 'POST' | 'PUT', path: string, json?: unknown, headers: Record<string, string> = client()) =>
      call(method, path, json, headers),
  };
}

async function lastCode(to: string): Promise<string> {
  const mail = (await mailsTo(server, to, 'contact-code')).at(-1);
  if (!mail) throw new Error(`no code sent to ${to}`);
  return codeIn(mail.text);
}

const fresh = (tag: string) => `${tag}.${deps().ids.next()}@example.test`;

describe('ChangeEmail', () => {
  it('sends a code to the new address and sets it, verified, on confirmation; audited; both addresses told', async () => {
    const { user, call, token } = await signedIn({ emailVerified: false });
    const next = fresh('new');
    const sent = await call('POST', 'SendChangeEmailCode', { newEmail: next, password: user.password });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ expiresInSeconds: 600 });
    const [mail] = await mailsTo(server, next, 'contact-code');
    expect(mail).toMatchObject({ channel: 'email', subject: 'Your verification code' });
    expect(mail!.text).toMatch(/valid for 10 minutes/);
    expect(await rowOf(user.id)).toMatchObject({ email: user.email });

    const done = await call('POST', 'ConfirmChangeEmail', { code: codeIn(mail!.text) });
    expect(done.status).toBe(200);
    expect(await rowOf(user.id)).toMatchObject({ email: next, emailVerified: true });
    expect((await call('GET', 'Profile')).body.data).toMatchObject({ email: next, emailVerified: true });
    expect(
      (await server.json('/api/Auth/UserInfo', { headers: { authorization: `Bearer ${token}` } })).body.data,
    ).toMatchObject({ email: next });
    expect(await auditOf(user.id, 'EmailChanged')).toEqual([
      expect.objectContaining({ actorUserId: user.id, detail: { from: user.email, to: next } }),
    ]);
    expect((await mailsTo(server, user.email!, 'security-alert')).map((m) => m.subject)).toContain(
      'Your e-mail address was changed',
    );
    expect((await mailsTo(server, next, 'security-alert')).map((m) => m.subject)).toContain(
      'Your e-mail address was changed',
    );
    // One use.
    expect((await call('POST', 'ConfirmChangeEmail', { code: codeIn(mail!.text) })).status).toBe(422);
  });

  it('answers the same for a taken address until the code is confirmed', async () => {
    const { user, call } = await signedIn();
    const other = await createTestUser(deps());
    const free = await call('POST', 'SendChangeEmailCode', { newEmail: fresh('free'), password: user.password });
    const taken = await call('POST', 'SendChangeEmailCode', {
      newEmail: other.email!.toUpperCase(),
      password: user.password,
    });
    expect([free.status, taken.status]).toEqual([200, 200]);
    expect(taken.body.data).toEqual(free.body.data);
    const confirm = await call(
      'POST',
      'ConfirmChangeEmail',
      { code: await lastCode(other.email!.toUpperCase()) },
      { ...client(), 'x-language': 'zh-CN' },
    );
    expect(confirm.status).toBe(422);
    expect(confirm.body.data).toBe('邮箱已被其他账号使用。');
    expect(await rowOf(user.id)).toMatchObject({ email: user.email });
    expect(await auditOf(user.id, 'EmailChanged')).toEqual([]);
  });

  it('refuses a wrong password (422) and the current address (422), sending nothing', async () => {
    const { user, call } = await signedIn();
    const next = fresh('nopw');
    const wrong = await call('POST', 'SendChangeEmailCode', { newEmail: next, password: 'Wrong#Passw0rd' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.data).toBe('The current password is incorrect.');
    const same = await call('POST', 'SendChangeEmailCode', {
      newEmail: user.email!.toUpperCase(),
      password: user.password,
    });
    expect(same.status).toBe(422);
    expect(await mailsTo(server, next)).toEqual([]);
    expect(await mailsTo(server, user.email!, 'contact-code')).toEqual([]);
  });

  it('of parallel confirmations with one code exactly one succeeds', async () => {
    const { user, call } = await signedIn();
    const next = fresh('race');
    await call('POST', 'SendChangeEmailCode', { newEmail: next, password: user.password });
    const code = await lastCode(next);
    const results = await Promise.all(Array.from({ length: 6 }, () => call('POST', 'ConfirmChangeEmail', { code })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422, 422]);
    expect(await auditOf(user.id, 'EmailChanged')).toHaveLength(1);
  });

  it('a wrong code spends the code; the fifth wrong code bars the step for 10 minutes (429)', async () => {
    const { user, call } = await signedIn();
    const next = fresh('wrong');
    await call('POST', 'SendChangeEmailCode', { newEmail: next, password: user.password });
    const code = await lastCode(next);
    const wrong = code === '000000' ? '111111' : '000000';
    const first = await call('POST', 'ConfirmChangeEmail', { code: wrong });
    expect(first.status).toBe(422);
    expect(first.body.data).toBe('The code is wrong or has expired.');
    expect((await call('POST', 'ConfirmChangeEmail', { code })).status).toBe(422);
    for (let i = 0; i < 3; i++) expect((await call('POST', 'ConfirmChangeEmail', { code: 'abc' })).status).toBe(422);
    const barred = await call('POST', 'ConfirmChangeEmail', { code });
    expect(barred.status).toBe(429);
    expect(barred.body.data).toMatch(/Too many wrong codes/);
    expect(Number(barred.headers.get('retry-after'))).toBeGreaterThan(500);
    // Sending for the barred step is refused too; other steps are not barred.
    expect(
      (await call('POST', 'SendChangeEmailCode', { newEmail: fresh('later'), password: user.password })).status,
    ).toBe(429);
    expect((await call('POST', 'SendEmailVerifyCode')).status).toBe(200);
    expect(await rowOf(user.id)).toMatchObject({ email: user.email });
  });

  it('a failed send answers 502 and leaves the earlier pending change usable, the failed code not', async () => {
    const { user, call } = await signedIn();
    const good = fresh('good');
    await call('POST', 'SendChangeEmailCode', { newEmail: good, password: user.password });
    const goodCode = await lastCode(good);
    const bad = fresh('bad');
    const send = deps().messages.send.bind(deps().messages);
    deps().messages.send = async (m) => {
      if (m.to === bad) throw new Error('smtp down');
      return send(m);
    };
    try {
      const failed = await call('POST', 'SendChangeEmailCode', { newEmail: bad, password: user.password });
      expect(failed.status).toBe(502);
      expect(failed.body.code).toBe(14000);
    } finally {
      deps().messages.send = send;
    }
    const issued = codes.last('change-email', `${user.id}:${bad}`);
    expect(issued).toBeDefined();
    expect((await call('POST', 'ConfirmChangeEmail', { code: goodCode })).status).toBe(200);
    expect(await rowOf(user.id)).toMatchObject({ email: good });
  });

  it('is refused while impersonating (403), every contact step', async () => {
    const { user, token, call } = await signedIn({ phone: '+15550190' });
    await impersonate(server, token);
    const steps: Array<[string, unknown]> = [
      ['SendChangeEmailCode', { newEmail: fresh('imp'), password: user.password }],
      ['ConfirmChangeEmail', { code: '123456' }],
      ['SendChangePhoneCode', { newPhone: '+15550191', password: user.password }],
      ['ConfirmChangePhone', { code: '123456' }],
      ['SendEmailVerifyCode', undefined],
      ['VerifyEmail', { code: '123456' }],
      ['SendPhoneVerifyCode', undefined],
      ['VerifyPhone', { code: '123456' }],
    ];
    for (const [path, body] of steps) expect((await call('POST', path, body)).status, path).toBe(403);
  });

  it('answers bad input with a 400 envelope, never a 500', async () => {
    const { user, call } = await signedIn();
    const bad: Array<[string, unknown]> = [
      ['SendChangeEmailCode', {}],
      ['SendChangeEmailCode', { newEmail: 'not-an-address', password: user.password }],
      ['SendChangeEmailCode', { newEmail: `${'a'.repeat(95)}@x.test`, password: user.password }],
      ['SendChangeEmailCode', { newEmail: 42, password: user.password }],
      ['SendChangeEmailCode', { newEmail: fresh('x') }],
      ['SendChangePhoneCode', { newPhone: 'abc', password: user.password }],
      ['SendChangePhoneCode', { newPhone: '1'.repeat(21), password: user.password }],
      ['SendChangePhoneCode', { newPhone: null, password: user.password }],
      ['ConfirmChangeEmail', {}],
      ['ConfirmChangeEmail', { code: 123456 }],
      ['ConfirmChangePhone', { code: null }],
      ['VerifyEmail', { code: 'x'.repeat(33) }],
      ['VerifyPhone', { code: [] }],
    ];
    for (const [path, body] of bad) {
      const res = await call('POST', path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.isSuccess).toBe(false);
    }
  });
});

describe('send limits', () => {
  it('one a minute per address and client; 10 a day per address', async () => {
    const { call } = await signedIn({ emailVerified: false });
    const headers = client();
    expect((await call('POST', 'SendEmailVerifyCode', undefined, headers)).status).toBe(200);
    const again = await call('POST', 'SendEmailVerifyCode', undefined, headers);
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    for (let i = 0; i < 9; i++) expect((await call('POST', 'SendEmailVerifyCode')).status).toBe(200);
    expect((await call('POST', 'SendEmailVerifyCode')).status).toBe(429);
  });

  it('50 a day per client address, whatever the addresses', async () => {
    const { user, call } = await signedIn({ emailVerified: false });
    const headers = client();
    const answers = [];
    for (let i = 0; i < 51; i++) {
      await deps()
        .db.update(users)
        .set({ email: fresh('cap') })
        .where(eq(users.id, user.id));
      answers.push((await call('POST', 'SendEmailVerifyCode', undefined, headers)).status);
    }
    expect(answers.slice(0, 50).every((s) => s === 200)).toBe(true);
    expect(answers[50]).toBe(429);
  });
});

describe('VerifyEmail', () => {
  it('marks the current address verified with its code; audited', async () => {
    const { user, call } = await signedIn({ emailVerified: false });
    const sent = await call('POST', 'SendEmailVerifyCode');
    expect(sent.body.data).toEqual({ expiresInSeconds: 600 });
    expect((await call('POST', 'VerifyEmail', { code: await lastCode(user.email!) })).status).toBe(200);
    expect(await rowOf(user.id)).toMatchObject({ emailVerified: true });
    expect(await auditOf(user.id, 'EmailVerified')).toHaveLength(1);
  });

  it('a code sent before the address changed does not verify the new one', async () => {
    const { user, call } = await signedIn({ emailVerified: false });
    await call('POST', 'SendEmailVerifyCode');
    const code = await lastCode(user.email!);
    await deps()
      .db.update(users)
      .set({ email: fresh('moved') })
      .where(eq(users.id, user.id));
    expect((await call('POST', 'VerifyEmail', { code })).status).toBe(422);
    expect(await rowOf(user.id)).toMatchObject({ emailVerified: false });
  });

  it('no address: 422', async () => {
    const { user, call } = await signedIn();
    await deps().db.update(users).set({ email: null }).where(eq(users.id, user.id));
    const res = await call('POST', 'SendEmailVerifyCode', undefined, { ...client(), 'x-language': 'zh-CN' });
    expect(res.status).toBe(422);
    expect(res.body.data).toBe('当前账号未绑定邮箱。');
  });
});

describe('phone', () => {
  it('ChangePhone texts the new number and sets it verified; audited; told', async () => {
    const { user, call } = await signedIn();
    const number = `+1555${String(deps().ids.next()).slice(-7)}`;
    const sent = await call('POST', 'SendChangePhoneCode', {
      newPhone: `${number.slice(0, 5)} ${number.slice(5)}`,
      password: user.password,
    });
    expect(sent.status).toBe(200);
    const [text] = await mailsTo(server, number, 'contact-code');
    expect(text).toMatchObject({ channel: 'sms' });
    expect((await call('POST', 'ConfirmChangePhone', { code: codeIn(text!.text) })).status).toBe(200);
    expect(await rowOf(user.id)).toMatchObject({ phone: number, phoneVerified: true });
    expect(await auditOf(user.id, 'PhoneChanged')).toHaveLength(1);
    // The verified number now signs in by phone code.
    expect((await call('GET', 'Profile')).body.data).toMatchObject({ phone: number, phoneVerified: true });
  });

  it('refuses a number verified on another account at confirmation (422)', async () => {
    const number = `+1556${String(deps().ids.next()).slice(-7)}`;
    await createTestUser(deps(), { phone: number, phoneVerified: true });
    const { user, call } = await signedIn();
    expect((await call('POST', 'SendChangePhoneCode', { newPhone: number, password: user.password })).status).toBe(200);
    const res = await call('POST', 'ConfirmChangePhone', { code: await lastCode(number) });
    expect(res.status).toBe(422);
    expect(res.body.data).toBe('The phone number is verified on another account.');
    expect(await rowOf(user.id)).toMatchObject({ phone: null });
  });

  it('VerifyPhone marks the current number verified; no number is 422', async () => {
    const number = `+1557${String(deps().ids.next()).slice(-7)}`;
    const { user, call } = await signedIn({ phone: number, phoneVerified: false });
    expect((await call('POST', 'SendPhoneVerifyCode')).status).toBe(200);
    expect((await call('POST', 'VerifyPhone', { code: await lastCode(number) })).status).toBe(200);
    expect(await rowOf(user.id)).toMatchObject({ phoneVerified: true });
    expect(await auditOf(user.id, 'PhoneVerified')).toHaveLength(1);
    const none = await signedIn();
    const res = await none.call('POST', 'SendPhoneVerifyCode');
    expect(res.status).toBe(422);
    expect(res.body.data).toBe('The account has no phone number.');
  });

  it('two accounts verifying one number at once: one wins', async () => {
    const number = `+1558${String(deps().ids.next()).slice(-7)}`;
    const a = await signedIn({ phone: number });
    const b = await signedIn({ phone: number });
    await a.call('POST', 'SendPhoneVerifyCode');
    const codeA = await lastCode(number);
    await b.call('POST', 'SendPhoneVerifyCode');
    const codeB = await lastCode(number);
    const results = await Promise.all([
      a.call('POST', 'VerifyPhone', { code: codeA }),
      b.call('POST', 'VerifyPhone', { code: codeB }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
  });
});

describe('the bar ends after 10 minutes (moved clock)', () => {
  let frozen: TestServer;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    frozen = await startSessionServer({ clock, config: { App: { TrustForwardedHeaders: true } } });
  });
  afterAll(() => frozen.close());

  it('refuses for 10 minutes after the fifth wrong code, then sends and confirms again', async () => {
    const { user, tokens } = await signedInOn(frozen, ['laptop'], { emailVerified: false });
    const call = profileCall(frozen, tokens.laptop!);
    for (let i = 0; i < 5; i++)
      expect((await call('POST', 'VerifyEmail', { code: '000000' }, client())).status).toBe(422);
    const barred = await call('POST', 'SendEmailVerifyCode', undefined, client());
    expect(barred.status).toBe(429);
    expect(Number(barred.headers.get('retry-after'))).toBe(600);
    clock.advance(9 * 60_000);
    expect((await call('POST', 'VerifyEmail', { code: '000000' }, client())).status).toBe(429);
    clock.advance(60_000 + 1000);
    expect((await call('POST', 'SendEmailVerifyCode', undefined, client())).status).toBe(200);
    const mail = (await mailsTo(frozen, user.email!, 'contact-code')).at(-1)!;
    expect((await call('POST', 'VerifyEmail', { code: codeIn(mail.text) }, client())).status).toBe(200);
  });
});
