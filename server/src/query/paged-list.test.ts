import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootTestRuntime } from '../testing/harness.js';
import {
  baseOf,
  EMAIL_PERMISSION,
  runUsers,
  seedUsers,
  selectUsers,
  T0,
  userList,
  type FixtureUser,
} from './paged-list.fixture.js';
import { pagedRequestSchema } from './paged-request.js';

let runtime: Awaited<ReturnType<typeof bootTestRuntime>>;
let tenantId: bigint;
let rows: FixtureUser[];

beforeAll(async () => {
  runtime = await bootTestRuntime();
  ({ tenantId, rows } = await seedUsers(runtime.deps.db, runtime.deps.ids));
});
afterAll(() => runtime.close());

const HOUR = 3_600_000;
const all = (body: Record<string, unknown>, permissions: string[] = [EMAIL_PERMISSION]) =>
  runUsers(runtime.deps.db, tenantId, { page: { pageSize: 500 }, ...body }, permissions);
const names = (result: { items: Array<{ userName: string }> }) => result.items.map((i) => i.userName);
const sorted = (list: string[]) => [...list].sort();
const where = (pred: (u: FixtureUser) => boolean) => sorted(rows.filter(pred).map((u) => u.userName));
const byId = (a: FixtureUser, b: FixtureUser) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
/** The default order: createdTime descending, then id ascending. */
const defaultOrder = (list: FixtureUser[]) =>
  [...list].sort((a, b) => b.createdTime.getTime() - a.createdTime.getTime() || byId(a, b)).map((u) => u.userName);
const iso = (hours: number) => new Date(T0 + hours * HOUR).toISOString();

describe('operators, by number and by name', () => {
  const alice = () => rows.find((u) => u.userName === 'Alice')!;
  const cases: Array<[string, number, () => Record<string, unknown>, (u: FixtureUser) => boolean]> = [
    ['Equal', 1000, () => ({ field: 'userName', value: 'Alice' }), (u) => u.userName === 'Alice'],
    ['Equal', 1000, () => ({ field: 'status', value: 'disabled' }), (u) => u.status === 'Disabled'],
    ['Equal', 1000, () => ({ field: 'gender', value: 'Female' }), (u) => u.gender === 2],
    ['Equal', 1000, () => ({ field: 'id', value: String(alice().id) }), (u) => u.id === alice().id],
    ['Equal', 1000, () => ({ field: 'isActive', value: 'false' }), (u) => !u.isActive],
    ['Equal', 1000, () => ({ field: 'createdTime', value: iso(3) }), (u) => u.createdTime.getTime() === T0 + 3 * HOUR],
    ['Equal', 1000, () => ({ field: 'famous', value: 0 }), (u) => u.userName !== 'BOB' && u.userName !== 'Alice'],
    ['NotEqual', 1001, () => ({ field: 'status', value: 1 }), (u) => u.status !== 'Enabled'],
    ['NotEqual', 1001, () => ({ field: 'nickName', value: 'Ally' }), (u) => u.nickName !== 'Ally'],
    ['GreaterThan', 1002, () => ({ field: 'genderCode', value: '1' }), (u) => u.gender > 1],
    ['GreaterThan', 1002, () => ({ field: 'genderScore', value: '1.5' }), (u) => u.gender > 1.5],
    [
      'GreaterThan',
      1002,
      () => ({ field: 'createdTime', value: iso(25) }),
      (u) => u.createdTime.getTime() > T0 + 25 * HOUR,
    ],
    [
      'GreaterThanOrEqual',
      1003,
      () => ({ field: 'createdTime', value: iso(25) }),
      (u) => u.createdTime.getTime() >= T0 + 25 * HOUR,
    ],
    [
      'LessThan',
      1004,
      () => ({ field: 'lastLoginTime', value: iso(110) }),
      (u) => u.lastLoginTime !== null && u.lastLoginTime.getTime() < T0 + 110 * HOUR,
    ],
    ['LessThanOrEqual', 1005, () => ({ field: 'nameLength', value: 5 }), (u) => u.userName.length <= 5],
    [
      'Contains',
      2000,
      () => ({ field: 'email', value: 'EXAMPLE' }),
      (u) => !!u.email?.toLowerCase().includes('example'),
    ],
    [
      'StartsWith',
      2001,
      () => ({ field: 'userName', value: 'ALI' }),
      (u) => u.userName.toLowerCase().startsWith('ali'),
    ],
    ['EndsWith', 2002, () => ({ field: 'email', value: '.Test' }), (u) => !!u.email?.toLowerCase().endsWith('.test')],
    [
      'In',
      3000,
      () => ({ field: 'userName', values: ['BOB', 'Alice', 'nobody'] }),
      (u) => ['BOB', 'Alice'].includes(u.userName),
    ],
    ['In', 3000, () => ({ field: 'id', values: [String(alice().id), '1'] }), (u) => u.id === alice().id],
    ['In', 3000, () => ({ field: 'gender', values: ['Male', 2] }), (u) => u.gender !== 0],
    ['NotIn', 3001, () => ({ field: 'genderCode', values: [0, 1] }), (u) => u.gender === 2],
    [
      'NotIn',
      3001,
      () => ({ field: 'nickName', values: ['Ally', 'Lisa'] }),
      (u) => u.nickName !== 'Ally' && u.nickName !== 'Lisa',
    ],
    [
      'Between',
      4000,
      () => ({ field: 'createdTime', values: [iso(2), iso(4)] }),
      (u) => u.createdTime.getTime() >= T0 + 2 * HOUR && u.createdTime.getTime() <= T0 + 4 * HOUR,
    ],
    ['Between', 4000, () => ({ field: 'genderCode', values: ['1', 1] }), (u) => u.gender === 1],
    ['IsNull', 5000, () => ({ field: 'nickName' }), (u) => u.nickName === null],
    ['IsNull', 5000, () => ({ field: 'lastLoginTime' }), (u) => u.lastLoginTime === null],
    ['IsNotNull', 5001, () => ({ field: 'email' }), (u) => u.email !== null],
  ];

  it.each(cases)('%s (%i) on %#', async (name, number, filter, pred) => {
    const expected = where(pred);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(rows.length);
    for (const operator of [number, name, name.toUpperCase()]) {
      const result = await all({ conditions: { filters: [{ ...filter(), operator }] } });
      expect(sorted(names(result)), `operator ${operator}`).toEqual(expected);
    }
  });

  it('ANDs several filters', async () => {
    const result = await all({
      conditions: {
        filters: [
          { field: 'status', operator: 'Equal', value: 'Enabled' },
          { field: 'email', operator: 'Contains', value: 'member' },
        ],
      },
    });
    expect(sorted(names(result))).toEqual(where((u) => u.status === 'Enabled' && !!u.email?.includes('member')));
  });

  it('treats an empty text for Contains as no restriction, and In of nothing as no match', async () => {
    expect(
      (await all({ conditions: { filters: [{ field: 'email', operator: 'Contains', value: '' }] } })).page.totalCount,
    ).toBe(rows.length);
    expect(
      (await all({ conditions: { filters: [{ field: 'userName', operator: 'In', values: [] }] } })).page.totalCount,
    ).toBe(0);
    expect(
      (await all({ conditions: { filters: [{ field: 'userName', operator: 'NotIn', values: [] }] } })).page.totalCount,
    ).toBe(rows.length);
  });

  it('compares numbers beyond the column type without failing', async () => {
    expect(
      (await all({ conditions: { filters: [{ field: 'genderCode', operator: 'Equal', value: 40000 }] } })).page
        .totalCount,
    ).toBe(0);
    expect(
      (
        await all({
          conditions: { filters: [{ field: 'genderCode', operator: 'LessThan', value: Number.MAX_SAFE_INTEGER }] },
        })
      ).page.totalCount,
    ).toBe(rows.length);
    expect(
      (await all({ conditions: { filters: [{ field: 'genderScore', operator: 'LessThan', value: 1e300 }] } })).page
        .totalCount,
    ).toBe(rows.length);
  });

  it('drops an operator that means nothing for the field type', async () => {
    const result = await all({
      conditions: {
        filters: [
          { field: 'isActive', operator: 'GreaterThan', value: true },
          { field: 'genderCode', operator: 'Contains', value: '1' },
        ],
      },
    });
    expect(result.page.totalCount).toBe(rows.length);
  });
});

describe('paging', () => {
  const page = (p: Record<string, unknown> | undefined) =>
    runUsers(runtime.deps.db, tenantId, p === undefined ? {} : { page: p });

  it('clamps the page index and size as the SPEC says', async () => {
    expect(rows.length).toBe(40);
    for (const pageIndex of [0, -5, '0']) expect((await page({ pageIndex, pageSize: 5 })).page.pageIndex).toBe(1);
    expect((await page({ pageSize: 0 })).page.pageSize).toBe(20);
    expect((await page({ pageSize: -3 })).page.pageSize).toBe(20);
    expect((await page({ pageSize: 100000 })).page.pageSize).toBe(500);
    const dflt = await page(undefined);
    expect(dflt.page).toMatchObject({ pageIndex: 1, pageSize: 20, currentPageCount: 20 });
    expect(dflt.items).toHaveLength(20);
    expect((await page({ pageIndex: '2', pageSize: '7' })).page).toMatchObject({
      pageIndex: 2,
      pageSize: 7,
      startRecord: 8,
      endRecord: 14,
    });
  });

  it('fills every page field on first, middle, last and past-the-end pages', async () => {
    const common = { pageSize: 15, totalCount: 40, totalPages: 3 };
    expect((await page({ pageIndex: 1, pageSize: 15 })).page).toEqual({
      ...common,
      pageIndex: 1,
      currentPageCount: 15,
      startRecord: 1,
      endRecord: 15,
      hasPrevious: false,
      hasNext: true,
      isFirstPage: true,
      isLastPage: false,
    });
    expect((await page({ pageIndex: 2, pageSize: 15 })).page).toEqual({
      ...common,
      pageIndex: 2,
      currentPageCount: 15,
      startRecord: 16,
      endRecord: 30,
      hasPrevious: true,
      hasNext: true,
      isFirstPage: false,
      isLastPage: false,
    });
    expect((await page({ pageIndex: 3, pageSize: 15 })).page).toEqual({
      ...common,
      pageIndex: 3,
      currentPageCount: 10,
      startRecord: 31,
      endRecord: 40,
      hasPrevious: true,
      hasNext: false,
      isFirstPage: false,
      isLastPage: true,
    });
    const past = await page({ pageIndex: 9, pageSize: 15 });
    expect(past.items).toEqual([]);
    expect(past.page).toEqual({
      ...common,
      pageIndex: 9,
      currentPageCount: 0,
      startRecord: 0,
      endRecord: 0,
      hasPrevious: true,
      hasNext: false,
      isFirstPage: false,
      isLastPage: true,
    });
    expect(past.extendDatas).toBeNull();
  });

  it('answers an empty list with zero pages', async () => {
    const empty = await runUsers(runtime.deps.db, tenantId, {
      conditions: { filters: [{ field: 'userName', operator: 'Equal', value: 'nobody' }] },
    });
    expect(empty.page).toEqual({
      pageIndex: 1,
      pageSize: 20,
      totalCount: 0,
      totalPages: 0,
      currentPageCount: 0,
      startRecord: 0,
      endRecord: 0,
      hasPrevious: false,
      hasNext: false,
      isFirstPage: true,
      isLastPage: true,
    });
  });

  it('walks all pages without losing or repeating a row, ties included', async () => {
    const seen: string[] = [];
    for (let pageIndex = 1; pageIndex <= 14; pageIndex++) seen.push(...names(await page({ pageIndex, pageSize: 3 })));
    expect(seen).toEqual(defaultOrder(rows));
  });

  it('passes extension data through, or builds it from the items', async () => {
    const request = pagedRequestSchema.parse({ page: { pageSize: 2 } });
    const fixed = await userList.run(runtime.deps.db, {
      request,
      base: baseOf(tenantId),
      select: selectUsers,
      extendDatas: { total: 1 },
    });
    expect(fixed.extendDatas).toEqual({ total: 1 });
    const built = await userList.run(runtime.deps.db, {
      request,
      base: baseOf(tenantId),
      select: selectUsers,
      extendDatas: async (items) => ({ n: items.length }),
    });
    expect(built.extendDatas).toEqual({ n: 2 });
  });
});

describe('keyword', () => {
  const kw = (keyword: Record<string, unknown>, permissions?: string[]) =>
    all({ conditions: { keyword } }, permissions);

  it('searches the listed fields with each match mode, ignoring case', async () => {
    const fields = ['userName', 'nickName'];
    expect(names(await kw({ value: 'LIS', fields }))).toEqual(['alicia']);
    expect(sorted(names(await kw({ value: 'ali', fields, matchMode: 'Contains' })))).toEqual(['Alice', 'alicia']);
    expect(sorted(names(await kw({ value: 'al', fields, matchMode: 2001 })))).toEqual(['Alice', 'alicia']);
    expect(sorted(names(await kw({ value: 'LY', fields, matchMode: 'endsWith' })))).toEqual(['Alice']);
    expect(sorted(names(await kw({ value: 'ally', fields, matchMode: 'Equal' })))).toEqual(['Alice']);
    expect(sorted(names(await kw({ value: 'alic', fields, matchMode: 1000 })))).toEqual([]);
    expect(sorted(names(await kw({ value: 'nick1', fields })))).toEqual(
      where((u) => !!u.nickName?.startsWith('Nick1')),
    );
  });

  it('searches the default fields when none or none usable are given', async () => {
    const expected = where((u) => [u.userName, u.nickName, u.email].some((v) => v?.toLowerCase().includes('example')));
    expect(expected.length).toBeGreaterThan(3);
    expect(sorted(names(await kw({ value: 'Example' })))).toEqual(expected);
    expect(sorted(names(await kw({ value: 'Example', fields: [] })))).toEqual(expected);
    expect(sorted(names(await kw({ value: 'Example', fields: ['nope', 'phone', 'remark', 'status'] })))).toEqual(
      expected,
    );
    // Without the permission the e-mail is not searched, by default or when asked for.
    expect(names(await kw({ value: 'Example' }, []))).toEqual([]);
    expect(names(await kw({ value: 'Example', fields: ['email'] }, []))).toEqual([]);
  });

  it('ignores a blank keyword', async () => {
    expect((await kw({ value: '   ' })).page.totalCount).toBe(rows.length);
    expect((await kw({ fields: ['userName'] })).page.totalCount).toBe(rows.length);
  });
});

describe('sorting', () => {
  const sortBy = (sorts: unknown[], permissions?: string[]) => all({ conditions: { sorts } }, permissions);
  const order = (cmp: (a: FixtureUser, b: FixtureUser) => number) =>
    [...rows].sort((a, b) => cmp(a, b) || byId(a, b)).map((u) => u.userName);
  const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

  it('sorts by number or name directions', async () => {
    const asc = order((a, b) => a.gender - b.gender);
    const desc = order((a, b) => b.gender - a.gender);
    for (const direction of [1000, 'Ascending', 'asc', 'ASC', '1000'])
      expect(names(await sortBy([{ field: 'genderCode', direction }]))).toEqual(asc);
    for (const direction of [1001, 'Descending', 'desc', 'Desc'])
      expect(names(await sortBy([{ field: 'genderCode', direction }]))).toEqual(desc);
    expect(names(await sortBy([{ field: 'genderCode' }]))).toEqual(asc);
  });

  it('applies several sorts by priority, lower first', async () => {
    const result = await sortBy([
      { field: 'id', direction: 'Descending', priority: 3 },
      { field: 'status', direction: 'Descending', priority: 1 },
      { field: 'nameLength', direction: 'Ascending', priority: 2 },
    ]);
    expect(names(result)).toEqual(
      order((a, b) => text(b.status, a.status) || a.userName.length - b.userName.length || byId(b, a)),
    );
  });

  it('sorts by an expression as a whole', async () => {
    expect(
      names(await sortBy([{ field: 'famous', direction: 'Descending' }]))
        .slice(0, 2)
        .sort(),
    ).toEqual(['Alice', 'BOB']);
  });

  it('breaks ties by the unique column', async () => {
    expect(names(await sortBy([{ field: 'createdTime', direction: 'Descending' }]))).toEqual(defaultOrder(rows));
    expect(names(await sortBy([{ field: 'isActive', direction: 'Ascending' }]))).toEqual(
      order((a, b) => Number(a.isActive) - Number(b.isActive)),
    );
  });

  it('falls back to the default sort when no sort is usable', async () => {
    const result = await sortBy(
      [{ field: 'bogus' }, { field: 'phone' }, { field: 'remark' }, { field: 'email', direction: 'Descending' }],
      [],
    );
    expect(names(result)).toEqual(defaultOrder(rows));
    // With the permission the e-mail sorts (on e-mails whose order no collation can dispute).
    const filters = [
      { field: 'email', operator: 'EndsWith', value: '@example.com' },
      { field: 'email', operator: 'StartsWith', value: 'member' },
    ];
    const result2 = await all({ conditions: { filters, sorts: [{ field: 'email', direction: 'Descending' }] } });
    const expected = rows
      .filter((u) => u.email?.startsWith('member') && u.email.endsWith('@example.com'))
      .map((u) => u.email!)
      .sort()
      .reverse();
    expect(expected.length).toBeGreaterThan(3);
    expect(result2.items.map((i) => rows.find((u) => u.id === i.id)!.email)).toEqual(expected);
  });
});
