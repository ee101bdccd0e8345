import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zDateTimeOut, zId, zIdOut } from '../../rpc/wire.js';
import { loginToken } from '../auth/schemas.js';
import { permission } from '../authz/permission-catalogue.js';

/**
 * /api/Impersonation. Start: `CreateImpersonationAsync` -> POST /api/Impersonation/Impersonation;
 * end: `EndImpersonationAsync` -> POST /api/Impersonation/EndImpersonation (no verb prefix);
 * state: `GetImpersonationAsync` -> GET /api/Impersonation/Impersonation.
 */
export const impersonationRouter = router({
  CreateImpersonationAsync: authedProcedure
    .meta({
      permission: permission('saas:impersonation:start'),
      summary:
        'Starts acting as another user: a separate, short session flagged with the impersonator, without a refresh token',
      description:
        "The session lasts Saas__Impersonation__SessionMinutes (default 30) and cannot be refreshed; its one access token lasts as long (exp - iat is the session lifetime). `tenantId` (default: the caller's context) other than the caller's context needs saas:impersonation:cross-tenant, a platform code: it takes effect only in the platform state, so inside a tenant only members of that tenant can be impersonated. " +
        "Refused: oneself, a super-administrator, a disabled user, a user who is not an available member of that tenant (or outside the caller's data scope), a user holding, in any context it belongs to, a permission the caller lacks there (unless the caller is a super-administrator), and from an impersonation session. Audited as ImpersonationStarted.",
    })
    .input(z.object({ userId: zId(), tenantId: zId().nullish(), reason: z.string().trim().max(500).nullish() }))
    .output(
      z.object({
        /** Use it as any access token; `refreshToken` is empty: the session cannot be refreshed. */
        token: loginToken,
        sessionId: zIdOut(),
        userId: zIdOut(),
        userName: z.string(),
        tenantId: zIdOut(),
        impersonatorUserId: zIdOut(),
        expiresAt: zDateTimeOut(),
      }),
    )
    .mutation(({ ctx, input }) => ctx.services.impersonation.start(ctx, input)),

  EndImpersonationAsync: authedProcedure
    .meta({
      summary: 'Ends an impersonation: the current session, or (with sessionId) one the caller started',
      description:
        'Login required, no permission code: the impersonation session itself may end. Audited as ImpersonationEnded.',
    })
    .input(z.object({ sessionId: zId().nullish() }).optional())
    .mutation(({ ctx, input }) => ctx.services.impersonation.end(ctx, input?.sessionId)),

  GetImpersonationAsync: authedProcedure
    .meta({
      summary: 'Whether the current session is an impersonation, by whom and until when',
      description: 'Login required, no permission code.',
    })
    .output(
      z.object({
        isImpersonating: z.boolean(),
        userId: zIdOut(),
        sessionId: zIdOut(),
        impersonatorUserId: zIdOut().optional(),
        impersonatorName: z.string().nullable().optional(),
        expiresAt: zDateTimeOut().optional(),
      }),
    )
    .query(({ ctx }) => ctx.services.impersonation.current(ctx.auth)),
});
