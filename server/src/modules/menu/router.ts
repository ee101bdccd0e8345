import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zQueryId } from '../../rpc/wire.js';
import { actorOf } from '../audit/change.js';
import { permission } from '../authz/permission-catalogue.js';
import { canOf, withKeyword } from '../permission/admin-scope.js';
import {
  createMenuInput,
  menuDetail,
  menuListInput,
  menuPage,
  menuPageInput,
  menuStatusInput,
  menuTreeNode,
  updateMenuInput,
} from './schemas.js';

const idQuery = z.object({ id: zQueryId() });

/**
 * /api/Menu: a tenant manages its own menus; the platform state manages the global ones
 * (tenant 0), which every tenant reads but cannot change (403).
 */
export const menuRouter = router({
  CreateMenuAsync: authedProcedure
    .meta({
      permission: permission('saas:menu:create'),
      summary: 'Adds a menu to the current context (the platform state: a global menu)',
    })
    .input(createMenuInput)
    .output(menuDetail)
    .mutation(({ ctx, input }) => ctx.services.menus.create(actorOf(ctx), input)),

  UpdateMenuAsync: authedProcedure
    .meta({
      permission: permission('saas:menu:update'),
      summary: "Changes one of the context's own menus; a new parentId moves it (not under itself)",
    })
    .input(updateMenuInput)
    .output(menuDetail)
    .mutation(({ ctx, input }) => ctx.services.menus.update(actorOf(ctx), input)),

  UpdateMenuStatusAsync: authedProcedure
    .meta({ permission: permission('saas:menu:status'), summary: "Enables or disables one of the context's own menus" })
    .input(menuStatusInput)
    .output(menuDetail)
    .mutation(({ ctx, input }) =>
      ctx.services.menus.setStatus(actorOf(ctx), input.basicId, input.status, input.version),
    ),

  DeleteMenuAsync: authedProcedure
    .meta({
      permission: permission('saas:menu:delete'),
      summary: "Deletes one of the context's own menus without sub-menus (soft delete)",
    })
    .input(idQuery)
    .output(z.boolean())
    .mutation(async ({ ctx, input }) => {
      await ctx.services.menus.remove(actorOf(ctx), input.id);
      return true;
    }),
});

/** /api/MenuQuery: the global menus and the context's own. */
export const menuQueryRouter = router({
  GetMenuPageAsync: authedProcedure
    .meta({
      paged: true,
      permission: permission('saas:menu:read'),
      summary: 'Paged menus (global and own; keyword over code, name and title)',
    })
    .input(menuPageInput)
    .output(menuPage)
    .mutation(async ({ ctx, input }) => {
      const { keyword, menuType, status, parentId, ...request } = input;
      return ctx.services.menus.page(
        ctx.auth.tenantId,
        withKeyword(request, keyword),
        { menuType, status, parentId },
        await canOf(ctx),
      );
    }),

  GetMenuListAsync: authedProcedure
    .meta({
      permission: permission('saas:menu:read'),
      summary: 'Every menu the context reads, flat (optionally of one type or status)',
    })
    .input(menuListInput)
    .output(z.array(menuDetail))
    .query(({ ctx, input }) => ctx.services.menus.list(ctx.auth.tenantId, input ?? {})),

  GetMenuDetailAsync: authedProcedure
    .meta({ permission: permission('saas:menu:read'), summary: 'One menu (global or own)' })
    .input(idQuery)
    .output(menuDetail)
    .query(({ ctx, input }) => ctx.services.menus.detail(ctx.auth.tenantId, input.id)),

  GetMenuTreeAsync: authedProcedure
    .meta({ permission: permission('saas:menu:read'), summary: 'Every menu the context reads, nested' })
    .output(z.array(menuTreeNode))
    .query(({ ctx }) => ctx.services.menus.tree(ctx.auth.tenantId)),
});
