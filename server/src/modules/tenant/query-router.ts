import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zQueryId } from '../../rpc/wire.js';
import { availableTenants } from '../auth/login/landing.js';
import { availableTenant } from '../auth/schemas.js';
import { permission } from '../authz/permission-catalogue.js';
import { canOf, requirePlatform, withKeyword } from '../permission/admin-scope.js';
import { tenantDetail, tenantPage, tenantPageInput } from './schemas.js';

/** /api/TenantQuery: what the signed-in user may switch into; the platform's tenant lists. */
export const tenantQueryRouter = router({
  GetMyAvailableTenantsAsync: authedProcedure
    .meta({
      summary: 'Tenants the user can switch into (the super-administrator: every available tenant)',
      allowOutsideTenant: true,
    })
    .output(z.array(availableTenant))
    .query(async ({ ctx }) => {
      const { auth, deps } = ctx;
      const isSuperAdmin = (await ctx.services.authz.get(auth.userId, 0n)).isSuperAdmin;
      const rows = await availableTenants(deps.db, auth.userId, isSuperAdmin, deps.clock.now());
      return rows.map((t) => ({
        ...t,
        tenantId: String(t.tenantId),
        membershipId: t.membershipId === null ? null : String(t.membershipId),
        isCurrent: t.tenantId === auth.tenantId,
      }));
    }),

  GetTenantPageAsync: authedProcedure
    .meta({
      paged: true,
      permission: permission('saas:tenant:read'),
      summary: 'Paged tenants with edition and seats used (platform state)',
    })
    .input(tenantPageInput)
    .output(tenantPage)
    .mutation(async ({ ctx, input }) => {
      requirePlatform(ctx);
      const { keyword, tenantStatus, ...request } = input;
      return ctx.services.tenants.page(withKeyword(request, keyword), tenantStatus, await canOf(ctx));
    }),

  GetTenantDetailAsync: authedProcedure
    .meta({ permission: permission('saas:tenant:read'), summary: 'One tenant (platform state)' })
    .input(z.object({ id: zQueryId() }))
    .output(tenantDetail)
    .query(({ ctx, input }) => {
      requirePlatform(ctx);
      return ctx.services.tenants.detail(input.id);
    }),
});
