import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zQueryId } from '../../rpc/wire.js';
import { actorOf, type Actor } from '../audit/change.js';
import { permission } from '../authz/permission-catalogue.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import type { AuthedContext } from '../../rpc/context.js';
import { canOf, requirePlatform, requireTenant, withKeyword } from '../permission/admin-scope.js';
import {
  addMemberInput,
  createTenantInput,
  memberDetail,
  memberPage,
  memberPageInput,
  resumeTenantInput,
  suspendTenantInput,
  tenantDetail,
  tenantStatusInput,
  updateMemberInput,
  updateTenantInput,
} from './schemas.js';

const idQuery = z.object({ id: zQueryId() });

/** The caller of a membership operation: its context must be a tenant (422 in the platform state). */
function memberActor(ctx: AuthedContext): Actor {
  requireTenant(ctx);
  return actorOf(ctx);
}

/**
 * /api/Tenant: platform operations on tenants (refused inside a tenant). Suspension, resumption,
 * deletion and changes of edition or expiry reach every node at once: the tenant's sessions
 * answer 403 "tenant not available" from their next request (well within the 60 seconds the
 * spec allows).
 */
export const tenantRouter = router({
  CreateTenantAsync: authedProcedure
    .meta({
      permission: permission('saas:tenant:create'),
      summary: 'Creates a tenant, optionally with its Owner member (platform state)',
    })
    .input(createTenantInput)
    .output(tenantDetail)
    .mutation(({ ctx, input }) => {
      requirePlatform(ctx);
      // It may hand someone the Owner membership: a change of access, refused while impersonating.
      refuseWhileImpersonating(ctx.auth);
      return ctx.services.tenants.create(actorOf(ctx), input);
    }),

  UpdateTenantAsync: authedProcedure
    .meta({
      permission: permission('saas:tenant:update'),
      summary: 'Changes a tenant: names, edition, seat limit, storage quota, expiry (platform state)',
    })
    .input(updateTenantInput)
    .output(tenantDetail)
    .mutation(({ ctx, input }) => {
      requirePlatform(ctx);
      // The edition decides the tenant's permission whitelist: naming one is refused while impersonating.
      if (input.editionId !== undefined) refuseWhileImpersonating(ctx.auth);
      return ctx.services.tenants.update(actorOf(ctx), input);
    }),

  UpdateTenantStatusAsync: authedProcedure
    .meta({
      permission: permission('saas:tenant:status'),
      summary: 'Sets the tenant status: Normal, Suspended, Expired or Disabled (platform state)',
    })
    .input(tenantStatusInput)
    .output(tenantDetail)
    .mutation(({ ctx, input }) => {
      requirePlatform(ctx);
      return ctx.services.tenants.setStatus(
        actorOf(ctx),
        'TenantStatusChanged',
        input.basicId,
        input.tenantStatus,
        input.reason,
        input.version,
      );
    }),

  SuspendTenantAsync: authedProcedure
    .meta({
      permission: permission('saas:tenant:status'),
      summary: 'Suspends a tenant: its sessions answer 403 from their next request (platform state)',
    })
    .input(suspendTenantInput)
    .output(tenantDetail)
    .mutation(({ ctx, input }) => {
      requirePlatform(ctx);
      return ctx.services.tenants.setStatus(
        actorOf(ctx),
        'TenantSuspended',
        input.basicId,
        'Suspended',
        input.reason,
        input.version,
      );
    }),

  ResumeTenantAsync: authedProcedure
    .meta({
      permission: permission('saas:tenant:status'),
      summary: 'Returns a suspended or disabled tenant to Normal (platform state)',
    })
    .input(resumeTenantInput)
    .output(tenantDetail)
    .mutation(({ ctx, input }) => {
      requirePlatform(ctx);
      return ctx.services.tenants.setStatus(
        actorOf(ctx),
        'TenantResumed',
        input.basicId,
        'Normal',
        null,
        input.version,
      );
    }),

  DeleteTenantAsync: authedProcedure
    .meta({
      permission: permission('saas:tenant:delete'),
      summary: 'Deletes a tenant (soft delete; its sessions answer 403) (platform state)',
    })
    .input(idQuery)
    .output(z.boolean())
    .mutation(async ({ ctx, input }) => {
      requirePlatform(ctx);
      refuseWhileImpersonating(ctx.auth);
      await ctx.services.tenants.remove(actorOf(ctx), input.id);
      return true;
    }),
});

/** /api/TenantMember: memberships of the current tenant (switch into it first). */
export const tenantMemberRouter = router({
  AddTenantMemberAsync: authedProcedure
    .meta({
      permission: permission('saas:tenant-member:grant'),
      summary:
        'Adds a user whose home is this tenant (by id), with a validity period; takes a seat. Users of other tenants join by invitation',
    })
    .input(addMemberInput)
    .output(memberDetail)
    // Memberships are access: adding or removing one is refused while impersonating.
    .mutation(({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      return ctx.services.members.add(memberActor(ctx), input);
    }),

  UpdateTenantMemberAsync: authedProcedure
    .meta({
      permission: permission('saas:tenant-member:update'),
      summary:
        "Changes a membership's type, status or validity; one that no longer admits its user ends the user's sessions here",
    })
    .input(updateMemberInput)
    .output(memberDetail)
    // A change of type or status is a change of someone's access: refused while impersonating.
    .mutation(({ ctx, input }) =>
      ctx.services.members.update(memberActor(ctx), input, () => refuseWhileImpersonating(ctx.auth)),
    ),

  RemoveTenantMemberAsync: authedProcedure
    .meta({
      permission: permission('saas:tenant-member:revoke'),
      summary:
        "Removes a membership with the user's roles and departments in the tenant, and ends the user's sessions here",
    })
    .input(idQuery)
    .output(z.boolean())
    .mutation(async ({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      await ctx.services.members.remove(memberActor(ctx), input.id);
      return true;
    }),
});

/** /api/TenantMemberQuery: memberships of the current tenant. */
export const tenantMemberQueryRouter = router({
  GetTenantMemberPageAsync: authedProcedure
    .meta({
      paged: true,
      permission: permission('saas:tenant-member:read'),
      summary: 'Paged memberships of the current tenant (keyword over user name, nick name, real name, display name)',
    })
    .input(memberPageInput)
    .output(memberPage)
    .mutation(async ({ ctx, input }) => {
      const tenantId = requireTenant(ctx);
      const { keyword, memberType, status, ...request } = input;
      return ctx.services.members.page(
        tenantId,
        withKeyword(request, keyword),
        { memberType, status },
        await canOf(ctx),
      );
    }),

  GetTenantMemberDetailAsync: authedProcedure
    .meta({ permission: permission('saas:tenant-member:read'), summary: 'One membership of the current tenant' })
    .input(idQuery)
    .output(memberDetail)
    .query(({ ctx, input }) => ctx.services.members.detail(requireTenant(ctx), input.id)),
});
