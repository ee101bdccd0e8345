import { expect } from 'vitest';
import { auditEntries } from '../../../../db/schema/index.js';
import { bearer, createTestTenant, createTestUser, grantRole, loginAs, type TestUser } from '../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import type { AuditAction } from '../audit/write.js';
import { PERMISSION_CATALOGUE } from '../authz/permission-catalogue.js';

/**
 * Shared by the tests of tenants, roles, departments, positions and menus: a server, tenant
 * administrators holding the codes of these modules, and the HTTP calls they make.
 */

const groups = ['role', 'role-permission', 'role-hierarchy', 'role-data-scope', 'department', 'position', 'menu', 'tenant-member', 'permission'];
/** Every tenant-level code of these modules. */
export const TENANT_ADMIN_CODES = PERMISSION_CATALOGUE.filter((p) => groups.includes(p.groupCode)).map((p) => p.code);
/** Every platform-level code of these modules (tenants and editions). */
export const PLATFORM_CODES = PERMISSION_CATALOGUE.filter((p) => p.groupCode === 'tenant' || p.groupCode === 'edition').map((p) => p.code);

/** Captcha off; login throttles raised (every test logs in from 127.0.0.1). */
export function startAdminServer(): Promise<TestServer> {
  return startTestServer({ config: { Saas: { Auth: { CaptchaEnabled: false, ThrottlePerIp: 100_000, ThrottlePerAccountAndIp: 10_000 } } } });
}

export type Call = { status: number; body: any };

/** The calls an administration client makes (English texts, so tests can read them). */
export function adminApi(server: TestServer, token: string) {
  const headers = { ...bearer(token), 'x-language': 'en-US' };
  const query = (q: Record<string, unknown> = {}) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined) params.append(k, String(v));
    const text = params.toString();
    return text ? `?${text}` : '';
  };
  return {
    token,
    get: (path: string, q?: Record<string, unknown>): Promise<Call> => server.json(`${path}${query(q)}`, { headers }),
    post: (path: string, json: unknown = {}): Promise<Call> => server.json(path, { method: 'POST', headers, json }),
    put: (path: string, json: unknown = {}): Promise<Call> => server.json(path, { method: 'PUT', headers, json }),
    del: (path: string, q?: Record<string, unknown>): Promise<Call> => server.json(`${path}${query(q)}`, { method: 'DELETE', headers }),
  };
}
export type AdminApi = ReturnType<typeof adminApi>;

/** A member of the tenant (home there) holding a role with the codes; logged in (lands in the tenant). */
export async function tenantUser(server: TestServer, tenantId: bigint, codes: string[] = []): Promise<{ user: TestUser; roleId: bigint | undefined; api: AdminApi }> {
  const deps = server.runtime.deps;
  const user = await createTestUser(deps, { tenantId, memberOf: [tenantId] });
  const roleId = codes.length ? await grantRole(deps, user.id, tenantId, codes) : undefined;
  return { user, roleId, api: adminApi(server, (await loginAs(server, user)).accessToken) };
}

/** A tenant with an administrator holding every tenant-level code of these modules. */
export async function tenantWithAdmin(server: TestServer, fields: Parameters<typeof createTestTenant>[1] = {}) {
  const tenantId = await createTestTenant(server.runtime.deps, fields);
  return { tenantId, ...(await tenantUser(server, tenantId, TENANT_ADMIN_CODES)) };
}

/** A platform operator (platform account) holding the given codes, logged in (platform state). */
export async function platformUser(server: TestServer, codes: string[] = PLATFORM_CODES) {
  const deps = server.runtime.deps;
  const user = await createTestUser(deps, { tenantId: 0n });
  const roleId = await grantRole(deps, user.id, 0n, codes);
  return { user, roleId, api: adminApi(server, (await loginAs(server, user)).accessToken) };
}


/**
 * Watches the audit table: each call answers the entries written since the previous one (the
 * first: since the watch began), so a test sees exactly what one request wrote. The tests of a
 * file run one at a time, so nothing else writes in between.
 */
export async function watchAudit(server: TestServer): Promise<() => Promise<Array<typeof auditEntries.$inferSelect>>> {
  const { db } = server.runtime.deps;
  const seen = new Set((await db.select({ id: auditEntries.id }).from(auditEntries)).map((r) => r.id));
  return async () => {
    const fresh = (await db.select().from(auditEntries)).filter((r) => !seen.has(r.id));
    for (const r of fresh) seen.add(r.id);
    // Plain copies: embedded PostgreSQL's rows (and their jsonb) have no prototype, which
    // vitest's diff printer cannot show, hiding what a failing assertion found.
    return fresh.map((r) => structuredClone(r));
  };
}

/** The entry a successful request must have left: action, actor, tenant, target, detail, and the request's own trace id. */
export function auditEntry(call: Call, e: { action: AuditAction; actor: bigint; tenantId: bigint; targetType: string; targetId: string | bigint; detail: Record<string, unknown>; userId?: bigint }) {
  expect(call.status, JSON.stringify(call.body)).toBe(200);
  expect(call.body.traceId).toMatch(/\S/);
  return expect.objectContaining({
    action: e.action,
    actorUserId: e.actor,
    tenantId: e.tenantId,
    targetType: e.targetType,
    targetId: String(e.targetId),
    ...(e.userId !== undefined ? { userId: e.userId } : {}),
    detail: expect.objectContaining(e.detail),
    ipAddress: expect.stringMatching(/\S/),
    traceId: call.body.traceId,
  });
}
