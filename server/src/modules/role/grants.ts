import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { permissions, roleInheritances, rolePermissions, roles } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import { appError } from '../../errors/app-error.js';
import type { Executor, Transaction } from '../../infra/db/client.js';
import { executeRows } from '../../infra/db/rows.js';
import { auditChange } from '../audit/change.js';
import type { AuditAction } from '../audit/write.js';
import type { AuthorizationSnapshot } from '../authz/snapshot.js';
import { adminErrors } from '../permission/errors.js';
import {
  EnableStatus,
  assertGrantableIn,
  assertHolds,
  idOut,
  invalidateGrants,
  nameIn,
  resolvePermissions,
  type CataloguePermission,
} from '../permission/admin-scope.js';
import { roleErrors } from './errors.js';
import { assertEditable, lockRoleGraph, requireRole, type Scope } from './service.js';
import { notDeleted } from '../../infra/db/predicates.js';

type Deps = Pick<AppDeps, 'db' | 'ids' | 'clock'> & { authz: AuthorizationService };

/** A permission named by id or code in a request. */
export interface PermissionRef {
  permissionId?: bigint;
  permissionCode?: string;
}

/** A catalogue entry by id or code, enabled or not (revoking a disabled code must still work). */
async function findPermission(db: Executor, ref: PermissionRef): Promise<CataloguePermission> {
  const where =
    ref.permissionId !== undefined
      ? eq(permissions.id, ref.permissionId)
      : eq(permissions.code, (ref.permissionCode ?? '').trim().toLowerCase());
  const [row] = await db.select({ id: permissions.id, code: permissions.code }).from(permissions).where(where);
  if (!row)
    throw appError(adminErrors.PERMISSION_UNKNOWN, {
      params: { permission: String(ref.permissionId ?? ref.permissionCode) },
    });
  return row;
}

/** The role itself and every role it inherits from, directly or not (cycles in old data tolerated). */
async function selfAndAncestors(db: Executor, roleId: bigint): Promise<bigint[]> {
  const rows = await executeRows<{ id: string | bigint }>(
    db,
    sql`WITH RECURSIVE up(id) AS (
          SELECT ${String(roleId)}::bigint
          UNION
          SELECT ri.parent_role_id FROM role_inheritances ri JOIN up ON ri.role_id = up.id
        ) SELECT id::text AS id FROM up`,
  );
  return rows.map((r) => BigInt(r.id));
}

/** Codes a role hands its holders: its own enabled grants and those of every role above it. */
async function effectiveCodes(db: Executor, roleIds: bigint[]): Promise<string[]> {
  if (roleIds.length === 0) return [];
  const rows = await db
    .selectDistinct({ code: permissions.code })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
    .where(
      and(
        inArray(rolePermissions.roleId, roleIds),
        eq(rolePermissions.status, 'Enabled'),
        eq(permissions.isEnabled, true),
        notDeleted(roles.isDeleted),
      ),
    );
  return rows.map((r) => r.code);
}

/**
 * Role permissions (grant, revoke, status, batch) and role inheritance. Grants follow one rule:
 * a caller hands out only codes its own snapshot allows (assertHolds); inheriting from a role
 * hands out that role's codes, so the same rule applies to them. Inheritance never forms a cycle:
 * the check and the insert run under the context's role-graph lock.
 */
export function createRoleGrantService(deps: Deps) {
  const { db, clock } = deps;

  /** Every write records one entry on the role, in its transaction. */
  const audit = (
    tx: Transaction,
    scope: Scope,
    action: AuditAction,
    role: { id: bigint; roleCode: string },
    detail: Record<string, unknown>,
  ) => auditChange(tx, deps, scope, action, { type: 'Role', id: role.id }, { roleCode: role.roleCode, ...detail });

  async function list(tenantId: bigint, roleId: bigint) {
    await requireRole(db, tenantId, roleId);
    const rows = await db
      .select({
        id: permissions.id,
        code: permissions.code,
        name: permissions.name,
        groupCode: permissions.groupCode,
        status: rolePermissions.status,
      })
      .from(rolePermissions)
      .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
      .where(eq(rolePermissions.roleId, roleId))
      .orderBy(asc(permissions.groupCode), asc(permissions.code));
    return rows.map((r) => ({
      permissionId: idOut(r.id),
      permissionCode: r.code,
      permissionName: r.name,
      groupCode: r.groupCode,
      status: nameIn(EnableStatus, r.status, 'Disabled'),
    }));
  }

  async function hierarchy(tenantId: bigint, roleId: bigint) {
    await requireRole(db, tenantId, roleId);
    const ref = { basicId: roles.id, roleCode: roles.roleCode, roleName: roles.roleName, status: roles.status };
    const sameTenant = and(eq(roles.tenantId, tenantId), notDeleted(roles.isDeleted));
    const parents = await db
      .select(ref)
      .from(roleInheritances)
      .innerJoin(roles, eq(roles.id, roleInheritances.parentRoleId))
      .where(and(eq(roleInheritances.roleId, roleId), sameTenant))
      .orderBy(asc(roles.roleName), asc(roles.id));
    const children = await db
      .select(ref)
      .from(roleInheritances)
      .innerJoin(roles, eq(roles.id, roleInheritances.roleId))
      .where(and(eq(roleInheritances.parentRoleId, roleId), sameTenant))
      .orderBy(asc(roles.roleName), asc(roles.id));
    const out = (r: (typeof parents)[number]) => ({
      basicId: idOut(r.basicId),
      roleCode: r.roleCode,
      roleName: r.roleName,
      status: nameIn(EnableStatus, r.status, 'Disabled'),
    });
    return { roleId: idOut(roleId), parents: parents.map(out), children: children.map(out) };
  }

  return {
    list,
    hierarchy,

    async grant(scope: Scope, snapshot: AuthorizationSnapshot, roleId: bigint, ref: PermissionRef) {
      const [p] = await resolvePermissions(
        db,
        ref.permissionId !== undefined ? { ids: [ref.permissionId] } : { codes: [ref.permissionCode ?? ''] },
      );
      assertGrantableIn(scope.tenantId, [p!.code]);
      assertHolds(snapshot, [p!.code]);
      await db.transaction(async (tx) => {
        const role = await requireRole(tx, scope.tenantId, roleId);
        assertEditable(role);
        const [before] = await tx
          .select({ status: rolePermissions.status })
          .from(rolePermissions)
          .where(and(eq(rolePermissions.roleId, roleId), eq(rolePermissions.permissionId, p!.id)));
        const now = clock.now();
        await tx
          .insert(rolePermissions)
          .values({ roleId, permissionId: p!.id, status: 'Enabled', createdTime: now, createdBy: scope.actorId })
          .onConflictDoUpdate({
            target: [rolePermissions.roleId, rolePermissions.permissionId],
            set: { status: 'Enabled', modifiedTime: now, modifiedBy: scope.actorId },
          });
        await audit(tx, scope, 'RolePermissionGranted', role, {
          added: before?.status === 'Enabled' ? [] : [p!.code],
          removed: [],
        });
      });
      await invalidateGrants(deps, scope.tenantId);
      return list(scope.tenantId, roleId);
    },

    async revoke(scope: Scope, roleId: bigint, ref: PermissionRef) {
      await db.transaction(async (tx) => {
        const role = await requireRole(tx, scope.tenantId, roleId);
        assertEditable(role);
        const p = await findPermission(tx, ref);
        const gone = await tx
          .delete(rolePermissions)
          .where(and(eq(rolePermissions.roleId, roleId), eq(rolePermissions.permissionId, p.id)))
          .returning({ roleId: rolePermissions.roleId });
        await audit(tx, scope, 'RolePermissionRevoked', role, { added: [], removed: gone.length ? [p.code] : [] });
      });
      await invalidateGrants(deps, scope.tenantId);
      return list(scope.tenantId, roleId);
    },

    async setStatus(scope: Scope, snapshot: AuthorizationSnapshot, roleId: bigint, ref: PermissionRef, status: string) {
      await db.transaction(async (tx) => {
        const role = await requireRole(tx, scope.tenantId, roleId);
        assertEditable(role);
        const p = await findPermission(tx, ref);
        // Enabling hands the code out again.
        if (status === 'Enabled') {
          assertGrantableIn(scope.tenantId, [p.code]);
          assertHolds(snapshot, [p.code]);
        }
        const updated = await tx
          .update(rolePermissions)
          .set({ status, modifiedTime: clock.now(), modifiedBy: scope.actorId })
          .where(and(eq(rolePermissions.roleId, roleId), eq(rolePermissions.permissionId, p.id)))
          .returning({ roleId: rolePermissions.roleId });
        if (updated.length === 0)
          throw appError(roleErrors.PERMISSION_NOT_GRANTED, { params: { name: role.roleName, permission: p.code } });
        await audit(tx, scope, 'RolePermissionStatusChanged', role, { permissionCode: p.code, to: status });
      });
      await invalidateGrants(deps, scope.tenantId);
      return list(scope.tenantId, roleId);
    },

    /** Makes the role's grants exactly the given set (all enabled); answers what changed. */
    async replace(
      scope: Scope,
      snapshot: AuthorizationSnapshot,
      roleId: bigint,
      refs: { ids?: bigint[]; codes?: string[] },
    ) {
      const desired = await resolvePermissions(db, refs);
      assertGrantableIn(
        scope.tenantId,
        desired.map((d) => d.code),
      );
      const result = await db.transaction(async (tx) => {
        const role = await requireRole(tx, scope.tenantId, roleId);
        assertEditable(role);
        const current = await tx
          .select({ id: rolePermissions.permissionId, status: rolePermissions.status, code: permissions.code })
          .from(rolePermissions)
          .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
          .where(eq(rolePermissions.roleId, roleId));
        const byId = new Map(current.map((c) => [c.id, c]));
        const wanted = new Set(desired.map((d) => d.id));
        const granted = desired.filter((d) => byId.get(d.id)?.status !== 'Enabled');
        const revoked = current.filter((c) => !wanted.has(c.id));
        assertHolds(
          snapshot,
          granted.map((g) => g.code),
        );
        const now = clock.now();
        if (revoked.length)
          await tx.delete(rolePermissions).where(
            and(
              eq(rolePermissions.roleId, roleId),
              inArray(
                rolePermissions.permissionId,
                revoked.map((r) => r.id),
              ),
            ),
          );
        for (const g of granted) {
          await tx
            .insert(rolePermissions)
            .values({ roleId, permissionId: g.id, status: 'Enabled', createdTime: now, createdBy: scope.actorId })
            .onConflictDoUpdate({
              target: [rolePermissions.roleId, rolePermissions.permissionId],
              set: { status: 'Enabled', modifiedTime: now, modifiedBy: scope.actorId },
            });
        }
        const changes = { granted: granted.map((g) => g.code).sort(), revoked: revoked.map((r) => r.code).sort() };
        await audit(tx, scope, 'RolePermissionsReplaced', role, { added: changes.granted, removed: changes.revoked });
        return changes;
      });
      await invalidateGrants(deps, scope.tenantId);
      return result;
    },

    /** Makes `roleId` inherit from `parentRoleId` (both of the context); refuses a cycle. */
    async addParent(scope: Scope, snapshot: AuthorizationSnapshot, roleId: bigint, parentRoleId: bigint) {
      await db.transaction(async (tx) => {
        await lockRoleGraph(tx, scope.tenantId);
        const role = await requireRole(tx, scope.tenantId, roleId);
        const parent = await requireRole(tx, scope.tenantId, parentRoleId);
        assertEditable(role);
        const above = await selfAndAncestors(tx, parentRoleId);
        if (above.includes(roleId))
          throw appError(roleErrors.CYCLE, { params: { name: role.roleName, parentName: parent.roleName } });
        // Holders of the role would get every code of the parent and of the roles above it.
        const inherited = await effectiveCodes(tx, above);
        assertGrantableIn(scope.tenantId, inherited);
        assertHolds(snapshot, inherited);
        await tx.insert(roleInheritances).values({ roleId, parentRoleId }).onConflictDoNothing();
        await audit(tx, scope, 'RoleParentAdded', role, {
          parentRoleId: String(parent.id),
          parentRoleCode: parent.roleCode,
        });
      });
      await invalidateGrants(deps, scope.tenantId);
      return hierarchy(scope.tenantId, roleId);
    },

    async removeParent(scope: Scope, roleId: bigint, parentRoleId: bigint) {
      await db.transaction(async (tx) => {
        await lockRoleGraph(tx, scope.tenantId);
        const role = await requireRole(tx, scope.tenantId, roleId);
        assertEditable(role);
        await tx
          .delete(roleInheritances)
          .where(and(eq(roleInheritances.roleId, roleId), eq(roleInheritances.parentRoleId, parentRoleId)));
        await audit(tx, scope, 'RoleParentRemoved', role, { parentRoleId: String(parentRoleId) });
      });
      await invalidateGrants(deps, scope.tenantId);
      return hierarchy(scope.tenantId, roleId);
    },
  };
}
