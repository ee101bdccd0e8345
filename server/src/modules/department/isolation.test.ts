import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departments } from '../../../../db/schema/department.js';
import { bootTestRuntime } from '../../testing/harness.js';
import { closureOfTenant, readClosure } from './closure-oracle.js';
import { departmentErrors } from './errors.js';
import { createDepartmentService, type DepartmentService } from './service.js';
import { createTestTenant } from '../../testing/auth-fixtures.js';
import { expectAppError } from './test-fixtures.js';

let runtime: Awaited<ReturnType<typeof bootTestRuntime>>;
let service: DepartmentService;

beforeAll(async () => {
  runtime = await bootTestRuntime();
  service = createDepartmentService(runtime.deps);
});

afterAll(async () => {
  await runtime?.close();
});

async function snapshot(tenantId: bigint) {
  const rows = await runtime.deps.db.select().from(departments).where(eq(departments.tenantId, tenantId));
  return { rows: rows.sort((a, b) => (a.id < b.id ? -1 : 1)), closure: await readClosure(runtime.deps.db, tenantId) };
}

describe('department tenant isolation', () => {
  it("treats another tenant's departments as missing and never touches its closure", async () => {
    const a = await createTestTenant(runtime.deps);
    const b = await createTestTenant(runtime.deps);
    const bRoot = await service.create({ tenantId: b, departmentName: 'B root' });
    const bChild = await service.create({ tenantId: b, parentId: bRoot.id, departmentName: 'B child' });
    const aRoot = await service.create({ tenantId: a, departmentName: 'A root' });
    const aChild = await service.create({ tenantId: a, parentId: aRoot.id, departmentName: 'A child' });
    const bBefore = await snapshot(b);

    // B's departments cannot be parents in A...
    await expectAppError(
      service.create({ tenantId: a, parentId: bRoot.id, departmentName: 'Intruder' }),
      departmentErrors.PARENT_NOT_FOUND,
    );
    await expectAppError(service.move(a, aChild.id, bChild.id), departmentErrors.PARENT_NOT_FOUND);
    await expectAppError(
      service.update({ tenantId: a, id: aRoot.id, parentId: bRoot.id }),
      departmentErrors.PARENT_NOT_FOUND,
    );
    // ...nor read, changed, moved or deleted through A.
    await expectAppError(service.get(a, bRoot.id), departmentErrors.NOT_FOUND);
    await expectAppError(
      service.update({ tenantId: a, id: bChild.id, departmentName: 'Hijacked' }),
      departmentErrors.NOT_FOUND,
    );
    await expectAppError(service.move(a, bChild.id, aRoot.id), departmentErrors.NOT_FOUND);
    await expectAppError(service.move(a, bChild.id, null), departmentErrors.NOT_FOUND);
    await expectAppError(service.remove(a, bChild.id), departmentErrors.NOT_FOUND);
    await expectAppError(service.descendantIds(a, bRoot.id), departmentErrors.NOT_FOUND);
    await expectAppError(service.ancestors(a, bChild.id), departmentErrors.NOT_FOUND);
    expect((await service.tree(a)).map((n) => n.id)).toEqual([aRoot.id]);
    expect((await service.tree(b)).map((n) => n.id)).toEqual([bRoot.id]);

    // A's own writes (add, move, rename, delete) leave B as it was.
    const aOther = await service.create({ tenantId: a, departmentName: 'A other' });
    await service.move(a, aChild.id, aOther.id);
    await service.update({ tenantId: a, id: aOther.id, departmentName: 'A renamed' });
    await service.remove(a, aChild.id);
    expect(await snapshot(b)).toEqual(bBefore);
    for (const tenantId of [a, b]) {
      const { actual, expected } = await closureOfTenant(runtime.deps.db, tenantId);
      expect(actual).toEqual(expected);
    }
  });
});
