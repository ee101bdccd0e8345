import { initTRPC, TRPCError } from '@trpc/server';
import { trpcErrorShape } from '../http/envelope.js';
import { toWire } from '../http/serialize.js';
import { answerOf } from './call-errors.js';
import type { RequestContext } from './context.js';
import { markMiddleware, TRPC_ONLY } from './trpc-internals.js';
import {
  authenticateToken,
  bearerToken,
  enforceLock,
  enforceTenant,
  requirePermission,
} from '../modules/auth/session/session-gate.js';

/** Marks the guard middleware, so the route table can prove every non-anonymous procedure has it. */
export const GUARD = Symbol('guard');
import type { RouteMeta } from './meta.js';

/**
 * The one tRPC instance. Modules import `router` and the base procedures from here and nothing
 * else from tRPC, so every procedure gets the same context, meta, errors and serialization.
 */
const t = initTRPC
  .context<RequestContext>()
  .meta<RouteMeta>()
  .create({
    defaultMeta: { auth: 'user' },
    // Stacks never leave the process, whatever NODE_ENV says.
    isDev: false,
    // Errors at /trpc carry the same envelope the REST facade writes, under `data.envelope`: the
    // /trpc endpoint works it out when the error is raised (answerCallError), before tRPC formats it.
    errorFormatter({ shape, error }) {
      const answer = answerOf(error);
      if (!answer)
        return {
          message: shape.message,
          code: shape.code,
          data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path },
        };
      const { message, code, data } = trpcErrorShape(answer.status, answer.envelope, shape.data.path);
      return { message, code: code as typeof shape.code, data: { ...data, code: data.code as typeof shape.data.code } };
    },
  });

/** Output goes through the shared serializer for /trpc; the REST facade serializes itself. */
const wireOutputFn = async ({
  ctx,
  next,
}: {
  ctx: RequestContext;
  next: () => Promise<{ ok: boolean; data?: unknown }>;
}) => {
  const result = await next();
  if (result.ok && ctx.transport === 'trpc') {
    return { ...result, data: toWire(result.data, { timeZone: ctx.timeZone }) };
  }
  return result;
};
Object.assign(wireOutputFn, { [TRPC_ONLY]: true });
const wireOutput = t.middleware(wireOutputFn as never);

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;
export const mergeRouters = t.mergeRouters;

/** Anonymous access (LoginConfig, Login, RefreshToken, ...). */
export const publicProcedure = t.procedure.use(wireOutput).meta({ auth: 'anonymous' });
/** The undecorated base that the authentication layer builds its procedures on. */
export const baseProcedure = t.procedure.use(wireOutput);

/**
 * The gate of every non-anonymous procedure: authentication, the session's tenant, the lock, and the
 * permission code named in meta, read from the authorization snapshot at request time.
 */
const guard = t.middleware(async ({ ctx, meta, next }) => {
  const auth = await authenticateToken(ctx, bearerToken(ctx.authorization));
  enforceTenant(auth, meta, ctx.deps.clock.nowMs());
  enforceLock(auth, meta);
  if (meta?.permission) await requirePermission(ctx, auth, meta.permission);
  if (ctx.accessLog) {
    ctx.accessLog.userId = String(auth.userId);
    ctx.accessLog.tenantId = String(auth.tenantId);
  }
  return next({ ctx: { auth } });
});
// Marked so the route table can prove every non-anonymous procedure passes through it.
markMiddleware(guard, GUARD);

/** Requires a valid session (and, with `meta({ permission })`, that permission). */
export const authedProcedure = baseProcedure.meta({ auth: 'user' }).use(guard);

export { TRPCError };
