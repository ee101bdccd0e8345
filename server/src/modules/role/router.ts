import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { requirePermission } from '../auth/session/session-gate.js';
import { actorOf } from '../audit/change.js';
import { permission } from '../authz/permission-catalogue.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import type { AuthedContext } from '../../rpc/context.js';
import { snapshotOf } from '../permission/admin-scope.js';
import {
  batchResult,
  batchRolePermissionsInput,
  createRoleInput,
  grantRolePermissionInput,
  hierarchyInput,
  hierarchyQuery,
  idQuery,
  revokeRolePermissionInput,
  roleDataScope,
  roleDataScopeInput,
  roleDetail,
  roleHierarchy,
  rolePermissionItem,
  rolePermissionStatusInput,
  roleStatusInput,
  updateRoleInput,
} from './schemas.js';
import type { Scope } from './service.js';

const scopeOf = (ctx: AuthedContext): Scope => actorOf(ctx);

/** What changing a role's data scope needs, through RoleDataScope or a role update alike. */
const DATA_SCOPE_CODE = permission('saas:role-data-scope:update');

/**
 * /api/Role: roles of the caller's context, their grants, inheritance and data scope. Changes to
 * grants, inheritance, status and data scope apply to holders on their next request.
 */
export const roleRouter = router({
  CreateRoleAsync: authedProcedure
    .meta({
      permission: permission('saas:role:create'),
      summary:
        'Creates a role in the current context; a data scope other than the default (SelfOnly), or departments, also needs saas:role-data-scope:update',
    })
    .input(createRoleInput)
    .output(roleDetail)
    .mutation(async ({ ctx, input }) => {
      // As on update: choosing what a role sees is the data-scope permission's (a form that sends
      // the default scope asks for nothing).
      const widens =
        (input.dataScope !== undefined && input.dataScope !== 'SelfOnly') || (input.departmentIds?.length ?? 0) > 0;
      if (widens) await requirePermission(ctx, ctx.auth, DATA_SCOPE_CODE);
      return ctx.services.roles.create(scopeOf(ctx), input);
    }),

  UpdateRoleAsync: authedProcedure
    .meta({
      permission: permission('saas:role:update'),
      summary:
        'Updates a role (send the version read; a stale one answers 409); a changed dataScope also needs saas:role-data-scope:update',
    })
    .input(updateRoleInput)
    .output(roleDetail)
    .mutation(async ({ ctx, input }) => {
      // A data scope in the body is checked here (outside the transaction: the snapshot may need
      // the database) and the refusal raised only if the scope really changes.
      const touchesScope = input.dataScope !== undefined || input.departmentIds !== undefined;
      const scopeRefusal = touchesScope
        ? await requirePermission(ctx, ctx.auth, DATA_SCOPE_CODE).then(
            () => undefined,
            (error: unknown) => error,
          )
        : undefined;
      return ctx.services.roles.update(scopeOf(ctx), input, () => {
        refuseWhileImpersonating(ctx.auth);
        if (scopeRefusal) throw scopeRefusal;
      });
    }),

  UpdateRoleStatusAsync: authedProcedure
    .meta({
      permission: permission('saas:role:status'),
      summary: 'Enables or disables a role (a disabled role grants nothing)',
    })
    .input(roleStatusInput)
    .output(roleDetail)
    .mutation(({ ctx, input }) => {
      // Enabling or disabling a role grants or takes away its codes from every holder.
      refuseWhileImpersonating(ctx.auth);
      return ctx.services.roles.setStatus(scopeOf(ctx), input.basicId, input.status, input.version);
    }),

  DeleteRoleAsync: authedProcedure
    .meta({ permission: permission('saas:role:delete'), summary: 'Deletes a role no user holds (soft delete)' })
    .input(idQuery)
    .output(z.boolean())
    .mutation(async ({ ctx, input }) => {
      // A deleted parent role takes its codes from everyone holding a role that inherits from it.
      refuseWhileImpersonating(ctx.auth);
      await ctx.services.roles.remove(scopeOf(ctx), input.id);
      return true;
    }),

  CreateRolePermissionAsync: authedProcedure
    .meta({
      permission: permission('saas:role-permission:grant'),
      summary: 'Grants a permission (by id or code) to a role; only codes the caller holds',
    })
    .input(grantRolePermissionInput)
    .output(z.array(rolePermissionItem))
    .mutation(async ({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      return ctx.services.roleGrants.grant(scopeOf(ctx), await snapshotOf(ctx), input.roleId, input);
    }),

  DeleteRolePermissionAsync: authedProcedure
    .meta({ permission: permission('saas:role-permission:revoke'), summary: 'Revokes a permission from a role' })
    .input(revokeRolePermissionInput)
    .output(z.array(rolePermissionItem))
    .mutation(({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      return ctx.services.roleGrants.revoke(scopeOf(ctx), input.roleId, input);
    }),

  UpdateRolePermissionStatusAsync: authedProcedure
    .meta({ permission: permission('saas:role-permission:status'), summary: 'Enables or disables one grant of a role' })
    .input(rolePermissionStatusInput)
    .output(z.array(rolePermissionItem))
    .mutation(async ({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      return ctx.services.roleGrants.setStatus(scopeOf(ctx), await snapshotOf(ctx), input.roleId, input, input.status);
    }),

  BatchUpdateRolePermissionsAsync: authedProcedure
    .meta({
      method: 'POST',
      permission: permission('saas:role-permission:update'),
      summary: "Replaces a role's grants with the given set; answers the codes granted and revoked",
    })
    .input(batchRolePermissionsInput)
    .output(batchResult)
    .mutation(async ({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      return ctx.services.roleGrants.replace(scopeOf(ctx), await snapshotOf(ctx), input.roleId, {
        ids: input.permissionIds,
        codes: input.permissionCodes,
      });
    }),

  UpdateRoleDataScopeAsync: authedProcedure
    .meta({ permission: DATA_SCOPE_CODE, summary: 'Sets the data scope of a role (Custom: with its departments)' })
    .input(roleDataScopeInput)
    .output(roleDataScope)
    .mutation(({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      return ctx.services.roles.setDataScope(scopeOf(ctx), input);
    }),

  CreateRoleHierarchyAsync: authedProcedure
    .meta({
      permission: permission('saas:role-hierarchy:create'),
      summary: 'Makes a role inherit from another of the same context (cycles refused)',
    })
    .input(hierarchyInput)
    .output(roleHierarchy)
    .mutation(async ({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      return ctx.services.roleGrants.addParent(scopeOf(ctx), await snapshotOf(ctx), input.roleId, input.parentRoleId);
    }),

  DeleteRoleHierarchyAsync: authedProcedure
    .meta({
      permission: permission('saas:role-hierarchy:delete'),
      summary: 'Ends the inheritance of a role from a parent',
    })
    .input(hierarchyQuery)
    .output(roleHierarchy)
    .mutation(({ ctx, input }) => {
      refuseWhileImpersonating(ctx.auth);
      return ctx.services.roleGrants.removeParent(scopeOf(ctx), input.roleId, input.parentRoleId);
    }),
});
