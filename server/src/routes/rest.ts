import type { AnyRouter } from '@trpc/server';
import type { Context } from 'hono';
import type { AppDeps } from '../app-deps.js';
import type { Services } from '../services.js';
import { appError } from '../errors/app-error.js';
import { commonErrors } from '../errors/common.js';
import { readJsonBody } from '../http/body.js';
import { createRequestContext, type HonoEnv } from '../http/request-context.js';
import { respondError, respondSuccess } from '../http/respond.js';
import type { SignedRequest } from '../modules/openapi/types.js';
import { createExecutor } from '../rpc/trpc-internals.js';
import type { RouteEntry } from './table.js';

type Invoke = (ctx: ReturnType<typeof createRequestContext>, input: unknown) => Promise<unknown>;

interface PathRoutes {
  methods: Map<string, { entry: RouteEntry; invoke: Invoke }>;
  allow: string;
}

/** Builds the input object from the query string: repeated keys become arrays, `a.b` nests. */
function queryInput(url: string, entry: RouteEntry, only?: readonly string[]): Record<string, unknown> {
  const q = url.indexOf('?');
  const out: Record<string, unknown> = {};
  if (q < 0) return out;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const [rawKey, value] of params) {
    const [head = '', ...rest] = rawKey.split('.');
    // Query keys bind case-insensitively, like the original's model binding.
    const key = entry.inputKeys.get(head.toLowerCase()) ?? head;
    if (only && !only.includes(key)) continue;
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    let target = out;
    let leaf = key;
    for (const part of rest) {
      const next = (target[leaf] ??= {}) as Record<string, unknown>;
      if (typeof next !== 'object' || Array.isArray(next)) break;
      target = next;
      leaf = part;
    }
    const existing = target[leaf];
    if (existing === undefined) target[leaf] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else target[leaf] = [existing, value];
  }
  return out;
}

/**
 * The REST facade: serves every derived route by calling its tRPC procedure. Paths match
 * case-insensitively; a known path with another method answers 405 with Allow.
 */
export function createRestFacade(router: AnyRouter, table: RouteEntry[], deps: AppDeps, services: Services) {
  const byPath = new Map<string, PathRoutes>();
  for (const entry of table) {
    const lower = entry.path.toLowerCase();
    let routes = byPath.get(lower);
    if (!routes) byPath.set(lower, (routes = { methods: new Map(), allow: '' }));
    const execute = createExecutor(router, entry.key);
    const invoke: Invoke = (ctx, input) => execute(ctx, input, entry.key);
    routes.methods.set(entry.method, { entry, invoke });
    routes.allow = [...routes.methods.keys()].sort().join(', ');
  }

  return {
    /** Whether a path belongs to the facade (used to answer 404 for unknown /api paths). */
    has: (path: string) => byPath.has(path.toLowerCase()),
    /**
     * Serves one request. `signed` comes from the signature check of a protected path: the body
     * it has already read (the stream cannot be read twice) and the signer, for the procedure.
     */
    handle: async (c: Context<HonoEnv>, signed?: SignedRequest): Promise<Response> => {
      let path = c.req.path;
      if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
      const routes = byPath.get(path.toLowerCase());
      if (!routes) return respondError(c, deps, appError(commonErrors.ROUTE_NOT_FOUND));
      const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
      const hit = routes.methods.get(method);
      if (!hit) {
        return respondError(
          c,
          deps,
          appError(commonErrors.METHOD_NOT_ALLOWED, {
            params: { method: c.req.method, allow: routes.allow },
            headers: { Allow: routes.allow },
          }),
        );
      }
      const { entry, invoke } = hit;
      const ctx = createRequestContext(c, deps, services, 'rest');
      if (signed) ctx.signed = signed;
      try {
        let input: unknown;
        if (entry.binding === 'query') input = queryInput(c.req.url, entry);
        else if (entry.binding === 'body') {
          const read = await readJsonBody(c, deps.config.App.MaxRequestBodyBytes, signed?.body);
          input = read.input;
          ctx.rawBody = read.text;
          if (entry.queryKeys.length > 0) {
            // Scalars bound to the query string are never taken from the body (SPEC Errors rule 7).
            const fromQuery = queryInput(c.req.url, entry, entry.queryKeys);
            if (input && typeof input === 'object' && !Array.isArray(input)) {
              const body = { ...(input as Record<string, unknown>) };
              for (const key of entry.queryKeys) delete body[key];
              input = { ...body, ...fromQuery };
            } else if (input === undefined) input = fromQuery;
          }
        }
        const output = await invoke(ctx, input);
        return respondSuccess(c, deps, output, entry.meta.successCode ?? 200, ctx.responseHeaders);
      } catch (error) {
        return respondError(c, deps, error, ctx.responseHeaders);
      }
    },
  };
}
