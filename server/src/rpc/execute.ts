/**
 * Runs a procedure's middleware chain for the REST facade. tRPC's own runner copies the call
 * options with a down-levelled object-spread helper at every step, which costs more than the
 * rest of a small request; this runner follows the same contract (each middleware gets the call
 * options plus `meta` and `next`; `next({ ctx, input })` merges ctx and replaces input) with
 * native spreads. It runs exactly the middlewares tRPC would, in order, except:
 *   - tRPC's error-shape middleware: the facade writes errors itself;
 *   - middlewares marked TRPC_ONLY (the /trpc output serializer);
 * and the input and output validation steps are rebuilt without the copying (see fastStep).
 * A parity test (execute.test.ts) runs the same calls through tRPC's caller and this runner.
 */

import { TRPCError } from '@trpc/server';

/** Marks a middleware function that only the /trpc transport needs. */
export const TRPC_ONLY = Symbol('trpc-only');

type Middleware = ((opts: Record<string, unknown>) => Promise<MiddlewareResult>) & { _type?: string; [TRPC_ONLY]?: boolean };
type MiddlewareResult = { ok: true; data: unknown } | { ok: false; error: unknown };

interface NextOptions {
  ctx?: Record<string, unknown>;
  input?: unknown;
  getRawInput?: () => Promise<unknown>;
}

export interface ProcedureLike {
  _def: { middlewares: Middleware[]; meta?: unknown; type: string; inputs: unknown[]; output?: unknown };
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
    return (async (opts: { getRawInput: () => Promise<unknown>; next: (o: NextOptions) => Promise<MiddlewareResult> }) => {
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

export function createExecutor(procedure: ProcedureLike): Executor {
  const chain = procedure._def.middlewares.filter((m) => m._type !== 'errors' && !m[TRPC_ONLY]).map((m) => fastStep(m, procedure._def));
  const meta = procedure._def.meta;
  const type = procedure._def.type;

  // Every level builds its options with the same keys in the same order, so the middleware
  // calls stay monomorphic (spreading objects of varying shapes is what made tRPC's runner slow).
  const call = async (index: number, path: string, ctx: object, input: unknown, getRawInput: () => Promise<unknown>): Promise<MiddlewareResult> => {
    const middleware = chain[index];
    if (!middleware) return { ok: false, error: new Error('No result from middlewares - a middleware did not return next()') };
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
