import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, loginLogs } from '../../../../../db/schema/index.js';
import { ManualClock } from '../../../infra/clock.js';
import { claimsOf, createTestUser, loginAs } from '../../../testing/auth-fixtures.js';
import type { TestServer } from '../../../testing/harness.js';
import { signJwt } from './jwt.js';
import { LoginResult } from '../../login-log/write.js';
import { SessionStatus } from './session-state.js';
import {
  refreshRows,
  sessionApi,
  sessionIdOf,
  sessionRow,
  startSessionServer,
  freshLogin as freshLoginOn,
} from './sessions-test-kit.js';

/** POST /api/Auth/RefreshToken over HTTP: rotation, what it accepts and refuses, reuse, races. */

const clock = new ManualClock(Date.now());
let server: TestServer;
let api: ReturnType<typeof sessionApi>;

beforeAll(async () => {
  server = await startSessionServer({ clock });
  api = sessionApi(server);
});
afterAll(() => server.close());

const freshLogin = (extra: Record<string, unknown> = {}) => freshLoginOn(server, extra);

describe('RefreshToken', () => {
  it('rotates both tokens, and the old access token then answers 401 token-invalid', async () => {
    const { token } = await freshLogin();
    expect((await api.userInfo(token.accessToken)).status).toBe(200);

    const res = await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken });
    expect(res.status).toBe(200);
    const next = res.body.data;
    expect(next.tokenType).toBe('Bearer');
    expect(next.expiresIn).toBe(3600);
    expect(next.refreshToken).not.toBe(token.refreshToken);
    expect(claimsOf(next.accessToken).jti).not.toBe(claimsOf(token.accessToken).jti);
    // Same session: a refresh never starts a new one.
    expect(claimsOf(next.accessToken).SessionId).toBe(claimsOf(token.accessToken).SessionId);
    expect((await sessionRow(server, next.accessToken)).currentAccessTokenJti).toBe(claimsOf(next.accessToken).jti);

    const old = await api.userInfo(token.accessToken);
    expect(old.status).toBe(401);
    expect(old.body.code).toBe(10002);
    expect((await api.userInfo(next.accessToken)).status).toBe(200);

    // The presented refresh token is spent; exactly one live one remains.
    const rows = await refreshRows(server, token.accessToken);
    expect(rows).toHaveLength(2);
    expect(rows.filter((r) => r.usedTime === null)).toHaveLength(1);
  });

  it('is anonymous: works without Authorization, and ignores a bad one', async () => {
    const { token } = await freshLogin();
    const res = await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken }, 'not-a-jwt');
    expect(res.status).toBe(200);
    expect(res.body.isSuccess).toBe(true);
  });

  it('accepts an expired but genuine access token of the same session', async () => {
    const { token } = await freshLogin();
    clock.advance(65 * 60_000);
    const expired = await api.userInfo(token.accessToken);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe(10003);

    const res = await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken });
    expect(res.status).toBe(200);
    expect(claimsOf(res.body.data.accessToken).exp).toBe(Math.floor(clock.nowMs() / 1000) + 3600);
    expect((await api.userInfo(res.body.data.accessToken)).status).toBe(200);
  });

  it('refuses a tampered access token, and the refresh token stays usable', async () => {
    const { token } = await freshLogin();
    const [header, payload, signature] = token.accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, UserName: 'someone-else' })).toString('base64url')}.${signature}`;

    const res = await api.refresh({ accessToken: forged, refreshToken: token.refreshToken });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(10001);
    // A refusal before the refresh token is looked at must not burn it.
    expect((await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken })).status).toBe(200);
  });

  it('refuses an access token signed with another key', async () => {
    const { token } = await freshLogin();
    const foreign = signJwt(
      claimsOf(token.accessToken),
      Buffer.from('another-service-secret-of-32-bytes-or-more!', 'utf8'),
    );
    const res = await api.refresh({ accessToken: foreign, refreshToken: token.refreshToken });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(10001);
  });

  it('refuses a refresh token of another session, leaving both sessions intact', async () => {
    const user = await createTestUser(server.runtime.deps);
    const a = await loginAs(server, user, { deviceId: 'device-a' });
    const b = await loginAs(server, user, { deviceId: 'device-b' });

    const res = await api.refresh({ accessToken: a.accessToken, refreshToken: b.refreshToken });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(10001);

    expect((await sessionRow(server, a.accessToken)).status).toBe(SessionStatus.Active);
    expect((await api.refresh({ accessToken: b.accessToken, refreshToken: b.refreshToken })).status).toBe(200);
    expect((await api.refresh({ accessToken: a.accessToken, refreshToken: a.refreshToken })).status).toBe(200);
  });

  it('refuses a garbage refresh token with 401 login-expired', async () => {
    const { token } = await freshLogin();
    for (const garbage of ['garbage', 'x'.repeat(43), '%%%%']) {
      const res = await api.refresh({ accessToken: token.accessToken, refreshToken: garbage });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(10001);
    }
    expect((await api.userInfo(token.accessToken)).status).toBe(200);
  });

  it('requires both tokens: a missing one answers 400 naming the field', async () => {
    const { token } = await freshLogin();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ accessToken: token.accessToken }, ['refreshToken']],
      [{ refreshToken: token.refreshToken }, ['accessToken']],
      [{ accessToken: '', refreshToken: token.refreshToken }, ['accessToken']],
      [{}, ['accessToken', 'refreshToken']],
    ];
    for (const [body, fields] of cases) {
      const res = await api.refresh(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.isSuccess).toBe(false);
      const named = (res.body.data as Array<{ field: string }>).map((d) => d.field.toLowerCase());
      for (const field of fields) expect(named).toContain(field.toLowerCase());
    }
    // None of those touched the session.
    expect((await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken })).status).toBe(200);
  });

  it('writes a TokenRefreshed audit entry and a login-log row', async () => {
    const { user, token } = await freshLogin();
    const { db } = server.runtime.deps;
    const sessionId = sessionIdOf(token.accessToken);
    expect((await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken })).status).toBe(200);

    const audits = await db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.userId, user.id), eq(auditEntries.action, 'TokenRefreshed')));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.targetId).toBe(String(sessionId));
    const logs = await db
      .select()
      .from(loginLogs)
      .where(and(eq(loginLogs.userId, user.id), eq(loginLogs.result, LoginResult.TokenRefreshed)));
    expect(logs).toHaveLength(1);
    expect(logs[0]!.sessionId).toBe(sessionId);
  });

  it('revokes the session when an already-used refresh token is presented after the reuse grace', async () => {
    const { token } = await freshLogin();
    const first = await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken });
    expect(first.status).toBe(200);
    const newest = first.body.data as typeof token;

    clock.advance(11_000);
    const replay = await api.refresh({ accessToken: token.accessToken, refreshToken: token.refreshToken });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe(10001);

    // Theft is assumed: the newest pair ends as well.
    const info = await api.userInfo(newest.accessToken);
    expect(info.status).toBe(401);
    expect(info.body.code).toBe(10001);
    expect((await api.refresh({ accessToken: newest.accessToken, refreshToken: newest.refreshToken })).status).toBe(
      401,
    );
    const row = await sessionRow(server, token.accessToken);
    expect(row.status).toBe(SessionStatus.Revoked);
    expect(row.revokedReason).toMatch(/reused/i);
  });
});
