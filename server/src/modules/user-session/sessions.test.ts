import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, userSessions } from '../../../../db/schema/index.js';
import { claimsOf, createTestTenant, createTestUser, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { member, tenantAdmin, USER_ADMIN } from '../user/admin-test-kit.js';
import { adminApi, startAdminServer, tenantWithAdmin } from '../../testing/admin.js';

let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const sessionOf = (token: string) => claimsOf(token).SessionId as string;

describe('sessions for administrators', () => {
  it("lists a user's active sessions and revokes one: that client gets 401, the others carry on", async () => {
    const { tenantId, user: admin, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const phone = (await loginAs(server, bob, { deviceId: 'phone' })).accessToken;
    const laptop = (await loginAs(server, bob, { deviceId: 'laptop' })).accessToken;
    const list = await api.get('/api/UserSessionQuery/UserSessions', { userId: bob.id });
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { sessionId: string }) => s.sessionId).sort()).toEqual(
      [sessionOf(phone), sessionOf(laptop)].sort(),
    );
    expect(list.body.data[0]).toMatchObject({
      userId: String(bob.id),
      tenantId: String(tenantId),
      status: 'Active',
      isImpersonation: false,
      isCurrent: false,
      loginMethod: 'password',
    });

    const pushed: unknown[] = [];
    const off = deps().events.on('SessionsRevoked', (e) => void pushed.push(e));
    expect((await api.post('/api/UserSession/RevokeUserSession', { sessionId: sessionOf(phone) })).status).toBe(200);
    off();
    expect(pushed).toEqual([expect.objectContaining({ userId: bob.id, sessionIds: [BigInt(sessionOf(phone))] })]);
    expect((await adminApi(server, phone).get('/api/Auth/UserInfo')).status).toBe(401);
    expect((await adminApi(server, laptop).get('/api/Auth/UserInfo')).status).toBe(200);
    const [audit] = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'SessionRevoked'), eq(auditEntries.userId, bob.id)));
    expect(audit).toMatchObject({ actorUserId: admin.id, targetId: sessionOf(phone), tenantId });

    const withInactive = (
      await api.get('/api/UserSessionQuery/UserSessions', { userId: bob.id, includeInactive: true })
    ).body.data;
    expect(withInactive.find((s: { sessionId: string }) => s.sessionId === sessionOf(phone))).toMatchObject({
      status: 'Revoked',
      revokedReason: 'Revoked by an administrator',
    });
    // Revoking an ended session changes nothing; an unknown one is 404; the caller's own is refused.
    expect((await api.post('/api/UserSession/RevokeUserSession', { sessionId: sessionOf(phone) })).status).toBe(200);
    expect((await api.post('/api/UserSession/RevokeUserSession', { sessionId: '123' })).status).toBe(404);
    const mine = (await api.get('/api/UserSessionQuery/UserSessions', { userId: admin.id })).body.data[0];
    expect(mine.isCurrent).toBe(true);
    expect((await api.post('/api/UserSession/RevokeUserSession', { sessionId: mine.sessionId })).status).toBe(422);
  });

  it('revokes all sessions of a user', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const tokens = [
      (await loginAs(server, bob, { deviceId: 'a' })).accessToken,
      (await loginAs(server, bob, { deviceId: 'b' })).accessToken,
    ];
    const res = await api.post('/api/UserSession/RevokeUserSessions', { userId: String(bob.id) });
    expect(res.body.data).toEqual({ revokedCount: 2 });
    for (const token of tokens) expect((await adminApi(server, token).get('/api/Auth/UserInfo')).status).toBe(401);
  });

  it('needs saas:user-session:read to list and saas:user-session:revoke to revoke', async () => {
    const tenantId = await createTestTenant(deps());
    const bob = await member(deps(), tenantId);
    const token = (await loginAs(server, bob)).accessToken;
    const reader = await tenantAdmin(server, tenantId, { codes: ['saas:user-session:read'] });
    expect((await reader.api.get('/api/UserSessionQuery/UserSessions', { userId: bob.id })).status).toBe(200);
    const refused = await reader.api.post('/api/UserSession/RevokeUserSession', { sessionId: sessionOf(token) });
    expect(refused.status).toBe(403);
    expect(refused.body.data).toContain('saas:user-session:revoke');
    expect((await reader.api.post('/api/UserSession/RevokeUserSessions', { userId: String(bob.id) })).status).toBe(403);
    const revoker = await tenantAdmin(server, tenantId, { codes: ['saas:user-session:revoke'] });
    expect((await revoker.api.get('/api/UserSessionQuery/UserSessions', { userId: bob.id })).status).toBe(403);
    expect((await revoker.api.post('/api/UserSession/RevokeUserSession', { sessionId: sessionOf(token) })).status).toBe(
      200,
    );
  });

  it('shows and ends, for a member from another tenant, only the sessions in this context', async () => {
    const home = await createTestTenant(deps());
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    // Two memberships: the login lands in the platform state, then switches into each tenant.
    const visitor = await createTestUser(deps(), { tenantId: home, memberOf: [home, tenantId] });
    const here = (await loginAs(server, visitor, { deviceId: 'here' })).accessToken;
    const switched = await server.json('/api/Auth/SwitchTenant', {
      method: 'POST',
      headers: { authorization: `Bearer ${here}` },
      json: { tenantId: String(tenantId) },
    });
    const hereToken = switched.body.data.accessToken as string;
    const there = (await loginAs(server, visitor, { deviceId: 'there' })).accessToken;
    const atHome = await server.json('/api/Auth/SwitchTenant', {
      method: 'POST',
      headers: { authorization: `Bearer ${there}` },
      json: { tenantId: String(home) },
    });
    const homeToken = atHome.body.data.accessToken as string;

    const list = (await api.get('/api/UserSessionQuery/UserSessions', { userId: visitor.id })).body.data;
    expect(list.map((s: { sessionId: string }) => s.sessionId)).toEqual([sessionOf(hereToken)]);
    expect((await api.post('/api/UserSession/RevokeUserSession', { sessionId: sessionOf(homeToken) })).status).toBe(
      404,
    );
    expect((await api.post('/api/UserSession/RevokeUserSessions', { userId: String(visitor.id) })).body.data).toEqual({
      revokedCount: 1,
    });
    expect((await adminApi(server, homeToken).get('/api/Auth/UserInfo')).status).toBe(200);
    const [row] = await deps()
      .db.select()
      .from(userSessions)
      .where(eq(userSessions.id, BigInt(sessionOf(hereToken))));
    expect(row!.status).toBe(2);
  });
});
