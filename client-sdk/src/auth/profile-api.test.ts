import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser } from '../../../server/src/testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../server/src/testing/harness.js';
import { codeIn, mailsTo } from '../../../server/src/modules/auth/self-service/self-service-test-kit.js';
import { PortcullisError } from '../envelope.js';
import { createAuthClient } from './auth-client.js';
import { createMemoryTokenStore } from './token-store.js';

/** The auth client's profile calls against the real server (captcha off). */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: { Saas: { Auth: { CaptchaEnabled: false } } } });
});
afterAll(() => server.close());

async function signedIn() {
  const user = await createTestUser(server.runtime.deps);
  const auth = createAuthClient({ baseUrl: server.url, tokenStore: createMemoryTokenStore(), language: 'en-US' });
  const result = await auth.login({ username: user.email!, password: user.password });
  if (result.status !== 'signed-in') throw new Error(`expected signed-in, got ${result.status}`);
  return { user, profile: auth.profile };
}

describe('auth.profile', () => {
  it('reads and updates the profile, changes the e-mail in two steps, pages the login log', async () => {
    const { user, profile } = await signedIn();
    expect((await profile.get()).userName).toBe(user.userName);
    expect((await profile.update({ nickName: 'Via SDK', gender: 1 })).nickName).toBe('Via SDK');
    const next = `sdk.${user.id}@example.test`;
    expect(await profile.sendChangeEmailCode(next, user.password)).toEqual({ expiresInSeconds: 600 });
    const [mail] = await mailsTo(server, next, 'contact-code');
    await profile.confirmChangeEmail(codeIn(mail!.text));
    expect((await profile.get()).email).toBe(next);
    const page = await profile.loginLogs(1, 5);
    expect(page.total).toBeGreaterThanOrEqual(1);
    expect(page.items[0]!.loginResult).toBe('Success');
    expect((await profile.activity()).today.loginCount).toBeGreaterThanOrEqual(1);
    expect(await profile.linkedAccounts()).toEqual([]);
  });

  it('notification switches and UI settings; a refusal throws PortcullisError', async () => {
    const { profile } = await signedIn();
    expect((await profile.updateNotificationPreference({ typeMarketing: true })).typeMarketing).toBe(true);
    expect((await profile.notificationPreference()).typeMarketing).toBe(true);
    expect(await profile.saveSetting({ settingKey: 'theme', settingValue: 'dark' })).toEqual({
      scene: 'Preference',
      settingKey: 'theme',
      settingValue: 'dark',
    });
    expect((await profile.getSetting('theme')).settingValue).toBe('dark');
    const refused = await profile.unlinkAccount('github').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PortcullisError);
    expect((refused as PortcullisError).status).toBe(422);
  });
});
