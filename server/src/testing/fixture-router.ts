import { z } from 'zod';
import { appError } from '../errors/app-error.js';
import { commonErrors } from '../errors/common.js';
import { publicProcedure, router } from '../rpc/trpc.js';
import { defineEnum, zBool, zDateTime, zDateTimeOut, zId, zIdOut, zInt, zQueryId } from '../rpc/wire.js';
import { PlainDateTime } from '../http/serialize.js';

/** A router that exercises every binding and serialization rule of the host, for its own tests. */
export const Color = defineEnum('Color', { Red: 1, Green: 2, Blue: 4 });

const echoOut = z.object({
  id: zIdOut().optional(),
  count: z.number().optional(),
  active: z.boolean().optional(),
  color: Color.out().optional(),
  tags: z.array(z.string()).optional(),
  name: z.string().optional(),
  when: zDateTimeOut().optional(),
  nothing: z.null().optional(),
});

export const fixtureRouter = router({
  EchoAppService: router({
    GetEchoAsync: publicProcedure
      .input(
        z.object({
          id: zId(),
          count: zInt().optional(),
          active: zBool().optional(),
          color: Color.schema().optional(),
          tags: z.array(z.string()).optional(),
        }),
      )
      .output(echoOut.extend({ big: z.bigint(), plain: z.instanceof(PlainDateTime) }))
      .query(({ input }) => ({
        id: String(input.id),
        count: input.count,
        active: input.active,
        color: input.color,
        tags: input.tags,
        when: new Date('2026-01-15T08:30:00Z'),
        nothing: null,
        big: 9007199254740993n,
        plain: new PlainDateTime(new Date('2026-01-15T08:30:00Z')),
      })),
    CreateThingAsync: publicProcedure
      .meta({ successCode: 201 })
      .input(
        z.object({ name: z.string().min(1).max(20), size: zId(), color: Color.schema(), at: zDateTime().optional() }),
      )
      .output(echoOut.extend({ size: zIdOut() }))
      .mutation(({ input }) => ({ name: input.name, size: String(input.size), color: input.color, when: input.at })),
    UpdateThingAsync: publicProcedure
      .meta({ query: ['id'] })
      .input(z.object({ id: zQueryId(), name: z.string() }))
      .output(echoOut)
      .mutation(({ input }) => ({ id: String(input.id), name: input.name })),
    DeleteThingAsync: publicProcedure
      .input(z.object({ id: zQueryId() }))
      .output(echoOut)
      .mutation(({ input }) => {
        if (input.id === 0n) throw appError(commonErrors.NOT_FOUND);
        return { id: String(input.id) };
      }),
    PingAsync: publicProcedure.mutation(() => ({ pong: true })),
    FailAsync: publicProcedure.mutation(() => {
      throw new Error('connection string postgres://admin:hunter2@db/prod refused');
    }),
    ConflictAsync: publicProcedure.mutation(() => {
      throw appError(commonErrors.DUPLICATE);
    }),
    /** A login-shaped call whose handler logs carelessly: the logger must still redact. */
    LoginLikeAsync: publicProcedure
      .input(z.object({ username: z.string(), password: z.string(), captchaCode: z.string().optional() }))
      .mutation(({ input, ctx }) => {
        ctx.deps.logger.info('login attempt', { input, headers: Object.fromEntries(ctx.headers) });
        return { accessToken: 'eyJ.secret-access-token', refreshToken: 'secret-refresh-token' };
      }),
  }),
});

export const fixtureApi = { router: fixtureRouter, services: {} };
