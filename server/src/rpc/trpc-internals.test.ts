import { TRPCError } from '@trpc/server';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appError } from '../errors/app-error.js';
import { commonErrors } from '../errors/common.js';
import { createExecutor, listProcedures, passesThrough } from './trpc-internals.js';
import {
  authedProcedure,
  baseProcedure,
  createCallerFactory,
  GUARD,
  middleware,
  publicProcedure,
  router,
} from './trpc.js';

/** Same calls through tRPC's caller and through the REST executor must agree exactly. */
const addUser = middleware(({ next }) => next({ ctx: { user: 'alice' } }));
const refuse = middleware(({ ctx, next }) => {
  if ((ctx as { deny?: boolean }).deny) throw appError(commonErrors.NOT_FOUND);
  return next();
});
const audit: string[] = [];
const record = middleware(async ({ path, type, meta, input, next }) => {
  audit.push(`${path}|${type}|${JSON.stringify(meta)}|${JSON.stringify(input)}`);
  const result = await next();
  audit.push(`after:${result.ok}`);
  return result;
});

const fixture = router({
  S: router({
    Echo: baseProcedure
      .meta({ summary: 'echo' })
      .use(record)
      .use(addUser)
      .use(refuse)
      .input(z.object({ n: z.number().transform((v) => v * 2) }))
      .output(z.object({ n: z.number(), user: z.string() }))
      .mutation(({ input, ctx }) => ({
        n: input.n,
        user: (ctx as unknown as { user: string }).user,
        extra: 'stripped',
      })),
    BadOutput: baseProcedure.output(z.object({ n: z.number() })).query(() => ({ n: 'x' }) as never),
    AsyncRefine: baseProcedure
      .input(z.object({ s: z.string() }).refine(async (v) => v.s !== 'no', { message: 'refused' }))
      .mutation(({ input }) => input.s),
    Throws: baseProcedure.mutation(() => {
      throw new TRPCError({ code: 'CONFLICT', message: 'x' });
    }),
  }),
});

const caller = createCallerFactory(fixture);

async function both(path: string, input: unknown, ctx: Record<string, unknown> = {}) {
  const [service, method] = path.split('.') as [string, string];
  type Outcome = { data?: unknown; error?: unknown };
  const viaTrpc: Outcome = await (caller({ transport: 'rest', ...ctx } as never) as any)[service][method](input).then(
    (data: unknown) => ({ data }),
    (error: unknown) => ({ error }),
  );
  const viaExecutor: Outcome = await createExecutor(fixture, path)({ transport: 'rest', ...ctx }, input, path).then(
    (data) => ({ data }),
    (error: unknown) => ({ error }),
  );
  return { viaTrpc, viaExecutor };
}

/** The cause that the envelope mapper would use (TRPCError wrapping is transport detail). */
function cause(error: unknown): unknown {
  let e = error;
  while (e instanceof TRPCError && e.cause) e = e.cause;
  return e instanceof TRPCError ? e.code : (e as Error).constructor.name;
}

describe('REST executor parity with tRPC', () => {
  it('runs middlewares in order with the same options, ctx merges and parsed input', async () => {
    audit.length = 0;
    const { viaTrpc, viaExecutor } = await both('S.Echo', { n: 2 });
    expect(viaExecutor).toEqual(viaTrpc);
    expect(viaExecutor).toEqual({ data: { n: 4, user: 'alice' } });
    expect(audit[0]).toBe(audit[2]);
    expect(audit).toEqual([
      'S.Echo|mutation|{"auth":"user","summary":"echo"}|undefined',
      'after:true',
      'S.Echo|mutation|{"auth":"user","summary":"echo"}|undefined',
      'after:true',
    ]);
  });

  it('fails input validation with the same BAD_REQUEST and issues', async () => {
    const { viaTrpc, viaExecutor } = await both('S.Echo', { n: 'two' });
    expect((viaExecutor.error as TRPCError).code).toBe('BAD_REQUEST');
    expect((viaTrpc.error as TRPCError).code).toBe('BAD_REQUEST');
    expect(((viaExecutor.error as TRPCError).cause as z.ZodError).issues).toEqual(
      ((viaTrpc.error as TRPCError).cause as z.ZodError).issues,
    );
  });

  it('surfaces a middleware refusal as the same cause', async () => {
    const { viaTrpc, viaExecutor } = await both('S.Echo', { n: 1 }, { deny: true });
    expect(cause(viaExecutor.error)).toBe('AppError');
    expect(cause(viaTrpc.error)).toBe('AppError');
  });

  it('fails output validation the same way', async () => {
    const { viaTrpc, viaExecutor } = await both('S.BadOutput', undefined);
    expect((viaExecutor.error as TRPCError).code).toBe('INTERNAL_SERVER_ERROR');
    expect((viaTrpc.error as TRPCError).code).toBe('INTERNAL_SERVER_ERROR');
    expect((viaExecutor.error as TRPCError).message).toBe((viaTrpc.error as TRPCError).message);
  });

  it('handles schemas that need the async parse', async () => {
    const ok = await both('S.AsyncRefine', { s: 'yes' });
    expect(ok.viaExecutor).toEqual(ok.viaTrpc);
    const refused = await both('S.AsyncRefine', { s: 'no' });
    expect((refused.viaExecutor.error as TRPCError).code).toBe('BAD_REQUEST');
    expect((refused.viaTrpc.error as TRPCError).code).toBe('BAD_REQUEST');
  });

  it('passes a TRPCError from the resolver through', async () => {
    const { viaTrpc, viaExecutor } = await both('S.Throws', undefined);
    expect(cause(viaExecutor.error)).toBe('CONFLICT');
    expect(cause(viaTrpc.error)).toBe('CONFLICT');
  });
});

describe('tRPC internals', () => {
  const api = router({
    S: router({
      Guarded: authedProcedure
        .meta({ permission: 'p' })
        .input(z.object({ a: z.string() }))
        .query(() => 1),
      Open: publicProcedure.mutation(() => 1),
      Unguarded: baseProcedure.query(() => 1),
    }),
  });

  it('lists every procedure with its type, meta and schemas', () => {
    const listed = listProcedures(api);
    expect(listed.map((p) => [p.key, p.type, p.meta?.auth, p.inputs.length])).toEqual([
      ['S.Guarded', 'query', 'user', 1],
      ['S.Open', 'mutation', 'anonymous', 0],
      ['S.Unguarded', 'query', 'user', 0],
    ]);
    expect(listed[0]!.meta?.permission).toBe('p');
  });

  it('tells which procedures pass through the guard', () => {
    expect(passesThrough(api, 'S.Guarded', GUARD)).toBe(true);
    expect(passesThrough(api, 'S.Open', GUARD)).toBe(false);
    expect(passesThrough(api, 'S.Unguarded', GUARD)).toBe(false);
  });

  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const adapter = 'server/src/rpc/trpc-internals.ts';
  // The underscored members of tRPC's objects, as whole identifiers (`token_type` is not one).
  const internal = new RegExp(`(?<![\\w$])_(?:${['def', 'type', 'middlewares'].join('|')})(?![\\w$])`);

  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      if (entry.name === 'node_modules' || entry.name === 'dist') return [];
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sources(path);
      return /\.(?:ts|mts|cts|js|mjs)$/.test(entry.name) ? [path] : [];
    });
  }

  it('are read in one adapter only', () => {
    const files = ['server', 'client-sdk', 'scripts', 'db'].flatMap((dir) => sources(join(root, dir)));
    expect(files.length).toBeGreaterThan(100);
    const offenders = files
      .map((file) => relative(root, file).split('\\').join('/'))
      .filter((file) => file !== adapter && internal.test(readFileSync(join(root, file), 'utf8')));
    expect(offenders).toEqual([]);
    expect(internal.test(readFileSync(join(root, adapter), 'utf8'))).toBe(true);
  });
});
