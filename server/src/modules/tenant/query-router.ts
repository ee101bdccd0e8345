import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { availableTenants } from '../auth/landing.js';
import { availableTenant } from '../auth/schemas.js';

/** /api/TenantQuery: what the signed-in user may switch into. */
export const tenantQueryRouter = router({
  GetMyAvailableTenantsAsync: authedProcedure
    .meta({ summary: 'Tenants the user can switch into (the super-administrator: every available tenant)' })
    .output(z.array(availableTenant))
    .query(async ({ ctx }) => {
      const { auth, deps } = ctx;
      const isSuperAdmin = (await deps.authz.get(auth.userId, 0n)).isSuperAdmin;
      const rows = await availableTenants(deps.db, auth.userId, isSuperAdmin, deps.clock.now());
      return rows.map((t) => ({
        ...t,
        tenantId: String(t.tenantId),
        membershipId: t.membershipId === null ? null : String(t.membershipId),
        isCurrent: t.tenantId === auth.tenantId,
      }));
    }),
});
