import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departmentHierarchy, departments } from '../../../../db/schema/department.js';
import { commonErrors } from '../../errors/common.js';
import { translate } from '../../i18n/messages.js';
import { bootTestRuntime } from '../../testing/harness.js';
import { closureOfTenant, readClosure } from './closure-oracle.js';
import { departmentErrors } from './errors.js';
import { createDepartmentService, type DepartmentService } from './service.js';
import { createTestTenant } from '../../testing/auth-fixtures.js';
import { expectAppError } from './test-fixtures.js';

let runtime: Awaited<ReturnType<typeof bootTestRuntime>>;
let service: DepartmentService;
let tenantId: bigint;

beforeAll(async () => {
  runtime = await bootTestRuntime();
  service = createDepartmentService(runtime.deps);
  tenantId = await createTestTenant(runtime.deps);
});

afterAll(async () => {
  await runtime?.close();
});

/** The pairs whose descendant is `id`, nearest ancestor first. */
async function pairsOf(id: bigint) {
  const rows = await runtime.deps.db
    .select()
    .from(departmentHierarchy)
    .where(and(eq(departmentHierarchy.tenantId, tenantId), eq(departmentHierarchy.descendantId, id)));
  return rows
    .sort((a, b) => a.depth - b.depth)
    .map((r) => ({ ancestorId: r.ancestorId, depth: r.depth, path: r.path, pathName: r.pathName }));
}

async function expectConsistent() {
  const { actual, expected } = await closureOfTenant(runtime.deps.db, tenantId);
  expect(actual).toEqual(expected);
}

/** Rows and closure of the tenant, to show a refused write changed nothing. */
async function snapshot() {
  const rows = await runtime.deps.db.select().from(departments).where(eq(departments.tenantId, tenantId));
  return { rows: rows.sort((a, b) => (a.id < b.id ? -1 : 1)), closure: await readClosure(runtime.deps.db, tenantId) };
}

const add = (departmentName: string, parentId: bigint | null = null, sort = 0) =>
  service.create({ tenantId, parentId, departmentName, sort, actorId: 7n });

describe('department closure', () => {
  it('adds the self pair at depth 0 and one pair per ancestor, with path and pathName', async () => {
    const root = await add('Head office');
    const sales = await add('Sales', root.id);
    const east = await add('Sales East', sales.id);
    expect(east).toMatchObject({
      tenantId,
      parentId: sales.id,
      departmentName: 'Sales East',
      version: 0,
      createdBy: 7n,
      isDeleted: false,
    });
    const path = `${root.id}/${sales.id}/${east.id}`;
    const pathName = 'Head office/Sales/Sales East';
    expect(await pairsOf(east.id)).toEqual([
      { ancestorId: east.id, depth: 0, path, pathName },
      { ancestorId: sales.id, depth: 1, path, pathName },
      { ancestorId: root.id, depth: 2, path, pathName },
    ]);
    expect(await pairsOf(root.id)).toEqual([
      { ancestorId: root.id, depth: 0, path: `${root.id}`, pathName: 'Head office' },
    ]);
    await expectConsistent();
  });

  it('moves a whole subtree: the old ancestor pairs go, the new ones come, paths follow', async () => {
    const root = await add('Root M');
    const x = await add('X', root.id);
    const y = await add('Y', root.id);
    const a = await add('A', x.id);
    const a1 = await add('A1', a.id);
    const a2 = await add('A2', a1.id);

    const moved = await service.move(tenantId, a.id, y.id, a.version, 9n);
    expect(moved).toMatchObject({ parentId: y.id, version: a.version + 1, modifiedBy: 9n });
    expect(await service.descendantIds(tenantId, x.id)).toEqual([]);
    expect(await pairsOf(a2.id)).toEqual([
      {
        ancestorId: a2.id,
        depth: 0,
        path: `${root.id}/${y.id}/${a.id}/${a1.id}/${a2.id}`,
        pathName: 'Root M/Y/A/A1/A2',
      },
      {
        ancestorId: a1.id,
        depth: 1,
        path: `${root.id}/${y.id}/${a.id}/${a1.id}/${a2.id}`,
        pathName: 'Root M/Y/A/A1/A2',
      },
      {
        ancestorId: a.id,
        depth: 2,
        path: `${root.id}/${y.id}/${a.id}/${a1.id}/${a2.id}`,
        pathName: 'Root M/Y/A/A1/A2',
      },
      {
        ancestorId: y.id,
        depth: 3,
        path: `${root.id}/${y.id}/${a.id}/${a1.id}/${a2.id}`,
        pathName: 'Root M/Y/A/A1/A2',
      },
      {
        ancestorId: root.id,
        depth: 4,
        path: `${root.id}/${y.id}/${a.id}/${a1.id}/${a2.id}`,
        pathName: 'Root M/Y/A/A1/A2',
      },
    ]);
    await expectConsistent();

    // To the top level: only the subtree's own pairs remain.
    await service.move(tenantId, a.id, null);
    expect((await pairsOf(a1.id)).map((p) => [p.ancestorId, p.depth, p.pathName])).toEqual([
      [a1.id, 0, 'A/A1'],
      [a.id, 1, 'A/A1'],
    ]);
    expect(await service.descendantIds(tenantId, root.id)).toEqual([x.id, y.id].sort((p, q) => (p < q ? -1 : 1)));
    await expectConsistent();
  });

  it('renames: the pathName of the whole subtree follows, other departments keep theirs', async () => {
    const root = await add('Root R');
    const a = await add('Old', root.id);
    const b = await add('B', a.id);
    const c = await add('C', b.id);
    const sibling = await add('Sibling', root.id);
    const before = await pairsOf(sibling.id);

    const renamed = await service.update({ tenantId, id: a.id, departmentName: '  New / 新  ', expectedVersion: 0 });
    expect(renamed).toMatchObject({ departmentName: 'New / 新', version: 1 });
    expect((await pairsOf(c.id)).map((p) => p.pathName)).toEqual([
      'Root R/New / 新/B/C',
      'Root R/New / 新/B/C',
      'Root R/New / 新/B/C',
      'Root R/New / 新/B/C',
    ]);
    expect((await pairsOf(b.id))[0]!.pathName).toBe('Root R/New / 新/B');
    expect(await pairsOf(sibling.id)).toEqual(before);
    await expectConsistent();

    // Rename and move in one update.
    await service.update({ tenantId, id: b.id, departmentName: 'B2', parentId: sibling.id });
    expect((await pairsOf(c.id))[0]).toMatchObject({
      path: `${root.id}/${sibling.id}/${b.id}/${c.id}`,
      pathName: 'Root R/Sibling/B2/C',
    });
    await expectConsistent();
  });

  it('deletes a leaf softly and drops its pairs; refuses a department that still has children', async () => {
    const root = await add('Root D');
    const mid = await add('Mid', root.id);
    const leaf = await add('Leaf', mid.id);

    const before = await snapshot();
    const refused = await expectAppError(service.remove(tenantId, mid.id, 5n), departmentErrors.HAS_CHILDREN);
    expect(refused?.definition.status).toBe(422);
    expect(refused?.params).toEqual({ name: 'Mid', count: 1 });
    expect(await snapshot()).toEqual(before);

    await service.remove(tenantId, leaf.id, 5n);
    const [row] = await runtime.deps.db.select().from(departments).where(eq(departments.id, leaf.id));
    expect(row).toMatchObject({ isDeleted: true, deletedBy: 5n, version: 1 });
    expect(row?.deletedTime).toBeInstanceOf(Date);
    expect(await pairsOf(leaf.id)).toEqual([]);
    expect(await service.descendantIds(tenantId, root.id, { includeSelf: true })).toEqual([root.id, mid.id]);
    await expectAppError(service.get(tenantId, leaf.id), departmentErrors.NOT_FOUND);
    await expectAppError(service.remove(tenantId, leaf.id), departmentErrors.NOT_FOUND);
    await expectAppError(
      service.create({ tenantId, parentId: leaf.id, departmentName: 'Under deleted' }),
      departmentErrors.PARENT_NOT_FOUND,
    );

    // Once the child is gone the parent can go.
    await service.remove(tenantId, mid.id);
    await expectConsistent();
  });

  it('refuses a move under the department itself or under one of its descendants, changing nothing', async () => {
    const root = await add('Root C');
    const a = await add('Alpha', root.id);
    const b = await add('Beta', a.id);
    const c = await add('Gamma', b.id);
    const before = await snapshot();

    const self = await expectAppError(service.move(tenantId, a.id, a.id), departmentErrors.PARENT_IS_SELF);
    expect(self?.definition.status).toBe(422);
    const child = await expectAppError(service.move(tenantId, a.id, b.id), departmentErrors.PARENT_IS_DESCENDANT);
    expect(child?.params).toEqual({ name: 'Alpha', parentName: 'Beta' });
    await expectAppError(service.move(tenantId, a.id, c.id), departmentErrors.PARENT_IS_DESCENDANT);
    // A refused move inside an update takes the rest of the update down with it.
    await expectAppError(
      service.update({ tenantId, id: root.id, departmentName: 'Renamed', parentId: c.id }),
      departmentErrors.PARENT_IS_DESCENDANT,
    );
    expect(await snapshot()).toEqual(before);

    expect(translate('en-US', child!.definition.messageKey, child!.params)).toBe(
      'Department "Alpha" cannot be moved under "Beta", which is one of its own sub-departments.',
    );
    expect(translate('zh-CN', child!.definition.messageKey, child!.params)).toBe(
      '不能将部门“Alpha”移动到其下级部门“Beta”之下。',
    );
  });

  it('answers 409 to a stale version and 404 to a missing parent or department', async () => {
    const root = await add('Root V');
    const a = await add('Versioned', root.id);
    await service.update({ tenantId, id: a.id, remark: 'first', expectedVersion: 0 });
    const before = await snapshot();
    const stale = await expectAppError(
      service.update({ tenantId, id: a.id, remark: 'second', expectedVersion: 0 }),
      commonErrors.VERSION_CONFLICT,
    );
    expect(stale?.definition.status).toBe(409);
    await expectAppError(service.move(tenantId, a.id, null, 0), commonErrors.VERSION_CONFLICT);
    await expectAppError(service.remove(tenantId, a.id, null, 0), commonErrors.VERSION_CONFLICT);
    expect(await snapshot()).toEqual(before);

    const missing = runtime.deps.ids.next();
    await expectAppError(
      service.create({ tenantId, parentId: missing, departmentName: 'Orphan' }),
      departmentErrors.PARENT_NOT_FOUND,
    );
    await expectAppError(service.move(tenantId, a.id, missing), departmentErrors.PARENT_NOT_FOUND);
    await expectAppError(service.update({ tenantId, id: missing, remark: 'x' }), departmentErrors.NOT_FOUND);
    await expectAppError(service.descendantIds(tenantId, missing), departmentErrors.NOT_FOUND);
    await expectAppError(service.ancestors(tenantId, missing), departmentErrors.NOT_FOUND);
    await expectAppError(service.create({ tenantId, departmentName: '   ' }), departmentErrors.NAME_INVALID);
    await expectAppError(service.create({ tenantId, departmentName: 'x'.repeat(129) }), departmentErrors.NAME_INVALID);
    expect(await snapshot()).toEqual(before);
  });

  it('keeps the other fields on update and clears the ones set to null', async () => {
    const a = await service.create({
      tenantId,
      departmentName: 'Fields',
      departmentCode: 'F-1',
      phone: '123',
      email: 'f@example.com',
      leaderId: 42n,
      status: 'Enabled',
    });
    const updated = await service.update({ tenantId, id: a.id, phone: null, status: 'Disabled' });
    expect(updated).toMatchObject({
      departmentCode: 'F-1',
      phone: null,
      email: 'f@example.com',
      leaderId: 42n,
      status: 'Disabled',
      version: 1,
    });
  });

  it('lists the tree nested, siblings by sort then name; reads ancestors root first', async () => {
    const own = await createTestTenant(runtime.deps);
    const mk = (departmentName: string, parentId: bigint | null, sort = 0) =>
      service.create({ tenantId: own, parentId, departmentName, sort });
    const top = await mk('Top', null);
    const second = await mk('Second root', null, 1);
    await mk('b', top.id);
    await mk('a', top.id);
    const last = await mk('z first by sort', top.id, -1);
    const deep = await mk('deep', last.id);

    const tree = await service.tree(own);
    const shape = (nodes: typeof tree): unknown[] =>
      nodes.map((n) => (n.children.length ? [n.departmentName, shape(n.children)] : n.departmentName));
    expect(shape(tree)).toEqual([['Top', [['z first by sort', ['deep']], 'a', 'b']], 'Second root']);
    expect(tree[1]!.id).toBe(second.id);

    expect((await service.ancestors(own, deep.id)).map((d) => d.departmentName)).toEqual(['Top', 'z first by sort']);
    expect((await service.ancestors(own, deep.id, { includeSelf: true })).map((d) => d.id)).toEqual([
      top.id,
      last.id,
      deep.id,
    ]);
    expect(await service.descendantIds(own, last.id, { includeSelf: true })).toEqual([last.id, deep.id]);
    expect(await service.tree(runtime.deps.ids.next())).toEqual([]);
  });
});
