import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/src/infra/clock.js';
import { generateTotpSecret, totpCode } from '../../../server/src/modules/auth/two-factor/totp.js';
import { createTestUser, watchCodes, type TestUser } from '../../../server/src/testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../server/src/testing/harness.js';
import { PortcullisError } from '../envelope.js';
import { createAuthClient, type AuthClient } from './auth-client.js';
import type { LoginResult, TwoFactorChallenge } from './login-flow.js';
import { createStorageTokenStore, type StorageLike } from './storage-token-store.js';
import { createMemoryTokenStore } from './token-store.js';

/**
 * The password login against the real server, with the captcha on (its default): the first stage
 * carries it, the second-factor stages carry the ticket instead. TOTP codes are checked against
 * the server's clock, so the test computes them from the same clock.
 */
const clock = new ManualClock(Date.now());
let server: TestServer;
let codes: ReturnType<typeof watchCodes>;
beforeAll(async () => {
  server = await startTestServer({ clock, config: { Saas: { Auth: { CaptchaEnabled: true, ThrottlePerIp: 1000 } } } });
  codes = watchCodes(server.runtime.deps);
});
afterAll(() => server.close());

/** The first stage as a user would fill it in: credentials and the captcha they read. */
async function firstStage(auth: AuthClient, user: TestUser, password = user.password): Promise<LoginResult> {
  const { captchaId } = await auth.rest.call('AuthAppService.GetCaptchaAsync');
  return auth.login({ username: user.email!, password, captchaId, captchaCode: codes.last('captcha', captchaId) });
}

function challenge(result: LoginResult): TwoFactorChallenge {
  if (result.status !== 'two-factor') throw new Error(`expected a challenge, got ${result.status}`);
  return result;
}

const emailCode = (user: TestUser) => codes.last('two-factor-email', String(user.id));

describe('login', () => {
  it('signs in without a second factor and keeps the tokens in the store', async () => {
    const user = await createTestUser(server.runtime.deps);
    const store = createMemoryTokenStore();
    const auth = createAuthClient({ baseUrl: server.url, tokenStore: store });
    const result = await firstStage(auth, user);
    if (result.status !== 'signed-in') throw new Error('expected signed-in');
    expect(result.token.tokenType).toBe('Bearer');
    expect(await store.get()).toEqual({
      accessToken: result.token.accessToken,
      refreshToken: result.token.refreshToken,
    });
    expect(await auth.getUserInfo()).toMatchObject({ userName: user.userName, email: user.email });
  });

  it('throws the friendly refusal and stores nothing on a wrong password', async () => {
    const user = await createTestUser(server.runtime.deps);
    const store = createMemoryTokenStore();
    const auth = createAuthClient({ baseUrl: server.url, tokenStore: store, language: 'en-US' });
    const error = await firstStage(auth, user, 'wrong').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortcullisError);
    expect(error).toMatchObject({ status: 400, message: 'Wrong user name or password.' });
    expect(await store.get()).toBeNull();
  });

  it('passes a TOTP second factor: the same credentials again, with method, code and ticket', async () => {
    const secret = generateTotpSecret();
    const user = await createTestUser(server.runtime.deps, { twoFactorMethod: 1, twoFactorSecret: secret });
    const store = createMemoryTokenStore();
    const auth = createAuthClient({ baseUrl: server.url, tokenStore: store });
    const first = challenge(await firstStage(auth, user));
    expect(first).toMatchObject({ availableTwoFactorMethods: ['totp'], twoFactorMethod: 'totp', codeSent: false });
    expect(await store.get()).toBeNull();
    // No captcha here: it was consumed by the first stage, and the ticket stands in for it.
    const result = await first.continue('totp', totpCode(secret, clock.nowMs()));
    expect(result.status).toBe('signed-in');
    expect(await store.get()).not.toBeNull();
    expect((await auth.getUserInfo()).userName).toBe(user.userName);
  });

  it('passes an e-mail second factor with the code the server sent', async () => {
    const user = await createTestUser(server.runtime.deps, { twoFactorMethod: 2, emailVerified: true });
    const store = createMemoryTokenStore();
    const auth = createAuthClient({ baseUrl: server.url, tokenStore: store });
    const first = challenge(await firstStage(auth, user));
    expect(first).toMatchObject({ availableTwoFactorMethods: ['email'], twoFactorMethod: 'email', codeSent: true });
    expect(emailCode(user)).toMatch(/^\d{6}$/);
    expect((await first.continue('email', emailCode(user))).status).toBe('signed-in');
    expect(await store.get()).not.toBeNull();
  });

  it('asks for an e-mail code when continued without one, then signs in with it', async () => {
    const user = await createTestUser(server.runtime.deps, {
      twoFactorMethod: 1 | 2,
      twoFactorSecret: generateTotpSecret(),
      emailVerified: true,
    });
    const auth = createAuthClient({ baseUrl: server.url });
    const first = challenge(await firstStage(auth, user));
    // Two methods: the user chooses, nothing is sent yet.
    expect(first).toMatchObject({ twoFactorMethod: null, codeSent: false });
    expect([...first.availableTwoFactorMethods].sort()).toEqual(['email', 'totp']);
    expect(emailCode(user)).toBeUndefined();
    const second = challenge(await first.continue('email'));
    expect(second).toMatchObject({ twoFactorMethod: 'email', codeSent: true });
    const code = emailCode(user);
    expect(code).toMatch(/^\d{6}$/);
    // A wrong code is refused (and spends the code); the ticket still serves a new one.
    await expect(second.continue('email', code === '000000' ? '111111' : '000000')).rejects.toMatchObject({
      status: 400,
    });
    // Codes are sent at most once a minute per address.
    clock.advance(60_000);
    await second.continue('email');
    expect(emailCode(user)).not.toBe(code);
    expect((await second.continue('email', emailCode(user))).status).toBe('signed-in');
  });

  it('writes the legacy storage keys, so a client created later (a reload) is still signed in', async () => {
    const user = await createTestUser(server.runtime.deps);
    const items = new Map<string, string>();
    const storage: StorageLike = {
      getItem: (k) => items.get(k) ?? null,
      setItem: (k, v) => void items.set(k, v),
      removeItem: (k) => void items.delete(k),
    };
    await firstStage(createAuthClient({ baseUrl: server.url, tokenStore: createStorageTokenStore(storage) }), user);
    expect([...items.keys()].sort()).toEqual(['xihan_access_token', 'xihan_refresh_token']);
    const afterReload = createAuthClient({ baseUrl: server.url, tokenStore: createStorageTokenStore(storage) });
    expect((await afterReload.getUserInfo()).userName).toBe(user.userName);
  });
});
