import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLogs, users, userSecurity } from '../../../../../db/schema/index.js';
import { ManualClock } from '../../../infra/clock.js';
import { createTestUser, loginAs } from '../../../testing/auth-fixtures.js';
import type { TestServer } from '../../../testing/harness.js';
import { LoginResult } from '../../login-log/write.js';
import { SessionStatus } from './session-state.js';
import { REFRESH_STATEMENT } from './queries.js';
import {
  DAY_MS,
  refreshRows,
  sessionApi,
  sessionIdOf,
  sessionRow,
  startSessionServer,
  freshLogin as freshLoginOn,
} from './sessions-test-kit.js';

/** Session status transitions (SPEC "Session status") and how fast a change reaches requests. */

const clock = new ManualClock(Date.now());
let server: TestServer;
let api: ReturnType<typeof sessionApi>;

beforeAll(async () => {
  server = await startSessionServer({ clock });
  api = sessionApi(server);
});
afterAll(() => server.close());

const freshLogin = (extra: Record<string, unknown> = {}) => freshLoginOn(server, extra);

async function expectLoginExpired(res: Promise<{ status: number; body: { code: number } }>) {
  const { status, body } = await res;
  expect(status).toBe(401);
  expect(body.code).toBe(10001);
}

describe('Active -> Revoked on logout', () => {
  it('revokes the row and its refresh tokens; the tokens stop working at once', async () => {
    const { user, token } = await freshLogin({ deviceId: 'laptop' });
    // The state is cached by this request; logout must not leave it stale.
    expect((await api.userInfo(token.accessToken)).status).toBe(200);

    const out = await api.logout(token.accessToken);
    expect(out.status).toBe(200);
    expect(out.body.isSuccess).toBe(true);

    const row = await sessionRow(server, token.accessToken);
    expect(row.status).toBe(SessionStatus.Revoked);
    expect(row.revokedReason).toBe('Logout');
    expect(row.revokedTime).not.toBeNull();
    for (const r of await refreshRows(server, token.accessToken)) expect(r.usedTime).not.toBeNull();

    await expectLoginExpired(api.userInfo(token.accessToken));
    await expectLoginExpired(api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken }));
    await expectLoginExpired(api.logout(token.accessToken));

    const logs = await server.runtime.deps.db
      .select()
      .from(loginLogs)
      .where(and(eq(loginLogs.userId, user.id), eq(loginLogs.result, LoginResult.Logout)));
    expect(logs).toHaveLength(1);
    expect(logs[0]!.sessionId).toBe(sessionIdOf(token.accessToken));
  });

  it('ends only the session that logged out', async () => {
    const user = await createTestUser(server.runtime.deps);
    const a = await loginAs(server, user, { deviceId: 'a' });
    const b = await loginAs(server, user, { deviceId: 'b' });
    expect((await api.logout(a.accessToken)).status).toBe(200);
    await expectLoginExpired(api.userInfo(a.accessToken));
    expect((await api.userInfo(b.accessToken)).status).toBe(200);
    expect((await api.refresh({ accessToken: b.accessToken, refreshToken: b.refreshToken })).status).toBe(200);
  });

  it('needs a token', async () => {
    const res = await server.json('/api/Auth/Logout', { method: 'POST', json: {} });
    expect(res.status).toBe(401);
  });
});

describe('Active -> Expired at the absolute expiry', () => {
  it('refuses access and refresh once the session is 7 days old, even with a fresh access token', async () => {
    const { token } = await freshLogin();
    const row = await sessionRow(server, token.accessToken);
    expect(row.expirationTime.getTime()).toBe(clock.nowMs() + 7 * DAY_MS);

    // Half an hour before the end: a refresh works, and its refresh token ends with the session.
    clock.advance(7 * DAY_MS - 30 * 60_000);
    const late = await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken });
    expect(late.status).toBe(200);
    const fresh = late.body.data as typeof token;
    expect((await api.userInfo(fresh.accessToken)).status).toBe(200);
    const live = (await refreshRows(server, token.accessToken)).find((r) => r.usedTime === null);
    expect(live!.expiresTime.getTime()).toBe(row.expirationTime.getTime());

    // Past the end: the access token itself is still within its hour, the session is not.
    clock.advance(31 * 60_000);
    await expectLoginExpired(api.userInfo(fresh.accessToken));
    await expectLoginExpired(api.refresh({ accessToken: fresh.accessToken, refreshToken: fresh.refreshToken }));
    expect((await sessionRow(server, token.accessToken)).status).toBe(SessionStatus.Expired);
  });

  it('refuses the original pair 7 days later', async () => {
    const { token } = await freshLogin();
    clock.advance(7 * DAY_MS + 60_000);
    const info = await api.userInfo(token.accessToken);
    expect(info.status).toBe(401);
    expect(info.body.code).toBe(10003);
    await expectLoginExpired(api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken }));
  });
});

describe('a state change reaches the very next request', () => {
  it('a revocation by another path (an administrator) applies at once', async () => {
    const { user, token } = await freshLogin({ deviceId: 'x' });
    const other = await loginAs(server, user, { deviceId: 'y' });
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
    expect((await api.userInfo(other.accessToken)).status).toBe(200);
    await server.runtime.deps.sessions.revoke(user.id, [sessionIdOf(token.accessToken)], 'Administrator');
    await expectLoginExpired(api.userInfo(token.accessToken));
    expect((await api.userInfo(other.accessToken)).status).toBe(200);
  });

  it('a disabled account is refused at once', async () => {
    const { user, token } = await freshLogin();
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
    await server.runtime.deps.db.update(users).set({ status: 'Disabled' }).where(eq(users.id, user.id));
    await server.runtime.deps.sessionState.invalidateUser(user.id);
    await expectLoginExpired(api.userInfo(token.accessToken));
    await expectLoginExpired(api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken }));
  });

  /**
   * A request that reloads the session state between a cache drop and the commit of the change
   * would cache the old row for the cache's lifetime (60 s). This wraps the state service so that
   * every drop is followed by such a reload, as a request on another node would do; on
   * PostgreSQL the reload reads whatever is committed at that instant (on PGlite it queues
   * behind an open transaction, so there the race cannot happen).
   */
  function reloadAfterEveryDrop(): { settle(): Promise<void>; restore(): void } {
    const state = server.runtime.deps.sessionState;
    const original = state.invalidateSession;
    const reloads: Array<Promise<unknown>> = [];
    state.invalidateSession = async (id) => {
      await original(id);
      // After this node's own copy of the broadcast drop has arrived, as on a node it reaches early.
      await new Promise((resolve) => setTimeout(resolve, 25));
      reloads.push(Promise.resolve(state.get(BigInt(id))));
    };
    return {
      settle: async () => {
        await Promise.all(reloads);
      },
      restore: () => {
        state.invalidateSession = original;
      },
    };
  }

  it('logout: a reload racing the commit does not keep the session alive', async () => {
    const { token } = await freshLogin();
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
    const probe = reloadAfterEveryDrop();
    try {
      expect((await api.logout(token.accessToken)).status).toBe(200);
      await probe.settle();
    } finally {
      probe.restore();
    }
    await expectLoginExpired(api.userInfo(token.accessToken));
  });

  it('a device-policy eviction: a reload racing the commit does not keep the old session alive', async () => {
    const user = await createTestUser(server.runtime.deps);
    const first = await loginAs(server, user, { deviceId: 'same' });
    expect((await api.userInfo(first.accessToken)).status).toBe(200);
    const probe = reloadAfterEveryDrop();
    try {
      await loginAs(server, user, { deviceId: 'same' });
      await probe.settle();
    } finally {
      probe.restore();
    }
    await expectLoginExpired(api.userInfo(first.accessToken));
  });

  it('a reused refresh token: a reload racing the commit does not keep the session alive', async () => {
    const { token } = await freshLogin();
    const next = (await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken })).body
      .data as typeof token;
    expect((await api.userInfo(next.accessToken)).status).toBe(200);
    // Past the reuse grace, where presenting the spent pair again is reuse.
    clock.advance(11_000);
    const probe = reloadAfterEveryDrop();
    try {
      await expectLoginExpired(api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken }));
      await probe.settle();
    } finally {
      probe.restore();
    }
    await expectLoginExpired(api.userInfo(next.accessToken));
  });

  /**
   * A refresh keeps this node's cached state with the new JTI rather than reloading it. A
   * logout, revocation or lock that commits while the refresh runs must not be undone by that:
   * this runs one right after the refresh statement, before the refresh updates the cache.
   */
  async function duringNextRefresh(change: () => Promise<unknown>): Promise<() => void> {
    const database = server.runtime.deps.database;
    const original = database.prepared;
    database.prepared = (async (text: string, params: unknown[]) => {
      const rows = await original(text, params);
      if (text === REFRESH_STATEMENT) {
        database.prepared = original;
        await change();
      }
      return rows;
    }) as typeof original;
    return () => {
      database.prepared = original;
    };
  }

  it('a revocation committed during a refresh applies to the new access token at once', async () => {
    const { token, user } = await freshLogin();
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
    const restore = await duringNextRefresh(() =>
      server.runtime.deps.sessions.revoke(user.id, [sessionIdOf(token.accessToken)], 'Administrator'),
    );
    try {
      const next = await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken });
      expect(next.status).toBe(200);
      await expectLoginExpired(api.userInfo((next.body.data as typeof token).accessToken));
    } finally {
      restore();
    }
  });

  it('a lock committed during a refresh applies to the new access token at once', async () => {
    const { token } = await freshLogin();
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
    const restore = await duringNextRefresh(async () =>
      expect((await api.lock(token.accessToken, 'pin-1234')).status).toBe(200),
    );
    try {
      const next = await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken });
      expect(next.status).toBe(200);
      expect((await api.userInfo((next.body.data as typeof token).accessToken)).status).toBe(423);
    } finally {
      restore();
    }
  });
});

describe('security stamp', () => {
  it('a rotated stamp (administrator reset) ends every session of the user with 401 login-expired', async () => {
    const { user, token } = await freshLogin({ deviceId: 'one' });
    const second = await loginAs(server, user, { deviceId: 'two' });
    const bystander = await freshLogin();
    for (const t of [token, second, bystander.token]) expect((await api.userInfo(t.accessToken)).status).toBe(200);

    await server.runtime.deps.db
      .update(userSecurity)
      .set({ securityStamp: randomUUID() })
      .where(eq(userSecurity.userId, user.id));
    await server.runtime.deps.sessionState.invalidateUser(user.id);

    await expectLoginExpired(api.userInfo(token.accessToken));
    await expectLoginExpired(api.userInfo(second.accessToken));
    await expectLoginExpired(api.refresh({ accessToken: second.accessToken, refreshToken: second.refreshToken }));
    expect((await api.userInfo(bystander.token.accessToken)).status).toBe(200);
    // A new login carries the new stamp.
    expect((await api.userInfo((await loginAs(server, user)).accessToken)).status).toBe(200);
  });
});
