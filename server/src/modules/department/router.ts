import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { departmentHierarchy, departments } from '../../../../db/schema/department.js';
import type { ServiceScope } from '../../rpc/context.js';
import type { PagedRequest } from '../../query/index.js';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zQueryId } from '../../rpc/wire.js';
import { actorOf } from '../audit/change.js';
import { permission } from '../authz/permission-catalogue.js';
import type { AuthedContext } from '../../rpc/context.js';
import { EnableStatus, idOrNull, idOut, nameIn, requireContextUser } from '../permission/admin-scope.js';
import { authorsOf, type Authors } from '../user/authors.js';
import { departmentList } from './department-list.js';
import { DepartmentType } from './enums.js';
import {
  createDepartmentInput,
  departmentDetail,
  departmentStatusInput,
  updateDepartmentInput,
  type DepartmentItem,
  type DepartmentTreeNode,
} from './schemas.js';
import type { Department, DepartmentNode } from './types.js';
import { notDeleted } from '../../infra/db/predicates.js';

export function toDepartmentItem(d: Department, authors: Authors): DepartmentItem {
  return {
    basicId: idOut(d.id),
    parentId: idOrNull(d.parentId),
    departmentName: d.departmentName,
    departmentCode: d.departmentCode,
    departmentType: nameIn(DepartmentType, d.departmentType, 'Other'),
    leaderId: idOrNull(d.leaderId),
    phone: d.phone,
    email: d.email,
    address: d.address,
    status: nameIn(EnableStatus, d.status, 'Disabled'),
    sort: d.sort,
    remark: d.remark,
    version: d.version,
    createdTime: d.createdTime,
    modifiedTime: d.modifiedTime,
    ...authors(d),
  };
}

function toTreeNode(node: DepartmentNode, authors: Authors): DepartmentTreeNode {
  return { ...toDepartmentItem(node, authors), children: node.children.map((child) => toTreeNode(child, authors)) };
}

/** The whole tree of the tenant, with one lookup for the authors of every department in it. */
export async function departmentTreeOf(
  { deps, services }: ServiceScope,
  tenantId: bigint,
): Promise<DepartmentTreeNode[]> {
  const roots = await services.departments.tree(tenantId);
  const all: Department[] = [];
  const collect = (node: DepartmentNode): void => {
    all.push(node);
    node.children.forEach(collect);
  };
  roots.forEach(collect);
  const authors = await authorsOf(deps.db, all);
  return roots.map((root) => toTreeNode(root, authors));
}

/** One department with its path from the root (the closure's self pair). */
export async function departmentDetailOf({ deps, services }: ServiceScope, tenantId: bigint, id: bigint) {
  const row = await services.departments.get(tenantId, id);
  const [[self], authors] = await Promise.all([
    deps.db
      .select({ path: departmentHierarchy.path, pathName: departmentHierarchy.pathName })
      .from(departmentHierarchy)
      .where(
        and(
          eq(departmentHierarchy.tenantId, tenantId),
          eq(departmentHierarchy.ancestorId, id),
          eq(departmentHierarchy.descendantId, id),
        ),
      ),
    authorsOf(deps.db, [row]),
  ]);
  return { ...toDepartmentItem(row, authors), path: self?.path, pathName: self?.pathName };
}

/** 0 and null both mean "no parent" (the original sends either for a root). */
const parentOf = (id: bigint | null | undefined) =>
  id === undefined ? undefined : id === null || id === 0n ? null : id;

/** The caller: its context, its id for created_by/modified_by, and itself for the audit entry. */
const actor = (ctx: AuthedContext) => {
  const audit = actorOf(ctx);
  return { tenantId: audit.tenantId, actorId: audit.actorId, audit };
};

/**
 * /api/Department: the department tree of the caller's context, over the department service
 * (closure maintained in the same transaction; moves under a descendant refused).
 */
export const departmentRouter = router({
  CreateDepartmentAsync: authedProcedure
    .meta({
      permission: permission('saas:department:create'),
      summary: 'Adds a department (under parentId, or as a root)',
    })
    .input(createDepartmentInput)
    .output(departmentDetail)
    .mutation(async ({ ctx, input }) => {
      const { tenantId, actorId, audit } = actor(ctx);
      if (input.leaderId) await requireContextUser(ctx.deps.db, tenantId, input.leaderId);
      const { parentId, ...fields } = input;
      const row = await ctx.services.departments.create({
        ...fields,
        tenantId,
        actorId,
        audit,
        parentId: parentOf(parentId) ?? null,
      });
      return departmentDetailOf(ctx, tenantId, row.id);
    }),

  UpdateDepartmentAsync: authedProcedure
    .meta({
      permission: permission('saas:department:update'),
      summary: 'Changes a department; a new parentId moves it with its subtree (not under itself or a descendant)',
    })
    .input(updateDepartmentInput)
    .output(departmentDetail)
    .mutation(async ({ ctx, input }) => {
      const { tenantId, actorId, audit } = actor(ctx);
      if (input.leaderId) await requireContextUser(ctx.deps.db, tenantId, input.leaderId);
      const { basicId, version, parentId, ...fields } = input;
      await ctx.services.departments.update({
        ...fields,
        tenantId,
        id: basicId,
        parentId: parentOf(parentId),
        expectedVersion: version,
        actorId,
        audit,
      });
      return departmentDetailOf(ctx, tenantId, basicId);
    }),

  UpdateDepartmentStatusAsync: authedProcedure
    .meta({ permission: permission('saas:department:status'), summary: 'Enables or disables a department' })
    .input(departmentStatusInput)
    .output(departmentDetail)
    .mutation(async ({ ctx, input }) => {
      const { tenantId, actorId, audit } = actor(ctx);
      await ctx.services.departments.setStatus({
        tenantId,
        id: input.basicId,
        status: input.status,
        expectedVersion: input.version,
        actorId,
        audit,
      });
      return departmentDetailOf(ctx, tenantId, input.basicId);
    }),

  DeleteDepartmentAsync: authedProcedure
    .meta({
      permission: permission('saas:department:delete'),
      summary: 'Deletes a department without sub-departments (soft delete)',
    })
    .input(z.object({ id: zQueryId() }))
    .output(z.boolean())
    .mutation(async ({ ctx, input }) => {
      const { tenantId, actorId, audit } = actor(ctx);
      await ctx.services.departments.remove(tenantId, input.id, actorId, undefined, audit);
      return true;
    }),
});

/** The paged list of DepartmentQuery/DepartmentPage. */
export async function departmentPageOf(
  { deps }: ServiceScope,
  tenantId: bigint,
  request: PagedRequest,
  filters: { status?: string | null; departmentType?: string | null; parentId?: bigint | null },
  can: (code: string) => boolean,
) {
  const result = await departmentList.run(deps.db, {
    request,
    base: and(
      eq(departments.tenantId, tenantId),
      notDeleted(departments.isDeleted),
      filters.status ? eq(departments.status, filters.status) : undefined,
      filters.departmentType ? eq(departments.departmentType, filters.departmentType) : undefined,
      filters.parentId ? eq(departments.parentId, filters.parentId) : undefined,
    ),
    can,
    select: (q) => q.select().from(departments).$dynamic(),
  });
  // One lookup for the authors of the whole page.
  const authors = await authorsOf(deps.db, result.items);
  return { ...result, items: result.items.map((d) => toDepartmentItem(d, authors)) };
}

/** Enabled departments of the tenant, flat, for pickers. */
export async function enabledDepartmentsOf({ deps }: ServiceScope, tenantId: bigint) {
  const rows = await deps.db
    .select()
    .from(departments)
    .where(
      and(eq(departments.tenantId, tenantId), notDeleted(departments.isDeleted), eq(departments.status, 'Enabled')),
    )
    .orderBy(asc(departments.sort), asc(departments.departmentName), asc(departments.id));
  return rows.map((d) => ({
    basicId: idOut(d.id),
    parentId: idOrNull(d.parentId),
    departmentName: d.departmentName,
    departmentCode: d.departmentCode,
    sort: d.sort,
  }));
}
