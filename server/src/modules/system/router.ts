import { z } from 'zod';
import { zDateTimeOut } from '../../rpc/wire.js';
import { publicProcedure, router } from '../../rpc/trpc.js';

/** Service-level facts clients need before they log in. */
export const systemRouter = router({
  /**
   * Server time, for clients that sign requests (X-Timestamp must be within the tolerance) and
   * for checking X-Timezone conversion.
   */
  GetServerTimeAsync: publicProcedure
    .meta({
      summary: 'Current server time',
      description:
        '`serverTime` is written in the X-Timezone zone; `unixSeconds` is what signed calls put in X-Timestamp.',
    })
    .output(z.object({ serverTime: zDateTimeOut(), unixSeconds: z.number().int(), timeZone: z.string() }))
    .query(({ ctx }) => {
      const now = ctx.deps.clock.now();
      return { serverTime: now, unixSeconds: Math.floor(now.getTime() / 1000), timeZone: ctx.timeZone };
    }),
});
