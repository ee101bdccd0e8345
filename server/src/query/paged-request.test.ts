import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { users } from '../../../db/schema/index.js';
import { SUPPORTED_CULTURES } from '../config/schema.js';
import { allMessages } from '../i18n/messages.js';
import { zId } from '../rpc/wire.js';
import { queryMessageKeys } from './messages.js';
import { pageInfo } from './page-info.js';
import { definePagedList } from './paged-list.js';
import { clampPage, PAGED_LIMITS, pagedRequest, pagedRequestSchema } from './paged-request.js';

const parse = (body: unknown) => pagedRequestSchema.parse(body);
const issuesOf = (body: unknown) => {
  const r = pagedRequestSchema.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
};

describe('paged request schema', () => {
  it('accepts an empty body with every default', () => {
    expect(parse({})).toEqual({
      conditions: { keyword: null, filters: [], sorts: [] },
      page: { pageIndex: 1, pageSize: 20 },
    });
    expect(parse({ conditions: null, page: null })).toEqual(parse({}));
    expect(parse({ conditions: { keyword: null, filters: null, sorts: null } })).toEqual(parse({}));
  });

  it('strips keys it does not know, at every level', () => {
    const parsed = parse({
      behavior: { ignoreTenant: true },
      tenantId: 0,
      conditions: {
        extra: 1,
        filters: [{ field: 'a', operator: 'IsNull', sql: '1=1' }],
        sorts: [{ field: 'a', nullsFirst: true }],
      },
      page: { pageIndex: 2, disablePaging: true },
    });
    expect(parsed).toEqual({
      conditions: {
        keyword: null,
        filters: [{ field: 'a', operator: 'IsNull' }],
        sorts: [{ field: 'a', direction: 'Ascending' }],
      },
      page: { pageIndex: 2, pageSize: 20 },
    });
  });

  it('reads operators by number or by name in any case', () => {
    const op = (operator: unknown) =>
      parse({ conditions: { filters: [{ field: 'a', operator, value: 1, values: [1, 2] }] } }).conditions.filters[0]!
        .operator;
    expect([op(1000), op('1000'), op('Equal'), op('equal'), op('EQUAL')]).toEqual(Array(5).fill('Equal'));
    expect([op(3001), op('notin'), op(5001), op('isNotNull')]).toEqual(['NotIn', 'NotIn', 'IsNotNull', 'IsNotNull']);
    expect(issuesOf({ conditions: { filters: [{ field: 'a', operator: 'like', value: 1 }] } })).toEqual([
      'conditions.filters.0.operator',
    ]);
  });

  it('keeps the value an operator reads and drops the other', () => {
    const f = (operator: string) =>
      parse({ conditions: { filters: [{ field: 'a', operator, value: 'v', values: ['x', 'y'] }] } }).conditions
        .filters[0];
    expect(f('Contains')).toEqual({ field: 'a', operator: 'Contains', value: 'v' });
    expect(f('In')).toEqual({ field: 'a', operator: 'In', values: ['x', 'y'] });
    expect(f('IsNull')).toEqual({ field: 'a', operator: 'IsNull' });
  });

  it('reads sort directions by number or name, Asc and Desc included, and priorities', () => {
    const dir = (direction: unknown) =>
      parse({ conditions: { sorts: [{ field: 'a', direction }] } }).conditions.sorts[0]!.direction;
    expect([dir(1000), dir('ascending'), dir('Asc'), dir(null), dir(undefined)]).toEqual(Array(5).fill('Ascending'));
    expect([dir(1001), dir('DESCENDING'), dir('desc'), dir('1001')]).toEqual(Array(4).fill('Descending'));
    expect(parse({ conditions: { sorts: [{ field: 'a', priority: '3' }] } }).conditions.sorts[0]!.priority).toBe(3);
    expect(issuesOf({ conditions: { sorts: [{ field: 'a', direction: 1002 }] } })).toEqual([
      'conditions.sorts.0.direction',
    ]);
  });

  it('normalizes the keyword: trimmed, Contains by default, null when blank', () => {
    expect(parse({ conditions: { keyword: { value: '  bob ' } } }).conditions.keyword).toEqual({
      value: 'bob',
      fields: [],
      matchMode: 'Contains',
    });
    expect(
      parse({ conditions: { keyword: { value: 'b', fields: ['x'], matchMode: 2001 } } }).conditions.keyword,
    ).toEqual({ value: 'b', fields: ['x'], matchMode: 'StartsWith' });
    expect(parse({ conditions: { keyword: { value: ' ', fields: ['x'] } } }).conditions.keyword).toBeNull();
    expect(parse({ conditions: { keyword: { fields: ['x'] } } }).conditions.keyword).toBeNull();
    expect(issuesOf({ conditions: { keyword: { value: 'a', matchMode: 'Between' } } })).toEqual([
      'conditions.keyword.matchMode',
    ]);
  });

  it('clamps the page as the SPEC says', () => {
    const page = (p: unknown) => parse({ page: p }).page;
    expect(page({ pageIndex: 0 }).pageIndex).toBe(1);
    expect(page({ pageIndex: -5 }).pageIndex).toBe(1);
    expect(page({ pageIndex: 1e15 }).pageIndex).toBe(PAGED_LIMITS.maxPageIndex);
    expect(page({ pageSize: 0 }).pageSize).toBe(20);
    expect(page({ pageSize: 100000 }).pageSize).toBe(500);
    expect(page({ pageSize: '500' }).pageSize).toBe(500);
    expect(page({}).pageSize).toBe(20);
    expect(clampPage(3, 501)).toEqual({ pageIndex: 3, pageSize: 500 });
    expect(issuesOf({ page: { pageIndex: 1.5 } })).toEqual(['page.pageIndex']);
  });

  it('refuses input over the bounds, naming the field', () => {
    const filters = (n: number) => Array.from({ length: n }, () => ({ field: 'a', operator: 'IsNull' }));
    expect(issuesOf({ conditions: { filters: filters(50) } })).toEqual([]);
    expect(issuesOf({ conditions: { filters: filters(51) } })).toEqual(['conditions.filters']);
    expect(issuesOf({ conditions: { sorts: Array.from({ length: 11 }, () => ({ field: 'a' })) } })).toEqual([
      'conditions.sorts',
    ]);
    expect(
      issuesOf({ conditions: { filters: [{ field: 'a', operator: 'In', values: Array(1001).fill(1) }] } }),
    ).toEqual(['conditions.filters.0.values']);
    expect(issuesOf({ conditions: { filters: [{ field: 'a', operator: 'In', values: ['x'.repeat(201)] }] } })).toEqual([
      'conditions.filters.0.values.0',
    ]);
    expect(issuesOf({ conditions: { filters: [{ field: 'a'.repeat(101), operator: 'IsNull' }] } })).toEqual([
      'conditions.filters.0.field',
    ]);
    expect(issuesOf({ conditions: { keyword: { value: 'x', fields: Array(51).fill('a') } } })).toEqual([
      'conditions.keyword.fields',
    ]);
    expect(issuesOf({ conditions: { keyword: { value: 'x'.repeat(200) } } })).toEqual([]);
  });

  it('requires the values an operator reads', () => {
    const one = (f: Record<string, unknown>) => issuesOf({ conditions: { filters: [{ field: 'a', ...f }] } });
    expect(one({ operator: 'Equal' })).toEqual(['conditions.filters.0.value']);
    expect(one({ operator: 'Equal', value: null })).toEqual(['conditions.filters.0.value']);
    expect(one({ operator: 'Between', values: [1, null] })).toEqual(['conditions.filters.0.values']);
    expect(one({ operator: 'Between', values: [1, 2, 3] })).toEqual(['conditions.filters.0.values']);
    expect(one({ operator: 'NotIn', values: 7 })).toEqual(['conditions.filters.0.values']);
    expect(one({ operator: 'In', values: [] })).toEqual([]);
    expect(one({ operator: 'IsNull', value: null })).toEqual([]);
  });
});

describe('pagedRequest', () => {
  it('extends the SPEC object with business fields and still strips the rest', () => {
    const schema = pagedRequest({ departmentId: zId().optional(), status: z.enum(['Enabled', 'Disabled']).optional() });
    const parsed = schema.parse({ departmentId: '42', status: 'Enabled', junk: 1, page: { pageSize: 5 } });
    expect(parsed).toEqual({
      departmentId: 42n,
      status: 'Enabled',
      conditions: { keyword: null, filters: [], sorts: [] },
      page: { pageIndex: 1, pageSize: 5 },
    });
  });

  it('refuses to redefine the SPEC parts', () => {
    expect(() => pagedRequest({ page: z.number() })).toThrow(/page/);
  });
});

describe('page info', () => {
  it('numbers records from 1 and has no pages when there is nothing', () => {
    expect(pageInfo(2, 10, 25, 10)).toMatchObject({
      totalPages: 3,
      startRecord: 11,
      endRecord: 20,
      hasPrevious: true,
      hasNext: true,
    });
    expect(pageInfo(3, 10, 25, 5)).toMatchObject({ startRecord: 21, endRecord: 25, hasNext: false, isLastPage: true });
    expect(pageInfo(1, 10, 20, 10)).toMatchObject({ totalPages: 2, isLastPage: false });
    expect(pageInfo(1, 20, 0, 0)).toMatchObject({
      totalPages: 0,
      startRecord: 0,
      endRecord: 0,
      isFirstPage: true,
      isLastPage: true,
      hasNext: false,
      hasPrevious: false,
    });
  });
});

describe('list declarations', () => {
  const base = { defaultSort: [{ field: 'id' }] as [{ field: 'id' }], tieBreaker: users.id };
  it('fail when defined, not on the first request', () => {
    expect(() =>
      definePagedList({
        ...base,
        fields: { id: { column: users.id, type: 'id' }, 'bad name': { column: users.id, type: 'id' } },
      }),
    ).toThrow(/bad name/);
    expect(() =>
      definePagedList({
        ...base,
        fields: { id: { column: users.id, type: 'id' }, ID: { column: users.id, type: 'id' } },
      }),
    ).toThrow(/case/);
    expect(() => definePagedList({ ...base, fields: { id: { column: users.id, type: 'id', keyword: true } } })).toThrow(
      /string/,
    );
    expect(() =>
      // @ts-expect-error the default sort must name a declared field
      definePagedList({ ...base, defaultSort: [{ field: 'nope' }], fields: { id: { column: users.id, type: 'id' } } }),
    ).toThrow(/nope/);
    expect(() =>
      // Declared, but not a keyword field.
      definePagedList({
        ...base,
        defaultKeywordFields: ['name'],
        fields: { id: { column: users.id, type: 'id' }, name: { column: users.userName, type: 'string' } },
      }),
    ).toThrow(/name/);
  });
});

describe('messages', () => {
  it('exist in every culture', () => {
    for (const key of queryMessageKeys) {
      const texts = allMessages().get(key);
      for (const culture of SUPPORTED_CULTURES) expect(texts?.[culture], `${key} ${culture}`).toBeTruthy();
    }
  });
});
