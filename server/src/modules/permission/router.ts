import { and, asc, eq, ne } from 'drizzle-orm';
import { z } from 'zod';
import { permissions } from '../../../../db/schema/index.js';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zIdOut } from '../../rpc/wire.js';
import { isPlatformCode, permission } from '../authz/permission-catalogue.js';
import { idOut, snapshotOf } from './admin-scope.js';

const permissionItem = z.object({
  basicId: zIdOut(),
  permissionCode: z.string(),
  permissionName: z.string(),
  groupCode: z.string(),
  description: z.string().nullable().optional(),
  sort: z.number().int(),
});

/**
 * /api/PermissionQuery: the permission catalogue (`saas:<group>:<action>`), what roles and
 * edition whitelists are made of. The wildcard `*` is not part of it (only the seed grants it).
 * Inside a tenant, platform codes are not listed, nor (when its edition has a whitelist) the codes
 * the edition excludes: they could not take effect there.
 */
export const permissionQueryRouter = router({
  GetPermissionsAsync: authedProcedure
    .meta({
      permission: permission('saas:permission:read'),
      summary:
        'The permission catalogue (enabled codes; in a tenant, those that can take effect there: no platform codes, only what its edition allows)',
    })
    .input(z.object({ groupCode: z.string().trim().max(64).optional() }).optional())
    .output(z.array(permissionItem))
    .query(async ({ ctx, input }) => {
      const snapshot = await snapshotOf(ctx);
      const rows = await ctx.deps.db
        .select()
        .from(permissions)
        .where(
          and(
            eq(permissions.isEnabled, true),
            ne(permissions.code, '*'),
            input?.groupCode ? eq(permissions.groupCode, input.groupCode) : undefined,
          ),
        )
        .orderBy(asc(permissions.groupCode), asc(permissions.sort), asc(permissions.code));
      const whitelist = snapshot.editionWhitelist;
      const inTenant = ctx.auth.tenantId !== 0n;
      return rows
        .filter(
          (p) =>
            !(inTenant && isPlatformCode(p.code)) &&
            (whitelist.length === 0 || whitelist.includes(p.code.toLowerCase())),
        )
        .map((p) => ({
          basicId: idOut(p.id),
          permissionCode: p.code,
          permissionName: p.name,
          groupCode: p.groupCode,
          description: p.description,
          sort: p.sort,
        }));
    }),
});
