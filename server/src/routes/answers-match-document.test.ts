import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TITLE } from '../app.js';
import { appRouter, serviceRoutes } from '../app-router.js';
import { createSuperAdmin, createTestTenant, loginAs } from '../testing/auth-fixtures.js';
import type { TestServer } from '../testing/harness.js';
import { departmentChain, grantScopedRole, member } from '../modules/user/admin-test-kit.js';
import { buildOpenApiDocument } from './openapi.js';
import { buildRouteTable, type RouteEntry } from './table.js';
import { adminApi, startAdminServer, type AdminApi, type Call } from '../testing/admin.js';

/**
 * Real answers against the OpenAPI document: a server is started, a broad set of routes is called
 * (the login flow, then every query route as a tenant administrator and as the platform
 * administrator) and each body is validated with ajv (JSON Schema 2020-12) against the schema the
 * document gives for that operation and status. A status the document does not list fails too.
 */

type Json = Record<string, any>;

const table = buildRouteTable(appRouter, serviceRoutes);
const document = buildOpenApiDocument(table, { title: API_TITLE, version: 'test' }) as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(document, 'openapi.json');

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
const validators = new Map<string, ValidateFunction>();

/** The validator of an operation's answer with this status; undefined when the document does not list the status. */
function validatorFor(path: string, method: string, status: number): ValidateFunction | undefined {
  const key = `${method} ${path} ${status}`;
  const cached = validators.get(key);
  if (cached) return cached;
  const responses = document.paths[path]?.[method]?.responses as Json | undefined;
  const response = responses?.[String(status)] as Json | undefined;
  if (!response) return undefined;
  const at =
    typeof response.$ref === 'string'
      ? `${response.$ref}/${pointer('content', 'application/json', 'schema')}`
      : `#/${pointer('paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema')}`;
  const validate = ajv.compile({ $ref: `openapi.json${at}` });
  validators.set(key, validate);
  return validate;
}

interface Checked {
  route: string;
  status: number;
  errors: string[];
}
const checked: Checked[] = [];

/** Validates one answer against the document and records it. */
function check(entry: Pick<RouteEntry, 'method' | 'path'>, call: Call): Call {
  const method = entry.method.toLowerCase();
  const route = `${entry.method} ${entry.path}`;
  const validate = validatorFor(entry.path, method, call.status);
  const errors = !validate
    ? [`status ${call.status} is not documented`]
    : validate(call.body)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  checked.push({ route, status: call.status, errors });
  return call;
}

const entryOf = (path: string): RouteEntry => {
  const entry = table.find((e) => e.path === path);
  if (!entry) throw new Error(`no route ${path}`);
  return entry;
};

async function call(api: AdminApi, path: string, input: Record<string, unknown> = {}): Promise<Call> {
  const entry = entryOf(path);
  const answer =
    entry.method === 'GET'
      ? await api.get(path, input)
      : entry.method === 'DELETE'
        ? await api.del(path, input)
        : entry.method === 'PUT'
          ? await api.put(path, input)
          : await api.post(path, input);
  return check(entry, answer);
}

/** Query routes, plus the paged ones that are POSTs: the ones a sweep may call without side effects. */
const readRoutes = table.filter(
  (e) => (e.type === 'query' || /Query\/\w+Page$/.test(e.path)) && !e.path.toLowerCase().startsWith('/api/openapi/'),
);

let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.close());

describe('answers match the OpenAPI document', () => {
  it('for the login flow, every query route of a tenant administrator and of the platform administrator', async () => {
    const deps = server.runtime.deps;
    const anonymous = adminApi(server, '');
    expect((await call(anonymous, '/api/Auth/LoginConfig')).status).toBe(200);

    // A tenant with data to list: departments, members without real name, avatar or phone.
    const tenantId = await createTestTenant(deps);
    const departments = await departmentChain(deps, tenantId);
    const admin = await member(deps, tenantId, { departmentId: departments.child });
    const codes = [...new Set(table.map((e) => e.meta.permission).filter((c): c is string => !!c))];
    const roleId = await grantScopedRole(deps, admin.id, tenantId, codes);
    const plain = await member(deps, tenantId, { email: null });

    const login = check(
      entryOf('/api/Auth/Login'),
      await server.json('/api/Auth/Login', {
        method: 'POST',
        json: { username: admin.email, password: admin.password },
      }),
    );
    expect(login.status).toBe(200);
    const wrong = check(
      entryOf('/api/Auth/Login'),
      await server.json('/api/Auth/Login', {
        method: 'POST',
        json: { username: admin.email, password: 'not-the-password' },
      }),
    );
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    check(entryOf('/api/Auth/Login'), await server.json('/api/Auth/Login', { method: 'POST', json: { username: 42 } }));

    const token = login.body.data.token as { accessToken: string; refreshToken: string };
    const refreshed = check(
      entryOf('/api/Auth/RefreshToken'),
      await server.json('/api/Auth/RefreshToken', {
        method: 'POST',
        json: { accessToken: token.accessToken, refreshToken: token.refreshToken },
      }),
    );
    expect(refreshed.status).toBe(200);
    const api = adminApi(server, refreshed.body.data.accessToken ?? refreshed.body.data.token?.accessToken);

    // The superseded access token is refused: a documented 401.
    expect((await call(adminApi(server, token.accessToken), '/api/Auth/UserInfo')).status).toBe(401);

    const detailInputs: Record<string, Record<string, unknown>> = {
      '/api/UserQuery/UserDetail': { id: plain.id },
      '/api/DepartmentQuery/DepartmentDetail': { id: departments.root },
      '/api/RoleQuery/RoleDetail': { id: roleId },
      '/api/RoleQuery/RolePermissions': { roleId },
      '/api/RoleQuery/RoleDataScope': { roleId },
      '/api/UserDataScopeQuery/UserDataScope': { userId: admin.id },
      '/api/UserRole/UserRoles': { userId: admin.id },
      '/api/UserDepartment/UserDepartments': { userId: admin.id },
      '/api/UserSessionQuery/UserSessions': { userId: admin.id },
      '/api/TenantQuery/TenantDetail': { id: tenantId },
      '/api/TenantMemberQuery/TenantMemberDetail': { userId: plain.id },
    };
    const tenantAnswers = new Map<string, number>();
    for (const entry of readRoutes) {
      const answer = await call(api, entry.path, detailInputs[entry.path] ?? {});
      tenantAnswers.set(entry.path, answer.status);
    }
    for (const path of [
      '/api/Auth/UserInfo',
      '/api/Auth/Permissions',
      '/api/Profile/Sessions',
      '/api/UserQuery/UserPage',
      '/api/UserQuery/UserDetail',
      '/api/RoleQuery/RolePage',
      '/api/DepartmentQuery/DepartmentTree',
      '/api/DepartmentQuery/DepartmentPage',
      '/api/MenuQuery/MenuTree',
      '/api/MenuQuery/MenuPage',
      '/api/LoginLogQuery/LoginLogPage',
      '/api/PositionQuery/PositionPage',
      '/api/TenantMemberQuery/TenantMemberPage',
    ]) {
      expect(tenantAnswers.get(path), path).toBe(200);
    }

    // The platform administrator (no tenant) sees the platform's lists: tenants, editions, menus.
    const root = await createSuperAdmin(deps);
    const rootApi = adminApi(server, (await loginAs(server, root)).accessToken);
    for (const entry of readRoutes)
      await call(rootApi, entry.path, entry.path === '/api/TenantQuery/TenantDetail' ? { id: tenantId } : {});
    expect((await call(rootApi, '/api/TenantQuery/TenantPage')).status).toBe(200);

    // Input errors are documented envelopes too.
    expect((await call(api, '/api/UserQuery/UserPage', { status: 'Sleeping' })).status).toBe(400);
    expect((await call(api, '/api/UserDataScopeQuery/UserDataScope')).status).toBe(400);

    // The sessions and log the logins above produced, then the logout that ends the session.
    expect((await call(api, '/api/Profile/Sessions')).body.data.length).toBeGreaterThan(0);
    expect((await call(api, '/api/LoginLogQuery/LoginLogPage')).body.data.items.length).toBeGreaterThan(0);
    expect((await call(api, '/api/Auth/Logout')).status).toBe(200);
    const ended = await call(api, '/api/Auth/UserInfo');
    expect(ended.status).toBe(401);
    expect(ended.body.code).toBe(10001);

    const failures = checked.filter((c) => c.errors.length);
    expect(failures.map((f) => `${f.route} ${f.status}: ${f.errors.slice(0, 3).join('; ')}`)).toEqual([]);
    expect(checked.filter((c) => c.status === 200).length).toBeGreaterThan(2 * 30);
  });
});
