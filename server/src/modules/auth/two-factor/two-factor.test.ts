import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLogs, userSecurity } from '../../../../../db/schema/index.js';
import { readOutbox } from '../../../infra/messaging/outbox.js';
import { ManualClock } from '../../../infra/clock.js';
import { createTestUser, watchCodes } from '../../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../testing/harness.js';
import path from 'node:path';
import { LoginResult } from '../../login-log/write.js';
import { generateTotpSecret, totpCode } from './totp.js';
import { TwoFactorFlags } from './two-factor.js';

/**
 * The second factor. The store is in memory here even when CI provides Redis: ticket expiry is
 * judged by the injected clock, which a Redis TTL would not follow.
 */
const clock = new ManualClock(Date.now());
let server: TestServer;
let codes: ReturnType<typeof watchCodes>;
beforeAll(async () => {
  server = await startTestServer({
    clock,
    config: { Redis: { Url: undefined }, App: { TrustForwardedHeaders: true } },
  });
  codes = watchCodes(server.runtime.deps);
});
afterAll(() => server.close());

let ip = 0;
const client = () => ({ 'x-forwarded-for': `10.20.${Math.floor(++ip / 250)}.${ip % 250}`, 'x-language': 'en-US' });

async function captcha(headers: Record<string, string>) {
  const res = await server.json('/api/Auth/Captcha', { headers });
  return { captchaId: res.body.data.captchaId as string, captchaCode: codes.last('captcha', res.body.data.captchaId)! };
}

/** First stage: credentials and captcha. */
async function firstStage(
  user: { email: string | null; password: string },
  headers = client(),
  extra: Record<string, unknown> = {},
) {
  const c = await captcha(headers);
  return server.json('/api/Auth/Login', {
    method: 'POST',
    json: { username: user.email, password: user.password, ...c, ...extra },
    headers,
  });
}

/** A later stage: the same credentials with method, code and ticket, no captcha. */
const laterStage = (
  user: { email: string | null; password: string },
  body: Record<string, unknown>,
  headers = client(),
) =>
  server.json('/api/Auth/Login', {
    method: 'POST',
    json: { username: user.email, password: user.password, ...body },
    headers,
  });

describe('TOTP second factor', () => {
  it('answers a challenge with a ticket instead of tokens, then tokens for a right code', async () => {
    const secret = generateTotpSecret();
    const user = await createTestUser(server.runtime.deps, {
      twoFactorMethod: TwoFactorFlags.Totp,
      twoFactorSecret: secret,
    });
    const first = await firstStage(user);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      requiresTwoFactor: true,
      availableTwoFactorMethods: ['totp'],
      twoFactorMethod: 'totp',
      codeSent: false,
    });
    expect(first.body.data).not.toHaveProperty('token');
    const ticket = first.body.data.twoFactorTicket as string;
    expect(ticket.length).toBeGreaterThanOrEqual(32);
    const second = await laterStage(user, {
      twoFactorMethod: 'totp',
      twoFactorCode: totpCode(secret, clock.nowMs()),
      twoFactorTicket: ticket,
    });
    expect(second.status).toBe(200);
    expect(second.body.data.requiresTwoFactor).toBe(false);
    expect(second.body.data.token.accessToken).toBeTruthy();
    // Consumed: the ticket cannot be presented again.
    const again = await laterStage(user, {
      twoFactorMethod: 'totp',
      twoFactorCode: totpCode(secret, clock.nowMs() + 30_000),
      twoFactorTicket: ticket,
    });
    expect(again.status).toBe(400);
    expect(again.body.data).toMatch(/Two-factor verification has expired/);
  });

  it('lets a ticket be presented several times, refuses a wrong code, and never accepts a code twice', async () => {
    const secret = generateTotpSecret();
    const user = await createTestUser(server.runtime.deps, {
      twoFactorMethod: TwoFactorFlags.Totp,
      twoFactorSecret: secret,
    });
    const ticket = (await firstStage(user)).body.data.twoFactorTicket;
    const right = totpCode(secret, clock.nowMs());
    const wrong = right === '000000' ? '111111' : '000000';
    const refused = await laterStage(user, { twoFactorMethod: 'totp', twoFactorCode: wrong, twoFactorTicket: ticket });
    expect(refused.status).toBe(400);
    expect(refused.body.data).toMatch(/verification code is invalid/);
    const logged = await server.runtime.deps.db
      .select()
      .from(loginLogs)
      .where(and(eq(loginLogs.userId, user.id), eq(loginLogs.result, LoginResult.TwoFactorFailed)));
    expect(logged).toHaveLength(1);
    expect(
      (await laterStage(user, { twoFactorMethod: 'totp', twoFactorCode: right, twoFactorTicket: ticket })).status,
    ).toBe(200);
    // The same code in a new login: refused, it was used.
    const ticket2 = (await firstStage(user)).body.data.twoFactorTicket;
    expect(
      (await laterStage(user, { twoFactorMethod: 'totp', twoFactorCode: right, twoFactorTicket: ticket2 })).status,
    ).toBe(400);
  });

  it('skips the captcha only with a valid ticket of the same login name', async () => {
    const secret = generateTotpSecret();
    const user = await createTestUser(server.runtime.deps, {
      twoFactorMethod: TwoFactorFlags.Totp,
      twoFactorSecret: secret,
    });
    const bogus = await laterStage(user, {
      twoFactorTicket: 'made-up-ticket',
      twoFactorMethod: 'totp',
      twoFactorCode: totpCode(secret, clock.nowMs()),
    });
    expect(bogus.status).toBe(400);
    expect(bogus.body.data).toMatch(/Two-factor verification has expired/);
    // Normalized name: trimmed and case-insensitive is the same login name.
    const ticket = (await firstStage(user)).body.data.twoFactorTicket;
    const ok = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: {
        username: `  ${user.email!.toUpperCase()} `,
        password: user.password,
        twoFactorMethod: 'totp',
        twoFactorCode: totpCode(secret, clock.nowMs()),
        twoFactorTicket: ticket,
      },
      headers: client(),
    });
    expect(ok.status).toBe(200);
  });

  it('voids a ticket presented for another user or login name', async () => {
    const secret = generateTotpSecret();
    const owner = await createTestUser(server.runtime.deps, {
      twoFactorMethod: TwoFactorFlags.Totp,
      twoFactorSecret: secret,
    });
    const other = await createTestUser(server.runtime.deps, {
      twoFactorMethod: TwoFactorFlags.Totp,
      twoFactorSecret: secret,
    });
    const ticket = (await firstStage(owner)).body.data.twoFactorTicket;
    const stolen = await laterStage(other, {
      twoFactorMethod: 'totp',
      twoFactorCode: totpCode(secret, clock.nowMs()),
      twoFactorTicket: ticket,
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.data).toMatch(/Two-factor verification has expired/);
    // Voided for its owner too.
    const owners = await laterStage(owner, {
      twoFactorMethod: 'totp',
      twoFactorCode: totpCode(secret, clock.nowMs()),
      twoFactorTicket: ticket,
    });
    expect(owners.status).toBe(400);
    expect(owners.body.data).toMatch(/Two-factor verification has expired/);
  });

  it('expires a ticket after 10 minutes', async () => {
    const secret = generateTotpSecret();
    const user = await createTestUser(server.runtime.deps, {
      twoFactorMethod: TwoFactorFlags.Totp,
      twoFactorSecret: secret,
    });
    const ticket = (await firstStage(user)).body.data.twoFactorTicket;
    clock.advance(10 * 60_000 + 1000);
    const late = await laterStage(user, {
      twoFactorMethod: 'totp',
      twoFactorCode: totpCode(secret, clock.nowMs()),
      twoFactorTicket: ticket,
    });
    expect(late.status).toBe(400);
    expect(late.body.data).toMatch(/Two-factor verification has expired/);
  });

  it('counts wrong codes toward the lockout', async () => {
    const secret = generateTotpSecret();
    const user = await createTestUser(server.runtime.deps, {
      twoFactorMethod: TwoFactorFlags.Totp,
      twoFactorSecret: secret,
    });
    const ticket = (await firstStage(user)).body.data.twoFactorTicket;
    const headers = client();
    for (let i = 0; i < 4; i++)
      await laterStage(user, { twoFactorMethod: 'totp', twoFactorCode: '000000', twoFactorTicket: ticket }, headers);
    const fifth = await laterStage(
      user,
      { twoFactorMethod: 'totp', twoFactorCode: '999999', twoFactorTicket: ticket },
      client(),
    );
    expect(fifth.status).toBe(400);
    const locked = await laterStage(
      user,
      { twoFactorMethod: 'totp', twoFactorCode: totpCode(secret, clock.nowMs()), twoFactorTicket: ticket },
      client(),
    );
    expect(locked.body.data).toMatch(/locked/);
  });
});

describe('e-mail and phone second factor', () => {
  it('sends a 6-digit e-mail code at the challenge, usable once', async () => {
    const user = await createTestUser(server.runtime.deps, { twoFactorMethod: TwoFactorFlags.Email });
    const first = await firstStage(user);
    expect(first.body.data).toMatchObject({
      requiresTwoFactor: true,
      availableTwoFactorMethods: ['email'],
      twoFactorMethod: 'email',
      codeSent: true,
    });
    const outbox = await readOutbox(path.join(server.runtime.deps.config.App.DataDir, 'outbox'));
    const mail = outbox.filter((m) => m.to === user.email && m.kind === 'two-factor-code').at(-1)!;
    const code = /(\d{6})/.exec(mail.text)![1]!;
    expect(mail.subject).toBe('Your sign-in code');
    const ticket = first.body.data.twoFactorTicket;
    const wrong = await laterStage(user, {
      twoFactorMethod: 'email',
      twoFactorCode: code === '123456' ? '654321' : '123456',
      twoFactorTicket: ticket,
    });
    expect(wrong.status).toBe(400);
    // Consumed on read, right or wrong: the real code is gone too.
    expect(
      (await laterStage(user, { twoFactorMethod: 'email', twoFactorCode: code, twoFactorTicket: ticket })).status,
    ).toBe(400);
    // Asking again (no code) sends a new one on the same ticket.
    const resend = await laterStage(user, { twoFactorMethod: 'email', twoFactorTicket: ticket });
    expect(resend.body.data).toMatchObject({ requiresTwoFactor: true, codeSent: true, twoFactorTicket: ticket });
    const fresh = codes.last('two-factor-email', String(user.id))!;
    expect(
      (await laterStage(user, { twoFactorMethod: 'email', twoFactorCode: fresh, twoFactorTicket: ticket })).status,
    ).toBe(200);
  });

  it('offers several methods without choosing, and phone only with a verified phone', async () => {
    const secret = generateTotpSecret();
    const all = TwoFactorFlags.Totp | TwoFactorFlags.Email | TwoFactorFlags.Phone;
    const unverified = await createTestUser(server.runtime.deps, {
      twoFactorMethod: all,
      twoFactorSecret: secret,
      phone: '+15550001',
      phoneVerified: false,
    });
    const first = await firstStage(unverified);
    expect(first.body.data).toMatchObject({ availableTwoFactorMethods: ['totp', 'email'], codeSent: false });
    // No method chosen: null, which the serializer leaves out.
    expect(first.body.data).not.toHaveProperty('twoFactorMethod');
    const needsChoice = await laterStage(unverified, {
      twoFactorCode: '123456',
      twoFactorTicket: first.body.data.twoFactorTicket,
    });
    expect(needsChoice.body.data).toMatch(/Choose a two-factor method/);
    const phone = await laterStage(unverified, {
      twoFactorMethod: 'phone',
      twoFactorCode: '123456',
      twoFactorTicket: first.body.data.twoFactorTicket,
    });
    expect(phone.status).toBe(400);
    const verified = await createTestUser(server.runtime.deps, {
      twoFactorMethod: all,
      twoFactorSecret: secret,
      phone: '+15550002',
      phoneVerified: true,
    });
    const chosen = await firstStage(verified, client(), { twoFactorMethod: 'phone' });
    expect(chosen.body.data).toMatchObject({
      availableTwoFactorMethods: ['totp', 'email', 'phone'],
      twoFactorMethod: 'phone',
      codeSent: true,
    });
    const sms = (await readOutbox(path.join(server.runtime.deps.config.App.DataDir, 'outbox'))).filter(
      (m) => m.channel === 'sms' && m.to === '+15550002',
    );
    expect(sms).toHaveLength(1);
    const smsCode = /(\d{6})/.exec(sms[0]!.text)![1]!;
    expect(
      (
        await laterStage(verified, {
          twoFactorMethod: 'phone',
          twoFactorCode: smsCode,
          twoFactorTicket: chosen.body.data.twoFactorTicket,
        })
      ).status,
    ).toBe(200);
  });

  it('fails closed when a second factor is on but none can be used', async () => {
    const user = await createTestUser(server.runtime.deps, {
      twoFactorMethod: TwoFactorFlags.Email,
      emailVerified: false,
    });
    const res = await firstStage(user);
    expect(res.status).toBe(400);
    expect(res.body.data).toMatch(/cannot use the two-factor method/);
  });
});

describe('captcha', () => {
  it('expires 5 minutes after it was issued', async () => {
    const user = await createTestUser(server.runtime.deps);
    const headers = client();
    const fresh = await captcha(headers);
    clock.advance(5 * 60_000 - 1_000);
    expect(
      (
        await server.json('/api/Auth/Login', {
          method: 'POST',
          json: { username: user.email, password: user.password, ...fresh },
          headers,
        })
      ).status,
    ).toBe(200);
    const stale = await captcha(headers);
    clock.advance(5 * 60_000 + 1_000);
    const late = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: user.email, password: user.password, ...stale },
      headers,
    });
    expect(late.status).toBe(400);
    expect(late.body.data).toMatch(/captcha/i);
  });
});

describe('every refused later stage is a failed attempt, and a ticket is spent once tokens are issued', () => {
  const failures = async (user: { email: string | null }) =>
    (
      await server.runtime.deps.db
        .select()
        .from(loginLogs)
        .where(
          and(eq(loginLogs.userName, user.email!.toLowerCase()), eq(loginLogs.result, LoginResult.TwoFactorFailed)),
        )
    ).length;

  it('a code without its ticket answers two-factor-expired, sends nothing and is logged (SPEC Errors rule 2)', async () => {
    const user = await createTestUser(server.runtime.deps, {
      twoFactorMethod: TwoFactorFlags.Email,
      emailVerified: true,
    });
    const before = (await readOutbox(path.join(server.runtime.deps.config.App.DataDir, 'outbox'))).length;
    // No captcha either: the answer is the ticket's, not the captcha's.
    const res = await laterStage(user, { twoFactorMethod: 'email', twoFactorCode: '123456' });
    expect(res.status).toBe(400);
    expect(res.body.data).toMatch(/Two-factor verification has expired/);
    expect((await readOutbox(path.join(server.runtime.deps.config.App.DataDir, 'outbox'))).length).toBe(before);
    expect(await failures(user)).toBe(1);
  });

  it('logs a refused ticket, a missing method choice and an unavailable method', async () => {
    const secret = generateTotpSecret();
    const user = await createTestUser(server.runtime.deps, {
      twoFactorMethod: TwoFactorFlags.Totp | TwoFactorFlags.Email,
      twoFactorSecret: secret,
      emailVerified: true,
    });
    expect(
      (await laterStage(user, { twoFactorTicket: 'made-up', twoFactorMethod: 'totp', twoFactorCode: '123456' })).status,
    ).toBe(400);
    expect(await failures(user)).toBe(1);
    const ticket = (await firstStage(user)).body.data.twoFactorTicket;
    const unchosen = await laterStage(user, { twoFactorTicket: ticket, twoFactorCode: '123456' });
    expect(unchosen.status).toBe(400);
    expect(await failures(user)).toBe(2);
    const unavailable = await laterStage(user, {
      twoFactorTicket: ticket,
      twoFactorMethod: 'phone',
      twoFactorCode: '123456',
    });
    expect(unavailable.status).toBe(400);
    expect(await failures(user)).toBe(3);
  });

  it('spends the ticket when tokens are issued although the second factor was turned off meanwhile', async () => {
    const secret = generateTotpSecret();
    const user = await createTestUser(server.runtime.deps, {
      twoFactorMethod: TwoFactorFlags.Totp,
      twoFactorSecret: secret,
    });
    const ticket = (await firstStage(user)).body.data.twoFactorTicket;
    await server.runtime.deps.db
      .update(userSecurity)
      .set({ twoFactorMethod: 0 })
      .where(eq(userSecurity.userId, user.id));
    const first = await laterStage(user, { twoFactorTicket: ticket });
    expect(first.status).toBe(200);
    expect(first.body.data.token.accessToken).toBeTruthy();
    // Without a captcha, the same ticket no longer stands in for one.
    const again = await laterStage(user, { twoFactorTicket: ticket });
    expect(again.status).toBe(400);
    expect(again.body.data).toMatch(/Two-factor verification has expired/);
  });
});
