import { and, eq } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, loginLogs } from '../../../../../db/schema/index.js';
import { ManualClock } from '../../../infra/clock.js';
import { bearer, claimsOf, createTestUser, loginAs } from '../../../testing/auth-fixtures.js';
import type { TestServer } from '../../../testing/harness.js';
import { LoginResult } from '../../login-log/write.js';
import { SessionStatus } from './session-state.js';
import { refreshRows, sessionApi, sessionRow, startSessionServer, freshLogin } from './sessions-test-kit.js';

/**
 * The refresh-token reuse grace (Jwt__RefreshReuseGraceSeconds, 10 by default): the pair a
 * refresh spent, presented again soon after by the same session (two tabs refreshing at once),
 * answers that refresh's pair again instead of ending the session as reuse.
 */

type Pair = { accessToken: string; refreshToken: string };
const pairOf = (t: Pair): Pair => ({ accessToken: t.accessToken, refreshToken: t.refreshToken });

/** The TokenRefreshed audit entries and login-log rows of a user: one each per rotation. */
async function rotationRecords(server: TestServer, userId: bigint) {
  const { db } = server.runtime.deps;
  const audits = await db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.userId, userId), eq(auditEntries.action, 'TokenRefreshed')));
  const logs = await db
    .select()
    .from(loginLogs)
    .where(and(eq(loginLogs.userId, userId), eq(loginLogs.result, LoginResult.TokenRefreshed)));
  return { audits: audits.length, logs: logs.length };
}

describe('refresh reuse grace', () => {
  const clock = new ManualClock(Date.now());
  let server: TestServer;
  let api: ReturnType<typeof sessionApi>;

  beforeAll(async () => {
    server = await startSessionServer({ clock });
    api = sessionApi(server);
  });
  afterAll(() => server.close());

  it('answers 20 parallel refreshes of one pair with one rotation and the same new pair, and the session lives', async () => {
    const { user, token } = await freshLogin(server);
    const results = await Promise.all(Array.from({ length: 20 }, () => api.refresh(pairOf(token))));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const pair = results[0]!.body.data as Pair;
    for (const r of results) expect(r.body.data).toEqual(pair);
    expect(pair.refreshToken).not.toBe(token.refreshToken);

    // Exactly one rotation: one new refresh token, one audit entry, one login-log row.
    expect(await refreshRows(server, token.accessToken)).toHaveLength(2);
    expect(await rotationRecords(server, user.id)).toEqual({ audits: 1, logs: 1 });
    const row = await sessionRow(server, token.accessToken);
    expect(row.status).toBe(SessionStatus.Active);
    expect(row.currentAccessTokenJti).toBe(claimsOf(pair.accessToken).jti);

    // The pair everyone got is the live one.
    expect((await api.userInfo(pair.accessToken)).status).toBe(200);
    const next = await api.refresh(pair);
    expect(next.status).toBe(200);
    expect((await api.userInfo(next.body.data.accessToken)).status).toBe(200);
  });

  it('ends the session when the same pair comes again 11 s after the parallel refreshes', async () => {
    const { token } = await freshLogin(server);
    const results = await Promise.all(Array.from({ length: 20 }, () => api.refresh(pairOf(token))));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const pair = results[0]!.body.data as Pair;

    clock.advance(11_000);
    const late = await api.refresh(pairOf(token));
    expect(late.status).toBe(401);
    expect(late.body.code).toBe(10001);
    const row = await sessionRow(server, token.accessToken);
    expect(row.status).toBe(SessionStatus.Revoked);
    expect(row.revokedReason).toMatch(/reused/i);
    expect((await api.userInfo(pair.accessToken)).status).toBe(401);
    expect((await api.refresh(pair)).status).toBe(401);
  });

  it('repeats the pair 9 s after the rotation, writing nothing, and no longer 11 s after it', async () => {
    const { user, token } = await freshLogin(server);
    const first = await api.refresh(pairOf(token));
    expect(first.status).toBe(200);

    clock.advance(9_000);
    const again = await api.refresh(pairOf(token));
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(await refreshRows(server, token.accessToken)).toHaveLength(2);
    expect(await rotationRecords(server, user.id)).toEqual({ audits: 1, logs: 1 });

    clock.advance(2_000);
    expect((await api.refresh(pairOf(token))).status).toBe(401);
    expect((await sessionRow(server, token.accessToken)).status).toBe(SessionStatus.Revoked);
  });

  it('grants the grace only to the pair just rotated: an older one ends the session at once', async () => {
    const { token } = await freshLogin(server);
    const first = await api.refresh(pairOf(token));
    const second = await api.refresh(pairOf(first.body.data as Pair));
    expect(second.status).toBe(200);

    const older = await api.refresh(pairOf(token));
    expect(older.status).toBe(401);
    expect((await sessionRow(server, token.accessToken)).status).toBe(SessionStatus.Revoked);
    expect((await api.userInfo(second.body.data.accessToken)).status).toBe(401);
  });

  it('binds the grace to the access token presented with the refresh token', async () => {
    const { token } = await freshLogin(server);
    const first = await api.refresh(pairOf(token));
    const pair = first.body.data as Pair;
    // A genuine access token of the session, but not the one the spent refresh token came with.
    const res = await api.refresh({ accessToken: pair.accessToken, refreshToken: token.refreshToken });
    expect(res.status).toBe(401);
    expect((await sessionRow(server, token.accessToken)).status).toBe(SessionStatus.Revoked);
  });

  it('answers only the session the spent token belongs to', async () => {
    const user = await createTestUser(server.runtime.deps);
    const a = await loginAs(server, user, { deviceId: 'device-a' });
    const b = await loginAs(server, user, { deviceId: 'device-b' });
    const rotated = await api.refresh(pairOf(a));
    expect(rotated.status).toBe(200);

    const foreign = await api.refresh({ accessToken: b.accessToken, refreshToken: a.refreshToken });
    expect(foreign.status).toBe(401);
    expect((await sessionRow(server, a.accessToken)).status).toBe(SessionStatus.Active);
    expect((await sessionRow(server, b.accessToken)).status).toBe(SessionStatus.Active);
    // Session a's own repeat still gets its pair.
    const again = await api.refresh(pairOf(a));
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(rotated.body.data);
  });

  it('ends with the session: after a logout the spent pair is refused', async () => {
    const { token } = await freshLogin(server);
    const pair = (await api.refresh(pairOf(token))).body.data as Pair;
    expect((await api.logout(pair.accessToken)).status).toBe(200);
    const res = await api.refresh(pairOf(token));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(10001);
  });

  it('ends with a tenant switch: the pair spent before it is then reuse', async () => {
    const { token } = await freshLogin(server);
    const pair = (await api.refresh(pairOf(token))).body.data as Pair;
    const switched = await server.json('/api/Auth/SwitchTenant', {
      method: 'POST',
      json: { tenantId: null },
      headers: bearer(pair.accessToken),
    });
    expect(switched.status).toBe(200);

    const res = await api.refresh(pairOf(token));
    expect(res.status).toBe(401);
    const row = await sessionRow(server, token.accessToken);
    expect(row.status).toBe(SessionStatus.Revoked);
    expect(row.revokedReason).toMatch(/reused/i);
  });

  it('keeps no token in the session row: the spent pair by hash and JTI, the new access token by its claims only', async () => {
    const { token } = await freshLogin(server);
    const pair = (await api.refresh(pairOf(token))).body.data as Pair;
    const row = await sessionRow(server, token.accessToken);
    expect(row.graceRefreshHash).toBe(createHash('sha256').update(token.refreshToken).digest('hex'));
    expect(row.graceAccessJti).toBe(claimsOf(token.accessToken).jti);
    expect(row.graceUntil!.getTime()).toBe(clock.nowMs() + 10_000);
    expect(JSON.parse(row.graceAccessClaims!)).toEqual(claimsOf(pair.accessToken));
    const stored = JSON.stringify(row, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    for (const secret of [pair.refreshToken, token.refreshToken, pair.accessToken.split('.')[2]!])
      expect(stored).not.toContain(secret);
  });
});

describe('refresh reuse grace off (Jwt__RefreshReuseGraceSeconds=0)', () => {
  let server: TestServer;
  let api: ReturnType<typeof sessionApi>;

  beforeAll(async () => {
    server = await startSessionServer({ config: { Jwt: { RefreshReuseGraceSeconds: 0 } } });
    api = sessionApi(server);
  });
  afterAll(() => server.close());

  it('lets exactly one of 20 parallel refreshes with one pair succeed, and the others end the session as reuse', async () => {
    const { token } = await freshLogin(server);
    const results = await Promise.all(Array.from({ length: 20 }, () => api.refresh(pairOf(token))));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(19);
    for (const r of results.filter((x) => x.status === 401)) expect(r.body.code).toBe(10001);
    expect(await refreshRows(server, token.accessToken)).toHaveLength(2);
    expect((await sessionRow(server, token.accessToken)).status).toBe(SessionStatus.Revoked);
  });

  it('ends the session when the spent pair comes again at once, and keeps no grace', async () => {
    const { token } = await freshLogin(server);
    expect((await api.refresh(pairOf(token))).status).toBe(200);
    const row = await sessionRow(server, token.accessToken);
    expect([row.graceRefreshHash, row.graceAccessJti, row.graceUntil, row.graceAccessClaims]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect((await api.refresh(pairOf(token))).status).toBe(401);
    expect((await sessionRow(server, token.accessToken)).status).toBe(SessionStatus.Revoked);
  });
});
