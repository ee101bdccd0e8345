import type { Department, DepartmentNode } from './types.js';

/**
 * Sibling order: `sort`, then name, then id so equal entries still come out the same way every
 * time. Names compare by code unit, not by the database's collation (PGlite and PostgreSQL may
 * differ) nor by a locale (the caller's language must not reorder the tree).
 */
export function compareSiblings(a: Department, b: Department): number {
  if (a.sort !== b.sort) return a.sort - b.sort;
  if (a.departmentName !== b.departmentName) return a.departmentName < b.departmentName ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Nests departments under their parents. A department whose parent is not among `rows` is
 * listed as a root, so a subtree or a list with a gap still shows every row once.
 */
export function buildTree(rows: readonly Department[]): DepartmentNode[] {
  const nodes = new Map<bigint, DepartmentNode>();
  for (const row of [...rows].sort(compareSiblings)) nodes.set(row.id, { ...row, children: [] });
  const roots: DepartmentNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}
