import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEntries,
  loginLogs,
  notifications,
  recoveryCodes,
  users,
  userSecurity,
  userSessions,
} from '../../../../db/schema/index.js';
import { ManualClock } from '../../infra/clock.js';
import { readOutbox } from '../../infra/messaging/outbox.js';
import { createTestUser, loginAs, watchCodes, type TestUserOptions } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { LoginResult } from '../login-log/write.js';
import { startSessionServer } from '../auth/session/sessions-test-kit.js';
import { totpCode } from '../auth/two-factor/totp.js';
import { appCode, base32Decode, referenceTotp, twoFactorApi } from './two-factor-test-kit.js';

/**
 * Second-factor enrolment over real HTTP: Setup2FA, Send2FASetupCode, Enable2FA, Disable2FA and
 * GET /api/Profile/TwoFactor. The store is in memory even when CI provides Redis: the send and
 * wrong-code windows are judged by the injected clock, which a Redis TTL would not follow.
 */
const clock = new ManualClock(Date.now());
let server: TestServer;
let codes: ReturnType<typeof watchCodes>;
beforeAll(async () => {
  server = await startSessionServer({ clock, config: { Redis: { Url: undefined } } });
  codes = watchCodes(server.runtime.deps);
});
afterAll(() => server.close());
const deps = () => server.runtime.deps;
const outbox = () => readOutbox(path.join(deps().config.App.DataDir, 'outbox'));

/** A user signed in on two devices; `api` acts from the first, `other` is the second's token. */
async function signedIn(options: TestUserOptions = {}) {
  const user = await createTestUser(deps(), options);
  const first = (await loginAs(server, user, { deviceId: 'one' })).accessToken;
  const second = (await loginAs(server, user, { deviceId: 'two' })).accessToken;
  return { user, token: first, other: second, api: twoFactorApi(server, first) };
}

const securityOf = async (userId: bigint) =>
  (await deps().db.select().from(userSecurity).where(eq(userSecurity.userId, userId)))[0]!;
const auditsOf = (userId: bigint, action: 'MfaBound' | 'MfaUnbound' | 'RecoveryCodesGenerated') =>
  deps()
    .db.select()
    .from(auditEntries)
    .where(and(eq(auditEntries.userId, userId), eq(auditEntries.action, action)));

/** A fresh TOTP step for the next code (a step's code is accepted once). */
const nextStep = () => clock.advance(30_000);

describe('the reference TOTP of these tests', () => {
  it('gives the RFC 6238 appendix B values (SHA-1, 8 digits) and agrees with the service at 6 digits', () => {
    const key = Buffer.from('12345678901234567890', 'ascii');
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, expected] of vectors) {
      expect(referenceTotp(key, seconds * 1000, 8)).toBe(expected);
      // The service's own code for the same key (Base32 of the ASCII seed) is the last six digits.
      expect(totpCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', seconds * 1000)).toBe(expected.slice(2));
    }
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').toString('ascii')).toBe('12345678901234567890');
  });
});

describe('POST /api/Profile/Setup2FA', () => {
  it('answers a Base32 secret and the otpauth URI, stores it sealed, and answers the same until TOTP is on', async () => {
    const { user, api } = await signedIn();
    const res = await api.setup();
    expect(res.status).toBe(200);
    const { sharedKey, authenticatorUri } = res.body.data as { sharedKey: string; authenticatorUri: string };
    expect(sharedKey).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(sharedKey)).toHaveLength(20);
    // SPEC: otpauth://totp/<issuer>:<account>?secret=<SECRET>&period=30&digits=6 (issuer appended for apps that file by it).
    expect(authenticatorUri).toBe(
      `otpauth://totp/Portcullis:${user.userName}?secret=${sharedKey}&period=30&digits=6&issuer=Portcullis`,
    );
    const uri = new URL(authenticatorUri);
    expect([uri.protocol, uri.host, decodeURIComponent(uri.pathname)]).toEqual([
      'otpauth:',
      'totp',
      `/Portcullis:${user.userName}`,
    ]);
    expect([...uri.searchParams.keys()].slice(0, 3)).toEqual(['secret', 'period', 'digits']);

    const stored = await securityOf(user.id);
    expect(stored.twoFactorMethod).toBe(0);
    expect(stored.twoFactorSecret).not.toContain(sharedKey);
    expect(stored.twoFactorSecret).toMatch(/^[^:]+:v1\./);
    expect(deps().twoFactorSecrets.openTotp(stored.twoFactorSecret!, user.id)).toBe(sharedKey);
    // Bound to the user: the same ciphertext on another user's row does not open.
    expect(deps().twoFactorSecrets.openTotp(stored.twoFactorSecret!, user.id + 1n)).toBeUndefined();

    const again = await api.setup();
    expect(again.body.data.sharedKey).toBe(sharedKey);
    expect((await api.state()).body.data).toEqual({
      twoFactorEnabled: false,
      twoFactorMethod: 0,
      totpSetupPending: true,
      recoveryCodesRemaining: 0,
    });
    // Not on yet: the password alone still signs in.
    const login = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: user.email, password: user.password },
    });
    expect(login.body.data.requiresTwoFactor).toBe(false);
  });

  it('answers one secret to concurrent first calls', async () => {
    const { user, api } = await signedIn();
    const answers = await Promise.all([api.setup(), api.setup(), api.setup()]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const keys = new Set(answers.map((r) => r.body.data.sharedKey as string));
    expect(keys.size).toBe(1);
    const stored = (await securityOf(user.id)).twoFactorSecret!;
    expect(deps().twoFactorSecrets.openTotp(stored, user.id)).toBe([...keys][0]);
  });

  it('is refused (422) once TOTP is on, so the live secret is never shown again', async () => {
    const { api } = await signedIn();
    const key = (await api.setup()).body.data.sharedKey;
    nextStep();
    expect((await api.enable(1, appCode(key, clock.nowMs()))).status).toBe(200);
    const res = await api.setup();
    expect(res.status).toBe(422);
    expect(res.body.data).toBe('This two-factor method is already on.');
  });
});

describe('POST /api/Profile/Enable2FA with the authenticator', () => {
  it('turns TOTP on for a code of an independent implementation, answers 10 recovery codes once, ends the other sessions and audits', async () => {
    const { user, api, other } = await signedIn();
    const key = (await api.setup()).body.data.sharedKey as string;
    nextStep();
    const stampBefore = (await securityOf(user.id)).securityStamp;
    const res = await api.enable(1, appCode(key, clock.nowMs()));
    expect(res.status).toBe(200);
    const data = res.body.data as { recoveryCodes: string[] };
    expect(data).toMatchObject({
      twoFactorEnabled: true,
      twoFactorMethod: 1,
      totpSetupPending: false,
      recoveryCodesRemaining: 10,
    });
    expect(data.recoveryCodes).toHaveLength(10);
    for (const c of data.recoveryCodes) expect(c).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    expect(new Set(data.recoveryCodes).size).toBe(10);
    // Stored as digests only.
    const rows = await deps().db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(rows).toHaveLength(10);
    for (const row of rows) for (const c of data.recoveryCodes) expect(row.codeDigest).not.toContain(c);

    // The stamp rotated: the other session is over, this one carries on.
    expect((await securityOf(user.id)).securityStamp).not.toBe(stampBefore);
    expect((await twoFactorApi(server, other).userInfo()).status).toBe(401);
    expect((await api.userInfo()).status).toBe(200);
    expect((await api.state()).body.data).toEqual({
      twoFactorEnabled: true,
      twoFactorMethod: 1,
      totpSetupPending: false,
      recoveryCodesRemaining: 10,
    });

    expect(await auditsOf(user.id, 'MfaBound')).toEqual([
      expect.objectContaining({
        actorUserId: user.id,
        detail: expect.objectContaining({ method: 'Totp', twoFactorMethod: 1 }),
      }),
    ]);
    expect(await auditsOf(user.id, 'RecoveryCodesGenerated')).toHaveLength(1);
    const logged = await deps()
      .db.select()
      .from(loginLogs)
      .where(and(eq(loginLogs.userId, user.id), eq(loginLogs.result, LoginResult.MfaBound)));
    expect(logged).toHaveLength(1);
    const notices = await deps()
      .db.select()
      .from(notifications)
      .where(and(eq(notifications.userId, user.id), eq(notifications.notificationType, 'Security')));
    expect(notices.map((n) => n.title)).toContain('Two-step verification turned on');
    expect(
      (await outbox()).some(
        (m) => m.to === user.email && m.kind === 'security-alert' && m.subject === 'Two-step verification turned on',
      ),
    ).toBe(true);

    // Now the login asks for it.
    const login = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: user.email, password: user.password },
    });
    expect(login.body.data).toMatchObject({ requiresTwoFactor: true, availableTwoFactorMethods: ['totp'] });
    // Enabling again: refused.
    expect((await api.enable(1, appCode(key, clock.nowMs()))).status).toBe(422);
  });

  it('needs Setup2FA first (422) and refuses a wrong code (422), a code of a past window and the code just used', async () => {
    const { api } = await signedIn();
    const none = await api.enable(1, '123456');
    expect(none.status).toBe(422);
    expect(none.body.data).toMatch(/has not been set up/);
    const key = (await api.setup()).body.data.sharedKey as string;
    nextStep();
    const right = appCode(key, clock.nowMs());
    const wrong = await api.enable(1, right === '000000' ? '111111' : '000000');
    expect(wrong.status).toBe(422);
    expect(wrong.body.data).toBe('The verification code is invalid or has expired.');
    expect((await api.enable(1, appCode(key, clock.nowMs() - 90_000))).status).toBe(422);
    expect((await api.enable(1, right)).status).toBe(200);
  });

  it('bans code checks for 10 minutes after 5 wrong codes (429 + Retry-After), the right code included', async () => {
    const { api } = await signedIn();
    const key = (await api.setup()).body.data.sharedKey as string;
    nextStep();
    const right = appCode(key, clock.nowMs());
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await api.enable(1, wrong)).status).toBe(422);
    const banned = await api.enable(1, right);
    expect(banned.status).toBe(429);
    expect(Number(banned.headers.get('retry-after'))).toBeGreaterThan(590);
    clock.advance(10 * 60_000 + 1000);
    expect((await api.enable(1, appCode(key, clock.nowMs()))).status).toBe(200);
  });

  it('lets two concurrent enables with one code succeed once', async () => {
    const { user, api } = await signedIn();
    const key = (await api.setup()).body.data.sharedKey as string;
    nextStep();
    const code = appCode(key, clock.nowMs());
    const results = await Promise.all([api.enable(1, code), api.enable(1, code)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(await auditsOf(user.id, 'MfaBound')).toHaveLength(1);
    expect(await deps().db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toHaveLength(10);
  });
});

describe('POST /api/Profile/Send2FASetupCode and Enable2FA by e-mail or phone', () => {
  it('needs no code for TOTP (422) and a verified contact for e-mail and phone (422)', async () => {
    const { api } = await signedIn({ emailVerified: false, phone: '+15551230001', phoneVerified: false });
    const totp = await api.sendCode(1);
    expect(totp.status).toBe(422);
    expect(totp.body.data).toBe('This two-factor method does not need a code to be sent.');
    const email = await api.sendCode(2);
    expect(email.status).toBe(422);
    expect(email.body.data).toBe('The account has no verified e-mail address.');
    const phone = await api.sendCode(4);
    expect(phone.status).toBe(422);
    expect(phone.body.data).toBe('The account has no verified phone number.');
    expect((await api.enable(2, '123456')).status).toBe(422);
    expect((await api.enable(4, '123456')).status).toBe(422);
  });

  it('mails a 6-digit code valid 10 minutes; the code turns e-mail on once; a later method brings no new recovery codes', async () => {
    const { user, api } = await signedIn();
    const res = await api.sendCode(2);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ expiresInSeconds: 600 });
    const code = codes.last('setup-two-factor-email', String(user.id))!;
    expect(code).toMatch(/^\d{6}$/);
    const mail = (await outbox()).filter((m) => m.to === user.email && m.kind === 'two-factor-code').at(-1)!;
    expect(mail.text).toContain(code);
    const on = await api.enable(2, code);
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ twoFactorMethod: 2, recoveryCodesRemaining: 10 });
    expect(on.body.data.recoveryCodes).toHaveLength(10);

    // TOTP as a second method: the flags combine, the recovery codes stay as they were.
    const key = (await api.setup()).body.data.sharedKey as string;
    nextStep();
    const both = await api.enable(1, appCode(key, clock.nowMs()));
    expect(both.body.data).toMatchObject({ twoFactorMethod: 3, recoveryCodesRemaining: 10 });
    expect(both.body.data.recoveryCodes ?? null).toBeNull();
    const login = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: user.email, password: user.password },
    });
    expect(login.body.data.availableTwoFactorMethods).toEqual(['totp', 'email']);
  });

  it('spends a code on its first check, right or wrong', async () => {
    const { user, api } = await signedIn();
    clock.advance(61_000);
    await api.sendCode(2);
    const code = codes.last('setup-two-factor-email', String(user.id))!;
    expect((await api.enable(2, code === '000000' ? '111111' : '000000')).status).toBe(422);
    expect((await api.enable(2, code)).status).toBe(422);
  });

  it('texts the verified phone; one send a minute, 10 a day per number (429 + Retry-After)', async () => {
    const phone = '+15551239876';
    const { user, api } = await signedIn({ phone, phoneVerified: true });
    expect((await api.sendCode(4)).status).toBe(200);
    const sms = (await outbox()).filter((m) => m.channel === 'sms' && m.to === phone);
    expect(sms.at(-1)!.text).toContain(codes.last('setup-two-factor-phone', String(user.id))!);
    const soon = await api.sendCode(4);
    expect(soon.status).toBe(429);
    expect(Number(soon.headers.get('retry-after'))).toBeGreaterThan(0);
    for (let i = 1; i < 10; i++) {
      clock.advance(61_000);
      expect((await api.sendCode(4)).status).toBe(200);
    }
    clock.advance(61_000);
    const daily = await api.sendCode(4);
    expect(daily.status).toBe(429);
    expect(Number(daily.headers.get('retry-after'))).toBeGreaterThan(3600);
    // The last code still turns the phone on.
    expect((await api.enable(4, codes.last('setup-two-factor-phone', String(user.id))!)).body.data).toMatchObject({
      twoFactorMethod: 4,
    });
  });

  it('leaves no usable code when the message cannot be sent (502)', async () => {
    const { user, api } = await signedIn();
    clock.advance(61_000);
    const send = deps().messages.send;
    deps().messages.send = async () => {
      throw new Error('smtp down');
    };
    try {
      const res = await api.sendCode(2);
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(res.status).not.toBe(500);
      expect(res.body.isSuccess).toBe(false);
    } finally {
      deps().messages.send = send;
    }
    expect((await api.enable(2, codes.last('setup-two-factor-email', String(user.id))!)).status).toBe(422);
  });
});

describe('POST /api/Profile/Disable2FA', () => {
  async function withTotpAndEmail() {
    const s = await signedIn();
    const key = (await s.api.setup()).body.data.sharedKey as string;
    nextStep();
    await s.api.enable(1, appCode(key, clock.nowMs()));
    clock.advance(61_000);
    await s.api.sendCode(2);
    await s.api.enable(2, codes.last('setup-two-factor-email', String(s.user.id))!);
    return { ...s, key };
  }

  it('turns a method off with a code of a method that stays on; the TOTP code is spent', async () => {
    const { user, api, key } = await withTotpAndEmail();
    nextStep();
    const code = appCode(key, clock.nowMs());
    const res = await api.disable({ method: 2, code });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      twoFactorEnabled: true,
      twoFactorMethod: 1,
      totpSetupPending: false,
      recoveryCodesRemaining: 10,
    });
    expect(await auditsOf(user.id, 'MfaUnbound')).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ method: 'Email', twoFactorMethod: 1 }) }),
    ]);
    const logged = await deps()
      .db.select()
      .from(loginLogs)
      .where(and(eq(loginLogs.userId, user.id), eq(loginLogs.result, LoginResult.MfaUnbound)));
    expect(logged).toHaveLength(1);
    // Off already: no change, no audit.
    expect((await api.disable({ method: 2, code })).body.data).toMatchObject({ twoFactorMethod: 1 });
    expect(await auditsOf(user.id, 'MfaUnbound')).toHaveLength(1);
  });

  it('turns the last method off with the password: the secret is wiped, the recovery codes go, the other sessions end', async () => {
    const { user, api, other } = await signedIn();
    const key = (await api.setup()).body.data.sharedKey as string;
    nextStep();
    await api.enable(1, appCode(key, clock.nowMs()));
    const fresh = (
      await loginAs(server, user, {
        twoFactorMethod: 'totp',
        twoFactorCode: appCode(key, clock.nowMs() + 30_000),
        twoFactorTicket: await ticketOf(user),
      })
    ).accessToken;
    expect((await twoFactorApi(server, other).userInfo()).status).toBe(401);
    const wrong = await api.disable({ method: 1, password: 'not-the-password' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.data).toBe('The current password is incorrect.');
    const res = await api.disable({ method: 1, password: user.password });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      twoFactorEnabled: false,
      twoFactorMethod: 0,
      totpSetupPending: false,
      recoveryCodesRemaining: 0,
    });
    const stored = await securityOf(user.id);
    expect(stored).toMatchObject({ twoFactorMethod: 0, twoFactorSecret: null, lastTotpStep: null });
    expect(await deps().db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toHaveLength(0);
    expect((await twoFactorApi(server, fresh).userInfo()).status).toBe(401);
    expect((await api.userInfo()).status).toBe(200);
    const notices = await deps().db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notices.map((n) => n.title)).toContain('A two-step verification method was turned off');
  });

  it('takes an e-mail or phone code from Send2FASetupCode as proof', async () => {
    const phone = '+15551234567';
    const { user, api } = await signedIn({ phone, phoneVerified: true });
    clock.advance(61_000);
    await api.sendCode(2);
    await api.enable(2, codes.last('setup-two-factor-email', String(user.id))!);
    clock.advance(61_000);
    await api.sendCode(4);
    await api.enable(4, codes.last('setup-two-factor-phone', String(user.id))!);
    clock.advance(61_000);
    await api.sendCode(4);
    // A phone code (a method that stays on) turns e-mail off; the last one goes with its own code.
    const off = await api.disable({ method: 2, code: codes.last('setup-two-factor-phone', String(user.id)) });
    expect(off.body.data).toMatchObject({ twoFactorMethod: 4, recoveryCodesRemaining: 10 });
    clock.advance(61_000);
    await api.sendCode(4);
    const last = await api.disable({ method: 4, code: codes.last('setup-two-factor-phone', String(user.id)) });
    expect(last.body.data).toMatchObject({ twoFactorEnabled: false, twoFactorMethod: 0, recoveryCodesRemaining: 0 });
  });

  it('refuses a wrong code (422) and counts it toward the ban', async () => {
    const { api, key } = await withTotpAndEmail();
    nextStep();
    const right = appCode(key, clock.nowMs());
    const wrong = right === '000000' ? '111111' : '000000';
    const res = await api.disable({ method: 1, code: wrong });
    expect(res.status).toBe(422);
    expect(res.body.data).toBe('The verification code is invalid or has expired.');
    for (let i = 0; i < 4; i++) await api.disable({ method: 1, code: wrong });
    expect((await api.disable({ method: 1, code: right })).status).toBe(429);
  });

  it('keeps a pending authenticator secret only while TOTP is off and another method is on', async () => {
    const { user, api } = await signedIn();
    await api.sendCode(2);
    await api.enable(2, codes.last('setup-two-factor-email', String(user.id))!);
    await api.setup();
    expect((await api.state()).body.data).toMatchObject({ twoFactorMethod: 2, totpSetupPending: true });
    await api.disable({ method: 2, password: user.password });
    expect((await securityOf(user.id)).twoFactorSecret).toBeNull();
  });
});

/** A first-stage ticket of a password login (captcha off). */
async function ticketOf(user: { email: string | null; password: string }): Promise<string> {
  const res = await server.json('/api/Auth/Login', {
    method: 'POST',
    json: { username: user.email, password: user.password },
  });
  return res.body.data.twoFactorTicket as string;
}

describe('refusals and bad input', () => {
  it('refuses every change (403) to an impersonation session', async () => {
    const admin = await createTestUser(deps());
    const { user, token, api } = await signedIn();
    const sessionId = BigInt(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).SessionId as string);
    await deps().db.update(userSessions).set({ impersonatorUserId: admin.id }).where(eq(userSessions.id, sessionId));
    await deps().sessionState.invalidateUser(user.id);
    for (const res of [
      await api.setup(),
      await api.sendCode(2),
      await api.enable(1, '123456'),
      await api.disable({ method: 1, password: user.password }),
      await api.regenerate(user.password),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.data).toBe('This operation is not allowed while impersonating a user.');
    }
    expect((await securityOf(user.id)).twoFactorSecret).toBeNull();
  });

  it('answers 401 without a session', async () => {
    const res = await server.json('/api/Profile/Setup2FA', { method: 'POST', json: {} });
    expect(res.status).toBe(401);
  });

  it('answers malformed bodies with a 400 envelope, never a 500', async () => {
    const { api } = await signedIn();
    const bad: Array<[string, unknown]> = [
      ['Send2FASetupCode', {}],
      ['Send2FASetupCode', { method: 3 }],
      ['Send2FASetupCode', { method: 8 }],
      ['Send2FASetupCode', { method: 'email' }],
      ['Send2FASetupCode', { method: 2.5 }],
      ['Send2FASetupCode', { method: null }],
      ['Enable2FA', { method: 1 }],
      ['Enable2FA', { code: '123456' }],
      ['Enable2FA', { method: 1, code: '' }],
      ['Enable2FA', { method: 1, code: 123456 }],
      ['Enable2FA', { method: 1, code: '1'.repeat(17) }],
      ['Enable2FA', { method: 0, code: '123456' }],
      ['Disable2FA', { method: 1 }],
      ['Disable2FA', { method: 1, code: '', password: '' }],
      ['Disable2FA', { method: 7, code: '123456' }],
      ['Disable2FA', { method: 1, password: 'x'.repeat(1025) }],
      ['RegenerateRecoveryCodes', {}],
      ['RegenerateRecoveryCodes', { password: 42 }],
      ['RegenerateRecoveryCodes', { password: '' }],
    ];
    for (const [action, body] of bad) {
      const res = await api.post(action, body);
      expect({ action, body, status: res.status }).toEqual({ action, body, status: 400 });
      expect(res.body).toMatchObject({ isSuccess: false });
    }
    for (const action of ['Enable2FA', 'Disable2FA', 'Send2FASetupCode']) {
      const res = await api.raw(action, '{"method":');
      expect(res.status).toBe(400);
      expect(res.body.isSuccess).toBe(false);
    }
  });
});

describe('sealed secrets', () => {
  it('refuses TOTP at login when the stored secret was altered, and accepts it while intact', async () => {
    const { user, api } = await signedIn();
    const key = (await api.setup()).body.data.sharedKey as string;
    nextStep();
    await api.enable(1, appCode(key, clock.nowMs()));
    nextStep();
    const ok = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: {
        username: user.email,
        password: user.password,
        twoFactorMethod: 'totp',
        twoFactorCode: appCode(key, clock.nowMs()),
        twoFactorTicket: await ticketOf(user),
      },
    });
    expect(ok.status).toBe(200);
    const stored = (await securityOf(user.id)).twoFactorSecret!;
    const tampered = stored.slice(0, -4) + (stored.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    await deps().db.update(userSecurity).set({ twoFactorSecret: tampered }).where(eq(userSecurity.userId, user.id));
    nextStep();
    const refused = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: {
        username: user.email,
        password: user.password,
        twoFactorMethod: 'totp',
        twoFactorCode: appCode(key, clock.nowMs()),
        twoFactorTicket: await ticketOf(user),
      },
    });
    expect(refused.status).toBe(400);
    const [row] = await deps().db.select({ id: users.id }).from(users).where(eq(users.id, user.id));
    expect(row).toBeDefined();
  });
});
