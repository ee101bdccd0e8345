import { eq } from 'drizzle-orm';
import { refreshTokens, userSessions } from '../../../../../db/schema/index.js';
import type { Clock } from '../../../infra/clock.js';
import { claimsOf, createTestUser, loginAs } from '../../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../testing/harness.js';

/**
 * Shared by the sessions-*.test.ts files: a server for session tests and the calls they make
 * over HTTP. Every call asks for en-US, so tests can read the texts in `data`.
 */

/** Captcha off; login throttles raised, since every test logs in from 127.0.0.1 and a frozen clock never ends a window. */
export function startSessionServer(
  options: { clock?: Clock; config?: Record<string, unknown> } = {},
): Promise<TestServer> {
  const { clock, config = {} } = options;
  const auth = { CaptchaEnabled: false, ThrottlePerIp: 100_000, ThrottlePerAccountAndIp: 10_000 };
  const saas = (config.Saas ?? {}) as Record<string, Record<string, unknown>>;
  return startTestServer({
    ...(clock ? { clock } : {}),
    config: { ...config, Saas: { ...saas, Auth: { ...auth, ...(saas.Auth ?? {}) } } },
  });
}

const EN = { 'x-language': 'en-US' };

/** The calls a client makes against the session endpoints. */
export function sessionApi(server: TestServer) {
  const authed = (token: string | undefined) => ({ ...EN, ...(token ? { authorization: `Bearer ${token}` } : {}) });
  return {
    userInfo: (token: string) => server.json('/api/Auth/UserInfo', { headers: authed(token) }),
    permissions: (token: string) => server.json('/api/Auth/Permissions', { headers: authed(token) }),
    refresh: (body: Record<string, unknown>, token?: string) =>
      server.json('/api/Auth/RefreshToken', { method: 'POST', headers: authed(token), json: body }),
    logout: (token: string) => server.json('/api/Auth/Logout', { method: 'POST', headers: authed(token), json: {} }),
    lock: (token: string, password: string) =>
      server.json('/api/Auth/LockSession', { method: 'POST', headers: authed(token), json: { password } }),
    unlock: (token: string, password: string) =>
      server.json('/api/Auth/UnlockSession', { method: 'POST', headers: authed(token), json: { password } }),
    changePassword: (token: string, oldPassword: string, newPassword: string) =>
      server.json('/api/Profile/ChangePassword', {
        method: 'POST',
        headers: authed(token),
        json: { oldPassword, newPassword },
      }),
    login: (username: string, password: string, extra: Record<string, unknown> = {}) =>
      server.json('/api/Auth/Login', { method: 'POST', headers: EN, json: { username, password, ...extra } }),
  };
}

/** The session an access token belongs to. */
export function sessionIdOf(accessToken: string): bigint {
  return BigInt(claimsOf(accessToken).SessionId as string);
}

/** The session row behind an access token. */
export async function sessionRow(server: TestServer, accessToken: string) {
  const [row] = await server.runtime.deps.db
    .select()
    .from(userSessions)
    .where(eq(userSessions.id, sessionIdOf(accessToken)));
  if (!row) throw new Error('no session row');
  return row;
}

/** The refresh-token rows of the session behind an access token. */
export function refreshRows(server: TestServer, accessToken: string) {
  return server.runtime.deps.db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.sessionId, sessionIdOf(accessToken)));
}

/** A new user, logged in. */
export async function freshLogin(server: TestServer, extra: Record<string, unknown> = {}) {
  const user = await createTestUser(server.runtime.deps);
  return { user, token: await loginAs(server, user, extra) };
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
