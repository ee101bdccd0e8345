import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departments } from '../../../../db/schema/index.js';
import { loadMigrations } from '../../infra/db/migrator.js';
import type { TestServer } from '../../testing/harness.js';
import { startAdminServer, tenantWithAdmin, type AdminApi } from '../../testing/admin.js';
import { TENANT_ADMIN } from '../permission/admin-test-kit.js';

/** departmentType is the original's DepartmentType enum (it was free text here). */

let server: TestServer;
let api: AdminApi;
let tenantId: bigint;
beforeAll(async () => {
  server = await startAdminServer();
  ({ api, tenantId } = await tenantWithAdmin(server, TENANT_ADMIN));
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
let seq = 0;
const create = (body: Record<string, unknown>) =>
  api.post('/api/Department/Department', { departmentName: `Unit ${++seq}`, ...body });

describe('DepartmentType', () => {
  it('reads numbers or names, writes names, defaults to Department, and answers 400 for anything else', async () => {
    const expected: Array<[unknown, string]> = [
      [0, 'Corporation'],
      [6, 'Department'],
      [14, 'Subsidiary'],
      [99, 'Other'],
      ['team', 'Team'],
      ['9', 'Group'],
    ];
    for (const [departmentType, name] of expected) {
      const res = await create({ departmentType });
      expect(res.body.data?.departmentType, JSON.stringify(res.body)).toBe(name);
    }
    const plain = (await create({})).body.data;
    expect(plain.departmentType).toBe('Department');

    const updated = await api.put('/api/Department/Department', { basicId: plain.basicId, departmentType: 3 });
    expect(updated.body.data.departmentType).toBe('Branch');
    // Absent on update: unchanged.
    expect(
      (await api.put('/api/Department/Department', { basicId: plain.basicId, sort: 2 })).body.data.departmentType,
    ).toBe('Branch');

    for (const res of [
      await create({ departmentType: 15 }),
      await create({ departmentType: 'Sales floor' }),
      await api.put('/api/Department/Department', { basicId: plain.basicId, departmentType: null }),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ code: 400, isSuccess: false });
    }
  });

  it('filters the page by number or name', async () => {
    const office = (await create({ departmentType: 'Office' })).body.data.basicId;
    for (const departmentType of [13, 'office']) {
      const items = (await api.post('/api/DepartmentQuery/DepartmentPage', { departmentType })).body.data
        .items as Array<{ basicId: string; departmentType: string }>;
      expect(items.map((d) => d.basicId)).toContain(office);
      expect(new Set(items.map((d) => d.departmentType))).toEqual(new Set(['Office']));
    }
    expect((await api.post('/api/DepartmentQuery/DepartmentPage', { departmentType: 42 })).status).toBe(400);
  });

  it('migration 0002_original_enum_names turns free text into members, keeping unknown text in the remark', async () => {
    const migration = (await loadMigrations()).find((m) => m.tag === '0002_original_enum_names')!;
    // The column as it was before the migration: free text, nullable.
    await deps().db.execute(sql`ALTER TABLE departments ALTER COLUMN department_type DROP NOT NULL`);
    const rows: Array<[string | null, string | null, string, string | null]> = [
      // stored text, remark, type after, remark after
      [' team ', null, 'Team', null],
      ['HEADQUARTERS', 'r', 'Headquarters', 'r'],
      ['10', null, 'Project', null],
      ['Sales floor', 'keep', 'Other', 'keep\ndepartmentType: Sales floor'],
      [null, null, 'Department', null],
    ];
    const ids: bigint[] = [];
    for (const [type, remark] of rows) {
      const id = deps().ids.next();
      ids.push(id);
      await deps().db.execute(
        sql`INSERT INTO departments (id, tenant_id, department_name, department_type, remark) VALUES (${id}, ${tenantId}, ${`Legacy ${id}`}, ${type}, ${remark})`,
      );
    }
    for (const statement of migration.statements) await deps().db.execute(sql.raw(statement));
    for (const [i, [, , type, remark]] of rows.entries()) {
      const [row] = await deps()
        .db.select({ type: departments.departmentType, remark: departments.remark })
        .from(departments)
        .where(eq(departments.id, ids[i]!));
      expect(row).toEqual({ type, remark });
      expect((await api.get('/api/DepartmentQuery/DepartmentDetail', { id: ids[i] })).body.data.departmentType).toBe(
        type,
      );
    }
  });
});
