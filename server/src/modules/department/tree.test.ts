import { describe, expect, it } from 'vitest';
import { buildTree } from './tree.js';
import type { Department } from './types.js';

const row = (id: bigint, parentId: bigint | null, departmentName: string, sort = 0) =>
  ({ id, parentId, departmentName, sort }) as Department;

describe('buildTree', () => {
  it('nests by parent and orders siblings by sort, name, then id', () => {
    const tree = buildTree([
      row(5n, null, 'b'),
      row(4n, null, 'b'),
      row(3n, null, 'a', 1),
      row(2n, 5n, 'Z'),
      row(1n, 5n, 'y', -1),
    ]);
    expect(tree.map((n) => n.id)).toEqual([4n, 5n, 3n]);
    expect(tree[1]!.children.map((n) => n.id)).toEqual([1n, 2n]);
  });

  it('lists a department whose parent is not among the rows as a root', () => {
    expect(buildTree([row(2n, 9n, 'orphan')]).map((n) => n.id)).toEqual([2n]);
  });
});
