import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { permissions, roleInheritances, rolePermissions, roles, userRoles } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import { appError } from '../../errors/app-error.js';
import type { Executor } from '../../infra/db/client.js';
import type { CallContext } from '../../rpc/call-context.js';
import { actorOf, auditChange } from '../audit/change.js';
import type { AuditAction } from '../audit/write.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { SUPER_ADMIN_ROLE, WILDCARD_PERMISSION } from '../authz/permission-catalogue.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import { userErrors } from './errors.js';
import { callerScope, type CallerScope } from './scope.js';
import { requireVisibleUser } from './service.js';
import { notDeleted } from '../../infra/db/predicates.js';

/**
 * Role assignment (UserRole): a role of the context (or a global one) held by a user of the
 * context, optionally only within [effectiveTime, expirationTime). Nobody grants more than they
 * hold: a role carrying a permission the caller lacks (the super-administrator role carries `*`)
 * is refused. Changes apply on the user's next request (the snapshot is dropped after commit),
 * are audited, and are refused while impersonating.
 */

type Ctx = CallContext & { auth: AuthContext };
type Window = { effectiveTime?: Date | null; expirationTime?: Date | null };

interface RoleRow {
  id: bigint;
  roleCode: string;
  roleName: string;
  maxMembers: number;
}

function checkWindow(w: Window): void {
  if (w.effectiveTime && w.expirationTime && w.effectiveTime >= w.expirationTime)
    throw appError(userErrors.WINDOW_INVALID);
}

/** A live role assignable in the context: its own roles and the global ones (tenant 0). */
async function requireRole(db: Executor, tenantId: bigint, roleId: bigint): Promise<RoleRow> {
  const [row] = await db
    .select({ id: roles.id, roleCode: roles.roleCode, roleName: roles.roleName, maxMembers: roles.maxMembers })
    .from(roles)
    .where(
      and(
        eq(roles.id, roleId),
        inArray(roles.tenantId, tenantId === 0n ? [0n] : [0n, tenantId]),
        notDeleted(roles.isDeleted),
      ),
    );
  if (!row) throw appError(userErrors.ROLE_NOT_FOUND, { params: { id: String(roleId) } });
  return row;
}

/** The permission codes a role carries, its ancestors' included (cycles tolerated). */
async function roleCodes(db: Executor, roleId: bigint): Promise<string[]> {
  const all = new Set([roleId]);
  let frontier = [roleId];
  while (frontier.length) {
    const parents = await db
      .select({ id: roleInheritances.parentRoleId })
      .from(roleInheritances)
      .where(inArray(roleInheritances.roleId, frontier));
    frontier = parents.map((p) => p.id).filter((id) => !all.has(id));
    for (const id of frontier) all.add(id);
  }
  const rows = await db
    .selectDistinct({ code: permissions.code })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(and(inArray(rolePermissions.roleId, [...all]), eq(rolePermissions.status, 'Enabled')));
  return rows.map((r) => r.code.toLowerCase());
}

/** Refuses a role the caller could not hold by itself (403 naming the first missing code). */
async function assertDelegable(db: Executor, scope: CallerScope, role: RoleRow): Promise<void> {
  if (scope.isSuperAdmin) return;
  if (role.roleCode.toLowerCase() === SUPER_ADMIN_ROLE)
    throw appError(userErrors.ROLE_NOT_DELEGABLE, { params: { permission: WILDCARD_PERMISSION } });
  const missing = (await roleCodes(db, role.id)).find((code) => !scope.can(code));
  if (missing) throw appError(userErrors.ROLE_NOT_DELEGABLE, { params: { permission: missing } });
}

/** Refuses a role at its member limit (call inside the transaction that adds the member, role row locked). */
async function assertRoom(tx: Executor, role: RoleRow): Promise<void> {
  if (role.maxMembers <= 0) return;
  await tx.select({ id: roles.id }).from(roles).where(eq(roles.id, role.id)).for('update');
  const [held] = await tx.select({ n: count() }).from(userRoles).where(eq(userRoles.roleId, role.id));
  if ((held?.n ?? 0) >= role.maxMembers)
    throw appError(userErrors.ROLE_FULL, { params: { roleName: role.roleName, max: role.maxMembers } });
}

export function createUserRoleService(deps: Pick<AppDeps, 'db' | 'ids' | 'clock'> & { authz: AuthorizationService }) {
  const { db, ids, clock } = deps;

  const audit = (
    tx: Executor,
    ctx: Ctx,
    action: AuditAction,
    userId: bigint,
    assignmentId: bigint,
    detail: Record<string, unknown>,
  ) => auditChange(tx, deps, actorOf(ctx), action, { type: 'UserRole', id: assignmentId, userId }, detail);

  /** An assignment of the context whose user the caller sees, or 404. */
  async function requireAssignment(scope: CallerScope, id: bigint) {
    const [row] = await db
      .select({
        assignment: userRoles,
        role: { id: roles.id, roleCode: roles.roleCode, roleName: roles.roleName, maxMembers: roles.maxMembers },
      })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(and(eq(userRoles.id, id), eq(userRoles.tenantId, scope.tenantId)));
    if (!row) throw appError(userErrors.USER_ROLE_NOT_FOUND, { params: { id: String(id) } });
    try {
      await requireVisibleUser(db, scope, row.assignment.userId);
    } catch {
      throw appError(userErrors.USER_ROLE_NOT_FOUND, { params: { id: String(id) } });
    }
    return row;
  }

  return {
    /** GET /api/UserRole/UserRoles?userId=: the user's roles in the context. */
    async list(ctx: Ctx, userId: bigint) {
      const scope = await callerScope(deps, ctx.auth);
      await requireVisibleUser(db, scope, userId);
      const now = clock.now();
      const rows = await db
        .select({ a: userRoles, roleCode: roles.roleCode, roleName: roles.roleName })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(and(eq(userRoles.userId, userId), eq(userRoles.tenantId, scope.tenantId), notDeleted(roles.isDeleted)))
        .orderBy(asc(roles.sort), asc(roles.roleName));
      return rows.map(({ a, roleCode, roleName }) => ({
        basicId: String(a.id),
        userId: String(a.userId),
        roleId: String(a.roleId),
        roleCode,
        roleName,
        effectiveTime: a.effectiveTime,
        expirationTime: a.expirationTime,
        status: a.status === 'Enabled' ? ('Enabled' as const) : ('Disabled' as const),
        isEffective:
          a.status === 'Enabled' &&
          (!a.effectiveTime || a.effectiveTime <= now) &&
          (!a.expirationTime || a.expirationTime > now),
        createdTime: a.createdTime,
      }));
    },

    /** POST /api/UserRole/UserRole: grants a role (409 when the user already has it). */
    async grant(ctx: Ctx, input: { userId: bigint; roleId: bigint } & Window): Promise<bigint> {
      refuseWhileImpersonating(ctx.auth);
      checkWindow(input);
      const scope = await callerScope(deps, ctx.auth);
      const user = await requireVisibleUser(db, scope, input.userId);
      const role = await requireRole(db, scope.tenantId, input.roleId);
      await assertDelegable(db, scope, role);
      const id = ids.next();
      await db.transaction(async (tx) => {
        const [existing] = await tx
          .select({ id: userRoles.id })
          .from(userRoles)
          .where(
            and(eq(userRoles.tenantId, scope.tenantId), eq(userRoles.userId, user.id), eq(userRoles.roleId, role.id)),
          );
        if (existing) throw appError(userErrors.USER_ROLE_EXISTS, { params: { roleName: role.roleName } });
        await assertRoom(tx, role);
        await tx.insert(userRoles).values({
          id,
          tenantId: scope.tenantId,
          userId: user.id,
          roleId: role.id,
          effectiveTime: input.effectiveTime ?? null,
          expirationTime: input.expirationTime ?? null,
          createdTime: clock.now(),
          createdBy: ctx.auth.userId,
        });
        await audit(tx, ctx, 'UserRoleGranted', user.id, id, { roleId: String(role.id), roleCode: role.roleCode });
      });
      await deps.authz.invalidateUser(user.id);
      return id;
    },

    /** PUT /api/UserRole/UserRole: a new validity window. */
    async update(ctx: Ctx, input: { basicId: bigint } & Window): Promise<void> {
      refuseWhileImpersonating(ctx.auth);
      checkWindow(input);
      const scope = await callerScope(deps, ctx.auth);
      const { assignment, role } = await requireAssignment(scope, input.basicId);
      await assertDelegable(db, scope, role);
      await db.transaction(async (tx) => {
        await tx
          .update(userRoles)
          .set({
            effectiveTime: input.effectiveTime ?? null,
            expirationTime: input.expirationTime ?? null,
            modifiedTime: clock.now(),
            modifiedBy: ctx.auth.userId,
          })
          .where(eq(userRoles.id, assignment.id));
        await audit(tx, ctx, 'UserRoleChanged', assignment.userId, assignment.id, {
          effectiveTime: input.effectiveTime ?? null,
          expirationTime: input.expirationTime ?? null,
        });
      });
      await deps.authz.invalidateUser(assignment.userId);
    },

    /** PUT /api/UserRole/UserRoleStatus: suspends (Disabled) or restores an assignment. */
    async setStatus(ctx: Ctx, id: bigint, status: 'Enabled' | 'Disabled'): Promise<void> {
      refuseWhileImpersonating(ctx.auth);
      const scope = await callerScope(deps, ctx.auth);
      const { assignment, role } = await requireAssignment(scope, id);
      if (status === 'Enabled') await assertDelegable(db, scope, role);
      await db.transaction(async (tx) => {
        await tx
          .update(userRoles)
          .set({ status, modifiedTime: clock.now(), modifiedBy: ctx.auth.userId })
          .where(eq(userRoles.id, assignment.id));
        await audit(tx, ctx, 'UserRoleChanged', assignment.userId, assignment.id, { status });
      });
      await deps.authz.invalidateUser(assignment.userId);
    },

    /** DELETE /api/UserRole/UserRole?id=: revokes an assignment. */
    async revoke(ctx: Ctx, id: bigint): Promise<void> {
      refuseWhileImpersonating(ctx.auth);
      const scope = await callerScope(deps, ctx.auth);
      const { assignment, role } = await requireAssignment(scope, id);
      await assertDelegable(db, scope, role);
      await db.transaction(async (tx) => {
        await tx.delete(userRoles).where(eq(userRoles.id, assignment.id));
        await audit(tx, ctx, 'UserRoleRevoked', assignment.userId, assignment.id, {
          roleId: String(role.id),
          roleCode: role.roleCode,
        });
      });
      await deps.authz.invalidateUser(assignment.userId);
    },

    /**
     * PUT /api/UserRole/UserRoles: makes the user's roles in the context exactly the given set
     * (windows as given). Every role added, changed or removed must be one the caller could hold.
     */
    async replace(ctx: Ctx, userId: bigint, wanted: Array<{ roleId: bigint } & Window>): Promise<void> {
      refuseWhileImpersonating(ctx.auth);
      for (const w of wanted) checkWindow(w);
      const scope = await callerScope(deps, ctx.auth);
      const user = await requireVisibleUser(db, scope, userId);
      const byRole = new Map(wanted.map((w) => [w.roleId, w]));
      const current = await db
        .select()
        .from(userRoles)
        .where(and(eq(userRoles.tenantId, scope.tenantId), eq(userRoles.userId, user.id)));
      const currentRoles = new Map(current.map((c) => [c.roleId, c]));
      const touched = new Map<bigint, RoleRow>();
      for (const roleId of new Set([...byRole.keys(), ...currentRoles.keys()])) {
        const keep = byRole.get(roleId);
        const had = currentRoles.get(roleId);
        const same =
          keep &&
          had &&
          (keep.effectiveTime ?? null)?.getTime() === had.effectiveTime?.getTime() &&
          (keep.expirationTime ?? null)?.getTime() === had.expirationTime?.getTime();
        if (same) continue;
        const role = keep
          ? await requireRole(db, scope.tenantId, roleId)
          : ((
              await db
                .select({
                  id: roles.id,
                  roleCode: roles.roleCode,
                  roleName: roles.roleName,
                  maxMembers: roles.maxMembers,
                })
                .from(roles)
                .where(eq(roles.id, roleId))
            )[0] ?? { id: roleId, roleCode: '', roleName: '', maxMembers: 0 });
        await assertDelegable(db, scope, role);
        touched.set(roleId, role);
      }
      if (touched.size === 0) return;
      const now = clock.now();
      await db.transaction(async (tx) => {
        for (const [roleId, role] of touched) {
          const keep = byRole.get(roleId);
          const had = currentRoles.get(roleId);
          if (!keep && had) {
            await tx.delete(userRoles).where(eq(userRoles.id, had.id));
            await audit(tx, ctx, 'UserRoleRevoked', user.id, had.id, {
              roleId: String(roleId),
              roleCode: role.roleCode,
            });
          } else if (keep && had) {
            await tx
              .update(userRoles)
              .set({
                effectiveTime: keep.effectiveTime ?? null,
                expirationTime: keep.expirationTime ?? null,
                modifiedTime: now,
                modifiedBy: ctx.auth.userId,
              })
              .where(eq(userRoles.id, had.id));
            await audit(tx, ctx, 'UserRoleChanged', user.id, had.id, {
              effectiveTime: keep.effectiveTime ?? null,
              expirationTime: keep.expirationTime ?? null,
            });
          } else if (keep) {
            await assertRoom(tx, role);
            const id = ids.next();
            await tx.insert(userRoles).values({
              id,
              tenantId: scope.tenantId,
              userId: user.id,
              roleId,
              effectiveTime: keep.effectiveTime ?? null,
              expirationTime: keep.expirationTime ?? null,
              createdTime: now,
              createdBy: ctx.auth.userId,
            });
            await audit(tx, ctx, 'UserRoleGranted', user.id, id, { roleId: String(roleId), roleCode: role.roleCode });
          }
        }
      });
      await deps.authz.invalidateUser(user.id);
    },
  };
}
