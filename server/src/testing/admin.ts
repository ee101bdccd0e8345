import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditEntries, roles } from '../../../db/schema/index.js';
import type { AppGraph as AppDeps } from '../services.js';
import type { Clock } from '../infra/clock.js';
import type { AuditAction } from '../modules/audit/write.js';
import type { DataScope } from '../modules/authz/snapshot.js';
import { bearer, createTestTenant, createTestUser, grantRole, loginAs, type TestUser } from './auth-fixtures.js';
import { startTestServer, type TestServer } from './harness.js';

/**
 * The administration tests' kit: a server whose logins are not throttled, administrators of a
 * tenant holding chosen codes, the HTTP calls they make and the audit entries those leave.
 */

/** Captcha off; login throttles raised (every test logs in from 127.0.0.1). */
export function startAdminServer(
  options: { clock?: Clock; config?: Record<string, unknown> } = {},
): Promise<TestServer> {
  const { clock, config = {} } = options;
  const saas = (config.Saas ?? {}) as Record<string, Record<string, unknown>>;
  return startTestServer({
    ...(clock ? { clock } : {}),
    config: {
      ...config,
      Saas: {
        ...saas,
        Auth: { CaptchaEnabled: false, ThrottlePerIp: 100_000, ThrottlePerAccountAndIp: 10_000, ...(saas.Auth ?? {}) },
      },
    },
  });
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
    del: (path: string, q?: Record<string, unknown>): Promise<Call> =>
      server.json(`${path}${query(q)}`, { method: 'DELETE', headers }),
  };
}
export type AdminApi = ReturnType<typeof adminApi>;

/** Sets a role's data scope (the role's own departments for 'Custom'). */
export async function setDataScope(deps: AppDeps, roleId: bigint, userId: bigint, dataScope: DataScope): Promise<void> {
  await deps.db.update(roles).set({ dataScope }).where(eq(roles.id, roleId));
  await deps.authz.invalidateUser(userId);
}

export interface TenantAdminOptions {
  /** The codes of the administrator's role (none: a member without a role). */
  codes: string[];
  /** The role's data scope; the role default when absent. */
  dataScope?: DataScope;
  /** Columns of the tenant row. */
  fields?: Parameters<typeof createTestTenant>[1];
}

/** A member of the tenant (home there) holding a role with the codes; logged in (lands in the tenant). */
export async function tenantUser(
  server: TestServer,
  tenantId: bigint,
  codes: string[] = [],
  dataScope?: DataScope,
): Promise<{ user: TestUser; roleId: bigint | undefined; token: string; api: AdminApi }> {
  const deps = server.runtime.deps;
  const user = await createTestUser(deps, { tenantId, memberOf: [tenantId] });
  const roleId = codes.length ? await grantRole(deps, user.id, tenantId, codes) : undefined;
  if (roleId !== undefined && dataScope) await setDataScope(deps, roleId, user.id, dataScope);
  const token = (await loginAs(server, user)).accessToken;
  return { user, roleId, token, api: adminApi(server, token) };
}

/** A tenant of its own with an administrator holding `codes`, logged in. */
export async function tenantWithAdmin(server: TestServer, options: TenantAdminOptions) {
  const tenantId = await createTestTenant(server.runtime.deps, options.fields ?? {});
  return { tenantId, ...(await tenantUser(server, tenantId, options.codes, options.dataScope)) };
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
export function auditEntry(
  call: Call,
  e: {
    action: AuditAction;
    actor: bigint;
    tenantId: bigint;
    targetType: string;
    targetId: string | bigint;
    detail: Record<string, unknown>;
    userId?: bigint;
  },
) {
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
