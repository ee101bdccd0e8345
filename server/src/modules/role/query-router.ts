import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { permission } from '../authz/permission-catalogue.js';
import { canOf, withKeyword } from '../permission/admin-scope.js';
import {
  enabledRole,
  idQuery,
  roleDataScope,
  roleDetail,
  roleHierarchy,
  roleIdQuery,
  rolePage,
  rolePageInput,
  rolePermissionItem,
} from './schemas.js';

/** /api/RoleQuery: reads of the roles of the caller's context (another tenant's: not found). */
export const roleQueryRouter = router({
  GetRolePageAsync: authedProcedure
    .meta({
      paged: true,
      permission: permission('saas:role:read'),
      summary: 'Paged roles of the current context (keyword over code and name; filters and sorts)',
    })
    .input(rolePageInput)
    .output(rolePage)
    .mutation(async ({ ctx, input }) => {
      const { keyword, status, roleType, dataScope, ...request } = input;
      return ctx.services.roles.page(
        ctx.auth.tenantId,
        withKeyword(request, keyword),
        { status, roleType, dataScope },
        await canOf(ctx),
      );
    }),

  GetRoleDetailAsync: authedProcedure
    .meta({ permission: permission('saas:role:read'), summary: 'One role' })
    .input(idQuery)
    .output(roleDetail)
    .query(({ ctx, input }) => ctx.services.roles.detail(ctx.auth.tenantId, input.id)),

  GetEnabledRolesAsync: authedProcedure
    .meta({ permission: permission('saas:role:read'), summary: 'Enabled roles of the current context, for pickers' })
    .output(z.array(enabledRole))
    .query(({ ctx }) => ctx.services.roles.enabled(ctx.auth.tenantId)),

  GetRolePermissionsAsync: authedProcedure
    .meta({
      permission: permission('saas:role-permission:read'),
      summary: 'Permissions granted to a role, with the status of each grant',
    })
    .input(roleIdQuery)
    .output(z.array(rolePermissionItem))
    .query(({ ctx, input }) => ctx.services.roleGrants.list(ctx.auth.tenantId, input.roleId)),

  GetRoleHierarchyAsync: authedProcedure
    .meta({
      permission: permission('saas:role-hierarchy:read'),
      summary: 'The roles a role inherits from (parents) and those inheriting from it (children)',
    })
    .input(roleIdQuery)
    .output(roleHierarchy)
    .query(({ ctx, input }) => ctx.services.roleGrants.hierarchy(ctx.auth.tenantId, input.roleId)),

  GetRoleDataScopeAsync: authedProcedure
    .meta({
      permission: permission('saas:role-data-scope:read'),
      summary: 'The data scope of a role and, for Custom, its departments',
    })
    .input(roleIdQuery)
    .output(roleDataScope)
    .query(({ ctx, input }) => ctx.services.roles.dataScope(ctx.auth.tenantId, input.roleId)),
});
