import { and, asc, desc, eq, ne } from 'drizzle-orm';
import { departments, positions, userDepartments } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import { appError } from '../../errors/app-error.js';
import type { Executor } from '../../infra/db/client.js';
import type { CallContext } from '../../rpc/call-context.js';
import { actorOf, auditChange } from '../audit/change.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { userErrors } from './errors.js';
import { callerScope, departmentInScope, type CallerScope } from './scope.js';
import { requirePosition, requireScopedDepartment, requireVisibleUser } from './service.js';
import { notDeleted } from '../../infra/db/predicates.js';

/**
 * Department assignment (UserDepartment): a user of the context in a department of the context,
 * with an optional position, employee number, grade and entry date. A user has at most one main
 * department per tenant: making one main clears the others in the same transaction, and the
 * first department a user gets is main. Departments outside the caller's data scope cannot be
 * given or taken (they are missing, 404).
 */

type Ctx = CallContext & { auth: AuthContext };

interface Fields {
  isMain?: boolean | null;
  positionId?: bigint | null;
  employeeNumber?: string | null;
  grade?: string | null;
  entryDate?: string | null;
}

export function createUserDepartmentService(
  deps: Pick<AppDeps, 'db' | 'ids' | 'clock'> & { authz: AuthorizationService },
) {
  const { db, ids, clock } = deps;

  const audit = (tx: Executor, ctx: Ctx, userId: bigint, assignmentId: bigint, detail: Record<string, unknown>) =>
    auditChange(
      tx,
      deps,
      actorOf(ctx),
      'UserDepartmentChanged',
      { type: 'UserDepartment', id: assignmentId, userId },
      detail,
    );

  /** Clears the main flag of the user's other departments in the context. */
  const clearMain = (tx: Executor, tenantId: bigint, userId: bigint, except: bigint) =>
    tx
      .update(userDepartments)
      .set({ isMain: false })
      .where(
        and(
          eq(userDepartments.tenantId, tenantId),
          eq(userDepartments.userId, userId),
          eq(userDepartments.isMain, true),
          ne(userDepartments.id, except),
        ),
      );

  /** An assignment of the context, of a user the caller sees, in a department of its scope; or 404. */
  async function requireAssignment(scope: CallerScope, id: bigint) {
    const [row] = await db
      .select()
      .from(userDepartments)
      .where(and(eq(userDepartments.id, id), eq(userDepartments.tenantId, scope.tenantId)));
    const visible =
      row &&
      departmentInScope(scope, row.departmentId) &&
      (await requireVisibleUser(db, scope, row.userId).then(
        () => true,
        () => false,
      ));
    if (!row || !visible) throw appError(userErrors.USER_DEPARTMENT_NOT_FOUND, { params: { id: String(id) } });
    return row;
  }

  return {
    /** GET /api/UserDepartment/UserDepartments?userId=: the user's departments in the context, main first. */
    async list(ctx: Ctx, userId: bigint) {
      const scope = await callerScope(deps, ctx.auth);
      await requireVisibleUser(db, scope, userId);
      const rows = await db
        .select({
          a: userDepartments,
          departmentName: departments.departmentName,
          positionName: positions.positionName,
        })
        .from(userDepartments)
        .innerJoin(
          departments,
          and(eq(departments.id, userDepartments.departmentId), notDeleted(departments.isDeleted)),
        )
        .leftJoin(positions, and(eq(positions.id, userDepartments.positionId), notDeleted(positions.isDeleted)))
        .where(and(eq(userDepartments.userId, userId), eq(userDepartments.tenantId, scope.tenantId)))
        .orderBy(desc(userDepartments.isMain), asc(departments.departmentName));
      return rows.map(({ a, departmentName, positionName }) => ({
        basicId: String(a.id),
        userId: String(a.userId),
        departmentId: String(a.departmentId),
        departmentName,
        isMain: a.isMain,
        positionId: a.positionId === null ? null : String(a.positionId),
        positionName,
        employeeNumber: a.employeeNumber,
        grade: a.grade,
        entryDate: a.entryDate,
        createdTime: a.createdTime,
      }));
    },

    /** POST /api/UserDepartment/UserDepartment: puts the user in a department (409 when already in it). */
    async add(ctx: Ctx, input: { userId: bigint; departmentId: bigint } & Fields): Promise<bigint> {
      const scope = await callerScope(deps, ctx.auth);
      const T = scope.tenantId;
      const user = await requireVisibleUser(db, scope, input.userId);
      const department = await requireScopedDepartment(db, scope, input.departmentId);
      if (input.positionId) await requirePosition(db, T, input.positionId);
      const id = ids.next();
      await db.transaction(async (tx) => {
        const mine = await tx
          .select({
            id: userDepartments.id,
            departmentId: userDepartments.departmentId,
            isMain: userDepartments.isMain,
          })
          .from(userDepartments)
          .where(and(eq(userDepartments.tenantId, T), eq(userDepartments.userId, user.id)));
        if (mine.some((m) => m.departmentId === department.id))
          throw appError(userErrors.USER_DEPARTMENT_EXISTS, { params: { departmentName: department.departmentName } });
        const isMain = input.isMain === true || !mine.some((m) => m.isMain);
        if (isMain) await clearMain(tx, T, user.id, id);
        await tx.insert(userDepartments).values({
          id,
          tenantId: T,
          userId: user.id,
          departmentId: department.id,
          isMain,
          positionId: input.positionId ?? null,
          employeeNumber: input.employeeNumber ?? null,
          grade: input.grade ?? null,
          entryDate: input.entryDate ?? null,
          createdTime: clock.now(),
          createdBy: ctx.auth.userId,
        });
        await audit(tx, ctx, user.id, id, { added: String(department.id), isMain });
      });
      return id;
    },

    /** PUT /api/UserDepartment/UserDepartment: position, numbers, dates, and the main flag. */
    async update(ctx: Ctx, input: { basicId: bigint } & Fields): Promise<void> {
      const scope = await callerScope(deps, ctx.auth);
      const row = await requireAssignment(scope, input.basicId);
      if (input.positionId) await requirePosition(db, scope.tenantId, input.positionId);
      const values: Record<string, unknown> = { modifiedTime: clock.now(), modifiedBy: ctx.auth.userId };
      for (const key of ['positionId', 'employeeNumber', 'grade', 'entryDate'] as const)
        if (input[key] !== undefined) values[key] = input[key];
      // Only a department can be made main here; unsetting the only main one leaves none.
      if (input.isMain !== undefined && input.isMain !== null) values.isMain = input.isMain;
      await db.transaction(async (tx) => {
        if (input.isMain === true) await clearMain(tx, scope.tenantId, row.userId, row.id);
        await tx.update(userDepartments).set(values).where(eq(userDepartments.id, row.id));
        await audit(tx, ctx, row.userId, row.id, {
          changed: String(row.departmentId),
          fields: Object.keys(values).filter((k) => k !== 'modifiedTime' && k !== 'modifiedBy'),
        });
      });
    },

    /** DELETE /api/UserDepartment/UserDepartment?id=: takes the user out of the department. */
    async remove(ctx: Ctx, id: bigint): Promise<void> {
      const scope = await callerScope(deps, ctx.auth);
      const row = await requireAssignment(scope, id);
      await db.transaction(async (tx) => {
        await tx.delete(userDepartments).where(eq(userDepartments.id, row.id));
        await audit(tx, ctx, row.userId, row.id, { removed: String(row.departmentId), wasMain: row.isMain });
      });
    },
  };
}
