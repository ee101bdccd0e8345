import { and, eq } from 'drizzle-orm';
import { departmentHierarchy, departments } from '../../../../db/schema/department.js';
import type { Executor } from '../../infra/db/client.js';
import { notDeleted } from '../../infra/db/predicates.js';

/**
 * Test support: the closure a tenant's tree must have, recomputed in TypeScript from the parent
 * pointers alone, and the closure the database holds, both as sorted lines so a mismatch shows
 * as a readable diff. Not used by the service.
 */

/** The part of a department the closure depends on. */
export interface TreeRow {
  id: bigint;
  parentId: bigint | null;
  departmentName: string;
}

/** One pair as a line: `ancestor>descendant depth path | pathName`. */
const line = (a: bigint, d: bigint, depth: number, path: string, pathName: string) =>
  `${a}>${d} ${depth} ${path} | ${pathName}`;

/**
 * Every (ancestor, descendant) pair of the rows, self pairs included. Throws on a cycle or on a
 * parent missing from the rows: either means the tree itself is broken.
 */
export function expectedClosure(rows: readonly TreeRow[]): string[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out: string[] = [];
  for (const row of rows) {
    const chain: TreeRow[] = [];
    for (let at: TreeRow | undefined = row; at; at = at.parentId === null ? undefined : byId.get(at.parentId)) {
      if (chain.includes(at)) throw new Error(`Cycle through department ${at.id}`);
      chain.push(at);
      if (at.parentId !== null && !byId.has(at.parentId))
        throw new Error(`Department ${at.id} has a missing parent ${at.parentId}`);
    }
    // chain: the row, its parent, ..., the root.
    const fromRoot = [...chain].reverse();
    const path = fromRoot.map((r) => r.id.toString()).join('/');
    const pathName = fromRoot.map((r) => r.departmentName).join('/');
    for (const [depth, ancestor] of chain.entries()) out.push(line(ancestor.id, row.id, depth, path, pathName));
  }
  return out.sort();
}

/** The live departments of a tenant (the parent pointers the closure must mirror). */
export async function readTreeRows(db: Executor, tenantId: bigint): Promise<TreeRow[]> {
  return db
    .select({ id: departments.id, parentId: departments.parentId, departmentName: departments.departmentName })
    .from(departments)
    .where(and(eq(departments.tenantId, tenantId), notDeleted(departments.isDeleted)));
}

/** The closure pairs the database holds for a tenant, as sorted lines. */
export async function readClosure(db: Executor, tenantId: bigint): Promise<string[]> {
  const rows = await db.select().from(departmentHierarchy).where(eq(departmentHierarchy.tenantId, tenantId));
  return rows.map((r) => line(r.ancestorId, r.descendantId, r.depth, r.path, r.pathName)).sort();
}

/** Both sides for one tenant: compare with `expect(actual).toEqual(expected)`. */
export async function closureOfTenant(
  db: Executor,
  tenantId: bigint,
): Promise<{ actual: string[]; expected: string[] }> {
  const [rows, actual] = await Promise.all([readTreeRows(db, tenantId), readClosure(db, tenantId)]);
  return { actual, expected: expectedClosure(rows) };
}
