import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zQueryId } from '../../rpc/wire.js';
import { permission } from '../authz/permission-catalogue.js';
import { canOf, withKeyword } from '../permission/admin-scope.js';
import { departmentDetailOf, departmentPageOf, departmentTreeOf, enabledDepartmentsOf } from './router.js';
import {
  departmentDetail,
  departmentPage,
  departmentPageInput,
  departmentTreeNode,
  enabledDepartment,
} from './schemas.js';

/** /api/DepartmentQuery: reads of the caller's context's departments (another tenant's: not found). */
export const departmentQueryRouter = router({
  GetDepartmentPageAsync: authedProcedure
    .meta({
      paged: true,
      permission: permission('saas:department:read'),
      summary: 'Paged departments (keyword over name and code; filters and sorts)',
    })
    .input(departmentPageInput)
    .output(departmentPage)
    .mutation(async ({ ctx, input }) => {
      const { keyword, status, departmentType, parentId, ...request } = input;
      return departmentPageOf(
        ctx,
        ctx.auth.tenantId,
        withKeyword(request, keyword),
        { status, departmentType, parentId },
        await canOf(ctx),
      );
    }),

  GetDepartmentDetailAsync: authedProcedure
    .meta({ permission: permission('saas:department:read'), summary: 'One department with its path from the root' })
    .input(z.object({ id: zQueryId() }))
    .output(departmentDetail)
    .query(({ ctx, input }) => departmentDetailOf(ctx, ctx.auth.tenantId, input.id)),

  GetDepartmentTreeAsync: authedProcedure
    .meta({
      permission: permission('saas:department:read'),
      summary: 'The whole department tree, siblings by sort then name',
    })
    .output(z.array(departmentTreeNode))
    .query(({ ctx }) => departmentTreeOf(ctx, ctx.auth.tenantId)),

  GetEnabledDepartmentsAsync: authedProcedure
    .meta({ permission: permission('saas:department:read'), summary: 'Enabled departments, flat, for pickers' })
    .output(z.array(enabledDepartment))
    .query(({ ctx }) => enabledDepartmentsOf(ctx, ctx.auth.tenantId)),
});
