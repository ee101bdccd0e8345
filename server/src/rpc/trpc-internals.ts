/**
 * The one file that reads tRPC's internals (`_def`, `_type`, `_middlewares`); nothing else may
 * (a source scan in trpc-internals.test.ts holds every other file to it). tRPC's public API has
 * no way to list a router's procedures with their meta and schemas, to tell whether a procedure
 * passes through a given middleware, or to run a procedure without its own runner, and the REST
 * facade needs all three: the route table is derived from the procedures, the start-up check
 * proves every non-anonymous procedure is guarded, and the facade runs procedures itself (below).
 * tRPC is pinned to an exact version in package.json so these shapes cannot move under us.
 *
 * The runner: tRPC's own copies the call options with a down-levelled object-spread helper at
 * every step, which costs more than the rest of a small request; this runner follows the same
 * contract (each middleware gets the call options plus `meta` and `next`; `next({ ctx, input })`
 * merges ctx and replaces input) with native spreads. It runs exactly the middlewares tRPC would,
 * in order, except:
 *   - tRPC's error-shape middleware: the facade writes errors itself;
 *   - middlewares marked TRPC_ONLY (what only the /trpc transport needs);
 * and the input and output validation steps are rebuilt without the copying (see fastStep).
 * A parity test (trpc-internals.test.ts) runs the same calls through tRPC's caller and this runner.
 */

import { TRPCError, type AnyRouter } from '@trpc/server';
import type { RouteMeta } from './meta.js';

/** Marks a middleware function that only the /trpc transport needs. */
export const TRPC_ONLY = Symbol('trpc-only');

type Middleware = ((opts: Record<string, unknown>) => Promise<MiddlewareResult>) & {
  _type?: string;
  [TRPC_ONLY]?: boolean;
};
type MiddlewareResult = { ok: true; data: unknown } | { ok: false; error: unknown };

interface NextOptions {
  ctx?: Record<string, unknown>;
  input?: unknown;
  getRawInput?: () => Promise<unknown>;
}

interface ProcedureLike {
  _def: { middlewares: Middleware[]; meta?: unknown; type: string; inputs: unknown[]; output?: unknown };
}

function proceduresOf(router: AnyRouter): Record<string, ProcedureLike> {
  return router._def.procedures as Record<string, ProcedureLike>;
}

function procedureAt(router: AnyRouter, key: string): ProcedureLike {
  const procedure = proceduresOf(router)[key];
  if (!procedure) throw new Error(`No procedure ${key}`);
  return procedure;
}

/** What the route table, the OpenAPI document and the SDK know of a procedure. */
export interface ProcedureInfo {
  /** tRPC path: `<ServiceName>.<MethodName>`. */
  key: string;
  type: 'query' | 'mutation' | 'subscription';
  meta?: RouteMeta;
  inputs: readonly unknown[];
  output?: unknown;
}

/** Every procedure of a router, flattened to its dotted path. */
export function listProcedures(router: AnyRouter): ProcedureInfo[] {
  return Object.entries(proceduresOf(router)).map(([key, { _def: def }]) => ({
    key,
    type: def.type as ProcedureInfo['type'],
    meta: def.meta as RouteMeta | undefined,
    inputs: def.inputs,
    output: def.output,
  }));
}

/** Marks every function a middleware builder holds, so passesThrough can find it later. */
export function markMiddleware(builder: unknown, marker: symbol): void {
  for (const fn of (builder as { _middlewares: object[] })._middlewares) Object.assign(fn, { [marker]: true });
}

/** Whether the procedure at `key` runs a middleware marked with `marker` (markMiddleware). */
export function passesThrough(router: AnyRouter, key: string, marker: symbol): boolean {
  return procedureAt(router, key)._def.middlewares.some(
    (m) => (m as unknown as Record<symbol, unknown>)[marker] === true,
  );
}

interface SchemaLike {
  parse(value: unknown): unknown;
  parseAsync?(value: unknown): Promise<unknown>;
}

/**
 * The parse step tRPC builds for a zod-like schema: synchronous, falling back to the async parse
 * when the schema needs it (async refinements).
 */
function parseFn(schema: SchemaLike): (value: unknown) => unknown {
  let async = false;
  return (value) => {
    if (!async) {
      try {
        return schema.parse(value);
      } catch (cause) {
        if (Array.isArray((cause as { issues?: unknown })?.issues) || !schema.parseAsync) throw cause;
        async = true;
      }
    }
    return schema.parseAsync!(value);
  };
}

/**
 * tRPC's input and output steps call the same parse and raise the same errors, but copy results
 * with the slow spread helper; with one input schema the copy is unnecessary, so the same steps
 * are built here. Any other middleware runs as tRPC built it.
 */
function fastStep(middleware: Middleware, def: ProcedureLike['_def']): Middleware {
  const isSchema = (v: unknown): v is SchemaLike => typeof (v as SchemaLike | undefined)?.parse === 'function';
  if (middleware._type === 'input' && def.inputs.length === 1 && isSchema(def.inputs[0])) {
    const parse = parseFn(def.inputs[0]);
    return (async (opts: {
      getRawInput: () => Promise<unknown>;
      next: (o: NextOptions) => Promise<MiddlewareResult>;
    }) => {
      let input: unknown;
      try {
        input = await parse(await opts.getRawInput());
      } catch (cause) {
        throw new TRPCError({ code: 'BAD_REQUEST', cause });
      }
      return opts.next({ input });
    }) as unknown as Middleware;
  }
  if (middleware._type === 'output' && isSchema(def.output)) {
    const parse = parseFn(def.output);
    return (async (opts: { next: () => Promise<MiddlewareResult> }) => {
      const result = await opts.next();
      if (!result.ok) return result;
      try {
        return { ok: true, data: await parse(result.data) };
      } catch (cause) {
        throw new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause });
      }
    }) as unknown as Middleware;
  }
  return middleware;
}

export type Executor = (ctx: object, input: unknown, path: string) => Promise<unknown>;

/** The runner of the procedure at `key`, built once per route. */
export function createExecutor(router: AnyRouter, key: string): Executor {
  const procedure = procedureAt(router, key);
  const chain = procedure._def.middlewares
    .filter((m) => m._type !== 'errors' && !m[TRPC_ONLY])
    .map((m) => fastStep(m, procedure._def));
  const meta = procedure._def.meta;
  const type = procedure._def.type;

  // Every level builds its options with the same keys in the same order, so the middleware
  // calls stay monomorphic (spreading objects of varying shapes is what made tRPC's runner slow).
  const call = async (
    index: number,
    path: string,
    ctx: object,
    input: unknown,
    getRawInput: () => Promise<unknown>,
  ): Promise<MiddlewareResult> => {
    const middleware = chain[index];
    if (!middleware)
      return { ok: false, error: new Error('No result from middlewares - a middleware did not return next()') };
    try {
      return await middleware({
        ctx,
        type,
        path,
        input,
        getRawInput,
        signal: undefined,
        batchIndex: 0,
        meta,
        next: (next?: NextOptions) =>
          call(
            index + 1,
            path,
            next?.ctx ? { ...ctx, ...next.ctx } : ctx,
            next && 'input' in next ? next.input : input,
            next?.getRawInput ?? getRawInput,
          ),
      });
    } catch (error) {
      return { ok: false, error };
    }
  };

  return async (ctx, input, path) => {
    const result = await call(0, path, ctx, undefined, () => Promise.resolve(input));
    if (!result) throw new Error('No result from middlewares - did you forget to return next()?');
    if (!result.ok) throw result.error;
    return result.data;
  };
}
