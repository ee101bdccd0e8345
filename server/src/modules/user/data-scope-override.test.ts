import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, tenantMemberships } from '../../../../db/schema/index.js';
import { createTestTenant, createTestUser, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { ADMIN_CODES, departmentChain, grantScopedRole, member, tenantAdmin } from './admin-test-kit.js';
import { adminApi, startAdminServer } from '../../testing/admin.js';

/** A user's data-scope override over HTTP: set, read, cleared, bounded by the caller's own scope. */
let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const SCOPE_CODES = ['saas:user-data-scope:read', 'saas:user-data-scope:update', 'saas:user-data-scope:revoke'];
const names = (page: { body: { data: { items: Array<{ userName: string }> } } }) =>
  page.body.data.items.map((i) => i.userName).sort();

async function setting() {
  const tenantId = await createTestTenant(deps());
  const d = await departmentChain(deps(), tenantId);
  const admin = await tenantAdmin(server, tenantId, { codes: [...ADMIN_CODES, ...SCOPE_CODES] });
  // Carol reads users of her own department only, through her role.
  const carol = await member(deps(), tenantId, { departmentId: d.child });
  await grantScopedRole(deps(), carol.id, tenantId, ['saas:user:read'], 'DepartmentOnly');
  const colleague = await member(deps(), tenantId, { departmentId: d.child });
  const elsewhere = await member(deps(), tenantId, { departmentId: d.other });
  const carolApi = adminApi(server, (await loginAs(server, carol)).accessToken);
  return { tenantId, d, admin, carol, carolApi, colleague, elsewhere };
}

describe("a user's data-scope override", () => {
  it("replaces the roles' scopes from the next request, reads back, and clears", async () => {
    const { admin, carol, carolApi, colleague, elsewhere, tenantId } = await setting();
    const before = names(await carolApi.post('/api/UserQuery/UserPage', {}));
    expect(before).toContain(colleague.userName);
    expect(before).not.toContain(elsewhere.userName);

    const set = await admin.api.put('/api/UserDataScope/UserDataScope', { userId: String(carol.id), dataScope: 'All' });
    expect(set.status).toBe(200);
    expect(set.body.data).toEqual({ userId: String(carol.id), dataScopeOverride: 'All', effectiveDataScopes: ['All'] });
    // The same token, no new login.
    expect(names(await carolApi.post('/api/UserQuery/UserPage', {}))).toContain(elsewhere.userName);
    expect(
      (await admin.api.get('/api/UserDataScopeQuery/UserDataScope', { userId: String(carol.id) })).body.data,
    ).toMatchObject({ dataScopeOverride: 'All' });
    const [entry] = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'UserDataScopeChanged'), eq(auditEntries.targetId, String(carol.id))));
    expect(entry).toMatchObject({ tenantId, actorUserId: admin.user.id, detail: { from: null, to: 'All' } });

    const cleared = await admin.api.del('/api/UserDataScope/UserDataScope', { userId: String(carol.id) });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.dataScopeOverride).toBeUndefined();
    expect(cleared.body.data.effectiveDataScopes).toEqual(['DepartmentOnly']);
    expect(names(await carolApi.post('/api/UserQuery/UserPage', {}))).toEqual(before);
  });

  it('applies in the home context only: other tenants go by the roles held there', async () => {
    const { admin, carol } = await setting();
    const other = await createTestTenant(deps());
    await deps().db.insert(tenantMemberships).values({ id: deps().ids.next(), tenantId: other, userId: carol.id });
    await grantScopedRole(deps(), carol.id, other, ['saas:user:read'], 'SelfOnly');
    expect(
      (await admin.api.put('/api/UserDataScope/UserDataScope', { userId: String(carol.id), dataScope: 'All' })).status,
    ).toBe(200);
    expect((await deps().authz.get(carol.id, other)).dataScopes).toEqual(['SelfOnly']);
  });

  it("is never wider than the caller's own scope", async () => {
    const { tenantId, d, carol } = await setting();
    const narrow = await tenantAdmin(server, tenantId, {
      codes: [...ADMIN_CODES, ...SCOPE_CODES],
      dataScope: 'DepartmentAndChildren',
      departmentId: d.root,
    });
    const wider = await narrow.api.put('/api/UserDataScope/UserDataScope', {
      userId: String(carol.id),
      dataScope: 'All',
    });
    expect(wider.status).toBe(403);
    expect(wider.body.data).toMatch(/wider data scope/);
    for (const dataScope of ['DepartmentAndChildren', 'DepartmentOnly', 'SelfOnly']) {
      expect(
        (await narrow.api.put('/api/UserDataScope/UserDataScope', { userId: String(carol.id), dataScope })).status,
        dataScope,
      ).toBe(200);
    }
  });

  it('is not cleared by someone who could not give what the roles then grant, nor by its holder', async () => {
    const { tenantId, d, admin } = await setting();
    // Dave's roles read everything; an administrator narrowed him to himself.
    const dave = await member(deps(), tenantId, { departmentId: d.child });
    await grantScopedRole(deps(), dave.id, tenantId, ['saas:user:read', ...SCOPE_CODES], 'All');
    expect(
      (await admin.api.put('/api/UserDataScope/UserDataScope', { userId: String(dave.id), dataScope: 'SelfOnly' }))
        .status,
    ).toBe(200);
    const narrow = await tenantAdmin(server, tenantId, {
      codes: [...ADMIN_CODES, ...SCOPE_CODES],
      dataScope: 'DepartmentAndChildren',
      departmentId: d.root,
    });
    const byNarrow = await narrow.api.del('/api/UserDataScope/UserDataScope', { userId: String(dave.id) });
    expect(byNarrow.status).toBe(403);
    expect(byNarrow.body.data).toMatch(/\(All\)/);
    const daveApi = adminApi(server, (await loginAs(server, dave)).accessToken);
    expect((await daveApi.del('/api/UserDataScope/UserDataScope', { userId: String(dave.id) })).status).toBe(403);
    expect(
      (await admin.api.get('/api/UserDataScopeQuery/UserDataScope', { userId: String(dave.id) })).body.data
        .dataScopeOverride,
    ).toBe('SelfOnly');
    // An administrator who sees everything may.
    expect((await admin.api.del('/api/UserDataScope/UserDataScope', { userId: String(dave.id) })).status).toBe(200);
  });

  it('refuses bad input, members from elsewhere, other tenants, missing codes and impersonation', async () => {
    const { admin, carol, tenantId } = await setting();
    for (const body of [
      { userId: String(carol.id), dataScope: 'Custom' },
      { userId: String(carol.id), dataScope: 'Everything' },
      { userId: String(carol.id) },
      { dataScope: 'All' },
      { userId: 'carol', dataScope: 'All' },
    ]) {
      const res = await admin.api.put('/api/UserDataScope/UserDataScope', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const visitorHome = await createTestTenant(deps());
    const visitor = await createTestUser(deps(), { tenantId: visitorHome, memberOf: [visitorHome, tenantId] });
    expect(
      (await admin.api.put('/api/UserDataScope/UserDataScope', { userId: String(visitor.id), dataScope: 'SelfOnly' }))
        .status,
    ).toBe(422);
    const stranger = await member(deps(), await createTestTenant(deps()));
    expect(
      (await admin.api.put('/api/UserDataScope/UserDataScope', { userId: String(stranger.id), dataScope: 'SelfOnly' }))
        .status,
    ).toBe(404);
    expect((await admin.api.get('/api/UserDataScopeQuery/UserDataScope', { userId: String(stranger.id) })).status).toBe(
      404,
    );
    const plain = await tenantAdmin(server, tenantId, { codes: ADMIN_CODES });
    expect(
      (await plain.api.put('/api/UserDataScope/UserDataScope', { userId: String(carol.id), dataScope: 'SelfOnly' }))
        .status,
    ).toBe(403);
    const as = (await admin.api.post('/api/Impersonation/Impersonation', { userId: String(carol.id) })).body.data.token
      .accessToken as string;
    const impersonating = await tenantAdmin(server, tenantId, { codes: [...ADMIN_CODES, ...SCOPE_CODES] });
    await grantScopedRole(deps(), carol.id, tenantId, SCOPE_CODES);
    const refused = await adminApi(server, as).put('/api/UserDataScope/UserDataScope', {
      userId: String(impersonating.user.id),
      dataScope: 'SelfOnly',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.data).toMatch(/while impersonating/);
    expect(
      (await admin.api.get('/api/UserDataScopeQuery/UserDataScope', { userId: String(impersonating.user.id) })).body
        .data.dataScopeOverride,
    ).toBeUndefined();
  });
});
