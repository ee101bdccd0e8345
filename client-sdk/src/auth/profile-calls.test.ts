import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser } from '../../../server/src/testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../server/src/testing/harness.js';
import { PortcullisError } from '../envelope.js';
import { createAuthClient } from './auth-client.js';
import type { LoggedOutEvent } from './session-ended-error.js';
import { createMemoryTokenStore } from './token-store.js';

/** The auth client's session and account calls against the real server (captcha off). */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: { Saas: { Auth: { CaptchaEnabled: false } } } });
});
afterAll(() => server.close());

async function signedIn(user: { email: string | null; password: string }, deviceId: string) {
  const events: LoggedOutEvent[] = [];
  const store = createMemoryTokenStore();
  const auth = createAuthClient({
    baseUrl: server.url,
    tokenStore: store,
    language: 'en-US',
    onLoggedOut: (e) => void events.push(e),
  });
  const result = await auth.login({ username: user.email!, password: user.password, deviceId });
  if (result.status !== 'signed-in') throw new Error(`expected signed-in, got ${result.status}`);
  return { auth, store, events };
}

describe('sessions and account through the auth client', () => {
  it('lists, revokes one, revokes the others', async () => {
    const user = await createTestUser(server.runtime.deps);
    const phone = await signedIn(user, 'phone');
    const tablet = await signedIn(user, 'tablet');
    const laptop = await signedIn(user, 'laptop');
    const sessions = await laptop.auth.getSessions();
    expect(sessions).toHaveLength(3);
    expect(sessions[0]!.isCurrent).toBe(true);
    const current = sessions[0]!.sessionId;
    const error = await laptop.auth.revokeSession(current).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortcullisError);
    expect(error).toMatchObject({
      status: 422,
      message: 'The current session cannot be revoked from the profile; log out instead.',
    });
    await laptop.auth.revokeSession(sessions[1]!.sessionId);
    expect(await laptop.auth.revokeOtherSessions()).toBe(1);
    expect((await laptop.auth.getSessions()).map((s) => s.sessionId)).toEqual([current]);
    // The revoked clients find out on their next call: the refresh is refused and they sign out.
    for (const other of [phone, tablet]) {
      await expect(other.auth.getUserInfo()).rejects.toBeInstanceOf(PortcullisError);
      expect(await other.store.get()).toBeNull();
      expect(other.events.map((e) => e.reason)).toEqual(['refresh-failed']);
    }
  });

  it('deletes the account: tokens cleared and the host told; a wrong password keeps the user signed in', async () => {
    const user = await createTestUser(server.runtime.deps);
    const { auth, store, events } = await signedIn(user, 'phone');
    await expect(auth.deleteAccount('Wrong#Passw0rd1')).rejects.toMatchObject({
      status: 422,
      message: 'The current password is incorrect.',
    });
    expect(await store.get()).not.toBeNull();
    await auth.deleteAccount(user.password);
    expect(await store.get()).toBeNull();
    expect(events).toEqual([{ reason: 'account-ended' }]);
  });

  it('deactivates the account the same way', async () => {
    const user = await createTestUser(server.runtime.deps);
    const { auth, store, events } = await signedIn(user, 'phone');
    await auth.deactivateAccount(user.password);
    expect(await store.get()).toBeNull();
    expect(events).toEqual([{ reason: 'account-ended' }]);
  });
});
