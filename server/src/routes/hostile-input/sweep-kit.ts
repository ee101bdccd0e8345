import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { appRouter, serviceRoutes } from '../../app-router.js';
import { createSuperAdmin, loginAs, type TestUser } from '../../testing/auth-fixtures.js';
import { startAdminServer } from '../../testing/admin.js';
import type { TestServer } from '../../testing/harness.js';
import { buildRouteTable, type RouteEntry } from '../table.js';

/**
 * The hostile-input sweeps: every derived route, called by the super-administrator (so permission
 * checks let the input through to validation and the handlers) with inputs of the wrong shape:
 * the answer must always be an envelope, and never a 500. Sweeps, so that a route added later is
 * covered without anyone remembering to write its bad-input cases. Each sweep (and each part of
 * a large one) is a test file of its own, with a server of its own, so the files run in parallel.
 */

const LONG = 'x'.repeat(20_000);
/** Values of the wrong type or out of any range, put in every field a route declares. */
export const BAD_VALUES: unknown[] = [
  { nested: { deep: [1, 2] } },
  [null, 'a'],
  LONG,
  -1,
  1e308,
  true,
  '',
  '%00\u0000',
  '99999999999999999999999999',
];
/** Values that a loose schema may accept, sent in one field at a time. */
// Past 32 bits (integer columns), and dates JavaScript reads but PostgreSQL does not store.
export const EDGE_VALUES: unknown[] = [
  LONG.slice(0, 5_000),
  -1,
  0,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 63,
  '9223372036854775808',
  '-9223372036854775809',
  'a\u0000b',
  ' ',
  '2026-02-30T25:61:00Z',
  '0000-01-01',
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
];
/** Whole bodies of the wrong shape. */
export const BAD_BODIES = [
  '[]',
  '"text"',
  '123',
  'null',
  '{}',
  '{"a":',
  '[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]',
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{}}}',
];
/** Query-string values of the wrong type. */
export const BAD_QUERY = [
  'abc',
  '-1',
  '99999999999999999999999999',
  '1.5',
  'true',
  '%00',
  encodeURIComponent(LONG),
  '[object Object]',
];

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minimum?: number;
  minLength?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
};
export type Operation = {
  parameters?: Array<{ in?: string; name?: string; schema?: JsonSchema; $ref?: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};

/** The committed API document: the input schemas of every operation, as clients read them. */
export const document = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../../../openapi/openapi.json'), 'utf8'),
) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};

/** Strings tried in turn against a schema's pattern (ids, phones, e-mails, codes, dates). */
const STRING_CANDIDATES = [
  '1',
  '123456',
  '13800000000',
  '+8613800000000',
  'user@example.test',
  'abcdefgh',
  'ABC_123',
  'abc-def',
  '2026-05-01',
];

/** A value the schema accepts, as a plain client would fill a form: the first choice, small numbers. */
export function plausible(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return undefined;
  if (schema.$ref) return plausible(document.components.schemas[schema.$ref.split('/').pop()!], depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants) return plausible(variants.find((v) => v.type !== 'null') ?? variants[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v, depth + 1)]));
    case 'array': {
      // One item of a plain type; none of objects (filter lists, whose items are unions).
      const item = plausible(schema.items, depth + 1);
      return item === undefined || typeof item === 'object' ? [] : [item];
    }
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'date-time') return '2026-05-01T08:00:00Z';
      if (schema.format === 'date') return '2026-05-01';
      if (schema.pattern) return STRING_CANDIDATES.find((c) => new RegExp(schema.pattern!, 'u').test(c)) ?? 'abcdefgh';
      return 'abcdefgh'.repeat(Math.ceil((schema.minLength ?? 1) / 8)).slice(0, Math.max(schema.minLength ?? 0, 8));
    default:
      return undefined;
  }
}

export interface Attempt {
  route: string;
  sent: string;
  status: number;
  problem: string;
}

export const table: RouteEntry[] = buildRouteTable(appRouter, serviceRoutes);

export type Parsed = Record<string, any> | undefined;
export const isEnvelope = (b: Parsed) =>
  !!b && typeof b.code === 'number' && typeof b.isSuccess === 'boolean' && typeof b.traceId === 'string';

/**
 * Reads an answer and records a problem when it is a 500 or `accept` refuses its parsed JSON
 * (undefined when the text is not JSON).
 */
export async function inspect(
  res: Response,
  route: string,
  sent: string,
  problems: Attempt[],
  accept: (body: Parsed) => boolean = () => true,
): Promise<void> {
  const text = await res.text();
  let body: Parsed;
  try {
    body = JSON.parse(text) as Parsed;
  } catch {
    body = undefined;
  }
  if (res.status >= 500) problems.push({ route, sent, status: res.status, problem: text.slice(0, 300) });
  else if (!accept(body))
    problems.push({ route, sent, status: res.status, problem: `not the expected shape: ${text.slice(0, 200)}` });
}

export function queryOf(keys: string[], value: string, repeat = false): string {
  if (keys.length === 0) return `?unknown=${value}`;
  // Repeated, a key becomes an array.
  return `?${keys.map((k) => `${k}=${value}${repeat ? `&${k}=${value}` : ''}`).join('&')}`;
}

/** The entries of `list` in part `index` (0-based) of `parts`: a sweep split over files. */
export function part<T>(list: readonly T[], index: number, parts: number): T[] {
  return list.filter((_, i) => i % parts === index);
}

/**
 * A server for one sweep file (captcha off, login throttles raised: the sweeps log in per route)
 * and the super-administrator's fresh sessions: a route may end or lock the caller's own session.
 */
export function useSweepServer() {
  const state = { server: undefined as unknown as TestServer, admin: undefined as unknown as TestUser, token: '' };
  beforeAll(async () => {
    state.server = await startAdminServer();
    state.admin = await createSuperAdmin(state.server.runtime.deps);
  }, 60_000);
  afterAll(async () => {
    await state.server?.close();
  });
  return {
    get server() {
      return state.server;
    },
    get token() {
      return state.token;
    },
    freshToken: async () => (state.token = (await loginAs(state.server, state.admin)).accessToken),
  };
}
