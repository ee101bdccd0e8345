import { z } from 'zod';
import { formatIsoInZone } from '../../http/datetime.js';
import { RawJson } from '../../http/serialize.js';
import { publicProcedure, router } from '../../rpc/trpc.js';
import { zIdOut } from '../../rpc/wire.js';

/**
 * /api/openapi (fixed route template): the self-test of signed calls. Anonymous in the bearer
 * sense; the identity comes from the signature, checked before the procedure runs when the path
 * is protected (OpenApiSecurity). Without a signature (security off, unprotected path, or an
 * unsigned request let through) they answer without an access key.
 */
export const openApiRouter = router({
  PingAsync: publicProcedure
    .meta({
      method: 'GET',
      summary: 'Signed-call self-test: who signed',
      description: 'Needs the signature headers when OpenApiSecurity protects the path. `serverTimeUtc` is UTC whatever X-Timezone says.',
    })
    .output(z.object({ ok: z.boolean(), accessKey: z.string().optional(), ownerUserId: zIdOut().optional(), serverTimeUtc: z.string() }))
    .query(({ ctx }) => {
      const caller = ctx.signed?.caller;
      return {
        ok: true,
        accessKey: caller?.accessKey,
        ownerUserId: caller === undefined ? undefined : String(caller.ownerUserId),
        serverTimeUtc: formatIsoInZone(ctx.deps.clock.now(), 'UTC'),
      };
    }),

  EchoAsync: publicProcedure
    .meta({
      summary: 'Signed-call self-test: the request body unchanged',
      description: 'A signed call gets the exact bytes of its (decrypted) JSON body back as `data`; an empty body gives no `data`.',
    })
    .input(z.unknown())
    .output(z.unknown())
    .mutation(({ ctx, input }) => {
      const body = ctx.signed?.body;
      if (input === undefined || input === null) return undefined;
      // The bytes the signature covered, verbatim: re-serializing would re-case names and drop nulls.
      return body && ctx.transport === 'rest' ? new RawJson(Buffer.from(body).toString('utf8')) : input;
    }),
});
