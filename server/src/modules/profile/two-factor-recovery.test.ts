import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEntries,
  loginLogs,
  notifications,
  recoveryCodes,
  users,
  userSecurity,
} from '../../../../db/schema/index.js';
import { ManualClock } from '../../infra/clock.js';
import { createTestUser, loginAs, watchCodes } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { LoginResult } from '../login-log/write.js';
import { recoveryCodesRemaining, spendRecoveryCode } from '../auth/recovery-codes.js';
import { startSessionServer } from '../auth/session/sessions-test-kit.js';
import { appCode, twoFactorApi } from './two-factor-test-kit.js';

/**
 * Recovery codes over real HTTP, and the whole path of a user: enrol the authenticator, log out,
 * log in with it, log in with a recovery code, turn the factor off. Runs on the configured store
 * (Redis in CI's second run); the clock is injected only to step the TOTP windows.
 */
const clock = new ManualClock(Date.now());
let server: TestServer;
let codes: ReturnType<typeof watchCodes>;
beforeAll(async () => {
  server = await startSessionServer({ clock });
  codes = watchCodes(server.runtime.deps);
});
afterAll(() => server.close());
const deps = () => server.runtime.deps;
const nextStep = () => clock.advance(30_000);

const login = (user: { email: string | null; password: string }, extra: Record<string, unknown> = {}) =>
  server.json('/api/Auth/Login', {
    method: 'POST',
    headers: { 'x-language': 'en-US' },
    json: { username: user.email, password: user.password, ...extra },
  });

async function ticketOf(
  user: { email: string | null; password: string },
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await login(user, extra);
  expect(res.body.data.requiresTwoFactor).toBe(true);
  return res.body.data.twoFactorTicket as string;
}

/** A user with the authenticator on: its key, its 10 recovery codes, its session's calls. */
async function enrolled() {
  const user = await createTestUser(deps());
  const token = (await loginAs(server, user)).accessToken;
  const api = twoFactorApi(server, token);
  const key = (await api.setup()).body.data.sharedKey as string;
  nextStep();
  const res = await api.enable(1, appCode(key, clock.nowMs()));
  expect(res.status).toBe(200);
  return { user, api, key, recovery: res.body.data.recoveryCodes as string[] };
}

describe('the whole path', () => {
  it('enrol -> log out -> log in with TOTP -> log in with a recovery code -> disable', async () => {
    const { user, api, key, recovery } = await enrolled();
    expect((await api.logout()).status).toBe(200);

    // The password alone is no longer enough.
    const challenge = await login(user);
    expect(challenge.body.data).toMatchObject({
      requiresTwoFactor: true,
      availableTwoFactorMethods: ['totp'],
      twoFactorMethod: 'totp',
      codeSent: false,
    });
    nextStep();
    const withTotp = await login(user, {
      twoFactorMethod: 'totp',
      twoFactorCode: appCode(key, clock.nowMs()),
      twoFactorTicket: challenge.body.data.twoFactorTicket,
    });
    expect(withTotp.status).toBe(200);
    const second = twoFactorApi(server, withTotp.body.data.token.accessToken);
    expect((await second.state()).body.data).toMatchObject({ twoFactorMethod: 1, recoveryCodesRemaining: 10 });
    await second.logout();

    // The authenticator is lost: a recovery code instead, asked for by name; nothing is sent.
    const ticket = await ticketOf(user, { twoFactorMethod: 'recovery' });
    const asked = await login(user, { twoFactorMethod: 'recovery', twoFactorTicket: ticket });
    expect(asked.body.data).toMatchObject({ requiresTwoFactor: true, codeSent: false });
    const withCode = await login(user, {
      twoFactorMethod: 'recovery',
      twoFactorCode: recovery[0],
      twoFactorTicket: ticket,
    });
    expect(withCode.status).toBe(200);
    expect(withCode.body.data.requiresTwoFactor).toBe(false);
    const third = twoFactorApi(server, withCode.body.data.token.accessToken);
    expect((await third.state()).body.data).toMatchObject({ twoFactorMethod: 1, recoveryCodesRemaining: 9 });
    const profile = await server.json('/api/Profile/Profile', {
      headers: { authorization: `Bearer ${withCode.body.data.token.accessToken}` },
    });
    expect(profile.body.data).toMatchObject({ twoFactorEnabled: true, twoFactorMethod: 1, recoveryCodesRemaining: 9 });
    const used = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.userId, user.id), eq(auditEntries.action, 'RecoveryCodeUsed')));
    expect(used).toEqual([expect.objectContaining({ detail: { remaining: 9 } })]);
    const notices = await deps().db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notices.map((n) => n.content)).toContain(
      'Your account was just signed in to with a recovery code; 9 codes are left. If this was not you, change your password and contact an administrator now.',
    );

    // Spent: the same code never works again.
    const again = await login(user, {
      twoFactorMethod: 'recovery',
      twoFactorCode: recovery[0],
      twoFactorTicket: await ticketOf(user),
    });
    expect(again.status).toBe(400);
    expect(again.body.data).toBe('The verification code is invalid or has expired.');

    // Off with the password (the authenticator is gone): the next login needs nothing more.
    const off = await third.disable({ method: 1, password: user.password });
    expect(off.body.data).toEqual({
      twoFactorEnabled: false,
      twoFactorMethod: 0,
      totpSetupPending: false,
      recoveryCodesRemaining: 0,
    });
    const plain = await login(user);
    expect(plain.status).toBe(200);
    expect(plain.body.data.requiresTwoFactor).toBe(false);
    // The codes left went with the factor.
    expect(await deps().db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
  });
});

describe('recovery codes at login', () => {
  it('accepts a code typed in lower case, with spaces or without its dash', async () => {
    const { user, recovery } = await enrolled();
    for (const [i, typed] of [
      [1, recovery[1]!.toLowerCase()],
      [2, recovery[2]!.replace('-', '')],
      [3, ` ${recovery[3]!.slice(0, 4)} ${recovery[3]!.slice(5)} `],
    ] as const) {
      const res = await login(user, {
        twoFactorMethod: 'Recovery',
        twoFactorCode: typed,
        twoFactorTicket: await ticketOf(user),
      });
      expect({ i, status: res.status }).toEqual({ i, status: 200 });
    }
    expect(await recoveryCodesRemaining(deps().db, user.id)).toBe(7);
  });

  it("refuses a wrong code, another user's code and a code without its ticket; wrong codes count toward the lockout", async () => {
    const a = await enrolled();
    const b = await enrolled();
    const other = await login(a.user, {
      twoFactorMethod: 'recovery',
      twoFactorCode: b.recovery[0],
      twoFactorTicket: await ticketOf(a.user),
    });
    expect(other.status).toBe(400);
    const wrong = await login(a.user, {
      twoFactorMethod: 'recovery',
      twoFactorCode: 'AAAA-AAAA',
      twoFactorTicket: await ticketOf(a.user),
    });
    expect(wrong.status).toBe(400);
    const noTicket = await login(a.user, { twoFactorMethod: 'recovery', twoFactorCode: a.recovery[0] });
    expect(noTicket.status).toBe(400);
    expect(noTicket.body.data).toMatch(/Two-factor verification has expired/);
    const [security] = await deps().db.select().from(userSecurity).where(eq(userSecurity.userId, a.user.id));
    expect(security!.failedLoginAttempts).toBe(2);
    const failures = await deps()
      .db.select()
      .from(loginLogs)
      .where(and(eq(loginLogs.userId, a.user.id), eq(loginLogs.result, LoginResult.TwoFactorFailed)));
    expect(failures.length).toBeGreaterThanOrEqual(2);
    // b's code is still b's.
    expect(
      (
        await login(b.user, {
          twoFactorMethod: 'recovery',
          twoFactorCode: b.recovery[0],
          twoFactorTicket: await ticketOf(b.user),
        })
      ).status,
    ).toBe(200);
  });

  it('lets exactly one of two concurrent logins with the same code through', async () => {
    const { user, recovery } = await enrolled();
    const [t1, t2] = [await ticketOf(user), await ticketOf(user)];
    const results = await Promise.all([
      login(user, { twoFactorMethod: 'recovery', twoFactorCode: recovery[5], twoFactorTicket: t1 }),
      login(user, { twoFactorMethod: 'recovery', twoFactorCode: recovery[5], twoFactorTicket: t2 }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await recoveryCodesRemaining(deps().db, user.id)).toBe(9);
  });

  it('spends a code once however many spend it at once (the store operation itself)', async () => {
    const { user, recovery } = await enrolled();
    const spent = await Promise.all(
      Array.from({ length: 8 }, () => spendRecoveryCode(deps().db, deps(), user.id, recovery[7]!)),
    );
    expect(spent.filter(Boolean)).toHaveLength(1);
  });

  it('still signs in when no method can be used any more (e-mail lost its verification)', async () => {
    const user = await createTestUser(deps());
    const api = twoFactorApi(server, (await loginAs(server, user)).accessToken);
    await api.sendCode(2);
    const on = await api.enable(2, codes.last('setup-two-factor-email', String(user.id))!);
    const recovery = on.body.data.recoveryCodes as string[];
    await deps().db.update(users).set({ emailVerified: false }).where(eq(users.id, user.id));
    expect((await login(user)).status).toBe(400);
    const res = await login(user, {
      twoFactorMethod: 'recovery',
      twoFactorCode: recovery[0],
      twoFactorTicket: await ticketOf(user, { twoFactorMethod: 'recovery' }),
    });
    expect(res.status).toBe(200);
  });
});

describe('recovery codes after an e-mail code login', () => {
  it('complete the challenge through TwoFactorLogin and through EmailLogin', async () => {
    const { user, recovery } = await enrolled();
    const email = user.email!;
    const post = (path: string, json: Record<string, unknown>) =>
      server.json(`/api/Auth/${path}`, { method: 'POST', headers: { 'x-language': 'en-US' }, json });
    const codeStage = async () => {
      expect((await post('EmailLoginCode', { email })).status).toBe(200);
      const res = await post('EmailLogin', { email, code: codes.last('login-email', email) });
      expect(res.body.data).toMatchObject({ requiresTwoFactor: true, availableTwoFactorMethods: ['totp'] });
      return res.body.data.twoFactorTicket as string;
    };
    const ticket = await codeStage();
    const asked = await post('TwoFactorLogin', { twoFactorTicket: ticket, twoFactorMethod: 'recovery' });
    expect(asked.body.data).toMatchObject({ requiresTwoFactor: true, codeSent: false, twoFactorTicket: ticket });
    expect(
      (
        await post('TwoFactorLogin', {
          twoFactorTicket: ticket,
          twoFactorMethod: 'recovery',
          twoFactorCode: 'AAAA-AAAA',
        })
      ).status,
    ).toBe(400);
    const signedIn = await post('TwoFactorLogin', {
      twoFactorTicket: ticket,
      twoFactorMethod: 'recovery',
      twoFactorCode: recovery[0],
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.token.accessToken).toBeTruthy();
    // The ticket went with the tokens.
    expect(
      (
        await post('TwoFactorLogin', {
          twoFactorTicket: ticket,
          twoFactorMethod: 'recovery',
          twoFactorCode: recovery[1],
        })
      ).status,
    ).toBe(400);

    clock.advance(61_000);
    const again = await codeStage();
    const viaEmailLogin = await post('EmailLogin', {
      email,
      twoFactorTicket: again,
      twoFactorMethod: 'recovery',
      twoFactorCode: recovery[1],
    });
    expect(viaEmailLogin.status).toBe(200);
    expect(await recoveryCodesRemaining(deps().db, user.id)).toBe(8);
  });
});

describe('POST /api/Profile/RegenerateRecoveryCodes', () => {
  it('replaces the set after the password: old codes stop working, new ones work, audited and notified', async () => {
    const { user, api, recovery } = await enrolled();
    const wrong = await api.regenerate('not-the-password');
    expect(wrong.status).toBe(422);
    expect(wrong.body.data).toBe('The current password is incorrect.');
    const res = await api.regenerate(user.password);
    expect(res.status).toBe(200);
    const fresh = res.body.data.recoveryCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => recovery.includes(c))).toEqual([]);
    expect((await api.state()).body.data.recoveryCodesRemaining).toBe(10);
    expect(
      (
        await login(user, {
          twoFactorMethod: 'recovery',
          twoFactorCode: recovery[0],
          twoFactorTicket: await ticketOf(user),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await login(user, {
          twoFactorMethod: 'recovery',
          twoFactorCode: fresh[0],
          twoFactorTicket: await ticketOf(user),
        })
      ).status,
    ).toBe(200);
    const audits = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.userId, user.id), eq(auditEntries.action, 'RecoveryCodesGenerated')));
    expect(audits).toHaveLength(2);
    const notices = await deps().db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notices.map((n) => n.title)).toContain('New recovery codes were made');
    // The session stays: no stamp rotation for new codes.
    expect((await api.userInfo()).status).toBe(200);
  });

  it('is refused (422) while no second factor is on, and throttles password guesses (429)', async () => {
    const user = await createTestUser(deps());
    const api = twoFactorApi(server, (await loginAs(server, user)).accessToken);
    const off = await api.regenerate(user.password);
    expect(off.status).toBe(422);
    expect(off.body.data).toBe('Two-step verification is off; there are no recovery codes to make.');
    for (let i = 0; i < 4; i++) expect((await api.regenerate('wrong')).status).toBe(422);
    const limited = await api.regenerate(user.password);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});
