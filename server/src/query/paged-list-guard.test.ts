import { and, count, eq, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tenants, users } from '../../../db/schema/index.js';
import type { Executor } from '../infra/db/client.js';
import { errorToEnvelope } from '../errors/to-envelope.js';
import { publicProcedure, router, TRPCError } from '../rpc/trpc.js';
import { zBool, zIdOut } from '../rpc/wire.js';
import { bootTestRuntime } from '../testing/harness.js';
import {
  baseOf,
  EMAIL_PERMISSION,
  runUsers,
  seedUsers,
  selectUsers,
  userList,
  type FixtureUser,
} from './paged-list.fixture.js';
import { pagedRequest, pagedRequestSchema } from './paged-request.js';
import { pagedResponse } from './paged-response.js';

let runtime: Awaited<ReturnType<typeof bootTestRuntime>>;
let tenantId: bigint;
let rows: FixtureUser[];
let other: bigint;

/** A list procedure as a module would write it, served by the real host. */
const testRouter = router({
  UserQueryService: router({
    GetUserPageAsync: publicProcedure
      .meta({ paged: true })
      .input(pagedRequest({ onlyActive: zBool().optional() }))
      .output(pagedResponse(z.object({ id: zIdOut(), userName: z.string() })))
      .mutation(async ({ input, ctx }) => {
        const base = and(baseOf(tenantId), input.onlyActive ? eq(users.isActive, true) : undefined);
        const result = await userList.run(ctx.deps.db, { request: input, base, can: () => false, select: selectUsers });
        return { ...result, items: result.items.map((i) => ({ id: String(i.id), userName: i.userName })) };
      }),
  }),
});

beforeAll(async () => {
  runtime = await bootTestRuntime({ api: { router: testRouter, services: {} } });
  ({ tenantId, rows, otherTenantId: other } = await seedUsers(runtime.deps.db, runtime.deps.ids));
});
afterAll(() => runtime.close());

const run = (body: unknown, permissions: string[] = []) =>
  runUsers(runtime.deps.db, tenantId, { page: { pageSize: 500 }, ...(body as object) }, permissions);
const names = (result: { items: Array<{ userName: string }> }) => result.items.map((i) => i.userName).sort();
const filter = (f: Record<string, unknown>, permissions?: string[]) =>
  run({ conditions: { filters: [f] } }, permissions);
const everyone = () => rows.map((u) => u.userName).sort();

/** The envelope the host would answer for an error, in English. */
function envelopeOf(error: unknown) {
  return errorToEnvelope(error, { culture: 'en-US', traceId: 't', deps: { clock: { now: () => new Date() } } });
}

async function refusal(body: unknown): Promise<{ status: number; fields: string[]; messages: string[] }> {
  let caught: unknown;
  try {
    await run(body);
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected a refusal').toBeDefined();
  // A schema failure reaches the host as tRPC's BAD_REQUEST around the zod error; do the same.
  const wrapped = caught instanceof z.ZodError ? new TRPCError({ code: 'BAD_REQUEST', cause: caught }) : caught;
  const { status, envelope } = envelopeOf(wrapped);
  const detail = (envelope.data ?? []) as Array<{ field: string; message: string }>;
  return { status, fields: detail.map((d) => d.field), messages: detail.map((d) => d.message) };
}

describe('field security', () => {
  it('drops unknown fields from filters, sorts and keyword', async () => {
    const result = await run({
      conditions: {
        filters: [{ field: 'password', operator: 'Equal', value: 'x' }],
        sorts: [{ field: 'password' }],
        keyword: { value: 'Ally', fields: ['password'] },
      },
    });
    expect(names(result)).toEqual(['Alice']);
  });

  it('drops a field the caller may not read, and uses it once the permission is held', async () => {
    const f = { field: 'email', operator: 'EndsWith', value: '@corp.test' };
    expect(names(await filter(f))).toEqual(everyone());
    expect(names(await filter(f, [EMAIL_PERMISSION]))).toEqual(
      rows
        .filter((u) => u.email?.endsWith('@corp.test'))
        .map((u) => u.userName)
        .sort(),
    );
    // A bad value on an unreadable field is not even looked at: nothing reveals the field.
    expect(names(await filter({ field: 'email', operator: 'In', values: [true] }))).toEqual(everyone());
    expect(names(await run({ conditions: { keyword: { value: 'corp.test', fields: ['email'] } } }))).toEqual([]);
    expect(
      names(await run({ conditions: { keyword: { value: 'corp.test', fields: ['email'] } } }, [EMAIL_PERMISSION])),
    ).toEqual(
      [
        'BOB',
        ...rows.filter((u) => u.email?.endsWith('corp.test') && u.userName !== 'BOB').map((u) => u.userName),
      ].sort(),
    );
  });

  it('never uses a masked field, whatever the permissions, nor one whose flags are off', async () => {
    const all = [EMAIL_PERMISSION, 'anything'];
    expect(names(await filter({ field: 'phone', operator: 'IsNull' }, all))).toEqual(everyone());
    expect(names(await filter({ field: 'remark', operator: 'IsNotNull' }, all))).toEqual(everyone());
    expect(names(await run({ conditions: { keyword: { value: '13800', fields: ['phone'] } } }, all))).toEqual([]);
    const sortedByPhone = await run(
      {
        conditions: { sorts: [{ field: 'phone', direction: 'Descending' }, { field: 'remark' }] },
        page: { pageSize: 40 },
      },
      all,
    );
    const byDefault = await run({ page: { pageSize: 40 } }, all);
    expect(sortedByPhone.items.map((i) => i.id)).toEqual(byDefault.items.map((i) => i.id));
  });
});

describe('injection', () => {
  const hostile = [
    'userName; DROP TABLE users',
    '"user_name"',
    'user_name',
    '1=1 --',
    "userName' OR '1'='1",
    'constructor',
    '__proto__',
    'toString',
  ];

  it('ignores field names that are not declared names', async () => {
    for (const field of hostile) {
      const result = await run({
        conditions: {
          filters: [{ field, operator: 'Equal', value: 'x' }],
          sorts: [{ field }],
          keyword: { value: 'BOB', fields: [field] },
        },
      });
      expect(names(result), field).toEqual(['BOB']);
    }
  });

  it('matches quotes, wildcards and backslashes literally', async () => {
    expect(names(await filter({ field: 'userName', operator: 'Equal', value: "o'brien" }))).toEqual(["o'brien"]);
    expect(names(await filter({ field: 'userName', operator: 'Equal', value: "x' OR '1'='1" }))).toEqual([
      "x' OR '1'='1",
    ]);
    expect(names(await filter({ field: 'userName', operator: 'Equal', value: "' OR '1'='1" }))).toEqual([]);
    expect(names(await filter({ field: 'userName', operator: 'Contains', value: "' OR '1'='1" }))).toEqual([
      "x' OR '1'='1",
    ]);
    expect(names(await filter({ field: 'userName', operator: 'Contains', value: '%' }))).toEqual(['50%_off']);
    expect(names(await filter({ field: 'userName', operator: 'Contains', value: '50%_' }))).toEqual(['50%_off']);
    expect(names(await filter({ field: 'userName', operator: 'Contains', value: '_' }))).toEqual([
      '50%_off',
      'under_score',
    ]);
    expect(names(await filter({ field: 'userName', operator: 'StartsWith', value: 'under_' }))).toEqual([
      'under_score',
    ]);
    expect(names(await filter({ field: 'userName', operator: 'Contains', value: '\\' }))).toEqual(['back\\slash']);
    expect(names(await filter({ field: 'userName', operator: 'EndsWith', value: 'k\\slash' }))).toEqual([
      'back\\slash',
    ]);
    expect(names(await run({ conditions: { keyword: { value: '%', matchMode: 'Equal' } } }))).toEqual([]);
    expect(names(await run({ conditions: { keyword: { value: "O'B", matchMode: 'Equal' } } }))).toEqual(["o'brien"]);
  });

  it('sends user text only as parameters, in the lower(column) LIKE form', () => {
    const request = pagedRequestSchema.parse({
      conditions: {
        filters: [
          { field: 'userName', operator: 'Contains', value: "a'b%c" },
          { field: 'phone', operator: 'Equal', value: 'x' },
        ],
        keyword: { value: "k'w", fields: ['userName', 'nickName'] },
        sorts: [{ field: 'userName; DROP TABLE users', direction: 'Descending' }],
      },
    });
    const plan = userList.plan(request, { base: baseOf(1n) });
    const query = new PgDialect({ casing: 'snake_case' }).sqlToQuery(and(plan.where, ...plan.orderBy.map((o) => o))!);
    expect(query.sql).not.toMatch(/a'b|k'w|DROP/);
    expect(query.sql).toContain('lower("users"."user_name") like lower($');
    expect(query.sql).toContain('lower("users"."nick_name") like lower($');
    expect(query.params).toEqual(expect.arrayContaining(["%a'b\\%c%", "%k'w%"]));
  });

  it('is served by the trigram indexes', async () => {
    const request = pagedRequestSchema.parse({
      conditions: { keyword: { value: 'lic', fields: ['userName', 'nickName'] } },
    });
    const plan = userList.plan(request, { base: undefined });
    const text = await runtime.deps.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = await tx.execute(sql`explain ${tx.select({ id: users.id }).from(users).where(plan.where)}`);
      return JSON.stringify(Array.isArray(result) ? result : (result as { rows: unknown[] }).rows);
    });
    expect(text).toContain('users_username_trgm');
    expect(text).toContain('users_nickname_trgm');
  });

  it('leaves the table intact', async () => {
    const [row] = await runtime.deps.db.select({ n: count() }).from(users).where(eq(users.tenantId, tenantId));
    expect(row!.n).toBe(rows.length + 1);
  });
});

describe('the base condition', () => {
  it('keeps its own OR to itself', async () => {
    const otherTenantId = other;
    const base = sql`${users.tenantId} = ${otherTenantId} or ${users.userName} = 'BOB'`;
    const request = pagedRequestSchema.parse({
      conditions: { filters: [{ field: 'userName', operator: 'Equal', value: 'Alice' }] },
    });
    const result = await userList.run(runtime.deps.db, { request, base, select: selectUsers });
    expect(result.items.map((i) => [i.userName, i.tenantId])).toEqual([['Alice', otherTenantId]]);
  });

  it('cannot be widened by filters, keyword or OR-looking values', async () => {
    const outsiders = await run({
      conditions: { filters: [{ field: 'userName', operator: 'In', values: ['outsider', 'deleted_alice', 'Alice'] }] },
    });
    expect(names(outsiders)).toEqual(['Alice']);
    expect(outsiders.items.every((i) => i.tenantId === tenantId && !i.isDeleted)).toBe(true);
    expect(names(await run({ conditions: { keyword: { value: 'Ally' } } }))).toEqual(['Alice']);
    expect((await filter({ field: 'id', operator: 'IsNotNull' })).page.totalCount).toBe(rows.length);
    const stripped = await run({
      behavior: { ignoreTenant: true, ignoreSoftDelete: true },
      tenantId: '0',
      conditions: { filters: [{ field: 'nickName', operator: 'Equal', value: 'Ally' }] },
    });
    expect(names(stripped)).toEqual(['Alice']);
  });
});

describe('bad input is a 400 naming the field', () => {
  const f = (extra: Record<string, unknown>) => ({
    conditions: { filters: [{ field: 'genderCode', operator: 'Equal', value: 1, ...extra }] },
  });
  const cases: Array<[string, unknown, string]> = [
    ['unknown operator name', f({ operator: 'Like' }), 'conditions.filters[0].operator'],
    ['unknown operator number', f({ operator: 9999 }), 'conditions.filters[0].operator'],
    ['integer field, text value', f({ value: 'abc' }), 'conditions.filters[0].value'],
    ['integer field, fraction', f({ value: 1.5 }), 'conditions.filters[0].value'],
    [
      'id field, bad item',
      { conditions: { filters: [{ field: 'id', operator: 'In', values: ['1', 'x'] }] } },
      'conditions.filters[0].values[1]',
    ],
    [
      'datetime field',
      { conditions: { filters: [{ field: 'createdTime', operator: 'GreaterThan', value: 'yesterday' }] } },
      'conditions.filters[0].value',
    ],
    [
      'boolean field',
      { conditions: { filters: [{ field: 'isActive', operator: 'Equal', value: 'maybe' }] } },
      'conditions.filters[0].value',
    ],
    [
      'enum field',
      { conditions: { filters: [{ field: 'status', operator: 'Equal', value: 'Frozen' }] } },
      'conditions.filters[0].value',
    ],
    [
      'string field, boolean',
      { conditions: { filters: [{ field: 'userName', operator: 'Equal', value: true }] } },
      'conditions.filters[0].value',
    ],
    ['object value', f({ value: { $gt: 1 } }), 'conditions.filters[0].value'],
    ['missing value', f({ value: undefined }), 'conditions.filters[0].value'],
    ['Between with one value', f({ operator: 'Between', values: [1] }), 'conditions.filters[0].values'],
    ['Between without values', f({ operator: 4000 }), 'conditions.filters[0].values'],
    ['In with a non-array', f({ operator: 'In', values: '1,2' }), 'conditions.filters[0].values'],
    ['In without values', f({ operator: 'In' }), 'conditions.filters[0].values'],
    [
      'too many filters',
      { conditions: { filters: Array.from({ length: 51 }, () => ({ field: 'id', operator: 'IsNull' })) } },
      'conditions.filters',
    ],
    [
      'too many sorts',
      { conditions: { sorts: Array.from({ length: 11 }, () => ({ field: 'id' })) } },
      'conditions.sorts',
    ],
    [
      'too many values',
      f({ operator: 'In', values: Array.from({ length: 1001 }, (_, i) => i) }),
      'conditions.filters[0].values',
    ],
    [
      'oversized value',
      { conditions: { filters: [{ field: 'userName', operator: 'Contains', value: 'x'.repeat(201) }] } },
      'conditions.filters[0].value',
    ],
    ['oversized keyword', { conditions: { keyword: { value: 'x'.repeat(201) } } }, 'conditions.keyword.value'],
    [
      'unknown direction',
      { conditions: { sorts: [{ field: 'id', direction: 'Sideways' }] } },
      'conditions.sorts[0].direction',
    ],
    [
      'unknown keyword mode',
      { conditions: { keyword: { value: 'a', matchMode: 'In' } } },
      'conditions.keyword.matchMode',
    ],
  ];

  it.each(cases)('%s', async (_, body, field) => {
    const { status, fields, messages } = await refusal(body);
    expect(status).toBe(400);
    expect(fields).toContain(field);
    expect(messages.every((m) => m.length > 0 && !m.startsWith('validation.'))).toBe(true);
  });

  it('reports every bad value at once', async () => {
    const { fields } = await refusal({
      conditions: {
        filters: [
          { field: 'genderCode', operator: 'Equal', value: 'a' },
          { field: 'id', operator: 'In', values: ['1', 'b', 'c'] },
        ],
      },
    });
    expect(fields).toEqual([
      'conditions.filters[0].value',
      'conditions.filters[1].values[1]',
      'conditions.filters[1].values[2]',
    ]);
  });
});

describe("the caller's select", () => {
  const request = () =>
    pagedRequestSchema.parse({
      page: { pageSize: 2 },
      conditions: { filters: [{ field: 'userName', operator: 'StartsWith', value: 'member' }] },
    });

  it('may join and pick its columns; the count sees the same rows', async () => {
    const result = await userList.run(runtime.deps.db, {
      request: request(),
      base: baseOf(tenantId),
      select: (q) =>
        q
          .select({ id: users.id, tenantId: tenants.id, tenantName: tenants.name, userName: users.userName })
          .from(users)
          .innerJoin(tenants, eq(tenants.id, users.tenantId))
          .$dynamic(),
    });
    expect(result.page.totalCount).toBe(30);
    expect(result.items).toHaveLength(2);
    expect(result.items[0]).toMatchObject({ tenantId, tenantName: 'Query tenant' });
  });

  it('must leave where, order and paging to the engine', async () => {
    const select = (q: Executor) =>
      q.select({ id: users.id }).from(users).where(eq(users.tenantId, tenantId)).$dynamic();
    await expect(userList.run(runtime.deps.db, { request: request(), base: undefined, select })).rejects.toThrow(
      /must not set where/,
    );
  });
});

describe('through the host', () => {
  const post = async (body: unknown, language = 'en-US') => {
    const res = await runtime.app.request('/api/UserQuery/UserPage', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-language': language },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { code: number; message: string; data: unknown } };
  };

  it('answers the SPEC response data, business fields ANDed with the base', async () => {
    const { status, body } = await post({
      onlyActive: 'true',
      conditions: { sorts: [{ field: 'userName', direction: 'Asc' }] },
      page: { pageIndex: 1, pageSize: 3 },
    });
    expect(status).toBe(200);
    const data = body.data as {
      items: Array<{ id: string; userName: string }>;
      page: Record<string, unknown>;
      extendDatas?: unknown;
    };
    expect(data.page).toMatchObject({
      pageIndex: 1,
      pageSize: 3,
      totalCount: rows.filter((u) => u.isActive).length,
      startRecord: 1,
      endRecord: 3,
    });
    expect(data.items).toHaveLength(3);
    expect(typeof data.items[0]!.id).toBe('string');
    expect(data).not.toHaveProperty('extendDatas');
  });

  it('documents the request and the response in the OpenAPI document', async () => {
    const doc = (await (await runtime.app.request('/openapi/v1.json')).json()) as {
      paths: Record<string, { post?: unknown }>;
    };
    const text = JSON.stringify(doc.paths['/api/UserQuery/UserPage']?.post);
    for (const name of [
      'conditions',
      'filters',
      'operator',
      'IsNotNull',
      'sorts',
      'Descending',
      'pageIndex',
      'onlyActive',
      'totalPages',
      'extendDatas',
    ])
      expect(text).toContain(name);
  });

  it('answers a bad value with a localized 400 naming the field', async () => {
    const body = {
      conditions: {
        filters: [
          { field: 'createdTime', operator: 'GreaterThan', value: 'soon' },
          { field: 'status', operator: 'equals', value: 'x' },
        ],
      },
    };
    const en = await post(body);
    expect(en.status).toBe(400);
    expect(en.body.code).toBe(400);
    expect(en.body.data).toEqual([
      { field: 'conditions.filters[1].operator', message: expect.stringContaining('Unknown value') },
    ]);
    const value = await post(
      { conditions: { filters: [{ field: 'createdTime', operator: 'GreaterThan', value: 'soon' }] } },
      'de-DE',
    );
    expect(value.status).toBe(400);
    expect(value.body.data).toEqual([
      { field: 'conditions.filters[0].value', message: 'Kein gültiger Zeitpunkt (Jahre 0001 bis 9999)' },
    ]);
  });
});
