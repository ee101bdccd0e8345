import { and, asc, count, eq, inArray, or, sql } from 'drizzle-orm';
import {
  departments,
  roleDataScopeDepartments,
  roleInheritances,
  roles,
  userRoles,
} from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import { appError } from '../../errors/app-error.js';
import type { Executor, Transaction } from '../../infra/db/client.js';
import { updateVersioned } from '../../infra/db/versioned.js';
import type { PagedRequest } from '../../query/index.js';
import { auditChange, fieldsOf, type Actor } from '../audit/change.js';
import type { AuditAction } from '../audit/write.js';
import { SUPER_ADMIN_ROLE } from '../authz/permission-catalogue.js';
import { departmentErrors } from '../department/errors.js';
import { EnableStatus, checkVersion, idOut, invalidateGrants, nameIn } from '../permission/admin-scope.js';
import { authorsOf, type Authors } from '../user/authors.js';
import { DataScope, RoleType } from './enums.js';
import { roleErrors } from './errors.js';
import { roleList } from './role-list.js';
import type { CreateRoleInput, UpdateRoleInput } from './schemas.js';
import { notDeleted } from '../../infra/db/predicates.js';

export type Role = typeof roles.$inferSelect;

/**
 * Who acts, in which context (the session's tenant; 0 is the platform's global roles) and from
 * where: every write records an audit entry of the role in its transaction.
 */
export type Scope = Actor;

type Deps = Pick<AppDeps, 'db' | 'ids' | 'clock'> & { authz: AuthorizationService };

/** A live role of the tenant, or undefined: another tenant's role is never found. */
export async function findRole(db: Executor, tenantId: bigint, id: bigint): Promise<Role | undefined> {
  const [row] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), eq(roles.id, id), notDeleted(roles.isDeleted)));
  return row;
}

export async function requireRole(db: Executor, tenantId: bigint, id: bigint): Promise<Role> {
  const role = await findRole(db, tenantId, id);
  if (!role) throw appError(roleErrors.NOT_FOUND, { params: { id: String(id) } });
  return role;
}

/** System roles (the seeded super-administrator) are read-only through the API. */
export function assertEditable(role: Role): void {
  if (role.isSystem !== 0) throw appError(roleErrors.SYSTEM_ROLE, { params: { name: role.roleName } });
}

/** `super_admin` makes its holders super-administrators: nobody may create another one. */
function assertCodeAllowed(code: string | undefined): void {
  if (code !== undefined && code.trim().toLowerCase() === SUPER_ADMIN_ROLE)
    throw appError(roleErrors.CODE_RESERVED, { params: { code } });
}

/** Serializes writes to one context's role graph (inheritance), like the department tree lock. */
export async function lockRoleGraph(tx: Transaction, tenantId: bigint): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext('portcullis.role.' || current_schema() || '.' || ${tenantId.toString()}::text))`,
  );
}

/** Every id must be a live department of the tenant (404 naming the first that is not). */
export async function requireDepartments(db: Executor, tenantId: bigint, ids: readonly bigint[]): Promise<bigint[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.tenantId, tenantId), inArray(departments.id, unique), notDeleted(departments.isDeleted)));
  const known = new Set(rows.map((r) => r.id));
  const missing = unique.find((id) => !known.has(id));
  if (missing !== undefined) throw appError(departmentErrors.NOT_FOUND, { params: { id: String(missing) } });
  return unique;
}

/** Whether two id lists hold the same ids (order and repeats aside). */
function sameIds(a: readonly bigint[], b: readonly bigint[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((id) => right.has(id));
}

export function toRoleDetail(r: Role, authors: Authors) {
  return {
    basicId: idOut(r.id),
    roleCode: r.roleCode,
    roleName: r.roleName,
    roleDescription: r.roleDescription,
    roleType: nameIn(RoleType, r.roleType, 'Custom'),
    dataScope: nameIn(DataScope, r.dataScope, 'SelfOnly'),
    maxMembers: r.maxMembers,
    status: nameIn(EnableStatus, r.status, 'Disabled'),
    isSystem: r.isSystem !== 0,
    sort: r.sort,
    remark: r.remark,
    version: r.version,
    createdTime: r.createdTime,
    modifiedTime: r.modifiedTime,
    ...authors(r),
  };
}

/** One live role of the tenant as a detail, its author names resolved (404 when missing). */
async function roleDetailOf(db: Executor, tenantId: bigint, id: bigint) {
  const role = await requireRole(db, tenantId, id);
  return toRoleDetail(role, await authorsOf(db, [role]));
}

const live = (tenantId: bigint) => and(eq(roles.tenantId, tenantId), notDeleted(roles.isDeleted));

/**
 * Roles of one context. Every write commits first and then drops the cached authorization
 * snapshots of that context (all contexts for the platform's global roles), so holders see the
 * change on their next request.
 */
export function createRoleService(deps: Deps) {
  const { db, ids, clock } = deps;

  const audit = (tx: Transaction, scope: Scope, action: AuditAction, roleId: bigint, detail: Record<string, unknown>) =>
    auditChange(tx, deps, scope, action, { type: 'Role', id: roleId }, detail);

  /** The departments stored for a role's Custom scope, ascending. */
  async function scopeDepartmentsOf(tx: Executor, roleId: bigint): Promise<bigint[]> {
    const rows = await tx
      .select({ id: roleDataScopeDepartments.departmentId })
      .from(roleDataScopeDepartments)
      .where(eq(roleDataScopeDepartments.roleId, roleId));
    return rows.map((r) => r.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  async function replaceScopeDepartments(
    tx: Transaction,
    roleId: bigint,
    departmentIds: readonly bigint[],
  ): Promise<void> {
    await tx.delete(roleDataScopeDepartments).where(eq(roleDataScopeDepartments.roleId, roleId));
    if (departmentIds.length)
      await tx.insert(roleDataScopeDepartments).values(departmentIds.map((departmentId) => ({ roleId, departmentId })));
  }

  /** The data scope of a role and, for Custom, its departments (live ones of the tenant). */
  async function dataScope(tenantId: bigint, roleId: bigint) {
    const role = await requireRole(db, tenantId, roleId);
    const rows = await db
      .select({ id: roleDataScopeDepartments.departmentId })
      .from(roleDataScopeDepartments)
      .innerJoin(
        departments,
        and(
          eq(departments.id, roleDataScopeDepartments.departmentId),
          eq(departments.tenantId, tenantId),
          notDeleted(departments.isDeleted),
        ),
      )
      .where(eq(roleDataScopeDepartments.roleId, roleId))
      .orderBy(asc(roleDataScopeDepartments.departmentId));
    return {
      roleId: idOut(role.id),
      dataScope: nameIn(DataScope, role.dataScope, 'SelfOnly'),
      departmentIds: rows.map((r) => idOut(r.id)),
      version: role.version,
    };
  }

  return {
    async create(scope: Scope, input: CreateRoleInput) {
      assertCodeAllowed(input.roleCode);
      const id = ids.next();
      const scopeName = input.dataScope ?? 'SelfOnly';
      await db.transaction(async (tx) => {
        const departmentIds =
          scopeName === 'Custom' ? await requireDepartments(tx, scope.tenantId, input.departmentIds ?? []) : [];
        await tx.insert(roles).values({
          id,
          tenantId: scope.tenantId,
          roleCode: input.roleCode,
          roleName: input.roleName,
          roleDescription: input.roleDescription ?? null,
          roleType: input.roleType ?? 'Custom',
          dataScope: scopeName,
          maxMembers: input.maxMembers ?? 0,
          status: input.status ?? 'Enabled',
          sort: input.sort ?? 0,
          remark: input.remark ?? null,
          createdTime: clock.now(),
          createdBy: scope.actorId,
        });
        await replaceScopeDepartments(tx, id, departmentIds);
        await audit(tx, scope, 'RoleCreated', id, {
          roleCode: input.roleCode,
          roleName: input.roleName,
          dataScope: scopeName,
          departmentIds: departmentIds.map(String),
        });
      });
      // A new role has no holders yet: nothing cached depends on it.
      return roleDetailOf(db, scope.tenantId, id);
    },

    /**
     * `guardScope` runs when the data scope or its Custom departments would change, before
     * anything is written (the router refuses there what RoleDataScope refuses). Such a change is
     * audited as RoleDataScopeChanged, like RoleDataScope's; the other fields as RoleUpdated.
     */
    async update(scope: Scope, input: UpdateRoleInput, guardScope: () => void = () => {}) {
      assertCodeAllowed(input.roleCode);
      await db.transaction(async (tx) => {
        const current = await requireRole(tx, scope.tenantId, input.basicId);
        assertEditable(current);
        checkVersion(current, input.version);
        const { basicId: _id, version: _v, dataScope: askedScope, departmentIds: askedDepartments, ...fields } = input;
        const values: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(fields)) if (value !== undefined) values[key] = value;

        const scopeName = askedScope ?? current.dataScope;
        const touched = askedScope !== undefined || askedDepartments !== undefined;
        const held = touched ? await scopeDepartmentsOf(tx, current.id) : [];
        // Custom keeps its departments unless new ones are given; other scopes have none.
        const wanted =
          scopeName === 'Custom'
            ? askedDepartments
              ? [...new Set(askedDepartments)]
              : current.dataScope === 'Custom'
                ? held
                : []
            : [];
        const scopeChanged = touched && (scopeName !== current.dataScope || !sameIds(held, wanted));
        let departmentIds: bigint[] = [];
        if (scopeChanged) {
          guardScope();
          departmentIds = await requireDepartments(tx, scope.tenantId, wanted);
          values.dataScope = scopeName;
        }

        await updateVersioned(
          tx,
          roles,
          current.id,
          current.version,
          { ...values, modifiedTime: clock.now(), modifiedBy: scope.actorId },
          live(scope.tenantId),
        );
        const { dataScope: _scope, ...others } = values;
        if (scopeChanged) {
          await replaceScopeDepartments(tx, current.id, departmentIds);
          await audit(tx, scope, 'RoleDataScopeChanged', current.id, {
            roleCode: current.roleCode,
            from: current.dataScope,
            to: scopeName,
            departmentIds: departmentIds.map(String),
          });
        }
        // One entry per write: the scope change alone when nothing else was asked.
        if (!scopeChanged || Object.keys(others).length)
          await audit(tx, scope, 'RoleUpdated', current.id, { roleCode: current.roleCode, fields: fieldsOf(others) });
      });
      await invalidateGrants(deps, scope.tenantId);
      return roleDetailOf(db, scope.tenantId, input.basicId);
    },

    async setStatus(scope: Scope, id: bigint, status: string, version?: number) {
      await db.transaction(async (tx) => {
        const current = await requireRole(tx, scope.tenantId, id);
        assertEditable(current);
        checkVersion(current, version);
        await updateVersioned(
          tx,
          roles,
          id,
          current.version,
          { status, modifiedTime: clock.now(), modifiedBy: scope.actorId },
          live(scope.tenantId),
        );
        await audit(tx, scope, 'RoleStatusChanged', id, {
          roleCode: current.roleCode,
          from: current.status,
          to: status,
        });
      });
      await invalidateGrants(deps, scope.tenantId);
      return roleDetailOf(db, scope.tenantId, id);
    },

    /** Soft-deletes a role no user holds any more, and unlinks it from the inheritance graph. */
    async remove(scope: Scope, id: bigint): Promise<void> {
      await db.transaction(async (tx) => {
        await lockRoleGraph(tx, scope.tenantId);
        const current = await requireRole(tx, scope.tenantId, id);
        assertEditable(current);
        const [held] = await tx.select({ n: count() }).from(userRoles).where(eq(userRoles.roleId, id));
        if (held && held.n > 0)
          throw appError(roleErrors.IN_USE, { params: { name: current.roleName, count: held.n } });
        const now = clock.now();
        await updateVersioned(
          tx,
          roles,
          id,
          current.version,
          { isDeleted: true, deletedTime: now, deletedBy: scope.actorId, modifiedTime: now, modifiedBy: scope.actorId },
          live(scope.tenantId),
        );
        await tx
          .delete(roleInheritances)
          .where(or(eq(roleInheritances.roleId, id), eq(roleInheritances.parentRoleId, id)));
        await tx.delete(roleDataScopeDepartments).where(eq(roleDataScopeDepartments.roleId, id));
        await audit(tx, scope, 'RoleDeleted', id, { roleCode: current.roleCode, roleName: current.roleName });
      });
      await invalidateGrants(deps, scope.tenantId);
    },

    async detail(tenantId: bigint, id: bigint) {
      return roleDetailOf(db, tenantId, id);
    },

    async page(
      tenantId: bigint,
      request: PagedRequest,
      filters: { status?: string | null; roleType?: string | null; dataScope?: string | null },
      can: (code: string) => boolean,
    ) {
      const result = await roleList.run(db, {
        request,
        base: and(
          live(tenantId),
          filters.status ? eq(roles.status, filters.status) : undefined,
          filters.roleType ? eq(roles.roleType, filters.roleType) : undefined,
          filters.dataScope ? eq(roles.dataScope, filters.dataScope) : undefined,
        ),
        can,
        select: (q) => q.select().from(roles).$dynamic(),
      });
      // One lookup for the authors of the whole page.
      const authors = await authorsOf(db, result.items);
      return { ...result, items: result.items.map((r) => toRoleDetail(r, authors)) };
    },

    async enabled(tenantId: bigint) {
      const rows = await db
        .select({ id: roles.id, roleCode: roles.roleCode, roleName: roles.roleName, sort: roles.sort })
        .from(roles)
        .where(and(live(tenantId), eq(roles.status, 'Enabled')))
        .orderBy(asc(roles.sort), asc(roles.roleName), asc(roles.id));
      return rows.map((r) => ({ basicId: idOut(r.id), roleCode: r.roleCode, roleName: r.roleName, sort: r.sort }));
    },

    dataScope,

    /** Sets the data scope; a Custom scope sees exactly the given departments of the tenant. */
    async setDataScope(
      scope: Scope,
      input: { roleId: bigint; dataScope: string; departmentIds?: bigint[]; version?: number },
    ) {
      await db.transaction(async (tx) => {
        const current = await requireRole(tx, scope.tenantId, input.roleId);
        assertEditable(current);
        checkVersion(current, input.version);
        const departmentIds =
          input.dataScope === 'Custom' ? await requireDepartments(tx, scope.tenantId, input.departmentIds ?? []) : [];
        await updateVersioned(
          tx,
          roles,
          current.id,
          current.version,
          { dataScope: input.dataScope, modifiedTime: clock.now(), modifiedBy: scope.actorId },
          live(scope.tenantId),
        );
        await replaceScopeDepartments(tx, current.id, departmentIds);
        await audit(tx, scope, 'RoleDataScopeChanged', current.id, {
          roleCode: current.roleCode,
          from: current.dataScope,
          to: input.dataScope,
          departmentIds: departmentIds.map(String),
        });
      });
      await invalidateGrants(deps, scope.tenantId);
      return dataScope(scope.tenantId, input.roleId);
    },
  };
}

export type RoleService = ReturnType<typeof createRoleService>;
