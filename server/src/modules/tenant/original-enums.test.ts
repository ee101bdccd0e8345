import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, editions, roles, tenantMemberships } from '../../../../db/schema/index.js';
import { createSuperAdmin, createTestUser, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { platformUser, TENANT_ADMIN_CODES, TENANT_ADMIN } from '../permission/admin-test-kit.js';
import {
  adminApi,
  startAdminServer,
  tenantUser,
  tenantWithAdmin,
  type AdminApi,
  type Call,
} from '../../testing/admin.js';

/**
 * TenantStatus, TenantConfigStatus, TenantMemberType and TenantMemberInviteStatus carry the
 * original's names and numbers; changes of someone's access (membership type or status, an
 * edition's whitelist) are refused from an impersonation session.
 */

let server: TestServer;
let platform: AdminApi;
let tenantId: bigint;
let admin: AdminApi;
beforeAll(async () => {
  server = await startAdminServer();
  ({ api: platform } = await platformUser(server));
  ({ tenantId, api: admin } = await tenantWithAdmin(server, TENANT_ADMIN));
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}-${Date.now() % 1_000_000}`;
const expect400 = (res: Call) => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body).toMatchObject({ code: 400, isSuccess: false });
};

describe('tenant enums', () => {
  it('reads TenantConfigStatus by number or name and writes the name', async () => {
    const expected: Array<[unknown, string]> = [
      [0, 'Pending'],
      [1, 'Configuring'],
      [2, 'Configured'],
      [3, 'Failed'],
      [4, 'Disabled'],
      ['failed', 'Failed'],
    ];
    for (const [configStatus, name] of expected) {
      const res = await platform.post('/api/Tenant/Tenant', {
        tenantCode: unique('cfg'),
        tenantName: 'Config',
        configStatus,
      });
      expect(res.body.data?.configStatus, JSON.stringify(res.body)).toBe(name);
    }
    expect400(
      await platform.post('/api/Tenant/Tenant', { tenantCode: unique('cfg'), tenantName: 'Config', configStatus: 5 }),
    );
    expect400(
      await platform.post('/api/Tenant/Tenant', {
        tenantCode: unique('cfg'),
        tenantName: 'Config',
        configStatus: 'Ready',
      }),
    );
  });

  it('reads TenantStatus by number or name, writes the name, and only Normal can be entered', async () => {
    const tenant = (await platform.post('/api/Tenant/Tenant', { tenantCode: unique('st'), tenantName: 'Status' })).body
      .data.basicId as string;
    const { api: member } = await tenantUser(server, BigInt(tenant));
    const set = (tenantStatus: unknown) => platform.put('/api/Tenant/TenantStatus', { basicId: tenant, tenantStatus });

    expect((await set(2)).body.data.tenantStatus).toBe('Expired');
    expect((await member.get('/api/Auth/UserInfo')).body.data).toBe('The tenant is not available: Expired.');
    expect((await set(3)).body.data.tenantStatus).toBe('Disabled');
    const disabled = await platform.post('/api/TenantQuery/TenantPage', {
      tenantStatus: 3,
      conditions: { filters: [{ field: 'basicId', operator: 'Equal', value: tenant }] },
    });
    expect(disabled.body.data.items.map((t: { basicId: string }) => t.basicId)).toEqual([tenant]);
    expect((await set('suspended')).body.data.tenantStatus).toBe('Suspended');
    expect((await set(0)).body.data.tenantStatus).toBe('Normal');
    expect((await member.get('/api/Auth/UserInfo')).status).toBe(200);

    expect400(await set(4));
    expect400(await set('Gone'));
    expect400(await platform.post('/api/TenantQuery/TenantPage', { tenantStatus: 9 }));
  });
});

describe('membership enums', () => {
  it("reads TenantMemberType by number or name and writes the name; Owner and PlatformAdmin stay the platform's", async () => {
    const add = async (memberType: unknown) =>
      admin.post('/api/TenantMember/TenantMember', {
        userId: String((await createTestUser(deps(), { tenantId })).id),
        memberType,
      });
    const added: Record<string, string> = {};
    for (const [memberType, name] of [
      [1, 'Admin'],
      [2, 'Member'],
      [3, 'External'],
      [4, 'Guest'],
      [5, 'Consultant'],
      ['CONSULTANT', 'Consultant'],
    ] as const) {
      const res = await add(memberType);
      expect(res.body.data?.memberType, JSON.stringify(res.body)).toBe(name);
      expect(res.body.data.inviteStatus).toBe('Accepted');
      added[name] = res.body.data.basicId;
    }
    expect((await add(0)).status).toBe(422);
    expect((await add(99)).status).toBe(422);
    expect((await add('PlatformAdmin')).status).toBe(422);
    expect400(await add(6));
    expect400(await add('Boss'));

    const guest = await admin.put('/api/TenantMember/TenantMember', { basicId: added.External, memberType: 4 });
    expect(guest.body.data.memberType).toBe('Guest');
    expect(
      (await admin.put('/api/TenantMember/TenantMember', { basicId: added.External, memberType: 99 })).status,
    ).toBe(422);
    expect400(await admin.put('/api/TenantMember/TenantMember', { basicId: added.External, memberType: 7 }));

    const consultants = await admin.post('/api/TenantMemberQuery/TenantMemberPage', { memberType: 5 });
    expect(consultants.body.data.items.map((m: { memberType: string }) => m.memberType)).toEqual([
      'Consultant',
      'Consultant',
    ]);
  });

  it('filters by TenantMemberInviteStatus number or name', async () => {
    const byStatus = async (value: unknown) =>
      (
        await admin.post('/api/TenantMemberQuery/TenantMemberPage', {
          conditions: { filters: [{ field: 'inviteStatus', operator: 'Equal', value }] },
        })
      ).body.data.items as Array<{ inviteStatus: string }>;
    expect((await byStatus(1)).length).toBeGreaterThan(0);
    expect(new Set((await byStatus('accepted')).map((m) => m.inviteStatus))).toEqual(new Set(['Accepted']));
    expect(await byStatus(3)).toEqual([]);
    expect400(
      await admin.post('/api/TenantMemberQuery/TenantMemberPage', {
        conditions: { filters: [{ field: 'inviteStatus', operator: 'Equal', value: 5 }] },
      }),
    );
  });
});

describe('impersonation', () => {
  it("refuses a change of a membership's type or status; other fields still change", async () => {
    const { user: target } = await tenantUser(server, tenantId, TENANT_ADMIN_CODES);
    const {
      api: boss,
      roleId,
      user: bossUser,
    } = await tenantUser(server, tenantId, [...TENANT_ADMIN_CODES, 'saas:impersonation:start']);
    // Impersonation reaches only users within the caller's data scope.
    await deps().db.update(roles).set({ dataScope: 'All' }).where(eq(roles.id, roleId!));
    await deps().authz.invalidateUser(bossUser.id);
    const started = await boss.post('/api/Impersonation/Impersonation', { userId: String(target.id) });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const as = adminApi(server, started.body.data.token.accessToken);

    const other = await createTestUser(deps(), { tenantId, memberOf: [tenantId] });
    const [membership] = await deps()
      .db.select()
      .from(tenantMemberships)
      .where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.userId, other.id)));
    const id = String(membership!.id);
    for (const res of [
      await as.put('/api/TenantMember/TenantMember', { basicId: id, memberType: 'Admin' }),
      await as.put('/api/TenantMember/TenantMember', { basicId: id, status: 'Disabled' }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.data).toMatch(/impersonat/);
    }
    const renamed = await as.put('/api/TenantMember/TenantMember', {
      basicId: id,
      displayName: 'Renamed',
      memberType: 'Member',
      status: 1,
    });
    expect(renamed.body.data).toMatchObject({ displayName: 'Renamed', memberType: 'Member', status: 'Active' });

    // Adding or removing a membership is a change of access too.
    const outsider = await createTestUser(deps());
    for (const res of [
      await as.post('/api/TenantMember/TenantMember', { userId: String(outsider.id) }),
      await as.del('/api/TenantMember/TenantMember', { id }),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.data).toMatch(/impersonat/);
    }
    expect(
      await deps()
        .db.select()
        .from(tenantMemberships)
        .where(eq(tenantMemberships.id, BigInt(id))),
    ).toHaveLength(1);

    // What an impersonation session may change is audited in the impersonator's name.
    const department = await as.post('/api/Department/Department', { departmentName: 'Under impersonation' });
    expect(department.status, JSON.stringify(department.body)).toBe(200);
    const [entry] = await deps()
      .db.select()
      .from(auditEntries)
      .where(
        and(eq(auditEntries.action, 'DepartmentCreated'), eq(auditEntries.targetId, department.body.data.basicId)),
      );
    expect(entry).toMatchObject({
      actorUserId: bossUser.id,
      detail: expect.objectContaining({ onBehalfOf: String(target.id) }),
    });
  });

  it('refuses an edition whitelist edit from an impersonation session in the platform state', async () => {
    const edition = (
      await platform.post('/api/Edition/Edition', {
        editionCode: unique('ed'),
        editionName: 'Edition',
        permissionWhitelist: ['saas:role:read'],
      })
    ).body.data.basicId as string;
    const { user: operator } = await platformUser(server);
    const root = adminApi(server, (await loginAs(server, await createSuperAdmin(deps()))).accessToken);
    const started = await root.post('/api/Impersonation/Impersonation', { userId: String(operator.id) });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const as = adminApi(server, started.body.data.token.accessToken);

    const refused = await as.put('/api/Edition/Edition', {
      basicId: edition,
      permissionWhitelist: ['saas:role:read', 'saas:user:read'],
    });
    expect(refused.status).toBe(403);
    expect(refused.body.data).toMatch(/impersonat/);
    expect(
      (
        await deps()
          .db.select({ w: editions.permissionWhitelist })
          .from(editions)
          .where(eq(editions.id, BigInt(edition)))
      )[0]!.w,
    ).toEqual(['saas:role:read']);
    // The same whitelist, and other fields, still change.
    const renamed = await as.put('/api/Edition/Edition', {
      basicId: edition,
      editionName: 'Renamed',
      permissionWhitelist: ['SAAS:ROLE:READ'],
    });
    expect(renamed.body.data).toMatchObject({ editionName: 'Renamed', permissionWhitelist: ['saas:role:read'] });

    // Deleting the edition, creating or deleting a tenant, or moving a tenant to another edition: refused too.
    const tenant = (await platform.post('/api/Tenant/Tenant', { tenantCode: unique('t'), tenantName: 'T' })).body.data
      .basicId as string;
    for (const res of [
      await as.del('/api/Edition/Edition', { id: edition }),
      await as.post('/api/Tenant/Tenant', { tenantCode: unique('t'), tenantName: 'T2' }),
      await as.put('/api/Tenant/Tenant', { basicId: tenant, editionId: edition }),
      await as.del('/api/Tenant/Tenant', { id: tenant }),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.data).toMatch(/impersonat/);
    }
    expect((await as.put('/api/Tenant/Tenant', { basicId: tenant, tenantName: 'Renamed' })).body.data).toMatchObject({
      tenantName: 'Renamed',
    });
  });
});
