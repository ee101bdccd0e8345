import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  editions,
  permissions,
  roleDataScopeDepartments,
  roleInheritances,
  rolePermissions,
  roles,
  tenants,
  userRoles,
  users,
} from '../../../../db/schema/index.js';
import type { Database, Executor } from '../../infra/db/client.js';
import { preparedPerDatabase } from '../../infra/db/prepared.js';
import { isPlatformCode, SUPER_ADMIN_ROLE, WILDCARD_PERMISSION } from './permission-catalogue.js';
import { notDeleted } from '../../infra/db/predicates.js';

/** How much data a user may see in lists, widest first (the original's DataPermissionScope names). */
export const DATA_SCOPES = ['All', 'Custom', 'DepartmentAndChildren', 'DepartmentOnly', 'SelfOnly'] as const;
export type DataScope = (typeof DATA_SCOPES)[number];

/**
 * What a user may do in one context (a tenant, or the platform state as tenant 0), computed
 * from the database at request time so grants and revocations apply without a new login.
 */
export interface AuthorizationSnapshot {
  userId: string;
  tenantId: string;
  /** Codes of the effective roles: assigned (within their validity window) and inherited. */
  roles: string[];
  /** Permission codes of those roles (lower-cased for comparison), `*` for the super-administrator. */
  permissions: string[];
  isSuperAdmin: boolean;
  /** The tenant edition's whitelist (empty: everything the roles grant). */
  editionWhitelist: string[];
  /** The data scopes of the roles (or the user's override), and the departments of Custom scopes. */
  dataScopes: DataScope[];
  /** The data scopes of the roles alone, what applies once an override is cleared (absent in snapshots cached by older versions). */
  roleDataScopes?: DataScope[];
  customDepartmentIds: string[];
  builtAt: number;
  /**
   * When a role assignment of the user in this context next starts or ends (ms), or null: the
   * snapshot is stale from then on without any write, so caches keep it no longer.
   */
  validUntil: number | null;
}

/** Role ids reachable through inheritance (parents of parents), enabled only, cycles tolerated. */
async function withInheritedRoles(db: Executor, roleIds: bigint[]): Promise<bigint[]> {
  const all = new Set(roleIds);
  let frontier = roleIds;
  while (frontier.length) {
    const parents = await db
      .select({ id: roles.id })
      .from(roleInheritances)
      .innerJoin(roles, eq(roles.id, roleInheritances.parentRoleId))
      .where(and(inArray(roleInheritances.roleId, frontier), eq(roles.status, 'Enabled'), notDeleted(roles.isDeleted)));
    frontier = parents.map((p) => p.id).filter((id) => !all.has(id));
    for (const id of frontier) all.add(id);
  }
  return [...all];
}

/**
 * The two reads every snapshot makes (assigned roles, the user's scope override), built once per
 * database: a login builds a snapshot, and building these queries cost more CPU than running
 * them. Tenant 0 is always in the context list, so `in (0, tenant)` covers both cases.
 */
function prepareReads(db: Database) {
  const userId = sql.placeholder('userId');
  const context = sql`(0, ${sql.placeholder('tenantId')}::bigint)`;
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  return {
    assigned: db
      .select({ id: roles.id })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(
        and(
          sql`${userRoles.userId} = ${userId}`,
          sql`${userRoles.tenantId} in ${context}`,
          sql`${roles.tenantId} in ${context}`,
          eq(userRoles.status, 'Enabled'),
          eq(roles.status, 'Enabled'),
          notDeleted(roles.isDeleted),
          or(isNull(userRoles.effectiveTime), sql`${userRoles.effectiveTime} <= ${now}`),
          or(isNull(userRoles.expirationTime), sql`${userRoles.expirationTime} > ${now}`),
        ),
      )
      .prepare('snapshot_assigned_roles'),
    override: db
      .select({ override: users.dataScopeOverride, home: users.tenantId })
      .from(users)
      .where(sql`${users.id} = ${userId}`)
      .prepare('snapshot_scope_override'),
    // The next instant an assignment's window opens or closes (whether or not it applies now).
    nextBoundary: db
      .select({
        at: sql<
          string | null
        >`least(min(${userRoles.effectiveTime}) filter (where ${userRoles.effectiveTime} > ${now}), min(${userRoles.expirationTime}) filter (where ${userRoles.expirationTime} > ${now}))`,
      })
      .from(userRoles)
      .where(
        and(
          sql`${userRoles.userId} = ${userId}`,
          sql`${userRoles.tenantId} in ${context}`,
          eq(userRoles.status, 'Enabled'),
        ),
      )
      .prepare('snapshot_next_boundary'),
  };
}

const readsOf = preparedPerDatabase(prepareReads);

export async function buildSnapshot(
  db: Executor,
  userId: bigint,
  tenantId: bigint,
  now: Date,
): Promise<AuthorizationSnapshot> {
  // Roles assigned in this context or globally (tenant 0), enabled, within their window.
  const reads = readsOf(db);
  const assigned = await reads.assigned.execute({ userId, tenantId, now: now.toISOString() });
  const [boundary] = await reads.nextBoundary.execute({ userId, tenantId, now: now.toISOString() });
  const roleIds = await withInheritedRoles(
    db,
    assigned.map((r) => r.id),
  );
  const roleRows = roleIds.length
    ? await db
        .select({ id: roles.id, tenantId: roles.tenantId, code: roles.roleCode, dataScope: roles.dataScope })
        .from(roles)
        .where(inArray(roles.id, roleIds))
    : [];
  const granted = roleIds.length
    ? await db
        .selectDistinct({ code: permissions.code })
        .from(rolePermissions)
        .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
        .where(
          and(
            inArray(rolePermissions.roleId, roleIds),
            eq(rolePermissions.status, 'Enabled'),
            eq(permissions.isEnabled, true),
          ),
        )
    : [];

  let editionWhitelist: string[] = [];
  if (tenantId !== 0n) {
    const [row] = await db
      .select({ whitelist: editions.permissionWhitelist })
      .from(tenants)
      .innerJoin(editions, eq(editions.id, tenants.editionId))
      // Whatever the edition's status: disabling an edition withdraws it from sale, it does not
      // lift the limits of the tenants on it.
      .where(eq(tenants.id, tenantId));
    editionWhitelist = (row?.whitelist ?? []).map((c) => c.toLowerCase());
  }

  const [user] = await reads.override.execute({ userId });
  // Only the platform's own role makes a super-administrator: a tenant role that happens to
  // carry the code (the role API reserves it, but data can come from elsewhere) grants nothing extra.
  const isSuperAdmin = roleRows.some((r) => r.tenantId === 0n && r.code.toLowerCase() === SUPER_ADMIN_ROLE);
  // Platform codes are the platform state's: a role of a tenant (or a global one) carrying one
  // grants nothing inside a tenant.
  const codes = new Set(
    granted.map((g) => g.code.toLowerCase()).filter((code) => tenantId === 0n || !isPlatformCode(code)),
  );
  if (isSuperAdmin) codes.add(WILDCARD_PERMISSION);
  // The override is the account's, set where the account is managed: it applies in the user's
  // home context only; elsewhere the roles held there decide.
  const scopes = new Set<DataScope>(
    user?.override && user.home === tenantId && (DATA_SCOPES as readonly string[]).includes(user.override)
      ? [user.override as DataScope]
      : roleRows.map((r) =>
          (DATA_SCOPES as readonly string[]).includes(r.dataScope) ? (r.dataScope as DataScope) : 'SelfOnly',
        ),
  );
  if (isSuperAdmin) scopes.add('All');
  const roleScopes = new Set<DataScope>(
    roleRows.map((r) =>
      (DATA_SCOPES as readonly string[]).includes(r.dataScope) ? (r.dataScope as DataScope) : 'SelfOnly',
    ),
  );
  if (isSuperAdmin) roleScopes.add('All');
  const customRoles = roleRows.filter((r) => r.dataScope === 'Custom').map((r) => r.id);
  const custom =
    scopes.has('Custom') && customRoles.length
      ? await db
          .selectDistinct({ id: roleDataScopeDepartments.departmentId })
          .from(roleDataScopeDepartments)
          .where(inArray(roleDataScopeDepartments.roleId, customRoles))
      : [];

  return {
    userId: String(userId),
    tenantId: String(tenantId),
    roles: roleRows.map((r) => r.code).sort(),
    permissions: [...codes].sort(),
    isSuperAdmin,
    editionWhitelist,
    dataScopes: DATA_SCOPES.filter((s) => scopes.has(s)),
    roleDataScopes: DATA_SCOPES.filter((s) => roleScopes.has(s)),
    customDepartmentIds: custom.map((c) => String(c.id)).sort(),
    builtAt: now.getTime(),
    validUntil: boundary?.at ? new Date(boundary.at).getTime() : null,
  };
}

/**
 * Whether a snapshot allows a permission code: the roles grant it (or `*`), and the tenant's
 * edition whitelist, when it has one, contains it. Codes compare case-insensitively. A platform
 * code is allowed only in the platform state, whatever the roles (the wildcard included).
 */
export function allows(snapshot: AuthorizationSnapshot, code: string): boolean {
  const wanted = code.toLowerCase();
  if (snapshot.tenantId !== '0' && isPlatformCode(wanted)) return false;
  const granted = snapshot.permissions.includes(WILDCARD_PERMISSION) || snapshot.permissions.includes(wanted);
  if (!granted) return false;
  return snapshot.editionWhitelist.length === 0 || snapshot.editionWhitelist.includes(wanted);
}

/** The widest data scope, for lists that need a single answer. */
export function widestScope(snapshot: AuthorizationSnapshot): DataScope {
  return snapshot.dataScopes[0] ?? 'SelfOnly';
}
