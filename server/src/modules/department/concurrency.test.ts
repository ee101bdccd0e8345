import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../errors/app-error.js';
import { bootTestRuntime } from '../../testing/harness.js';
import { closureOfTenant } from './closure-oracle.js';
import { createDepartmentService, type DepartmentService } from './service.js';
import { createTestTenant } from '../../testing/auth-fixtures.js';
import type { Department } from './types.js';

/**
 * Races between tree writes. On PGlite (one connection) transactions are serialized anyway; the
 * run against PostgreSQL (DATABASE_URL) is the one where the per-tenant tree lock matters.
 */

let runtime: Awaited<ReturnType<typeof bootTestRuntime>>;
let service: DepartmentService;

beforeAll(async () => {
  runtime = await bootTestRuntime();
  service = createDepartmentService(runtime.deps);
});

afterAll(async () => {
  await runtime?.close();
});

/** The closure equals the recomputation; the oracle throws if the parent pointers hold a cycle. */
async function expectValidTree(tenantId: bigint) {
  const { actual, expected } = await closureOfTenant(runtime.deps.db, tenantId);
  expect(actual).toEqual(expected);
}

const outcome = (r: PromiseSettledResult<unknown>) =>
  r.status === 'fulfilled' ? 'ok' : isAppError(r.reason) ? r.reason.definition.name : String(r.reason);

describe('department tree races', () => {
  it('lets only one of two crossing moves (A under B, B under A) succeed', async () => {
    const tenantId = await createTestTenant(runtime.deps);
    for (let round = 0; round < 10; round++) {
      const root = await service.create({ tenantId, departmentName: `Root ${round}` });
      const a = await service.create({ tenantId, parentId: root.id, departmentName: `A ${round}` });
      const b = await service.create({ tenantId, parentId: root.id, departmentName: `B ${round}` });
      // Odd rounds go through deeper nodes: A under B's child, B under A's child.
      const a1 = await service.create({ tenantId, parentId: a.id, departmentName: `A1 ${round}` });
      const b1 = await service.create({ tenantId, parentId: b.id, departmentName: `B1 ${round}` });
      const [intoB, intoA] = round % 2 === 0 ? [b.id, a.id] : [b1.id, a1.id];

      const results = await Promise.allSettled([
        service.move(tenantId, a.id, intoB),
        service.move(tenantId, b.id, intoA),
      ]);
      expect(results.map(outcome).sort(), `round ${round}`).toEqual(['department.PARENT_IS_DESCENDANT', 'ok']);
      await expectValidTree(tenantId);
    }
  });

  it('keeps a valid tree under many concurrent moves of the same nodes', async () => {
    const tenantId = await createTestTenant(runtime.deps);
    const nodes: Department[] = [];
    for (let i = 0; i < 8; i++) nodes.push(await service.create({ tenantId, departmentName: `N${i}` }));
    // Every ordered pair: each move is valid alone, many together would close cycles.
    const moves = nodes.flatMap((x, i) =>
      nodes.filter((_, j) => j !== i && (i + j) % 3 !== 0).map((y) => [x.id, y.id] as const),
    );
    const results = await Promise.allSettled(moves.map(([x, y]) => service.move(tenantId, x, y)));
    const outcomes = new Set(results.map(outcome));
    expect(
      [...outcomes].every((o) => ['ok', 'department.PARENT_IS_DESCENDANT'].includes(o)),
      [...outcomes].join(),
    ).toBe(true);
    expect(outcomes.has('ok')).toBe(true);
    await expectValidTree(tenantId);
  });

  it('never leaves a child under a department deleted at the same time', async () => {
    const tenantId = await createTestTenant(runtime.deps);
    for (let round = 0; round < 6; round++) {
      const parent = await service.create({ tenantId, departmentName: `Parent ${round}` });
      const results = await Promise.allSettled([
        service.remove(tenantId, parent.id),
        service.create({ tenantId, parentId: parent.id, departmentName: `Child ${round}` }),
      ]);
      expect([
        ['ok', 'department.PARENT_NOT_FOUND'],
        ['department.HAS_CHILDREN', 'ok'],
      ]).toContainEqual(results.map(outcome));
      await expectValidTree(tenantId);
    }
  });
});
