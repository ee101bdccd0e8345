import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commonErrors } from '../../errors/common.js';
import { bootTestRuntime } from '../../testing/harness.js';
import { closureOfTenant, readTreeRows } from './closure-oracle.js';
import { departmentErrors } from './errors.js';
import { createDepartmentService, type DepartmentService } from './service.js';
import { createTestTenant } from '../../testing/auth-fixtures.js';
import { expectAppError } from './test-fixtures.js';

/**
 * Property: whatever sequence of adds, moves, renames and deletes (valid or refused) the tree
 * goes through, the closure table equals the one recomputed from the parent pointers, and the
 * parent pointers equal those of an in-memory model that applied the same operations.
 *
 * The seed is random per run and part of the test name; rerun a failure with
 * DEPARTMENT_PROPERTY_SEED=<seed>.
 */
const SEED = Number(process.env.DEPARTMENT_PROPERTY_SEED ?? randomInt(2 ** 31));
const STEPS = 220;

/** mulberry32: small, fast, and the same sequence for the same seed on every platform. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

interface ModelRow {
  parentId: bigint | null;
  name: string;
  version: number;
}

const NAME_PARTS = ['Sales', '研发部', 'R&D', 'Ops/IT', 'Zweigstelle Köln', '営業', '😀 Team', 'a', 'विभाग', '東區'];

let runtime: Awaited<ReturnType<typeof bootTestRuntime>>;
let service: DepartmentService;

beforeAll(async () => {
  runtime = await bootTestRuntime();
  service = createDepartmentService(runtime.deps);
});

afterAll(async () => {
  await runtime?.close();
});

describe('department closure property', () => {
  it(`matches the closure recomputed from the parent pointers after every operation (seed ${SEED})`, {
    timeout: 60_000,
  }, async () => {
    const rng = prng(SEED);
    const tenantId = await createTestTenant(runtime.deps);
    const model = new Map<bigint, ModelRow>();
    const ids = () => [...model.keys()];
    const childrenOf = (id: bigint) => ids().filter((c) => model.get(c)!.parentId === id);
    const subtree = (id: bigint): bigint[] => [id, ...childrenOf(id).flatMap(subtree)];
    const newName = () => `${rng.pick(NAME_PARTS)} ${rng.int(1000)}`;
    const counts: Record<string, number> = {};

    const check = async (label: string) => {
      const context = `seed ${SEED}, ${label}`;
      const rows = await readTreeRows(runtime.deps.db, tenantId);
      const actual = new Map(rows.map((r) => [r.id, `${r.parentId} ${r.departmentName}`]));
      const expected = new Map(ids().map((id) => [id, `${model.get(id)!.parentId} ${model.get(id)!.name}`]));
      expect(actual, context).toEqual(expected);
      const closure = await closureOfTenant(runtime.deps.db, tenantId);
      expect(closure.actual, context).toEqual(closure.expected);
    };

    const add = async () => {
      const parentId = model.size === 0 || rng.next() < 0.1 ? null : rng.pick(ids());
      const name = newName();
      const row = await service.create({ tenantId, parentId, departmentName: name });
      model.set(row.id, { parentId, name, version: 0 });
    };

    const size = 40 + rng.int(41);
    for (let i = 0; i < size; i++) await add();
    await check(`after building ${size} departments`);

    for (let step = 0; step < STEPS; step++) {
      const roll = rng.next();
      const id = rng.pick(ids());
      const row = model.get(id)!;
      let op: string;
      if (roll < 0.15 || model.size < 5) {
        op = 'add';
        await add();
      } else if (roll < 0.45) {
        op = 'move';
        const inside = new Set(subtree(id));
        const target = rng.next() < 0.15 ? null : rng.pick([null, ...ids().filter((c) => !inside.has(c))]);
        // Half the moves carry the version the caller read, half go without.
        const moved = await service.move(tenantId, id, target, rng.next() < 0.5 ? row.version : undefined);
        expect(moved.parentId, `seed ${SEED}`).toBe(target);
        model.set(id, { ...row, parentId: target, version: row.version + 1 });
      } else if (roll < 0.57) {
        op = 'move into own subtree';
        const target = rng.pick(subtree(id));
        await expectAppError(
          service.move(tenantId, id, target),
          target === id ? departmentErrors.PARENT_IS_SELF : departmentErrors.PARENT_IS_DESCENDANT,
        );
      } else if (roll < 0.72) {
        op = 'rename';
        const name = newName();
        await service.update({ tenantId, id, departmentName: name, expectedVersion: row.version });
        model.set(id, { ...row, name, version: row.version + 1 });
      } else if (roll < 0.87) {
        op = 'delete leaf';
        const leaves = ids().filter((c) => childrenOf(c).length === 0);
        const leaf = rng.pick(leaves);
        await service.remove(tenantId, leaf);
        model.delete(leaf);
      } else if (roll < 0.95) {
        op = 'delete parent';
        const parents = ids().filter((c) => childrenOf(c).length > 0);
        if (parents.length > 0)
          await expectAppError(service.remove(tenantId, rng.pick(parents)), departmentErrors.HAS_CHILDREN);
      } else {
        op = 'stale update';
        const target = rng.pick([null, ...ids()]);
        await expectAppError(
          service.update({ tenantId, id, parentId: target, departmentName: 'never', expectedVersion: row.version + 1 }),
          commonErrors.VERSION_CONFLICT,
        );
      }
      counts[op] = (counts[op] ?? 0) + 1;
      await check(`step ${step} (${op} of ${id})`);
    }
    // Every kind of operation ran (a seed that skips one would prove less than it claims).
    expect(Object.keys(counts).sort(), `seed ${SEED}: ${JSON.stringify(counts)}`).toEqual(
      ['add', 'delete leaf', 'delete parent', 'move', 'move into own subtree', 'rename', 'stale update'].sort(),
    );
  });
});
