import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/src/infra/clock.js';
import { generateTotpSecret, totpCode } from '../../../server/src/modules/auth/two-factor/totp.js';
import { createTestUser, watchCodes } from '../../../server/src/testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../server/src/testing/harness.js';
import { PortcullisError } from '../envelope.js';
import { createAuthClient } from './auth-client.js';
import { createMemoryTokenStore } from './token-store.js';

/** The e-mail and phone code logins through the SDK against the real server: tokens land in the store as after a password login. */
const clock = new ManualClock(Date.now());
let server: TestServer;
let codes: ReturnType<typeof watchCodes>;
beforeAll(async () => {
  server = await startTestServer({ clock, config: { Saas: { Auth: { ThrottlePerIp: 1000 } } } });
  codes = watchCodes(server.runtime.deps);
});
afterAll(() => server.close());

describe('code logins', () => {
  it('e-mail: sends the code, signs in with it, stores the tokens, and the stored tokens work', async () => {
    const user = await createTestUser(server.runtime.deps);
    const store = createMemoryTokenStore();
    const auth = createAuthClient({ baseUrl: server.url, tokenStore: store });
    await auth.sendEmailLoginCode(user.email!);
    const result = await auth.emailLogin({ email: user.email!, code: codes.last('login-email')! });
    if (result.status !== 'signed-in') throw new Error(`expected signed-in, got ${result.status}`);
    expect(await store.get()).toEqual({
      accessToken: result.token.accessToken,
      refreshToken: result.token.refreshToken,
    });
    expect(await auth.getUserInfo()).toMatchObject({ userName: user.userName });
  });

  it('phone: the same with a verified number', async () => {
    const user = await createTestUser(server.runtime.deps, { phone: '+15550142', phoneVerified: true });
    const store = createMemoryTokenStore();
    const auth = createAuthClient({ baseUrl: server.url, tokenStore: store });
    await auth.sendPhoneLoginCode('+1 555-0142');
    const result = await auth.phoneLogin({ phone: '+1 555-0142', code: codes.last('login-phone')! });
    expect(result.status).toBe('signed-in');
    expect(await store.get()).toMatchObject({ accessToken: expect.any(String) });
    expect(await auth.getUserInfo()).toMatchObject({ userName: user.userName });
  });

  it('a second factor answers a challenge; continuing with the TOTP code signs in and stores the tokens', async () => {
    const secret = generateTotpSecret();
    const user = await createTestUser(server.runtime.deps, { twoFactorMethod: 1, twoFactorSecret: secret });
    const store = createMemoryTokenStore();
    const auth = createAuthClient({ baseUrl: server.url, tokenStore: store });
    await auth.sendEmailLoginCode(user.email!);
    const first = await auth.emailLogin({ email: user.email!, code: codes.last('login-email')! });
    if (first.status !== 'two-factor') throw new Error('expected a challenge');
    expect(first.availableTwoFactorMethods).toContain('totp');
    expect(await store.get()).toBeNull();
    const done = await first.continue('totp', totpCode(secret, clock.now().getTime()));
    expect(done.status).toBe('signed-in');
    expect(await store.get()).toMatchObject({ accessToken: expect.any(String) });
  });

  it('a wrong code is a PortcullisError and stores nothing', async () => {
    const user = await createTestUser(server.runtime.deps);
    const store = createMemoryTokenStore();
    const auth = createAuthClient({ baseUrl: server.url, tokenStore: store });
    await auth.sendEmailLoginCode(user.email!);
    const sent = codes.last('login-email')!;
    await expect(
      auth.emailLogin({ email: user.email!, code: sent === '000000' ? '111111' : '000000' }),
    ).rejects.toBeInstanceOf(PortcullisError);
    expect(await store.get()).toBeNull();
  });
});
