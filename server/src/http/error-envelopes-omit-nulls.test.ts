import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestUser, GOOD_PASSWORD, loginAs } from '../testing/auth-fixtures.js';
import { fixtureApi } from '../testing/fixture-router.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

/**
 * SPEC "Serialization conventions": null properties are omitted. A 423 answered
 * `{"reason":"ScreenLock","displayName":"…","avatarUrl":null}` for a user without an avatar: the
 * error detail was written as it came, past the serializer. This sweep drives every kind of
 * error the service answers, on REST and /trpc, and walks each body for a null at any depth.
 */

/** JSON paths of every null in a value. */
function nullsIn(value: unknown, path = '$'): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => nullsIn(item, `${path}[${i}]`));
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => nullsIn(v, `${path}.${k}`));
  return [];
}

interface Answer {
  status: number;
  body: unknown;
}

async function read(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as unknown };
}

/** The envelope of a REST answer or of a /trpc error (single call, or the first failed call of a batch). */
function envelopeOf(body: unknown): Record<string, unknown> {
  const item = (Array.isArray(body) ? body.find((b: Record<string, unknown>) => b.error) : body) as Record<string, any>;
  return (item.error ? item.error.data.envelope : item) as Record<string, unknown>;
}

let ipCounter = 0;
const fromNewAddress = () => ({ 'x-forwarded-for': `10.77.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}` });
const trpcInput = (input: unknown) => `?input=${encodeURIComponent(JSON.stringify(input))}`;
const json = { 'content-type': 'application/json' };

describe('error envelopes omit nulls (a 423 wrote "avatarUrl": null)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      config: {
        App: { MaxRequestBodyBytes: 4096, TrustForwardedHeaders: true },
        Saas: { Auth: { CaptchaEnabled: false, ThrottlePerAccountAndIp: 2 } },
      },
    });
  });
  afterAll(() => server.close());

  /** Sends, checks the status and that the answer is a failure, and walks the body for nulls. */
  async function expectError(
    label: string,
    status: number,
    send: () => Promise<Response>,
  ): Promise<Record<string, unknown>> {
    const answer = await read(await send());
    expect(answer.status, label).toBe(status);
    const envelope = envelopeOf(answer.body);
    expect(envelope.isSuccess, label).toBe(false);
    expect(nullsIn(answer.body), `${label}: ${JSON.stringify(answer.body)}`).toEqual([]);
    return envelope;
  }

  async function lockedUser(lock: 'screen' | 'password-change') {
    // No avatar, no nick name: the lock detail's optional fields are absent, not null.
    const user = await createTestUser(server.runtime.deps, { mustChangePassword: lock === 'password-change' });
    const token = (await loginAs(server, user)).accessToken;
    if (lock === 'screen') {
      const res = await server.request('/api/Auth/LockSession', {
        method: 'POST',
        headers: { ...json, ...bearer(token) },
        body: JSON.stringify({ password: 'pin-2468' }),
      });
      expect(res.status).toBe(200);
    }
    return token;
  }

  it('on REST', async () => {
    const req = (path: string, init: RequestInit = {}) => server.request(path, init);
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      req(path, { method: 'POST', headers: { ...json, ...fromNewAddress(), ...headers }, body: JSON.stringify(body) });

    const validation = await expectError('400 validation', 400, () =>
      post('/api/Auth/Login', { username: 5, password: [] }),
    );
    expect(Array.isArray(validation.data)).toBe(true);
    await expectError('400 malformed JSON', 400, () =>
      req('/api/Auth/Login', { method: 'POST', headers: json, body: '{"username":' }),
    );
    await expectError('400 wrong password', 400, () =>
      post('/api/Auth/Login', { username: 'nobody@example.test', password: 'wrong-Passw0rd!' }),
    );
    await expectError('401 no token', 401, () => req('/api/Auth/UserInfo'));
    await expectError('401 bad token', 401, () => req('/api/Auth/UserInfo', { headers: bearer('not.a.token') }));
    await expectError('401 hub negotiate', 401, () =>
      req('/hubs/notification/negotiate?negotiateVersion=1', { method: 'POST' }),
    );
    const plain = await createTestUser(server.runtime.deps);
    const plainToken = (await loginAs(server, plain)).accessToken;
    await expectError('403 permission', 403, () => req('/api/UserQuery/EnabledUsers', { headers: bearer(plainToken) }));
    await expectError('404 route', 404, () => req('/api/Nothing/Here'));
    await expectError('405 method', 405, () => req('/api/Auth/Login'));
    const email = `dup-${Date.now()}@example.test`;
    expect((await post('/api/Auth/Register', { email, password: GOOD_PASSWORD })).status).toBe(200);
    await expectError('409 duplicate', 409, () => post('/api/Auth/Register', { email, password: GOOD_PASSWORD }));
    await expectError('413 body', 413, () => post('/api/Auth/Login', { username: 'x'.repeat(5000), password: 'y' }));
    await expectError('415 media type', 415, () =>
      req('/api/Auth/Login', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
    );

    const screen = await expectError('423 screen lock', 423, async () =>
      req('/api/Auth/UserInfo', { headers: bearer(await lockedUser('screen')) }),
    );
    expect(screen.data).toMatchObject({ reason: 'ScreenLock' });
    expect(screen.data).not.toHaveProperty('avatarUrl');
    const change = await expectError('423 password change', 423, async () =>
      req('/api/Auth/UserInfo', { headers: bearer(await lockedUser('password-change')) }),
    );
    expect(change.data).toMatchObject({ reason: 'PasswordChangeRequired' });

    const address = fromNewAddress();
    for (let i = 0; i < 2; i++)
      await post('/api/Auth/Login', { username: 'throttled@example.test', password: 'wrong-Passw0rd!' }, address);
    await expectError('429 throttle', 429, () =>
      post('/api/Auth/Login', { username: 'throttled@example.test', password: 'wrong-Passw0rd!' }, address),
    );

    const headers: Record<string, string> = {};
    for (let i = 0; i < 2500; i++) headers[`h${i}`] = 'v';
    await expectError('431 header fields', 431, () => req('/api/System/ServerTime', { headers }));

    server.runtime.deps.maintenance.enable('null sweep');
    try {
      await expectError('503 maintenance', 503, () => req('/api/System/ServerTime'));
      await expectError('503 readiness', 503, () => req('/health/ready'));
    } finally {
      server.runtime.deps.maintenance.disable('null sweep');
    }
  });

  it('on /trpc', async () => {
    const req = (path: string, init: RequestInit = {}) => server.request(`/trpc/${path}`, init);
    const mutate = (key: string, input: unknown, headers: Record<string, string> = {}) =>
      req(key, { method: 'POST', headers: { ...json, ...fromNewAddress(), ...headers }, body: JSON.stringify(input) });

    const validation = await expectError('400 validation', 400, () =>
      mutate('AuthAppService.LoginAsync', { username: 5, password: [] }),
    );
    expect(Array.isArray(validation.data)).toBe(true);
    await expectError('400 wrong password', 400, () =>
      mutate('AuthAppService.LoginAsync', { username: 'nobody@example.test', password: 'wrong-Passw0rd!' }),
    );
    await expectError('401 no token', 401, () => req('AuthAppService.GetUserInfoAsync'));
    const plain = await createTestUser(server.runtime.deps);
    const plainToken = (await loginAs(server, plain)).accessToken;
    await expectError('403 permission', 403, () =>
      req(`UserQueryService.GetEnabledUsersAsync${trpcInput({})}`, { headers: bearer(plainToken) }),
    );
    await expectError('404 procedure', 404, () => req('NothingAppService.HereAsync'));
    await expectError('405 method', 405, () => req('AuthAppService.LoginAsync'));
    const email = `dup-trpc-${Date.now()}@example.test`;
    expect((await mutate('AuthAppService.RegisterAsync', { email, password: GOOD_PASSWORD })).status).toBe(200);
    await expectError('409 duplicate', 409, () =>
      mutate('AuthAppService.RegisterAsync', { email, password: GOOD_PASSWORD }),
    );
    await expectError('413 body', 413, () =>
      mutate('AuthAppService.LoginAsync', { username: 'x'.repeat(5000), password: 'y' }),
    );
    await expectError('415 media type', 415, () =>
      req('AuthAppService.LoginAsync', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
    );

    const screen = await expectError('423 screen lock', 423, async () =>
      req('AuthAppService.GetUserInfoAsync', { headers: bearer(await lockedUser('screen')) }),
    );
    expect(screen.data).toMatchObject({ reason: 'ScreenLock' });
    expect(screen.data).not.toHaveProperty('avatarUrl');
    await expectError('423 password change', 423, async () =>
      req('AuthAppService.GetUserInfoAsync', { headers: bearer(await lockedUser('password-change')) }),
    );
    // A batch with one call answered and one refused (207), the refused one with its envelope.
    await expectError('207 batch', 207, () =>
      req(
        `AuthAppService.GetUserInfoAsync,UserQueryService.GetEnabledUsersAsync?batch=1&input=${encodeURIComponent(JSON.stringify({ 1: {} }))}`,
        { headers: bearer(plainToken) },
      ),
    );

    const address = fromNewAddress();
    for (let i = 0; i < 2; i++)
      await mutate(
        'AuthAppService.LoginAsync',
        { username: 'throttled-trpc@example.test', password: 'wrong-Passw0rd!' },
        address,
      );
    await expectError('429 throttle', 429, () =>
      mutate(
        'AuthAppService.LoginAsync',
        { username: 'throttled-trpc@example.test', password: 'wrong-Passw0rd!' },
        address,
      ),
    );

    server.runtime.deps.maintenance.enable('null sweep');
    try {
      await expectError('503 maintenance', 503, () => req('SystemAppService.GetServerTimeAsync'));
    } finally {
      server.runtime.deps.maintenance.disable('null sweep');
    }
  });

  it('on a route that fails unexpectedly (500), REST and /trpc', async () => {
    const fixtures = await startTestServer({ api: fixtureApi });
    try {
      for (const [label, path] of [
        ['500 REST', '/api/Echo/Fail'],
        ['500 /trpc', '/trpc/EchoAppService.FailAsync'],
      ] as const) {
        const answer = await read(await fixtures.request(path, { method: 'POST', headers: json, body: '{}' }));
        expect(answer.status, label).toBe(500);
        expect(envelopeOf(answer.body).isSuccess).toBe(false);
        expect(nullsIn(answer.body), JSON.stringify(answer.body)).toEqual([]);
      }
    } finally {
      await fixtures.close();
    }
  });
});
