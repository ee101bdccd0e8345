import { describe, expect, it } from 'vitest';
import { bearer } from '../../testing/auth-fixtures.js';
import type { RouteEntry } from '../table.js';
import { objectShape } from '../table.js';
import {
  type Attempt,
  BAD_BODIES,
  BAD_QUERY,
  BAD_VALUES,
  document,
  EDGE_VALUES,
  inspect,
  isEnvelope,
  type Operation,
  plausible,
  queryOf,
  useSweepServer,
} from './sweep-kit.js';

/** The sweeps, each over the routes (or operations) one test file gives it. */

export function wrongShapeSweep(title: string, routes: RouteEntry[]) {
  describe(`hostile input on derived routes (${title})`, () => {
    const sweep = useSweepServer();

    it('answers an envelope, never a 500, for bodies and query values of the wrong shape', async () => {
      const problems: Attempt[] = [];
      let calls = 0;

      const send = async (entry: RouteEntry, suffix: string, body: string | undefined, sent: string) => {
        calls++;
        const res = await sweep.server.request(`${entry.path}${suffix}`, {
          method: entry.method,
          headers: { ...bearer(sweep.token), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body,
        });
        await inspect(res, `${entry.method} ${entry.path}`, sent, problems, isEnvelope);
      };

      for (const entry of routes) {
        await sweep.freshToken();
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
          for (const value of BAD_QUERY)
            await send(entry, queryOf(keys, value), undefined, `query ${value.slice(0, 40)}`);
          for (const key of keys) {
            for (const value of EDGE_VALUES)
              await send(
                entry,
                `?${key}=${encodeURIComponent(String(value))}`,
                undefined,
                `query ${key}=${String(value).slice(0, 40)}`,
              );
          }
          await send(entry, queryOf(keys, 'abc', true), undefined, 'query, keys repeated');
        }
      }

      expect(calls).toBeGreaterThan(routes.length * 8);
      expect(problems).toEqual([]);
    }, 300_000);
  });
}

export function trpcSweep(routes: RouteEntry[]) {
  describe('hostile input on /trpc', () => {
    const sweep = useSweepServer();

    it('answers the same inputs on /trpc with tRPC errors carrying the envelope, never a 500', async () => {
      const problems: Attempt[] = [];
      for (const entry of routes) {
        await sweep.freshToken();
        const keys = Object.keys(objectShape(entry.input) ?? {});
        const inputs = [
          ...BAD_BODIES.filter((b) => b !== '{"a":'),
          ...BAD_VALUES.map((v) =>
            JSON.stringify(Object.fromEntries((keys.length ? keys : ['unknown']).map((k) => [k, v]))),
          ),
        ];
        for (const input of inputs) {
          const res =
            entry.type === 'query'
              ? await sweep.server.request(`/trpc/${entry.key}?input=${encodeURIComponent(input).slice(0, 8_000)}`, {
                  headers: bearer(sweep.token),
                })
              : await sweep.server.request(`/trpc/${entry.key}`, {
                  method: 'POST',
                  headers: { ...bearer(sweep.token), 'content-type': 'application/json' },
                  body: input,
                });
          await inspect(
            res,
            `/trpc/${entry.key}`,
            input.slice(0, 80),
            problems,
            (b) => !!b && (b.result !== undefined || typeof b.error?.data?.envelope?.code === 'number'),
          );
        }
      }
      expect(problems).toEqual([]);
    }, 300_000);
  });
}

export function headerSweep(routes: RouteEntry[]) {
  describe('hostile headers on every derived route', () => {
    const sweep = useSweepServer();

    it('answers text the database cannot hold (U+0000) with 400, and a /trpc input that is not JSON with 400', async () => {
      await sweep.freshToken();
      const english = { ...bearer(sweep.token), 'x-language': 'en-US' };
      const rest = await sweep.server.json('/api/PermissionQuery/Permissions?groupCode=%00', { headers: english });
      expect(rest.status).toBe(400);
      expect(rest.body).toMatchObject({
        code: 400,
        isSuccess: false,
        data: 'The request contains a character that cannot be stored (such as U+0000).',
      });

      const input = encodeURIComponent(JSON.stringify({ groupCode: 'a\u0000b' }));
      const trpc = await sweep.server.json(`/trpc/PermissionQueryService.GetPermissionsAsync?input=${input}`, {
        headers: english,
      });
      expect(trpc.status).toBe(400);
      expect(trpc.body.error.data.envelope).toMatchObject({
        code: 400,
        data: 'The request contains a character that cannot be stored (such as U+0000).',
      });

      const malformed = await sweep.server.json(
        `/trpc/PermissionQueryService.GetPermissionsAsync?input=${encodeURIComponent('{"groupCode":')}`,
        { headers: english },
      );
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
          {
            authorization: `Bearer ${jwt}`,
            'x-access-key': 'k',
            'x-timestamp': '-1',
            'x-nonce': ' ',
            'x-signature': 'zz',
          },
          { authorization: `Bearer ${jwt}`, 'x-device-id': 'd'.repeat(4_000), 'user-agent': 'u'.repeat(8_000) },
        ];
      };
      const problems: Attempt[] = [];
      for (const entry of routes) {
        await sweep.freshToken();
        for (const headers of headerSets(sweep.token)) {
          const res = await sweep.server.request(entry.path, {
            method: entry.method,
            headers: { ...headers, ...(entry.binding === 'body' ? { 'content-type': 'application/json' } : {}) },
            body: entry.binding === 'body' ? '{}' : undefined,
          });
          await inspect(
            res,
            `${entry.method} ${entry.path}`,
            JSON.stringify(headers).slice(0, 100),
            problems,
            (b) => typeof b?.code === 'number',
          );
        }
      }
      expect(problems).toEqual([]);
    }, 300_000);
  });
}

/** Every operation of the committed API document under /api/, in document order. */
export const apiOperations: Array<[route: string, method: string, operation: Operation]> = Object.entries(
  document.paths,
)
  .filter(([route]) => route.startsWith('/api/'))
  .flatMap(([route, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]): [string, string, Operation] => [route, method, operation]),
  );

export function plausibleSweep(
  title: string,
  operations: Array<[route: string, method: string, operation: Operation]>,
  minimumCalls: number,
) {
  describe(`plausible and edge inputs (${title})`, () => {
    const sweep = useSweepServer();

    it('answers plausible inputs (writes also six at once), and with one field at an edge, without a 500', async () => {
      const problems: Attempt[] = [];
      let calls = 0;
      for (const [route, method, operation] of operations) {
        await sweep.freshToken();
        const query = (operation.parameters ?? []).filter((p) => p.in === 'query' && p.name && p.schema);
        const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
        const baseQuery = Object.fromEntries(
          query.map((p) => [p.name!, plausible(p.schema)]).filter(([, v]) => v !== undefined),
        );
        const baseBody = bodySchema ? (plausible(bodySchema) as Record<string, unknown> | undefined) : undefined;
        const variants: Array<{ q: Record<string, unknown>; b: unknown; sent: string }> = [
          { q: baseQuery, b: baseBody, sent: 'plausible' },
        ];
        for (const key of Object.keys(baseQuery))
          for (const v of EDGE_VALUES)
            variants.push({
              q: { ...baseQuery, [key]: v },
              b: baseBody,
              sent: `query ${key}=${String(v).slice(0, 30)}`,
            });
        if (baseBody && typeof baseBody === 'object' && !Array.isArray(baseBody)) {
          for (const key of Object.keys(baseBody))
            for (const v of EDGE_VALUES)
              variants.push({
                q: baseQuery,
                b: { ...baseBody, [key]: v },
                sent: `body ${key}=${JSON.stringify(v).slice(0, 30)}`,
              });
        }
        const call = async (variant: (typeof variants)[number]) => {
          calls++;
          const search = new URLSearchParams(
            Object.entries(variant.q).map(([k, v]): [string, string] => [k, String(v)]),
          ).toString();
          const res = await sweep.server.request(`${route}${search ? `?${search}` : ''}`, {
            method: method.toUpperCase(),
            headers: {
              ...bearer(sweep.token),
              ...(variant.b !== undefined ? { 'content-type': 'application/json' } : {}),
            },
            body: variant.b !== undefined ? JSON.stringify(variant.b) : undefined,
          });
          await inspect(res, `${method.toUpperCase()} ${route}`, variant.sent, problems);
        };
        // The same write six times at once first: racing duplicates must end in 409s, not 500s.
        if (method !== 'get')
          await Promise.all(Array.from({ length: 6 }, () => call({ ...variants[0]!, sent: 'plausible, 6 at once' })));
        for (const variant of variants) await call(variant);
      }
      expect(calls).toBeGreaterThan(minimumCalls);
      expect(problems).toEqual([]);
    }, 300_000);
  });
}
