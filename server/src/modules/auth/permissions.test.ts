import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { editions, rolePermissions, tenants } from '../../../../db/schema/index.js';
import { appRouter, serviceRoutes } from '../../app-router.js';
import { authedProcedure, mergeRouters, router } from '../../rpc/trpc.js';
import {
  bearer,
  createSuperAdmin,
  createTestTenant,
  createTestUser,
  grantRole,
  loginAs,
} from '../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';

/** The real API plus one service whose operations need permission codes. */
const api = {
  router: mergeRouters(
    appRouter,
    router({
      GuardedAppService: router({
        GetSecretAsync: authedProcedure
          .meta({ permission: 'saas:user:read' })
          .output(z.object({ ok: z.boolean() }))
          .query(() => ({ ok: true })),
        DeleteSecretAsync: authedProcedure
          .meta({ permission: 'saas:user:delete' })
          .output(z.object({ ok: z.boolean() }))
          .mutation(() => ({ ok: true })),
      }),
    }),
  ),
  services: serviceRoutes,
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ api, config: { Saas: { Auth: { CaptchaEnabled: false } } } });
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const get = (path: string, token: string) =>
  server.json(path, { headers: { ...bearer(token), 'x-language': 'en-US' } });

describe('permission checks', () => {
  it('answers 401 without a token, 403 with code 10004 without the code, and 200 with it', async () => {
    expect((await server.json('/api/Guarded/Secret')).status).toBe(401);
    const tenant = await createTestTenant(deps());
    const user = await createTestUser(deps(), { tenantId: tenant, memberOf: [tenant] });
    const token = (await loginAs(server, user)).accessToken;
    const denied = await get('/api/Guarded/Secret', token);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 10004, isSuccess: false });
    expect(denied.body.data).toMatch(/saas:user:read/);
    await grantRole(deps(), user.id, tenant, ['saas:user:read']);
    // The grant applies on the next request, without a new login.
    expect((await get('/api/Guarded/Secret', token)).status).toBe(200);
    expect((await server.json('/api/Guarded/Secret', { method: 'DELETE', headers: bearer(token) })).status).toBe(403);
  });

  it('applies a revocation on the next request too', async () => {
    const tenant = await createTestTenant(deps());
    const user = await createTestUser(deps(), { tenantId: tenant, memberOf: [tenant] });
    const roleId = await grantRole(deps(), user.id, tenant, ['saas:user:read']);
    const token = (await loginAs(server, user)).accessToken;
    expect((await get('/api/Guarded/Secret', token)).status).toBe(200);
    await deps().db.delete(rolePermissions).where(eq(rolePermissions.roleId, roleId));
    await deps().authz.invalidateTenant(tenant);
    expect((await get('/api/Guarded/Secret', token)).status).toBe(403);
  });

  it("answers 403 when the tenant's edition whitelist excludes the code, even for the holder", async () => {
    const editionId = deps().ids.next();
    await deps()
      .db.insert(editions)
      .values({ id: editionId, code: `e${editionId}`, name: 'Lite', permissionWhitelist: ['saas:role:read'] });
    const tenant = await createTestTenant(deps(), { editionId });
    const user = await createTestUser(deps(), { tenantId: tenant, memberOf: [tenant] });
    await grantRole(deps(), user.id, tenant, ['saas:user:read']);
    const token = (await loginAs(server, user)).accessToken;
    const res = await get('/api/Guarded/Secret', token);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(10004);
    expect(res.body.data).toMatch(/edition/);
    await deps().db.update(tenants).set({ editionId: null }).where(eq(tenants.id, tenant));
    await deps().authz.invalidateTenant(tenant);
    expect((await get('/api/Guarded/Secret', token)).status).toBe(200);
  });

  it('lets the super-administrator through everything in the platform state', async () => {
    const token = (await loginAs(server, await createSuperAdmin(deps()))).accessToken;
    expect((await get('/api/Guarded/Secret', token)).status).toBe(200);
    expect((await server.json('/api/Guarded/Secret', { method: 'DELETE', headers: bearer(token) })).status).toBe(200);
  });

  it('documents the permission code of each operation in the OpenAPI document', async () => {
    const doc = (await server.json('/openapi/v1.json')).body;
    expect(doc.paths['/api/Guarded/Secret'].get['x-permission']).toBe('saas:user:read');
    expect(doc.paths['/api/Guarded/Secret'].get.security).toEqual([{ Bearer: [] }]);
    expect(doc.paths['/api/Auth/Login'].post.security).toEqual([]);
  });
});

describe('UserInfo and Permissions', () => {
  it('answers the spec fields, with basicId equal to id', async () => {
    const tenant = await createTestTenant(deps());
    const user = await createTestUser(deps(), {
      tenantId: tenant,
      memberOf: [tenant],
      nickName: 'Ada',
      phone: '+4915100000',
    });
    await grantRole(deps(), user.id, tenant, ['saas:user:read'], `reader_${user.id}`);
    const data = (await get('/api/Auth/UserInfo', (await loginAs(server, user)).accessToken)).body.data;
    expect(data).toMatchObject({
      id: String(user.id),
      basicId: String(user.id),
      userName: user.userName,
      nickName: 'Ada',
      email: user.email,
      phone: '+4915100000',
      tenantId: String(tenant),
      isPlatform: false,
      canAccessPlatform: false,
      roles: [`reader_${user.id}`],
      permissions: ['saas:user:read'],
      appTitle: 'Portcullis',
      isImpersonating: false,
    });
  });

  it('builds the menu tree from permissions: gated menus and buttons only for holders, empty directories pruned', async () => {
    const tenant = await createTestTenant(deps());
    const plain = await createTestUser(deps(), { tenantId: tenant, memberOf: [tenant] });
    const plainData = (await get('/api/Auth/Permissions', (await loginAs(server, plain)).accessToken)).body.data;
    const paths = (nodes: Array<{ path: string; children?: unknown[] }>): string[] =>
      nodes.flatMap((n) => [n.path, ...paths((n.children ?? []) as never)]);
    expect(paths(plainData.menus)).toEqual(['/workbench/dashboard', '/docs']);
    expect(plainData).not.toHaveProperty('buttons');

    const reader = await createTestUser(deps(), { tenantId: tenant, memberOf: [tenant] });
    await grantRole(deps(), reader.id, tenant, ['saas:user:read', 'saas:user:create']);
    const data = (await get('/api/Auth/Permissions', (await loginAs(server, reader)).accessToken)).body.data;
    expect(paths(data.menus)).toEqual(['/workbench/dashboard', '/system', '/system/user', '/docs']);
    expect(data.buttons).toEqual(['user:create']);
    const usersMenu = data.menus.find((m: { path: string }) => m.path === '/system').children[0];
    expect(usersMenu).toMatchObject({
      name: 'User',
      component: 'system/user/index',
      meta: { title: 'menu.user', permissions: ['saas:user:read'], hidden: false },
    });
    const docs = data.menus.find((m: { path: string }) => m.path === '/docs');
    expect(docs.meta.link).toBe('/swagger');
    expect(docs).not.toHaveProperty('component');
  });

  it('gives the super-administrator * and every code, every menu and every button', async () => {
    const data = (
      await get('/api/Auth/Permissions', (await loginAs(server, await createSuperAdmin(deps()))).accessToken)
    ).body.data;
    expect(data.roles).toEqual(['super_admin']);
    expect(data.permissions[0]).toBe('*');
    expect(data.permissions).toContain('saas:user:delete');
    expect(data.buttons).toContain('tenant:delete');
    expect(data.menus.map((m: { path: string }) => m.path)).toEqual([
      '/workbench/dashboard',
      '/system',
      '/platform',
      '/docs',
    ]);
  });
});
