import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEntries,
  roles,
  tenantMemberships,
  users,
  userSecurity,
  userSessions,
} from '../../../../db/schema/index.js';
import {
  createSuperAdmin,
  createTestTenant,
  createTestUser,
  GOOD_PASSWORD,
  loginAs,
} from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { readOutbox } from '../../infra/messaging/outbox.js';
import { grantScopedRole, member, tenantAdmin, USER_ADMIN } from './admin-test-kit.js';
import { adminApi, startAdminServer, tenantWithAdmin } from '../../testing/admin.js';

let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const NEW_PASSWORD = 'Fresh#Passw0rd!9';

describe('UserQuery', () => {
  it('answers the detail of a member, null for anyone else, and masks contacts without read-contact', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId, { nickName: 'Bob', phone: '+4915112345678' });
    const detail = await api.get('/api/UserQuery/UserDetail', { id: bob.id });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      basicId: String(bob.id),
      tenantId: String(tenantId),
      userName: bob.userName,
      nickName: 'Bob',
      email: bob.email,
      phone: '+4915112345678',
      status: 'Enabled',
      gender: 'Unknown',
      isManaged: true,
      memberType: 'Member',
      version: 0,
    });
    // A user of no concern: success without data (the original's "no data").
    const stranger = await createTestUser(deps(), { tenantId: await createTestTenant(deps()) });
    const none = await api.get('/api/UserQuery/UserDetail', { id: stranger.id });
    expect(none.status).toBe(200);
    expect(none.body.data).toBeUndefined();
    expect((await api.get('/api/UserQuery/UserDetail')).body.data).toBeUndefined();

    const reader = await tenantAdmin(server, tenantId, { codes: ['saas:user:read'] });
    const masked = (await reader.api.get('/api/UserQuery/UserDetail', { id: bob.id })).body.data;
    expect(masked.email).toBe(`${bob.email![0]}***@example.test`);
    expect(masked.phone).toBe('****5678');
  });

  it('pages users with keyword, filters and sorts, inside the context only, and hides super-administrators', async () => {
    const { tenantId, user: admin, api } = await tenantWithAdmin(server, USER_ADMIN);
    const alice = await member(deps(), tenantId, {
      userName: `alice_${tenantId}`,
      nickName: 'Wonder',
      phone: '+4400011122',
    });
    const carl = await member(deps(), tenantId, { userName: `carl_${tenantId}`, status: 'Disabled' });
    const other = await createTestTenant(deps());
    await createTestUser(deps(), { tenantId: other, memberOf: [other], userName: `alice_other_${tenantId}` });
    const superAdmin = await createSuperAdmin(deps());
    await deps().db.insert(tenantMemberships).values({ id: deps().ids.next(), tenantId, userId: superAdmin.id });

    const all = (await api.post('/api/UserQuery/UserPage', {})).body.data;
    expect(all.items.map((i: { basicId: string }) => i.basicId).sort()).toEqual(
      [admin.id, alice.id, carl.id].map(String).sort(),
    );
    expect(all.page).toMatchObject({ pageIndex: 1, pageSize: 20, totalCount: 3 });

    const byKeyword = (await api.post('/api/UserQuery/UserPage', { keyword: 'alice' })).body.data;
    expect(byKeyword.items.map((i: { userName: string }) => i.userName)).toEqual([alice.userName]);
    expect(
      (await api.post('/api/UserQuery/UserPage', { conditions: { keyword: { value: 'wonder' } } })).body.data.items,
    ).toHaveLength(1);
    expect(
      (await api.post('/api/UserQuery/UserPage', { keyword: '00011' })).body.data.items.map(
        (i: { basicId: string }) => i.basicId,
      ),
    ).toEqual([String(alice.id)]);

    const disabled = (await api.post('/api/UserQuery/UserPage', { status: 'Disabled' })).body.data;
    expect(disabled.items.map((i: { basicId: string }) => i.basicId)).toEqual([String(carl.id)]);
    const filtered = (
      await api.post('/api/UserQuery/UserPage', {
        conditions: {
          filters: [{ field: 'status', operator: 'Equal', value: 'Enabled' }],
          sorts: [{ field: 'userName', direction: 'Descending' }],
        },
      })
    ).body.data;
    // user_<id> sorts after alice_<id>.
    expect(filtered.items.map((i: { basicId: string }) => i.basicId)).toEqual([admin.id, alice.id].map(String));
    const item = filtered.items.find((i: { basicId: string }) => i.basicId === String(alice.id));
    expect(item).toMatchObject({
      userName: alice.userName,
      status: 'Enabled',
      roleNames: [],
      isLocked: false,
      twoFactorEnabled: false,
    });

    // Without read-contact, neither the e-mail nor the phone is searched.
    const reader = await tenantAdmin(server, tenantId, { codes: ['saas:user:read'] });
    expect((await reader.api.post('/api/UserQuery/UserPage', { keyword: '00011' })).body.data.items).toEqual([]);
  });

  it('lists enabled users for pickers', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const dora = await member(deps(), tenantId, { userName: `dora_${tenantId}` });
    await member(deps(), tenantId, { userName: `dan_${tenantId}`, status: 'Disabled' });
    const list = (await api.get('/api/UserQuery/EnabledUsers', { keyword: 'd' })).body.data;
    expect(list.map((u: { basicId: string }) => u.basicId)).toEqual([String(dora.id)]);
  });

  it('answers 403 without the permission code and lets a grant apply on the next request', async () => {
    const tenantId = await createTestTenant(deps());
    const plain = await member(deps(), tenantId);
    const api = adminApi(server, (await loginAs(server, plain)).accessToken);
    const denied = await api.post('/api/UserQuery/UserPage', {});
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(10004);
    const { api: admin } = await tenantAdmin(server, tenantId);
    const [role] = await deps().db.select().from(roles).where(eq(roles.tenantId, tenantId));
    expect(
      (await admin.post('/api/UserRole/UserRole', { userId: String(plain.id), roleId: String(role!.id) })).status,
    ).toBe(200);
    expect((await api.post('/api/UserQuery/UserPage', {})).status).toBe(200);
  });
});

describe('User create', () => {
  it('stores a phone typed with spaces and dashes as its digits, so phone login finds it', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const res = await api.post('/api/User/User', {
      userName: `phil_${tenantId}`,
      initialPassword: GOOD_PASSWORD,
      email: `phil_${tenantId}@example.test`,
      phone: '+1 555-0100',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.phone).toBe('+15550100');
    const id = BigInt(res.body.data.basicId);
    // Verified as the profile's phone verification would (not an administrator's to do).
    await deps().db.update(users).set({ phoneVerified: true }).where(eq(users.id, id));
    expect(
      (await server.json('/api/Auth/PhoneLoginCode', { method: 'POST', json: { phone: '+1 (555) 0100' } })).status,
    ).toBe(200);
    const sms = (await readOutbox(path.join(deps().config.App.DataDir, 'outbox')))
      .filter((m) => m.to === '+15550100' && m.kind === 'login-code')
      .at(-1);
    expect(sms).toBeDefined();
    const login = await server.json('/api/Auth/PhoneLogin', {
      method: 'POST',
      json: { phone: '+1 555-0100', code: /\b(\d{6})\b/.exec(sms!.text)![1] },
    });
    expect(login.status).toBe(200);
    expect(login.body.data.accessToken).toBeTruthy();
  });

  it('creates a user with its membership and answers its detail; the first login forces a password change', async () => {
    const { tenantId, user: admin, api } = await tenantWithAdmin(server, USER_ADMIN);
    const res = await api.post('/api/User/User', {
      userName: `nina_${tenantId}`,
      initialPassword: GOOD_PASSWORD,
      email: `nina_${tenantId}@example.test`,
      nickName: 'Nina',
      gender: 'Female',
      memberType: 'Admin',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      userName: `nina_${tenantId}`,
      nickName: 'Nina',
      gender: 'Female',
      tenantId: String(tenantId),
      memberType: 'Admin',
      createdId: String(admin.id),
      createdBy: admin.userName,
    });
    const id = BigInt(res.body.data.basicId);
    const [membership] = await deps().db.select().from(tenantMemberships).where(eq(tenantMemberships.userId, id));
    expect(membership).toMatchObject({ tenantId, memberType: 'Admin', status: 'Active' });
    const [audit] = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'UserCreated'), eq(auditEntries.userId, id)));
    expect(audit).toMatchObject({ tenantId, actorUserId: admin.id });
    const login = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: `nina_${tenantId}@example.test`, password: GOOD_PASSWORD },
    });
    const info = await server.json('/api/Auth/UserInfo', {
      headers: { authorization: `Bearer ${login.body.data.token.accessToken}` },
    });
    expect(info.status).toBe(423);
  });

  it('refuses duplicates, weak passwords and bad names', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const taken = await member(deps(), tenantId);
    const dupName = await api.post('/api/User/User', {
      userName: taken.userName.toUpperCase(),
      initialPassword: GOOD_PASSWORD,
    });
    expect(dupName.status).toBe(409);
    expect(dupName.body.data).toContain(taken.userName.toUpperCase());
    expect(
      (
        await api.post('/api/User/User', {
          userName: `x_${tenantId}`,
          initialPassword: GOOD_PASSWORD,
          email: taken.email!.toUpperCase(),
        })
      ).status,
    ).toBe(409);
    expect((await api.post('/api/User/User', { userName: `y_${tenantId}`, initialPassword: 'short' })).status).toBe(
      400,
    );
    expect((await api.post('/api/User/User', { userName: 'has@sign', initialPassword: GOOD_PASSWORD })).status).toBe(
      400,
    );
  });

  it('reads memberType with the tenant numbering (Owner 0, Admin 1, Member 2), defaults to Member and refuses Owner and PlatformAdmin', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const create = (name: string, memberType?: unknown) =>
      api.post('/api/User/User', { userName: `${name}_${tenantId}`, initialPassword: GOOD_PASSWORD, memberType });
    for (const [name, memberType, expected] of [
      ['num1', 1, 'Admin'],
      ['num2', 2, 'Member'],
      ['text2', '2', 'Member'],
      ['named', 'admin', 'Admin'],
      ['plain', undefined, 'Member'],
    ] as const) {
      const res = await create(name, memberType);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.memberType, String(memberType)).toBe(expected);
      const [membership] = await deps()
        .db.select()
        .from(tenantMemberships)
        .where(eq(tenantMemberships.userId, BigInt(res.body.data.basicId)));
      expect(membership!.memberType).toBe(expected);
    }
    for (const memberType of ['Owner', 'owner', 0, '0', 'PlatformAdmin', 99]) {
      const res = await create(`reserved${String(memberType)}`, memberType);
      expect(res.status, String(memberType)).toBe(422);
      expect(res.body.data).toContain('cannot get the member type');
    }
    const unknown = await create('unknown', 'Janitor');
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body.data)).toContain('memberType');
    // Nothing was created by the refusals.
    expect((await api.post('/api/UserQuery/UserPage', { keyword: 'reserved' })).body.data.items).toEqual([]);
  });

  it('refuses a creation once the seat limit is reached, even when two race for the last seat', async () => {
    const tenantId = await createTestTenant(deps(), { seatLimit: 3 });
    const { api } = await tenantAdmin(server, tenantId);
    await member(deps(), tenantId);
    // A membership that has run out frees its seat.
    const lapsed = await member(deps(), tenantId);
    await deps()
      .db.update(tenantMemberships)
      .set({ expirationTime: new Date(Date.now() - 1000) })
      .where(eq(tenantMemberships.userId, lapsed.id));
    const racing = await Promise.all(
      [0, 1].map((i) =>
        api.post('/api/User/User', { userName: `seat${i}_${tenantId}`, initialPassword: GOOD_PASSWORD }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 422]);
    const full = await api.post('/api/User/User', { userName: `seat9_${tenantId}`, initialPassword: GOOD_PASSWORD });
    expect(full.status).toBe(422);
    expect(full.body.data).toContain('limit of 3 seats');
  });

  it('creates a platform account in the platform state', async () => {
    const platformAdmin = await createTestUser(deps(), { tenantId: 0n });
    await grantScopedRole(deps(), platformAdmin.id, 0n, ['saas:user:create', 'saas:user:read']);
    const api = adminApi(server, (await loginAs(server, platformAdmin)).accessToken);
    const res = await api.post('/api/User/User', {
      userName: `ops_${platformAdmin.id}`,
      initialPassword: GOOD_PASSWORD,
    });
    expect(res.body.data).toMatchObject({ tenantId: '0', isManaged: true });
    expect(
      await deps()
        .db.select()
        .from(tenantMemberships)
        .where(eq(tenantMemberships.userId, BigInt(res.body.data.basicId))),
    ).toEqual([]);
  });
});

describe('User update, status and delete', () => {
  it("updates profile fields with optimistic concurrency and keeps a system account's name", async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const ok = await api.put('/api/User/User', {
      basicId: String(bob.id),
      version: 0,
      nickName: 'Robert',
      country: 'DE',
      userName: `robert_${tenantId}`,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      nickName: 'Robert',
      country: 'DE',
      userName: `robert_${tenantId}`,
      version: 1,
    });
    expect((await api.put('/api/User/User', { basicId: String(bob.id), version: 0, nickName: 'Late' })).status).toBe(
      409,
    );
    const other = await member(deps(), tenantId);
    expect((await api.put('/api/User/User', { basicId: String(bob.id), email: other.email })).status).toBe(409);
    await deps().db.update(users).set({ isSystemAccount: true }).where(eq(users.id, bob.id));
    expect((await api.put('/api/User/User', { basicId: String(bob.id), userName: 'renamed' })).status).toBe(422);
    expect((await api.put('/api/User/User', { basicId: String(bob.id), nickName: 'Still fine' })).status).toBe(200);
  });

  it('disabling ends every session of the user; enabling lets them log in again', async () => {
    const { tenantId, user: admin, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const token = (await loginAs(server, bob)).accessToken;
    const revoked: unknown[] = [];
    const off = deps().events.on('SessionsRevoked', (e) => void revoked.push(e));
    expect((await api.put('/api/User/UserStatus', { basicId: String(bob.id), status: 'Disabled' })).status).toBe(200);
    off();
    expect((await adminApi(server, token).get('/api/Auth/UserInfo')).status).toBe(401);
    expect(revoked).toEqual([expect.objectContaining({ userId: bob.id })]);
    const [session] = await deps().db.select().from(userSessions).where(eq(userSessions.userId, bob.id));
    expect(session!.status).toBe(2);
    expect(
      (await server.json('/api/Auth/Login', { method: 'POST', json: { username: bob.email, password: bob.password } }))
        .status,
    ).toBe(400);
    expect((await api.put('/api/User/UserStatus', { basicId: String(bob.id), status: 1 })).status).toBe(200);
    await loginAs(server, bob);
    // Refused: oneself, a system account, the tenant's owner.
    expect((await api.put('/api/User/UserStatus', { basicId: String(admin.id), status: 'Disabled' })).status).toBe(422);
    const system = await member(deps(), tenantId);
    await deps().db.update(users).set({ isSystemAccount: true }).where(eq(users.id, system.id));
    expect((await api.put('/api/User/UserStatus', { basicId: String(system.id), status: 'Disabled' })).status).toBe(
      422,
    );
    const owner = await member(deps(), tenantId);
    await deps()
      .db.update(tenantMemberships)
      .set({ memberType: 'Owner' })
      .where(eq(tenantMemberships.userId, owner.id));
    expect((await api.put('/api/User/UserStatus', { basicId: String(owner.id), status: 'Disabled' })).status).toBe(422);
  });

  it('soft-deletes: sessions revoked, a forced logout for every connection, the name free again', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const token = (await loginAs(server, bob)).accessToken;
    const revoked: Array<{ userId: bigint; sessionIds: bigint[] | null }> = [];
    const off = deps().events.on('SessionsRevoked', (e) => void revoked.push(e));
    const res = await api.del('/api/User/User', { id: bob.id });
    off();
    expect(res.status).toBe(200);
    expect(revoked).toEqual([expect.objectContaining({ userId: bob.id, sessionIds: null })]);
    expect((await adminApi(server, token).get('/api/Auth/UserInfo')).status).toBe(401);
    const [row] = await deps().db.select().from(users).where(eq(users.id, bob.id));
    expect(row).toMatchObject({ isDeleted: true });
    expect((await api.get('/api/UserQuery/UserDetail', { id: bob.id })).body.data).toBeUndefined();
    expect((await api.del('/api/User/User', { id: bob.id })).status).toBe(404);
    expect(
      (await api.post('/api/User/User', { userName: bob.userName, initialPassword: GOOD_PASSWORD, email: bob.email }))
        .status,
    ).toBe(200);
    const system = await member(deps(), tenantId);
    await deps().db.update(users).set({ isSystemAccount: true }).where(eq(users.id, system.id));
    expect((await api.del('/api/User/User', { id: system.id })).status).toBe(422);
  });

  it('changes the account only where it is managed: a member from elsewhere is read-only here', async () => {
    const home = await createTestTenant(deps());
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const visitor = await createTestUser(deps(), { tenantId: home, memberOf: [home, tenantId] });
    expect((await api.get('/api/UserQuery/UserDetail', { id: visitor.id })).body.data).toMatchObject({
      isManaged: false,
    });
    for (const res of [
      await api.put('/api/User/User', { basicId: String(visitor.id), nickName: 'x' }),
      await api.put('/api/User/UserStatus', { basicId: String(visitor.id), status: 'Disabled' }),
      await api.del('/api/User/User', { id: visitor.id }),
      await api.post('/api/UserSecurity/ResetUserPassword', { basicId: String(visitor.id), newPassword: NEW_PASSWORD }),
    ])
      expect(res.status).toBe(422);
  });
});

describe('UserSecurity', () => {
  it('resets a password: the stamp rotates, sessions end, the next login must change it', async () => {
    const { tenantId, user: admin, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const token = (await loginAs(server, bob)).accessToken;
    const [before] = await deps().db.select().from(userSecurity).where(eq(userSecurity.userId, bob.id));
    const weak = await api.post('/api/UserSecurity/ResetUserPassword', {
      basicId: String(bob.id),
      newPassword: 'password',
    });
    expect(weak.status).toBe(400);
    expect(
      (await api.post('/api/UserSecurity/ResetUserPassword', { basicId: String(bob.id), newPassword: NEW_PASSWORD }))
        .status,
    ).toBe(200);
    const [after] = await deps().db.select().from(userSecurity).where(eq(userSecurity.userId, bob.id));
    expect(after!.securityStamp).not.toBe(before!.securityStamp);
    expect(after!.mustChangePassword).toBe(true);
    expect((await adminApi(server, token).get('/api/Auth/UserInfo')).status).toBe(401);
    expect(
      (await server.json('/api/Auth/Login', { method: 'POST', json: { username: bob.email, password: bob.password } }))
        .status,
    ).toBe(400);
    const fresh = await loginAs(server, { ...bob, password: NEW_PASSWORD });
    expect((await adminApi(server, fresh.accessToken).get('/api/Auth/UserInfo')).status).toBe(423);
    expect(
      (await api.post('/api/UserSecurity/ResetUserPassword', { basicId: String(admin.id), newPassword: NEW_PASSWORD }))
        .status,
    ).toBe(422);
    const [audit] = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'PasswordResetByAdmin'), eq(auditEntries.userId, bob.id)));
    expect(audit?.actorUserId).toBe(admin.id);
  });

  it('resets the second factor', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId, { twoFactorMethod: 1, twoFactorSecret: 'JBSWY3DPEHPK3PXP' });
    expect((await api.post('/api/UserSecurity/ResetUserTwoFactor', { basicId: String(bob.id) })).status).toBe(200);
    const [row] = await deps().db.select().from(userSecurity).where(eq(userSecurity.userId, bob.id));
    expect(row).toMatchObject({ twoFactorMethod: 0, twoFactorSecret: null });
    await loginAs(server, bob);
  });
});
