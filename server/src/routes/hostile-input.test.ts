import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter, serviceRoutes } from '../app-router.js';
import { bearer, createSuperAdmin, loginAs, type TestUser } from '../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';
import { buildRouteTable, objectShape, type RouteEntry } from './table.js';

/**
 * Every derived route, called by the super-administrator (so permission checks let the input
 * through to validation and the handlers) with inputs of the wrong shape: the answer must always
 * be an envelope, and never a 500. A sweep, so that a route added later is covered without
 * anyone remembering to write its bad-input cases.
 */

const LONG = 'x'.repeat(20_000);
/** Values of the wrong type or out of any range, put in every field a route declares. */
const BAD_VALUES: unknown[] = [{ nested: { deep: [1, 2] } }, [null, 'a'], LONG, -1, 1e308, true, '', '%00\u0000', '99999999999999999999999999'];
/** Values that a loose schema may accept, sent in one field at a time. */
// Past 32 bits (integer columns), and dates JavaScript reads but PostgreSQL does not store.
const EDGE_VALUES: unknown[] = [LONG.slice(0, 5_000), -1, 0, 2 ** 31, -(2 ** 31) - 1, 2 ** 63, '9223372036854775808', '-9223372036854775809', 'a\u0000b', ' ', '2026-02-30T25:61:00Z', '0000-01-01', '0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'];
/** Whole bodies of the wrong shape. */
const BAD_BODIES = ['[]', '"text"', '123', 'null', '{}', '{"a":', '[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]', '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{}}}'];
/** Query-string values of the wrong type. */
const BAD_QUERY = ['abc', '-1', '99999999999999999999999999', '1.5', 'true', '%00', encodeURIComponent(LONG), '[object Object]'];

type JsonSchema = { $ref?: string; type?: string | string[]; format?: string; enum?: unknown[]; const?: unknown; pattern?: string; minimum?: number; minLength?: number; items?: JsonSchema; properties?: Record<string, JsonSchema>; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; allOf?: JsonSchema[]; default?: unknown };
type Operation = { parameters?: Array<{ in?: string; name?: string; schema?: JsonSchema; $ref?: string }>; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } };

/** The committed API document: the input schemas of every operation, as clients read them. */
const document = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../openapi/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};

/** Strings tried in turn against a schema's pattern (ids, phones, e-mails, codes, dates). */
const STRING_CANDIDATES = ['1', '123456', '13800000000', '+8613800000000', 'user@example.test', 'abcdefgh', 'ABC_123', 'abc-def', '2026-05-01'];

/** A value the schema accepts, as a plain client would fill a form: the first choice, small numbers. */
function plausible(schema: JsonSchema | undefined, depth = 0): unknown {
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

interface Attempt {
  route: string;
  sent: string;
  status: number;
  problem: string;
}

const table: RouteEntry[] = buildRouteTable(appRouter, serviceRoutes);

type Parsed = Record<string, any> | undefined;
const isEnvelope = (b: Parsed) => !!b && typeof b.code === 'number' && typeof b.isSuccess === 'boolean' && typeof b.traceId === 'string';

/**
 * Reads an answer and records a problem when it is a 500 or `accept` refuses its parsed JSON
 * (undefined when the text is not JSON).
 */
async function inspect(res: Response, route: string, sent: string, problems: Attempt[], accept: (body: Parsed) => boolean = () => true): Promise<void> {
  const text = await res.text();
  let body: Parsed;
  try {
    body = JSON.parse(text) as Parsed;
  } catch {
    body = undefined;
  }
  if (res.status >= 500) problems.push({ route, sent, status: res.status, problem: text.slice(0, 300) });
  else if (!accept(body)) problems.push({ route, sent, status: res.status, problem: `not the expected shape: ${text.slice(0, 200)}` });
}

function queryOf(keys: string[], value: string, repeat = false): string {
  if (keys.length === 0) return `?unknown=${value}`;
  // Repeated, a key becomes an array.
  return `?${keys.map((k) => `${k}=${value}${repeat ? `&${k}=${value}` : ''}`).join('&')}`;
}

describe('hostile input on every derived route', () => {
  let server: TestServer;
  let admin: TestUser;
  let token = '';

  beforeAll(async () => {
    server = await startTestServer({ config: { Saas: { Auth: { CaptchaEnabled: false, ThrottlePerAccountAndIp: 10_000, ThrottlePerIp: 100_000 } } } });
    admin = await createSuperAdmin(server.runtime.deps);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });
  /** A fresh session: a route may end or lock the caller's own session. */
  const freshToken = async () => (token = (await loginAs(server, admin)).accessToken);

  it('answers an envelope, never a 500, for bodies and query values of the wrong shape', async () => {
    const problems: Attempt[] = [];
    let calls = 0;

    const send = async (entry: RouteEntry, suffix: string, body: string | undefined, sent: string) => {
      calls++;
      const res = await server.request(`${entry.path}${suffix}`, {
        method: entry.method,
        headers: { ...bearer(token), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body,
      });
      await inspect(res, `${entry.method} ${entry.path}`, sent, problems, isEnvelope);
    };

    for (const entry of table) {
      await freshToken();
      const keys = Object.keys(objectShape(entry.input) ?? {});
      if (entry.binding === 'body') {
        for (const body of BAD_BODIES) await send(entry, '', body, body);
        for (const value of BAD_VALUES) {
          const body = JSON.stringify(Object.fromEntries((keys.length ? keys : ['unknown']).map((k) => [k, value])));
          await send(entry, '', body, body.slice(0, 80));
        }
        // One field at a time, the others left out: where they are optional the value passes
        // validation and reaches the handler and the database.
        for (const key of keys) {
          for (const value of EDGE_VALUES) {
            const body = JSON.stringify({ [key]: value });
            await send(entry, '', body, body.slice(0, 80));
          }
        }
      } else {
        for (const value of BAD_QUERY) await send(entry, queryOf(keys, value), undefined, `query ${value.slice(0, 40)}`);
        for (const key of keys) {
          for (const value of EDGE_VALUES) await send(entry, `?${key}=${encodeURIComponent(String(value))}`, undefined, `query ${key}=${String(value).slice(0, 40)}`);
        }
        await send(entry, queryOf(keys, 'abc', true), undefined, 'query, keys repeated');
      }
    }

    expect(calls).toBeGreaterThan(table.length * 8);
    expect(problems).toEqual([]);
  }, 300_000);

  it('answers the same inputs on /trpc with tRPC errors carrying the envelope, never a 500', async () => {
    const problems: Attempt[] = [];
    for (const entry of table) {
      await freshToken();
      const keys = Object.keys(objectShape(entry.input) ?? {});
      const inputs = [...BAD_BODIES.filter((b) => b !== '{"a":'), ...BAD_VALUES.map((v) => JSON.stringify(Object.fromEntries((keys.length ? keys : ['unknown']).map((k) => [k, v]))))];
      for (const input of inputs) {
        const res =
          entry.type === 'query'
            ? await server.request(`/trpc/${entry.key}?input=${encodeURIComponent(input).slice(0, 8_000)}`, { headers: bearer(token) })
            : await server.request(`/trpc/${entry.key}`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: input });
        await inspect(res, `/trpc/${entry.key}`, input.slice(0, 80), problems, (b) => !!b && (b.result !== undefined || typeof b.error?.data?.envelope?.code === 'number'));
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('answers text the database cannot hold (U+0000) with 400, and a /trpc input that is not JSON with 400', async () => {
    await freshToken();
    const english = { ...bearer(token), 'x-language': 'en-US' };
    const rest = await server.json('/api/PermissionQuery/Permissions?groupCode=%00', { headers: english });
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: 400, isSuccess: false, data: 'The request contains a character that cannot be stored (such as U+0000).' });

    const input = encodeURIComponent(JSON.stringify({ groupCode: 'a\u0000b' }));
    const trpc = await server.json(`/trpc/PermissionQueryService.GetPermissionsAsync?input=${input}`, { headers: english });
    expect(trpc.status).toBe(400);
    expect(trpc.body.error.data.envelope).toMatchObject({ code: 400, data: 'The request contains a character that cannot be stored (such as U+0000).' });

    const malformed = await server.json(`/trpc/PermissionQueryService.GetPermissionsAsync?input=${encodeURIComponent('{"groupCode":')}`, { headers: english });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.data.envelope).toMatchObject({ code: 400, isSuccess: false });
  });

  it('answers hostile headers (tokens, zones, languages, trace ids, signature headers) with envelopes, never a 500', async () => {
    const headerSets = (jwt: string): Array<Record<string, string>> => {
      const [head, body] = jwt.split('.');
      return [
        { authorization: 'Bearer a.b.c' },
        { authorization: `Bearer ${'x'.repeat(8_000)}` },
        { authorization: 'Basic dXNlcjpwYXNz' },
        { authorization: 'Bearer' },
        { authorization: `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${body}.` },
        { authorization: `Bearer ${head}.${body}.${'A'.repeat(43)}` },
        { authorization: `Bearer ${jwt}`, 'x-timezone': 'Mars/Olympus_Mons' },
        { authorization: `Bearer ${jwt}`, 'x-timezone': '../../../etc/passwd' },
        { authorization: `Bearer ${jwt}`, 'x-timezone': '+99:99' },
        { authorization: `Bearer ${jwt}`, 'x-language': `*;q=abc, zz-ZZ;q=2, ${'en;q=0.1,'.repeat(200)}` },
        { authorization: `Bearer ${jwt}`, 'accept-language': 'x'.repeat(4_000) },
        { authorization: `Bearer ${jwt}`, 'x-trace-id': '<script>alert(1)</script>' },
        { authorization: `Bearer ${jwt}`, 'x-forwarded-for': 'not-an-ip, , ::::' },
        { authorization: `Bearer ${jwt}`, 'x-access-key': 'k', 'x-timestamp': '-1', 'x-nonce': ' ', 'x-signature': 'zz' },
        { authorization: `Bearer ${jwt}`, 'x-device-id': 'd'.repeat(4_000), 'user-agent': 'u'.repeat(8_000) },
      ];
    };
    const problems: Attempt[] = [];
    for (const entry of table) {
      await freshToken();
      for (const headers of headerSets(token)) {
        const res = await server.request(entry.path, { method: entry.method, headers: { ...headers, ...(entry.binding === 'body' ? { 'content-type': 'application/json' } : {}) }, body: entry.binding === 'body' ? '{}' : undefined });
        await inspect(res, `${entry.method} ${entry.path}`, JSON.stringify(headers).slice(0, 100), problems, (b) => typeof b?.code === 'number');
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('answers plausible inputs (writes also six at once), and with one field at an edge, without a 500', async () => {
    const problems: Attempt[] = [];
    let calls = 0;
    for (const [route, operations] of Object.entries(document.paths)) {
      if (!route.startsWith('/api/')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        await freshToken();
        const query = (operation.parameters ?? []).filter((p) => p.in === 'query' && p.name && p.schema);
        const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
        const baseQuery = Object.fromEntries(query.map((p) => [p.name!, plausible(p.schema)]).filter(([, v]) => v !== undefined));
        const baseBody = bodySchema ? (plausible(bodySchema) as Record<string, unknown> | undefined) : undefined;
        const variants: Array<{ q: Record<string, unknown>; b: unknown; sent: string }> = [{ q: baseQuery, b: baseBody, sent: 'plausible' }];
        for (const key of Object.keys(baseQuery)) for (const v of EDGE_VALUES) variants.push({ q: { ...baseQuery, [key]: v }, b: baseBody, sent: `query ${key}=${String(v).slice(0, 30)}` });
        if (baseBody && typeof baseBody === 'object' && !Array.isArray(baseBody)) {
          for (const key of Object.keys(baseBody)) for (const v of EDGE_VALUES) variants.push({ q: baseQuery, b: { ...baseBody, [key]: v }, sent: `body ${key}=${JSON.stringify(v).slice(0, 30)}` });
        }
        const call = async (variant: (typeof variants)[number]) => {
          calls++;
          const search = new URLSearchParams(Object.entries(variant.q).map(([k, v]): [string, string] => [k, String(v)])).toString();
          const res = await server.request(`${route}${search ? `?${search}` : ''}`, {
            method: method.toUpperCase(),
            headers: { ...bearer(token), ...(variant.b !== undefined ? { 'content-type': 'application/json' } : {}) },
            body: variant.b !== undefined ? JSON.stringify(variant.b) : undefined,
          });
          await inspect(res, `${method.toUpperCase()} ${route}`, variant.sent, problems);
        };
        // The same write six times at once first: racing duplicates must end in 409s, not 500s.
        if (method !== 'get') await Promise.all(Array.from({ length: 6 }, () => call({ ...variants[0]!, sent: 'plausible, 6 at once' })));
        for (const variant of variants) await call(variant);
      }
    }
    expect(calls).toBeGreaterThan(200);
    expect(problems).toEqual([]);
  }, 300_000);
});
