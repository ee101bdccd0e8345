import { and, asc, desc, eq, gt } from 'drizzle-orm';
import { departmentHierarchy, departments } from '../../../../db/schema/department.js';
import { appError } from '../../errors/app-error.js';
import type { Database, Executor } from '../../infra/db/client.js';
import { departmentErrors } from './errors.js';
import { buildTree } from './tree.js';
import type { Department, DepartmentNode } from './types.js';
import { notDeleted } from '../../infra/db/predicates.js';

/** A live (not deleted) department of the tenant, or undefined: another tenant's is never found. */
export async function findDepartment(db: Executor, tenantId: bigint, id: bigint): Promise<Department | undefined> {
  const [row] = await db
    .select()
    .from(departments)
    .where(and(eq(departments.tenantId, tenantId), eq(departments.id, id), notDeleted(departments.isDeleted)));
  return row;
}

/** Like findDepartment, but a missing department is a 404. */
export async function requireDepartment(db: Executor, tenantId: bigint, id: bigint): Promise<Department> {
  const row = await findDepartment(db, tenantId, id);
  if (!row) throw appError(departmentErrors.NOT_FOUND, { params: { id: id.toString() } });
  return row;
}

/** Whether `candidateId` is `rootId` or lies below it (read from the closure). */
export async function isInSubtree(
  db: Executor,
  tenantId: bigint,
  rootId: bigint,
  candidateId: bigint,
): Promise<boolean> {
  const [row] = await db
    .select({ depth: departmentHierarchy.depth })
    .from(departmentHierarchy)
    .where(
      and(
        eq(departmentHierarchy.tenantId, tenantId),
        eq(departmentHierarchy.ancestorId, rootId),
        eq(departmentHierarchy.descendantId, candidateId),
      ),
    );
  return row !== undefined;
}

/** Options of the closure reads. */
export interface ClosureReadOptions {
  /** Include the department itself (depth 0). Default false. */
  includeSelf?: boolean;
}

/** The read side of the service: no locks, every query scoped by tenant. */
export function createDepartmentReads(db: Database) {
  return {
    /** One live department of the tenant; 404 when absent, deleted or another tenant's. */
    get(tenantId: bigint, id: bigint): Promise<Department> {
      return requireDepartment(db, tenantId, id);
    },

    /** Every live department of the tenant, nested, siblings ordered by sort, then name. */
    async tree(tenantId: bigint): Promise<DepartmentNode[]> {
      const rows = await db
        .select()
        .from(departments)
        .where(and(eq(departments.tenantId, tenantId), notDeleted(departments.isDeleted)));
      return buildTree(rows);
    },

    /**
     * Ids of the departments below `id`, nearest first (with `includeSelf`, `id` comes first):
     * what a data scope of "own department and below" filters on. 404 when `id` is not a live
     * department of the tenant, so a stale id in a scope is noticed rather than read as empty.
     */
    async descendantIds(tenantId: bigint, id: bigint, options: ClosureReadOptions = {}): Promise<bigint[]> {
      const rows = await db
        .select({ id: departmentHierarchy.descendantId, depth: departmentHierarchy.depth })
        .from(departmentHierarchy)
        .where(and(eq(departmentHierarchy.tenantId, tenantId), eq(departmentHierarchy.ancestorId, id)))
        .orderBy(asc(departmentHierarchy.depth), asc(departmentHierarchy.descendantId));
      // The self pair exists exactly while the department is live: no second query to tell.
      if (rows.length === 0) throw appError(departmentErrors.NOT_FOUND, { params: { id: id.toString() } });
      return rows.filter((r) => options.includeSelf || r.depth > 0).map((r) => r.id);
    },

    /** The departments above `id`, from the root down to its parent (then itself with `includeSelf`). */
    async ancestors(tenantId: bigint, id: bigint, options: ClosureReadOptions = {}): Promise<Department[]> {
      await requireDepartment(db, tenantId, id);
      const rows = await db
        .select({ department: departments })
        .from(departmentHierarchy)
        .innerJoin(
          departments,
          and(eq(departments.id, departmentHierarchy.ancestorId), eq(departments.tenantId, tenantId)),
        )
        .where(
          and(
            eq(departmentHierarchy.tenantId, tenantId),
            eq(departmentHierarchy.descendantId, id),
            options.includeSelf ? undefined : gt(departmentHierarchy.depth, 0),
          ),
        )
        .orderBy(desc(departmentHierarchy.depth));
      return rows.map((r) => r.department);
    },
  };
}

/** The read operations, as the service exposes them. */
export type DepartmentReads = ReturnType<typeof createDepartmentReads>;
