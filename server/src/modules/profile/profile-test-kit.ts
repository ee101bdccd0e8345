import { eq } from 'drizzle-orm';
import { userSessions } from '../../../../db/schema/index.js';
import { bearer, claimsOf, createTestUser, type TestUserOptions } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';

/**
 * Shared by profile/*.test.ts: a user signed in on several devices and the profile's session
 * and account calls, over HTTP as a client makes them.
 */

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
export const AGENTS = { phone: IPHONE, laptop: WINDOWS } as const;

export const sessionOf = (token: string) => claimsOf(token).SessionId as string;

/** The profile calls of one token; `language` picks the culture of the texts (en-US by default). */
export function profileApi(server: TestServer, token: string, language = 'en-US') {
  const headers = { ...bearer(token), 'x-language': language };
  const post = (path: string, json?: unknown) =>
    server.json(`/api/Profile/${path}`, { method: 'POST', headers, ...(json === undefined ? {} : { json }) });
  return {
    sessions: () => server.json('/api/Profile/Sessions', { headers }),
    revoke: (sessionId: unknown) => post('RevokeSession', { sessionId }),
    revokeOthers: () => post('RevokeOtherSessions'),
    deactivate: (password: unknown) => post('DeactivateAccount', { password }),
    remove: (password: unknown) => post('DeleteAccount', { password }),
    /** A raw body, for malformed input. */
    raw: (path: string, body: string) =>
      server.json(`/api/Profile/${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body,
      }),
    userInfo: () => server.json('/api/Auth/UserInfo', { headers }),
  };
}

/** A new user logged in on each named device (a device id and a user agent each). */
export async function signedInOn(server: TestServer, devices: string[], options: TestUserOptions = {}) {
  const user = await createTestUser(server.runtime.deps, options);
  const tokens: Record<string, string> = {};
  for (const device of devices) {
    const agent = AGENTS[device as keyof typeof AGENTS] ?? `test-agent/${device}`;
    const res = await server.json('/api/Auth/Login', {
      method: 'POST',
      headers: { 'user-agent': agent },
      json: { username: user.email, password: user.password, deviceId: device },
    });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    tokens[device] = res.body.data.token.accessToken as string;
  }
  return { user, tokens };
}

/** Sets a session's last activity, so that tests can fix the list's order. */
export async function setActivity(server: TestServer, token: string, at: Date): Promise<void> {
  await server.runtime.deps.db
    .update(userSessions)
    .set({ lastActivityTime: at })
    .where(eq(userSessions.id, BigInt(sessionOf(token))));
}

/** Marks a session as an impersonation session (what the impersonation endpoint writes). */
export async function impersonate(server: TestServer, token: string): Promise<void> {
  const deps = server.runtime.deps;
  const admin = await createTestUser(deps);
  const sessionId = BigInt(sessionOf(token));
  await deps.db.update(userSessions).set({ impersonatorUserId: admin.id }).where(eq(userSessions.id, sessionId));
  await deps.sessionState.invalidateSession(sessionId);
}

/** Any profile call of one token: `call('GET', 'Profile')`, `call('POST', 'ChangeUserName', body)`. */
export function profileCall(server: TestServer, token: string, language = 'en-US') {
  return (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    json?: unknown,
    extraHeaders: Record<string, string> = {},
  ) =>
    server.json(`/api/${path.includes('/') ? path : `Profile/${path}`}`, {
      method,
      headers: { ...bearer(token), 'x-language': language, ...extraHeaders },
      ...(json === undefined ? {} : { json }),
    });
}
