import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../infra/clock.js';
import { createTestUser } from '../../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../testing/harness.js';
import { COLD_START_MS, createSendTiming, type SendKind } from './send-timing.js';
import { post } from './self-service-test-kit.js';

/**
 * The answer-time equalizer: unit rules with a fake timer, then the four "same answer for any
 * address" endpoints over HTTP against an SMTP server and an SMS provider that are slow on
 * purpose, where an unknown address must take about as long as a known one and get nothing.
 */

const LOGIN_MAIL: SendKind = { kind: 'login-code', channel: 'email' };
const LOGIN_SMS: SendKind = { kind: 'login-code', channel: 'sms' };

function fakeTimer() {
  const state = { now: 0, slept: [] as number[] };
  return {
    state,
    timer: {
      now: () => state.now,
      sleep: async (ms: number) => {
        state.slept.push(ms);
      },
    },
  };
}

/** A send that takes `ms` on the fake timer. */
const takes = (state: { now: number }, ms: number) => async () => {
  state.now += ms;
};

describe('send timing (fake timer)', () => {
  it('waits a cold-start duration before any real send of the kind', async () => {
    const { state, timer } = fakeTimer();
    const timing = createSendTiming({ capMs: { email: 10_000, sms: 10_000 }, timer, pick: (n) => n - 1 });
    await timing.imitate(LOGIN_MAIL);
    expect(state.slept).toEqual([COLD_START_MS.max]);
  });

  it('waits one of the recent successful durations of the same kind and channel, capped', async () => {
    const { state, timer } = fakeTimer();
    let index = 0;
    const timing = createSendTiming({ capMs: { email: 1000, sms: 10_000 }, timer, pick: () => index });
    await timing.timed(LOGIN_MAIL, takes(state, 180));
    await timing.timed(LOGIN_MAIL, takes(state, 420));
    await timing.timed(LOGIN_MAIL, takes(state, 5000));
    expect(
      [0, 1, 2].map((i) => {
        index = i;
        return timing.nextWaitMs(LOGIN_MAIL);
      }),
    ).toEqual([180, 420, 1000]);
    // The SMS window is its own: still cold.
    index = 0;
    expect(timing.nextWaitMs(LOGIN_SMS)).toBe(COLD_START_MS.min);
    expect(timing.nextWaitMs({ kind: 'password-reset', channel: 'email' })).toBe(COLD_START_MS.min);
  });

  it('keeps failed sends out of the window and passes their error on', async () => {
    const { state, timer } = fakeTimer();
    const timing = createSendTiming({ capMs: { email: 10_000, sms: 10_000 }, timer, pick: () => 0 });
    const failure = timing.timed(LOGIN_MAIL, async () => {
      state.now += 9000;
      throw new Error('SMTP down');
    });
    await expect(failure).rejects.toThrow('SMTP down');
    expect(timing.nextWaitMs(LOGIN_MAIL)).toBe(COLD_START_MS.min);
    await timing.timed(LOGIN_MAIL, takes(state, 200));
    expect(timing.nextWaitMs(LOGIN_MAIL)).toBe(200);
  });

  it('forgets the oldest durations beyond the window', async () => {
    const { state, timer } = fakeTimer();
    const timing = createSendTiming({ capMs: { email: 10_000, sms: 10_000 }, timer, pick: () => 0, windowSize: 4 });
    for (const ms of [10, 20, 30, 40, 50, 60]) await timing.timed(LOGIN_MAIL, takes(state, ms));
    expect(timing.nextWaitMs(LOGIN_MAIL)).toBe(30);
  });
});

/** How long the fake SMTP server and SMS provider take to accept a message. */
const SLOW_MS = 150;

async function slowSmtp() {
  const mails: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        mails.push(...session.envelope.rcptTo.map((r) => r.address));
        void delay(SLOW_MS).then(() => callback());
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (smtp.server.address() as AddressInfo).port,
    mails,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

async function slowSmsProvider() {
  const texts: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      texts.push(String((JSON.parse(body) as { to: string }).to));
      void delay(SLOW_MS).then(() => res.writeHead(202, { 'content-type': 'application/json' }).end('{}'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/messages`,
    texts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe('answer times over HTTP with a slow transport', () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof slowSmtp>>;
  let sms: Awaited<ReturnType<typeof slowSmsProvider>>;
  const deps = () => server.runtime.deps;
  beforeAll(async () => {
    smtp = await slowSmtp();
    sms = await slowSmsProvider();
    // A frozen business clock: the equalizer measures real time, so it neither hangs nor reads 0.
    server = await startTestServer({
      clock: new ManualClock(Date.now()),
      config: {
        App: { TrustForwardedHeaders: true },
        Mail: { Host: '127.0.0.1', Port: smtp.port, TimeoutSeconds: 2 },
        Sms: { Url: sms.url, TimeoutSeconds: 2 },
        Saas: { Auth: { CaptchaEnabled: false } },
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
    await sms.close();
  });

  /**
   * Each endpoint with three requests for known recipients and, for the same answer, addresses
   * that get nothing. PasswordResetRequest and
   * ResendEmailVerification mail an address once a minute, whoever asks: their three are three
   * accounts, and a fourth request repeats one of them (answered, not mailed).
   */
  const endpoints: Array<{
    route: string;
    field: 'email' | 'phone';
    setUp(): Promise<{ known: string[]; nothing: string[] }>;
  }> = [
    {
      route: '/api/Auth/EmailLoginCode',
      field: 'email',
      setUp: async () => ({
        known: Array(3).fill((await createTestUser(deps())).email!),
        nothing: [
          'nobody-a@example.test',
          (await createTestUser(deps(), { status: 'Disabled' })).email!,
          'nobody-b@example.test',
        ],
      }),
    },
    {
      route: '/api/Auth/PhoneLoginCode',
      field: 'phone',
      setUp: async () => {
        await createTestUser(deps(), { phone: '+15550710', phoneVerified: true });
        await createTestUser(deps(), { phone: '+15550711', phoneVerified: false });
        return { known: Array(3).fill('+15550710'), nothing: ['+15550719', '+15550711', '+15550718'] };
      },
    },
    {
      route: '/api/Auth/PasswordResetRequest',
      field: 'email',
      setUp: async () => {
        const known = [
          (await createTestUser(deps())).email!,
          (await createTestUser(deps())).email!,
          (await createTestUser(deps())).email!,
        ];
        return {
          known,
          nothing: [
            'nobody-c@example.test',
            (await createTestUser(deps(), { status: 'Disabled' })).email!,
            known[0]!,
            'nobody-d@example.test',
          ],
        };
      },
    },
    {
      route: '/api/Auth/ResendEmailVerification',
      field: 'email',
      setUp: async () => {
        const unverified = () => createTestUser(deps(), { isActive: false, emailVerified: false });
        const known = [(await unverified()).email!, (await unverified()).email!, (await unverified()).email!];
        return {
          known,
          nothing: ['nobody-e@example.test', (await createTestUser(deps())).email!, known[0]!, 'nobody-f@example.test'],
        };
      },
    },
  ];

  for (const { route, field, setUp } of endpoints) {
    it(`${route}: an address that gets nothing answers about as slowly as a real send`, async () => {
      const { known, nothing } = await setUp();
      const timedPost = async (address: string) => {
        const started = performance.now();
        const res = await post(server, route, { [field]: address });
        return { ms: performance.now() - started, status: res.status, data: res.body.data };
      };
      // Known first: these sends fill the window the unknown answers draw from.
      const knownAnswers = [];
      for (const address of known) knownAnswers.push(await timedPost(address));
      const received = field === 'email' ? smtp.mails : sms.texts;
      const sentBefore = [...received];
      const otherAnswers = [];
      for (const address of nothing) otherAnswers.push(await timedPost(address));

      for (const address of new Set(known))
        expect(sentBefore.filter((to) => to === address)).toHaveLength(known.filter((k) => k === address).length);
      expect(received).toEqual(sentBefore);
      for (const answer of [...knownAnswers, ...otherAnswers])
        expect({ status: answer.status, data: answer.data }).toEqual({ status: 200, data: knownAnswers[0]!.data });

      const knownMedian = median(knownAnswers.map((a) => a.ms));
      // The transport is really slow, so an answer that skipped the wait would be far quicker.
      expect(knownMedian).toBeGreaterThanOrEqual(SLOW_MS * 0.9);
      for (const answer of otherAnswers) expect(answer.ms).toBeGreaterThanOrEqual(knownMedian * 0.6);
    });
  }
});
