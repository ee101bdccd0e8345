import { and, eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  departmentHierarchy,
  roles,
  tenantMemberships,
  userDepartments,
  userRoles,
  users,
} from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import type { Executor } from '../../infra/db/client.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { SUPER_ADMIN_ROLE } from '../authz/permission-catalogue.js';
import { allows, type AuthorizationSnapshot } from '../authz/snapshot.js';

/**
 * What an administrator may see of the users of the context it acts in, computed once per
 * request (outside any transaction: it reads the authorization snapshot).
 *
 * - The context is the session's tenant (0 = the platform state, which sees platform data). A user
 *   belongs to it by home tenant or by a membership there; deleted users belong nowhere.
 * - Users holding the super-administrator role are hidden from everyone but super-administrators.
 * - The data scope of the caller's roles (or the caller's override), widest wins when several
 *   apply: All; Custom (the roles' departments); DepartmentAndChildren (the caller's departments in
 *   this tenant and everything under them, read from the closure); DepartmentOnly (the caller's
 *   departments); SelfOnly. The caller always sees itself.
 * - An account is *managed* here when its home tenant is this context: only then may its profile,
 *   status, password and existence be changed; members from elsewhere keep their account under
 *   their home tenant, and here only their membership, roles and departments change.
 */
export interface CallerScope {
  userId: bigint;
  tenantId: bigint;
  isSuperAdmin: boolean;
  snapshot: AuthorizationSnapshot;
  /** Departments whose members the caller sees; null: every user of the context (scope All). */
  departmentIds: bigint[] | null;
  /** Whether the caller holds a permission code (edition whitelist included). */
  can(code: string): boolean;
}

export async function callerScope(
  deps: Pick<AppDeps, 'db'> & { authz: AuthorizationService },
  auth: Pick<AuthContext, 'userId' | 'tenantId'>,
): Promise<CallerScope> {
  const pending = deps.authz.get(auth.userId, auth.tenantId);
  const snapshot = pending instanceof Promise ? await pending : pending;
  const { tenantId, userId } = auth;
  let departmentIds: bigint[] | null = null;
  if (!snapshot.dataScopes.includes('All')) {
    const ids = new Set<bigint>();
    if (snapshot.dataScopes.includes('Custom')) for (const id of snapshot.customDepartmentIds) ids.add(BigInt(id));
    const below = snapshot.dataScopes.includes('DepartmentAndChildren');
    if (below || snapshot.dataScopes.includes('DepartmentOnly')) {
      const own = await deps.db
        .select({ id: userDepartments.departmentId })
        .from(userDepartments)
        .where(and(eq(userDepartments.userId, userId), eq(userDepartments.tenantId, tenantId)));
      for (const d of own) ids.add(d.id);
      if (below && own.length) {
        const descendants = await deps.db
          .select({ id: departmentHierarchy.descendantId })
          .from(departmentHierarchy)
          .where(
            and(
              eq(departmentHierarchy.tenantId, tenantId),
              inArray(
                departmentHierarchy.ancestorId,
                own.map((d) => d.id),
              ),
            ),
          );
        for (const d of descendants) ids.add(d.id);
      }
    }
    departmentIds = [...ids];
  }
  return {
    userId,
    tenantId,
    isSuperAdmin: snapshot.isSuperAdmin,
    snapshot,
    departmentIds,
    can: (code) => allows(snapshot, code),
  };
}

/** Users of the context: home tenant or a membership there, not deleted. */
export function inContext(tenantId: bigint): SQL {
  return sql`(${users.isDeleted} = false and (${users.tenantId} = ${tenantId} or exists (select 1 from ${tenantMemberships} where ${tenantMemberships.tenantId} = ${tenantId} and ${tenantMemberships.userId} = ${users.id})))`;
}

/** True for a user id holding the super-administrator role (whatever its state: hidden either way). */
export function isSuperAdminUser(userId: SQLWrapper): SQL {
  return sql`exists (select 1 from ${userRoles} inner join ${roles} on ${roles.id} = ${userRoles.roleId} where ${userRoles.userId} = ${userId} and ${roles.tenantId} = 0 and lower(${roles.roleCode}) = ${SUPER_ADMIN_ROLE})`;
}

/**
 * The part of the scope that is about who, for any column holding a user id: super-administrators
 * hidden from others, and the data scope. Undefined when nothing restricts (a super-administrator).
 */
export function whoCondition(scope: CallerScope, userId: SQLWrapper): SQL | undefined {
  const parts: SQL[] = [];
  if (!scope.isSuperAdmin) parts.push(sql`not ${isSuperAdminUser(userId)}`);
  if (scope.departmentIds !== null) {
    const inDepartments = scope.departmentIds.length
      ? sql` or exists (select 1 from ${userDepartments} where ${userDepartments.userId} = ${userId} and ${userDepartments.tenantId} = ${scope.tenantId} and ${inArray(userDepartments.departmentId, scope.departmentIds)})`
      : sql``;
    parts.push(sql`(${userId} = ${scope.userId}${inDepartments})`);
  }
  return parts.length ? and(...parts) : undefined;
}

/** Users the caller may see: of the context, not hidden, within the data scope. */
export function visibleUsers(scope: CallerScope): SQL {
  return and(inContext(scope.tenantId), whoCondition(scope, users.id))!;
}

/** Whether a department of the context lies within the caller's data scope (any, with scope All). */
export function departmentInScope(scope: CallerScope, departmentId: bigint): boolean {
  return scope.departmentIds === null || scope.departmentIds.includes(departmentId);
}

export type VisibleUser = typeof users.$inferSelect;

/** A user the caller may see, or undefined (another tenant's, hidden, out of scope, deleted, absent). */
export async function findVisibleUser(db: Executor, scope: CallerScope, id: bigint): Promise<VisibleUser | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), visibleUsers(scope)));
  return row;
}

/**
 * For handing an account over (setting its password, removing its second factor) or acting as it
 * (impersonation), none for the super-administrator: a code the user holds in any context it
 * belongs to (its home, every tenant it is a member of, whatever the membership's state, which
 * can change later) that the caller does not hold in that same context. An account is one login
 * everywhere: whoever takes it over acts in all of them, so an administrator of tenant A must not
 * take over a member who administers tenant B (or the platform) where A's administrator holds
 * nothing.
 */
export async function codeBeyondCallerAnywhere(
  deps: Pick<AppDeps, 'db'> & { authz: AuthorizationService },
  scope: CallerScope,
  userId: bigint,
): Promise<{ code: string; tenantId: bigint } | undefined> {
  if (scope.isSuperAdmin) return undefined;
  const [home] = await deps.db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, userId));
  const memberships = await deps.db
    .select({ tenantId: tenantMemberships.tenantId })
    .from(tenantMemberships)
    .where(eq(tenantMemberships.userId, userId));
  const contexts = new Set<bigint>([scope.tenantId, ...memberships.map((m) => m.tenantId)]);
  if (home) contexts.add(home.tenantId);
  for (const tenantId of contexts) {
    const theirs = await deps.authz.get(userId, tenantId);
    const mine = tenantId === scope.tenantId ? scope.snapshot : await deps.authz.get(scope.userId, tenantId);
    const code = theirs.permissions.find((c) => allows(theirs, c) && !allows(mine, c));
    if (code) return { code, tenantId };
  }
  return undefined;
}
