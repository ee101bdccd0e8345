import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../server/src/infra/clock.js';
import { bearer, createTestUser, type TestUserOptions } from '../../../server/src/testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../server/src/testing/harness.js';
import { PortcullisError } from '../envelope.js';
import { createTrpcClient, envelopeOf } from '../trpc-client.js';
import { createAuthClient, type AuthClientOptions } from './auth-client.js';
import { SessionEndedError } from './session-ended-error.js';
import { createMemoryTokenStore } from './token-store.js';

/**
 * The authenticated fetch against the real server: 401 (refresh once, single-flight, replay),
 * refused refresh (logged out), 423 (locked, not logged out), 429 (bounded backoff), logout.
 *
 * Access tokens live one minute (the least the server allows); the clock moves them past expiry
 * and the five-minute skew, so the server answers 401 10003 for real. Each test signs in a user
 * of its own and refreshes within ten minutes of that login. Past that, the server's refresh
 * never answers: it rebuilds the expired authorization snapshot on the pool from inside its
 * transaction, and PGlite's only connection is held by that transaction.
 */
const clock = new ManualClock(Date.now());
const EXPIRE = 7 * 60_000;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    clock,
    config: { Jwt: { AccessTokenMinutes: 1 }, Saas: { Auth: { CaptchaEnabled: false, ThrottlePerIp: 1000 } } },
  });
});
afterAll(() => server.close());

/** A transport that records `METHOD /path` of every request, and can answer some itself. */
function recorder(intercept?: (line: string) => Response | undefined) {
  const lines: string[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const line = `${request.method} ${new URL(request.url).pathname}`;
    lines.push(line);
    return intercept?.(line) ?? fetch(request);
  };
  return {
    fetch: fetchFn,
    lines,
    count: (prefix: string) => lines.filter((l) => l.startsWith(prefix)).length,
    reset: () => void lines.splice(0),
  };
}

/** A signed-in client with spies on its signals; the recorder starts empty after the login. */
async function signedIn(options: Partial<AuthClientOptions> = {}, userOptions: TestUserOptions = {}) {
  const user = await createTestUser(server.runtime.deps, { nickName: 'Ada', ...userOptions });
  const store = createMemoryTokenStore();
  const onLoggedOut = vi.fn();
  const onLocked = vi.fn();
  const rec = recorder();
  const auth = createAuthClient({
    baseUrl: server.url,
    fetch: rec.fetch,
    tokenStore: store,
    onLoggedOut,
    onLocked,
    ...options,
  });
  await auth.login({ username: user.email!, password: user.password });
  rec.reset();
  return { user, store, auth, rec, onLoggedOut, onLocked };
}

/** A synthetic 429 envelope, as a gateway or the server would answer. */
function tooMany(retryAfter: string | null): Response {
  const body = JSON.stringify({
    code: 429,
    message: 'Too Many Requests',
    timestamp: new Date().toISOString(),
    isSuccess: false,
  });
  return new Response(body, {
    status: 429,
    headers: { 'content-type': 'application/json', ...(retryAfter === null ? {} : { 'retry-after': retryAfter }) },
  });
}

/** A transport that answers the first `times` calls to `path` with a 429 of its own. */
function throttleFirst(path: string, times: number, retryAfter: string | null) {
  let hits = 0;
  const transport: typeof fetch = async (input, init) => {
    if (new URL(new Request(input, init).url).pathname === path && hits++ < times) return tooMany(retryAfter);
    return fetch(input, init);
  };
  return { transport, hits: () => hits };
}

describe('refresh on 401', () => {
  it('refreshes once for 10 concurrent requests that all got 401, and replays all 10', async () => {
    const { user, store, auth, rec, onLoggedOut } = await signedIn();
    const before = (await store.get())!;
    clock.advance(EXPIRE);
    const probe = await server.json('/api/Auth/UserInfo', { headers: bearer(before.accessToken) });
    expect([probe.status, probe.body.code]).toEqual([401, 10003]);

    const results = await Promise.all(Array.from({ length: 10 }, () => auth.getUserInfo()));
    expect(results.map((r) => r.userName)).toEqual(Array(10).fill(user.userName));
    expect(rec.count('POST /api/Auth/RefreshToken')).toBe(1);
    // Ten sent with the expired token, ten replays with the new one.
    expect(rec.count('GET /api/Auth/UserInfo')).toBe(20);
    const after = (await store.get())!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(onLoggedOut).not.toHaveBeenCalled();
  });

  it('gives the tRPC client the same behaviour through auth.fetch (a batch of protected calls)', async () => {
    const { user, auth, rec } = await signedIn();
    const trpc = createTrpcClient({ baseUrl: server.url, fetch: auth.fetch });
    clock.advance(EXPIRE);
    // One HTTP request; the server answers 207 with a 401 per call.
    const [info, permissions] = await Promise.all([
      trpc.AuthAppService.GetUserInfoAsync.query(),
      trpc.AuthAppService.GetPermissionsAsync.query(),
    ]);
    expect(info.userName).toBe(user.userName);
    expect(permissions.roles).toEqual([]);
    expect(rec.count('POST /api/Auth/RefreshToken')).toBe(1);
    expect(rec.count('GET /trpc/')).toBe(2);
  });

  it('renews the token but does not replay a tRPC batch in which another call already ran', async () => {
    const { auth, rec } = await signedIn();
    const trpc = createTrpcClient({ baseUrl: server.url, fetch: auth.fetch });
    clock.advance(EXPIRE);
    // The server answers this batch 401 although its first call succeeded.
    const [time, info] = await Promise.allSettled([
      trpc.SystemAppService.GetServerTimeAsync.query(),
      trpc.AuthAppService.GetUserInfoAsync.query(),
    ]);
    expect(time.status).toBe('fulfilled');
    expect(info.status).toBe('rejected');
    expect(envelopeOf((info as PromiseRejectedResult).reason)).toMatchObject({ code: 10003 });
    expect(rec.count('GET /trpc/')).toBe(1);
    expect(rec.count('POST /api/Auth/RefreshToken')).toBe(1);
    // The next call uses the renewed token straight away.
    await trpc.AuthAppService.GetUserInfoAsync.query();
    expect(rec.count('POST /api/Auth/RefreshToken')).toBe(1);
  });

  it('replays with the token another request renewed when its 401 arrives after that refresh', async () => {
    // The first answer to UserInfo (a 401) is held back until a refresh has finished.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    const rec = recorder();
    const transport: typeof fetch = async (input, init) => {
      const response = await rec.fetch(input, init);
      if (!held && rec.lines.at(-1) === 'GET /api/Auth/UserInfo') {
        held = true;
        await released;
      }
      return response;
    };
    const { user, auth } = await signedIn({ fetch: transport });
    rec.reset();
    clock.advance(EXPIRE);
    const late = auth.getUserInfo();
    await vi.waitFor(() => expect(held).toBe(true));
    await auth.refresh();
    release();
    expect((await late).userName).toBe(user.userName);
    expect(rec.lines).toEqual(['GET /api/Auth/UserInfo', 'POST /api/Auth/RefreshToken', 'GET /api/Auth/UserInfo']);
  });
});

describe('refused refresh', () => {
  it('clears the tokens, signals logged-out once and rejects every waiting request, refreshing once', async () => {
    const { store, auth, rec, onLoggedOut } = await signedIn();
    // Another client holding the same tokens logs out: the session and its tokens end.
    const other = createAuthClient({ baseUrl: server.url, tokenStore: createMemoryTokenStore(await store.get()) });
    expect(await other.logout()).toEqual({ revoked: true });

    const results = await Promise.allSettled(Array.from({ length: 5 }, () => auth.getUserInfo()));
    for (const r of results) {
      expect(r.status).toBe('rejected');
      const error = (r as PromiseRejectedResult).reason as SessionEndedError;
      expect(error).toBeInstanceOf(SessionEndedError);
      expect(error).toBeInstanceOf(PortcullisError);
      expect([error.status, error.code]).toEqual([401, 10001]);
    }
    expect(rec.count('POST /api/Auth/RefreshToken')).toBe(1);
    expect(await store.get()).toBeNull();
    expect(onLoggedOut).toHaveBeenCalledTimes(1);
    expect(onLoggedOut.mock.calls[0]![0]).toMatchObject({
      reason: 'refresh-failed',
      error: expect.any(SessionEndedError),
    });

    // Signed out: a later call goes without a token and gets the plain 401, with no refresh.
    const later = await auth.getUserInfo().catch((e: unknown) => e);
    expect(later).toBeInstanceOf(PortcullisError);
    expect(later).not.toBeInstanceOf(SessionEndedError);
    expect(rec.count('POST /api/Auth/RefreshToken')).toBe(1);
    expect(onLoggedOut).toHaveBeenCalledTimes(1);
  });

  it('ends the session when the refresh token is garbage', async () => {
    const store = createMemoryTokenStore({ accessToken: 'garbage', refreshToken: 'garbage' });
    const rec = recorder();
    const onLoggedOut = vi.fn();
    const auth = createAuthClient({ baseUrl: server.url, fetch: rec.fetch, tokenStore: store, onLoggedOut });
    await expect(auth.getUserInfo()).rejects.toBeInstanceOf(SessionEndedError);
    expect(rec.lines).toEqual(['GET /api/Auth/UserInfo', 'POST /api/Auth/RefreshToken']);
    expect(await store.get()).toBeNull();
    expect(onLoggedOut).toHaveBeenCalledTimes(1);
  });

  it('never refreshes because of a 401 from the refresh or login call itself', async () => {
    const { store, auth, rec } = await signedIn();
    const tokens = await store.get();
    const error = await auth.rest
      .call('AuthAppService.RefreshTokenAsync', { accessToken: 'garbage', refreshToken: 'garbage' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: 10001 });
    await auth.rest.send('AuthAppService.LoginAsync', { username: 'nobody@example.test', password: 'x' });
    expect(rec.lines).toEqual(['POST /api/Auth/RefreshToken', 'POST /api/Auth/Login']);
    expect(await store.get()).toEqual(tokens);
  });

  it('keeps the tokens and does not retry when the refresh fails for a passing reason (429)', async () => {
    const rec = recorder((line) => (line === 'POST /api/Auth/RefreshToken' ? tooMany('1') : undefined));
    const sleep = vi.fn(async () => {});
    const { store, auth, onLoggedOut } = await signedIn({ fetch: rec.fetch, sleep });
    rec.reset();
    const tokens = await store.get();
    clock.advance(EXPIRE);
    const error = await auth.getUserInfo().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortcullisError);
    expect(error).not.toBeInstanceOf(SessionEndedError);
    expect(error).toMatchObject({ status: 429 });
    expect(rec.count('POST /api/Auth/RefreshToken')).toBe(1);
    expect(sleep).not.toHaveBeenCalled();
    expect(await store.get()).toEqual(tokens);
    expect(onLoggedOut).not.toHaveBeenCalled();
  });
});

describe('locked session (423)', () => {
  it('signals locked with the detail, keeps the tokens, does not refresh or log out; unlock restores', async () => {
    const { user, store, auth, onLocked, onLoggedOut, rec } = await signedIn();
    const tokens = await store.get();
    await auth.lock('abcd');

    const error = await auth.getUserInfo().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortcullisError);
    expect(error).toMatchObject({ status: 423, code: 423 });
    expect(onLocked).toHaveBeenCalledTimes(1);
    expect(onLocked).toHaveBeenCalledWith({ reason: 'ScreenLock', displayName: 'Ada', avatarUrl: null });

    // The tRPC client through auth.fetch gets the same signal.
    const trpc = createTrpcClient({ baseUrl: server.url, fetch: auth.fetch });
    const trpcError = await trpc.AuthAppService.GetUserInfoAsync.query().catch((e: unknown) => e);
    expect(envelopeOf(trpcError)).toMatchObject({ code: 423, data: { reason: 'ScreenLock' } });
    expect(onLocked).toHaveBeenCalledTimes(2);

    // A wrong password does not unlock; the right one does.
    await expect(auth.unlock('wrong')).rejects.toMatchObject({ status: 400 });
    await auth.unlock('abcd');
    expect((await auth.getUserInfo()).userName).toBe(user.userName);

    expect(await store.get()).toEqual(tokens);
    expect(onLoggedOut).not.toHaveBeenCalled();
    expect(rec.count('POST /api/Auth/RefreshToken')).toBe(0);
  });

  it('reports a forced password change as its own reason', async () => {
    const { auth, onLocked, store } = await signedIn({}, { mustChangePassword: true });
    await expect(auth.getUserInfo()).rejects.toMatchObject({ status: 423 });
    expect(onLocked).toHaveBeenCalledWith(expect.objectContaining({ reason: 'PasswordChangeRequired' }));
    expect(await store.get()).not.toBeNull();
  });

  it('can log out while locked', async () => {
    const { auth, store, onLoggedOut } = await signedIn();
    await auth.lock('abcd');
    expect(await auth.logout()).toEqual({ revoked: true });
    expect(await store.get()).toBeNull();
    expect(onLoggedOut).toHaveBeenCalledWith({ reason: 'logout' });
  });
});

describe('429 backoff', () => {
  it('waits Retry-After for real and then succeeds', async () => {
    const { transport, hits } = throttleFirst('/api/System/ServerTime', 1, '1');
    const auth = createAuthClient({ baseUrl: server.url, fetch: transport });
    const started = performance.now();
    const data = await auth.rest.call('SystemAppService.GetServerTimeAsync');
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(data.serverTime).toBeTruthy();
    expect(hits()).toBe(2);
  });

  it('retries a bounded number of times, then gives the 429 to the caller', async () => {
    const { transport, hits } = throttleFirst('/api/System/ServerTime', 10, '1');
    const sleep = vi.fn(async (_ms: number) => {});
    const auth = createAuthClient({ baseUrl: server.url, fetch: transport, sleep });
    await expect(auth.rest.call('SystemAppService.GetServerTimeAsync')).rejects.toMatchObject({ status: 429 });
    expect(hits()).toBe(3);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1000, 1000]);

    const none = throttleFirst('/api/System/ServerTime', 10, '1');
    const noRetry = createAuthClient({ baseUrl: server.url, fetch: none.transport, sleep, maxRetriesOn429: 0 });
    await expect(noRetry.rest.call('SystemAppService.GetServerTimeAsync')).rejects.toMatchObject({ status: 429 });
    expect(none.hits()).toBe(1);
  });

  it('caps a long Retry-After at maxBackoffMs, and backs off exponentially without one', async () => {
    const sleep = vi.fn(async (_ms: number) => {});
    const long = throttleFirst('/api/System/ServerTime', 1, '3600');
    await createAuthClient({ baseUrl: server.url, fetch: long.transport, sleep, maxBackoffMs: 5_000 }).rest.call(
      'SystemAppService.GetServerTimeAsync',
    );
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([5_000]);

    sleep.mockClear();
    const bare = throttleFirst('/api/System/ServerTime', 3, null);
    await createAuthClient({ baseUrl: server.url, fetch: bare.transport, sleep, maxRetriesOn429: 3 }).rest.call(
      'SystemAppService.GetServerTimeAsync',
    );
    const waits = sleep.mock.calls.map(([ms]) => ms);
    expect(waits).toHaveLength(3);
    waits.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(500 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(1000 * 2 ** i);
    });
  });
});

describe('the real login throttle', () => {
  it('gives up with the 429 after the bounded retries, then gets through once the window is waited out', async () => {
    const user = await createTestUser(server.runtime.deps);
    const credentials = { username: user.email!, password: user.password };
    const waits: number[] = [];
    const rec = recorder();
    // Waiting costs no real time here: this sleep only records.
    const impatient = createAuthClient({
      baseUrl: server.url,
      fetch: rec.fetch,
      sleep: async (ms) => void waits.push(ms),
    });
    // Five logins a minute per account and address (SPEC Limits), counted whatever their outcome.
    for (let i = 0; i < 5; i++) expect((await impatient.login(credentials)).status).toBe('signed-in');
    rec.reset();
    const error = await impatient.login(credentials).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortcullisError);
    expect(error).toMatchObject({ status: 429, code: 429 });
    expect(rec.lines).toEqual(Array(3).fill('POST /api/Auth/Login'));
    // The server's clock stood still, so both waits are the same Retry-After (capped at 30 s).
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBe(waits[1]);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(30_000);

    // This sleep moves the server's clock instead: the retry lands in the next window.
    waits.splice(0);
    const patient = createAuthClient({
      baseUrl: server.url,
      maxBackoffMs: 60_000,
      sleep: async (ms) => {
        waits.push(ms);
        clock.advance(ms);
      },
    });
    expect((await patient.login(credentials)).status).toBe('signed-in');
    expect(waits).toHaveLength(1);
  });
});

describe('logout', () => {
  it('revokes the session on the server and clears the tokens', async () => {
    const { store, auth, onLoggedOut } = await signedIn();
    const tokens = (await store.get())!;
    expect(await auth.logout()).toEqual({ revoked: true });
    expect(await store.get()).toBeNull();
    expect(onLoggedOut).toHaveBeenCalledWith({ reason: 'logout' });
    const probe = await server.json('/api/Auth/UserInfo', { headers: bearer(tokens.accessToken) });
    expect(probe.status).toBe(401);
  });

  it('clears the tokens even when the server cannot be reached', async () => {
    const rec = recorder((line) => {
      if (line === 'POST /api/Auth/Logout') throw new TypeError('fetch failed');
      return undefined;
    });
    const { store, auth, onLoggedOut } = await signedIn({ fetch: rec.fetch });
    const result = await auth.logout();
    expect(result.revoked).toBe(false);
    expect(result.error).toBeInstanceOf(TypeError);
    expect(await store.get()).toBeNull();
    expect(onLoggedOut).toHaveBeenCalledTimes(1);
  });
});
