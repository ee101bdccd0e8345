import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser } from '../../../server/src/testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../server/src/testing/harness.js';
import { appCode } from '../../../server/src/modules/profile/two-factor-test-kit.js';
import { PortcullisError } from '../envelope.js';
import { createAuthClient } from './auth-client.js';
import type { TwoFactorChallenge } from './login-flow.js';
import { createMemoryTokenStore } from './token-store.js';

/** The auth client's second-factor calls against the real server (captcha off). */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: { Saas: { Auth: { CaptchaEnabled: false } } } });
});
afterAll(() => server.close());

const client = () => createAuthClient({ baseUrl: server.url, tokenStore: createMemoryTokenStore(), language: 'en-US' });

describe('second factor through the auth client', () => {
  it('sets up and enables TOTP, signs in with a recovery code, regenerates the codes and disables', async () => {
    const user = await createTestUser(server.runtime.deps);
    const auth = client();
    expect((await auth.login({ username: user.email!, password: user.password })).status).toBe('signed-in');
    const { sharedKey, authenticatorUri } = await auth.setupTwoFactor();
    expect(authenticatorUri).toContain(`secret=${sharedKey}`);
    const enabled = await auth.enableTwoFactor(1, appCode(sharedKey, Date.now()));
    expect(enabled.recoveryCodes).toHaveLength(10);
    await auth.logout();

    const again = client();
    const first = (await again.login({ username: user.email!, password: user.password })) as TwoFactorChallenge;
    expect(first).toMatchObject({ status: 'two-factor', availableTwoFactorMethods: ['totp'] });
    const wrong = await first.continue('recovery', 'AAAA-AAAA').catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(PortcullisError);
    expect((await first.continue('recovery', enabled.recoveryCodes![0]!)).status).toBe('signed-in');
    expect(await again.getTwoFactor()).toMatchObject({ twoFactorMethod: 1, recoveryCodesRemaining: 9 });

    expect(await again.regenerateRecoveryCodes(user.password)).toHaveLength(10);
    expect(await again.disableTwoFactor(1, { password: user.password })).toMatchObject({
      twoFactorEnabled: false,
      recoveryCodesRemaining: 0,
    });
    const refused = await again.sendTwoFactorSetupCode(4).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 422 });
  });
});
