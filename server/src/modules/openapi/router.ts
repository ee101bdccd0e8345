import { z } from 'zod';
import { formatIsoInZone } from '../../http/datetime.js';
import { RawJson } from '../../http/serialize.js';
import { publicProcedure, router } from '../../rpc/trpc.js';
import { zIdOut } from '../../rpc/wire.js';
import { defineMessages, translate } from '../../i18n/messages.js';

const texts = defineMessages('openApiPing', {
  verified: {
    'zh-CN': 'OpenAPI 签名校验通过',
    'zh-TW': 'OpenAPI 簽章校驗通過',
    'en-US': 'OpenAPI signature verified',
    'ja-JP': 'OpenAPI 署名の検証に成功しました',
    'ko-KR': 'OpenAPI 서명 검증 통과',
    'de-DE': 'OpenAPI-Signatur geprüft',
    'hi-IN': 'OpenAPI हस्ताक्षर सत्यापित',
  },
});

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
      description:
        'Needs the signature headers when OpenApiSecurity protects the path. `serverTimeUtc` is UTC whatever X-Timezone says.',
    })
    .output(
      z.object({
        ok: z.boolean(),
        message: z.string(),
        accessKey: z.string().optional(),
        ownerUserId: zIdOut().optional(),
        serverTimeUtc: z.string(),
      }),
    )
    .query(({ ctx }) => {
      const caller = ctx.signed?.caller;
      return {
        ok: true,
        // The original's text (the original service), in the request's language.
        message: translate(ctx.culture, texts.verified),
        accessKey: caller?.accessKey,
        ownerUserId: caller === undefined ? undefined : String(caller.ownerUserId),
        serverTimeUtc: formatIsoInZone(ctx.deps.clock.now(), 'UTC'),
      };
    }),

  EchoAsync: publicProcedure
    .meta({
      summary: 'Signed-call self-test: the request body unchanged',
      description:
        'The exact bytes of the (decrypted) JSON body come back as `data` on REST calls; an empty body gives no `data`.',
    })
    .input(z.unknown())
    .output(z.unknown())
    .mutation(({ ctx, input }) => {
      if (input === undefined || input === null) return undefined;
      // The body verbatim (for a signed call, the bytes the signature covered, decrypted), as
      // the facade decoded it (a byte-order mark dropped): re-serializing would re-case names,
      // drop nulls and turn big numbers into strings.
      return ctx.rawBody !== undefined && ctx.transport === 'rest' ? new RawJson(ctx.rawBody) : input;
    }),
});
