import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zQueryId } from '../../rpc/wire.js';
import { actorOf } from '../audit/change.js';
import { permission } from '../authz/permission-catalogue.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import { canOf, requireTenant, withKeyword } from '../permission/admin-scope.js';
import {
  accepted,
  answerInput,
  createInvitationInput,
  invitationDetail,
  invitationPage,
  invitationPageInput,
  myInvitation,
} from './schemas.js';

const ANSWER_NOTE =
  "Login required, no permission code: the invitation must be addressed to the caller's verified e-mail address (403 while it is unverified; 404 for any other invitation). Refused while impersonating.";

/** /api/TenantInvitation: inviting into the current tenant, and answering one's own invitations. */
export const tenantInvitationRouter = router({
  CreateTenantInvitationAsync: authedProcedure
    .meta({
      permission: permission('saas:tenant-member:grant'),
      summary:
        'Invites an e-mail address into the current tenant (the answer and the mail are the same whether the address has an account)',
      description: `Open for 7 days; the membership is made when the invitee accepts (taking a seat then). 409 when the address already belongs to a member here or has an open invitation; at most 200 invitations a day per tenant (429). Refused while impersonating.`,
    })
    .input(createInvitationInput)
    .output(invitationDetail)
    .mutation(({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      requireTenant(ctx);
      return ctx.services.invitations.create(actorOf(ctx), input, ctx.culture);
    }),

  DeleteTenantInvitationAsync: authedProcedure
    .meta({
      permission: permission('saas:tenant-member:revoke'),
      summary: 'Revokes an open invitation of the current tenant',
    })
    .input(z.object({ id: zQueryId() }))
    .output(z.boolean())
    .mutation(async ({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      requireTenant(ctx);
      await ctx.services.invitations.revoke(actorOf(ctx), input.id);
      return true;
    }),

  AcceptTenantInvitationAsync: authedProcedure
    .meta({
      summary:
        'Accepts an invitation addressed to the caller: it becomes a member of that tenant (SwitchTenant enters it)',
      description: ANSWER_NOTE,
    })
    .input(answerInput)
    .output(accepted)
    .mutation(({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      return ctx.services.invitations.accept(actorOf(ctx), input.invitationId);
    }),

  RejectTenantInvitationAsync: authedProcedure
    .meta({ summary: 'Declines an invitation addressed to the caller', description: ANSWER_NOTE })
    .input(answerInput)
    .output(z.boolean())
    .mutation(async ({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      await ctx.services.invitations.reject(actorOf(ctx), input.invitationId);
      return true;
    }),
});

/** /api/TenantInvitationQuery: the current tenant's invitations, and the caller's own. */
export const tenantInvitationQueryRouter = router({
  GetTenantInvitationPageAsync: authedProcedure
    .meta({
      paged: true,
      permission: permission('saas:tenant-member:read'),
      summary: 'Paged invitations of the current tenant (keyword over address and display name)',
    })
    .input(invitationPageInput)
    .output(invitationPage)
    .mutation(async ({ ctx, input }) => {
      const tenantId = requireTenant(ctx);
      const { keyword, status, ...request } = input;
      return ctx.services.invitations.page(tenantId, withKeyword(request, keyword), status, await canOf(ctx));
    }),

  GetMyTenantInvitationsAsync: authedProcedure
    .meta({
      summary: "The open invitations of the caller's verified e-mail address (empty while it is unverified)",
      description: 'Login required, no permission code.',
    })
    .output(z.array(myInvitation))
    .query(({ ctx }) => ctx.services.invitations.mine(ctx.auth.userId)),
});
