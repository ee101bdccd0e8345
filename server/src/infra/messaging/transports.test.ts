import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boot } from '../../bootstrap.js';
import { ConfigError, loadConfig } from '../../config/load.js';
import { createLogger } from '../logger.js';
import { createTestUser, watchCodes } from '../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { generateTotpSecret } from '../../modules/auth/two-factor/totp.js';
import { tokenIn } from '../../modules/auth/self-service/self-service-test-kit.js';
import { TwoFactorFlags } from '../../modules/auth/two-factor/two-factor.js';
import { readOutbox } from './outbox.js';
import { checkMessagingConfig, missingTransports } from './select.js';

/**
 * The real transports: e-mail through an SMTP server started here (smtp-server), SMS through an
 * HTTP provider answered here, their failures (502 with code 14000 and no usable code left), the
 * production start-up rule, and debugCode only in development.
 */

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** Decodes what a mail body may be encoded as (quoted-printable soft breaks and escapes). */
const decodeQuotedPrintable = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

async function startSmtp(): Promise<{ port: number; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 'mail-secret') callback(null, { user: 'mailer' });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

type SmsMode = 'ok' | 'fail' | 'hang';
async function startSmsProvider(): Promise<{
  url: string;
  received: Array<{ body: Record<string, unknown>; authorization?: string }>;
  mode: { value: SmsMode };
  close(): Promise<void>;
}> {
  const received: Array<{ body: Record<string, unknown>; authorization?: string }> = [];
  const mode = { value: 'ok' as SmsMode };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      if (mode.value === 'hang') return;
      received.push({ body: JSON.parse(text) as Record<string, unknown>, authorization: req.headers.authorization });
      res.writeHead(mode.value === 'ok' ? 202 : 500, { 'content-type': 'application/json' }).end('{"id":"msg-1"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/messages`,
    received,
    mode,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

const EN = { 'x-language': 'en-US' };
const post = (server: TestServer, route: string, json: unknown) =>
  server.json(route, { method: 'POST', json, headers: EN });
const codeOf = (text: string) => /\b(\d{6})\b/.exec(text)![1]!;

describe('SMTP and the HTTP SMS provider', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let sms: Awaited<ReturnType<typeof startSmsProvider>>;
  let server: TestServer;
  beforeAll(async () => {
    smtp = await startSmtp();
    sms = await startSmsProvider();
    server = await startTestServer({
      config: {
        Mail: {
          Host: '127.0.0.1',
          Port: smtp.port,
          User: 'mailer',
          Password: 'mail-secret',
          From: 'Portcullis <id@example.test>',
        },
        Sms: { Url: sms.url, ApiKey: 'sms-key', From: 'PORTCULLIS', TimeoutSeconds: 1 },
        Saas: { Auth: { CaptchaEnabled: false } },
        App: { TrustForwardedHeaders: true },
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
    await sms.close();
  });

  it('mails a sign-in code through SMTP, localized by X-Language, and the code signs in', async () => {
    const user = await createTestUser(server.runtime.deps);
    const res = await server.json('/api/Auth/EmailLoginCode', {
      method: 'POST',
      json: { email: user.email },
      headers: { 'x-language': 'de-DE' },
    });
    expect(res.status).toBe(200);
    const mail = smtp.mails.find((m) => m.to.includes(user.email!))!;
    expect(mail.from).toBe('id@example.test');
    expect(mail.raw).toMatch(/X-Portcullis-Kind: login-code/);
    expect(mail.raw).toContain('Ihr Anmeldecode lautet');
    const login = await post(server, '/api/Auth/EmailLogin', {
      email: user.email,
      code: codeOf(mail.raw.split('Ihr Anmeldecode lautet')[1]!),
    });
    expect(login.status).toBe(200);
    // Nothing went to the outbox: SMTP is configured.
    expect(await readOutbox(path.join(server.runtime.deps.config.App.DataDir, 'outbox'))).toEqual([]);
  });

  it('mails the password reset link through SMTP', async () => {
    const user = await createTestUser(server.runtime.deps);
    expect((await post(server, '/api/Auth/PasswordResetRequest', { email: user.email })).body.data).toEqual({
      accepted: true,
    });
    const mail = smtp.mails.filter((m) => m.to.includes(user.email!)).at(-1)!;
    const token = /reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mail.raw)![1]!;
    expect(
      (await post(server, '/api/Auth/ConsumePasswordResetToken', { token, newPassword: 'Via#Smtp-Reset1' })).status,
    ).toBe(200);
  });

  it('texts a code through the HTTP provider (JSON, bearer key) and the code signs in', async () => {
    await createTestUser(server.runtime.deps, { phone: '+15550200', phoneVerified: true });
    sms.mode.value = 'ok';
    expect((await post(server, '/api/Auth/PhoneLoginCode', { phone: '+15550200' })).status).toBe(200);
    const sent = sms.received.at(-1)!;
    expect(sent.authorization).toBe('Bearer sms-key');
    expect(sent.body).toMatchObject({ to: '+15550200', from: 'PORTCULLIS', kind: 'login-code' });
    expect(
      (await post(server, '/api/Auth/PhoneLogin', { phone: '+15550200', code: codeOf(String(sent.body.text)) })).status,
    ).toBe(200);
  });

  it('answers 502 / 14000 when the provider fails or hangs, and leaves no usable code', async () => {
    const codes = watchCodes(server.runtime.deps);
    await createTestUser(server.runtime.deps, { phone: '+15550201', phoneVerified: true });
    for (const [i, mode] of (['fail', 'hang'] as const).entries()) {
      sms.mode.value = mode;
      // A client address per attempt: the one-a-minute rule is per number and address.
      const res = await server.json('/api/Auth/PhoneLoginCode', {
        method: 'POST',
        json: { phone: '+15550201' },
        headers: { ...EN, 'x-forwarded-for': `10.0.0.${i + 1}` },
      });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 14000, isSuccess: false });
      expect(res.body.data).toMatch(/external service/);
      const issued = codes.all.filter((c) => c.target === '+15550201')[i]!.code;
      expect((await post(server, '/api/Auth/PhoneLogin', { phone: '+15550201', code: issued })).status).toBe(400);
    }
    sms.mode.value = 'ok';
  });
});

describe('transport failures', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      config: {
        Mail: { Host: '127.0.0.1', Port: await closedPort(), TimeoutSeconds: 2 },
        Saas: { Auth: { CaptchaEnabled: false } },
      },
    });
  });
  afterAll(() => server.close());

  it('an unreachable SMTP server answers 502 / 14000 and leaves no usable code, link or account', async () => {
    const codes = watchCodes(server.runtime.deps);
    const user = await createTestUser(server.runtime.deps);
    const res = await post(server, '/api/Auth/EmailLoginCode', { email: user.email });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe(14000);
    const issued = codes.last('login-email', user.email!)!;
    expect(issued).toMatch(/^\d{6}$/);
    expect((await post(server, '/api/Auth/EmailLogin', { email: user.email, code: issued })).status).toBe(400);

    const reg = await post(server, '/api/Auth/Register', {
      email: 'failing-mail@example.test',
      password: 'Str0ng#Passw0rd!',
    });
    expect(reg.status).toBe(502);
    // Undone: the same registration can be tried again (no 409), and it fails the same way.
    expect(
      (await post(server, '/api/Auth/Register', { email: 'failing-mail@example.test', password: 'Str0ng#Passw0rd!' }))
        .status,
    ).toBe(502);

    // The link of the mail that could not be sent: read from the message handed to the
    // transport, it must not work (the reset was undone).
    const messages = server.runtime.deps.messages;
    const send = messages.send.bind(messages);
    const attempted: string[] = [];
    messages.send = async (message) => {
      attempted.push(message.text);
      return send(message);
    };
    try {
      expect((await post(server, '/api/Auth/PasswordResetRequest', { email: user.email })).status).toBe(502);
      // The failed send does not hold the address's one-a-minute window: a retry sends again.
      expect((await post(server, '/api/Auth/PasswordResetRequest', { email: user.email })).status).toBe(502);
    } finally {
      messages.send = send;
    }
    expect(attempted).toHaveLength(2);
    const consumed = await post(server, '/api/Auth/ConsumePasswordResetToken', {
      token: tokenIn(attempted[0]!),
      newPassword: 'N3w#Secret-Phrase',
    });
    expect(consumed.status).toBe(400);
  });
});

describe('environments', () => {
  it('production refuses to start without a transport for an enabled method', async () => {
    const production = {
      App: { Env: 'production' },
      Jwt: { SecretKey: 'q8Zt3vJ0pW6yN2cR5mK9xL1bF4hD7gS0aE3uI6oT' },
      Saas: { Seed: { AdminPassword: 'Pr0d#Seed-Secret' } },
      Database: { InMemory: true },
    };
    await expect(boot(loadConfig({}, production), { logger: createLogger({ level: 'silent' }) })).rejects.toThrow(
      ConfigError,
    );
    await expect(boot(loadConfig({}, production), { logger: createLogger({ level: 'silent' }) })).rejects.toThrow(
      /Mail__Host is not set/,
    );
    expect(missingTransports(loadConfig({}, production))).toEqual([
      'Mail__Host is not set but Saas__Auth__EmailCodeLoginEnabled, Saas__Auth__RegistrationEnabled, Saas__Auth__PasswordResetEnabled need e-mail',
      'Sms__Url is not set but Saas__Auth__PhoneCodeLoginEnabled needs SMS',
    ]);
    expect(() =>
      checkMessagingConfig(
        loadConfig(
          {},
          {
            ...production,
            Saas: { ...production.Saas, Auth: { PhoneCodeLoginEnabled: false } },
            Mail: { Host: 'smtp.example.test' },
          },
        ),
      ),
    ).not.toThrow();
    expect(() =>
      checkMessagingConfig(
        loadConfig(
          {},
          {
            ...production,
            Saas: {
              ...production.Saas,
              Auth: {
                PhoneCodeLoginEnabled: false,
                EmailCodeLoginEnabled: false,
                RegistrationEnabled: false,
                PasswordResetEnabled: false,
              },
            },
          },
        ),
      ),
    ).not.toThrow();
    expect(missingTransports(loadConfig({}, { App: { Env: 'development' } }))).toEqual([]);
  });

  it('in production without SMTP or SMS, offers no e-mail or phone second factor (fails closed when none is left)', async () => {
    const server = await startTestServer({
      config: {
        App: { Env: 'production' },
        Jwt: { SecretKey: 'q8Zt3vJ0pW6yN2cR5mK9xL1bF4hD7gS0aE3uI6oT' },
        Saas: {
          Seed: { AdminPassword: 'Pr0d#Seed-Secret' },
          Auth: {
            CaptchaEnabled: false,
            EmailCodeLoginEnabled: false,
            PhoneCodeLoginEnabled: false,
            RegistrationEnabled: false,
            PasswordResetEnabled: false,
          },
        },
        Security: { CredentialKeys: { k1: randomBytes(32).toString('base64') } },
      },
    });
    try {
      const login = (user: { email: string | null; password: string }) =>
        server.json('/api/Auth/Login', {
          method: 'POST',
          json: { username: user.email, password: user.password },
          headers: { 'x-language': 'en-US' },
        });
      const emailOnly = await createTestUser(server.runtime.deps, {
        twoFactorMethod: TwoFactorFlags.Email | TwoFactorFlags.Phone,
        phone: '+15550600',
        phoneVerified: true,
      });
      const refused = await login(emailOnly);
      // Was a challenge promising a code that could never be sent (502 at best).
      expect(refused.status).toBe(400);
      expect(refused.body.data).toMatch(/cannot use the two-factor method/);
      const withTotp = await createTestUser(server.runtime.deps, {
        twoFactorMethod: TwoFactorFlags.Email | TwoFactorFlags.Totp,
        twoFactorSecret: generateTotpSecret(),
      });
      const challenge = await login(withTotp);
      expect(challenge.status).toBe(200);
      expect(challenge.body.data).toMatchObject({
        requiresTwoFactor: true,
        availableTwoFactorMethods: ['totp'],
        twoFactorMethod: 'totp',
        codeSent: false,
      });
    } finally {
      await server.close();
    }
  });

  it('never answers debugCode in production', async () => {
    const smtp = await startSmtp();
    const sms = await startSmsProvider();
    const server = await startTestServer({
      config: {
        App: { Env: 'production' },
        Jwt: { SecretKey: 'q8Zt3vJ0pW6yN2cR5mK9xL1bF4hD7gS0aE3uI6oT' },
        Saas: { Seed: { AdminPassword: 'Pr0d#Seed-Secret' } },
        Mail: { Host: '127.0.0.1', Port: smtp.port, User: 'mailer', Password: 'mail-secret' },
        Sms: { Url: sms.url },
        // Production needs every secret of its own (the API credential key too).
        Security: { CredentialKeys: { k1: randomBytes(32).toString('base64') } },
      },
    });
    try {
      const user = await createTestUser(server.runtime.deps, { phone: '+15550300', phoneVerified: true });
      for (const [route, body] of [
        ['/api/Auth/EmailLoginCode', { email: user.email }],
        ['/api/Auth/EmailLoginCode', { email: 'unknown@example.test' }],
        ['/api/Auth/PhoneLoginCode', { phone: '+15550300' }],
      ] as const) {
        const res = await post(server, route, body);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ expiresInSeconds: 600 });
      }
      const reg = await post(server, '/api/Auth/Register', {
        email: 'prod-user@example.test',
        password: 'Str0ng#Passw0rd!',
      });
      expect(reg.status).toBe(200);
      expect(reg.body.data).not.toHaveProperty('debugCode');
      expect(smtp.mails.some((m) => m.to.includes(user.email!))).toBe(true);
    } finally {
      await server.close();
      await smtp.close();
      await sms.close();
    }
  });

  it('answers debugCode in development, for unknown addresses too (same shape)', async () => {
    const server = await startTestServer({ config: { App: { Env: 'development' } } });
    try {
      const user = await createTestUser(server.runtime.deps);
      const known = await post(server, '/api/Auth/EmailLoginCode', { email: user.email });
      const unknown = await post(server, '/api/Auth/EmailLoginCode', { email: 'unknown@example.test' });
      expect(known.body.data).toEqual({ expiresInSeconds: 600, debugCode: expect.stringMatching(/^\d{6}$/) });
      expect(Object.keys(unknown.body.data).sort()).toEqual(['debugCode', 'expiresInSeconds']);
      expect(
        (await post(server, '/api/Auth/EmailLogin', { email: user.email, code: known.body.data.debugCode })).status,
      ).toBe(200);
      expect(
        (
          await post(server, '/api/Auth/EmailLogin', {
            email: 'unknown@example.test',
            code: unknown.body.data.debugCode,
          })
        ).status,
      ).toBe(400);
    } finally {
      await server.close();
    }
  });

  it('answers 403 for switched-off code logins', async () => {
    const server = await startTestServer({
      config: { Saas: { Auth: { EmailCodeLoginEnabled: false, PhoneCodeLoginEnabled: false } } },
    });
    try {
      for (const [route, body] of [
        ['/api/Auth/EmailLoginCode', { email: 'a@example.test' }],
        ['/api/Auth/EmailLogin', { email: 'a@example.test', code: '123456' }],
        ['/api/Auth/PhoneLoginCode', { phone: '+15550400' }],
        ['/api/Auth/PhoneLogin', { phone: '+15550400', code: '123456' }],
      ] as const) {
        const res = await post(server, route, body);
        expect(res.status, route).toBe(403);
      }
      expect((await post(server, '/api/Auth/EmailLoginCode', { email: 'a@example.test' })).body.data).toBe(
        'E-mail code sign-in is not enabled.',
      );
    } finally {
      await server.close();
    }
  });
});
