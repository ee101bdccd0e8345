import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zQueryId } from '../../rpc/wire.js';
import { actorOf } from '../audit/change.js';
import { permission } from '../authz/permission-catalogue.js';
import { canOf, withKeyword } from '../permission/admin-scope.js';
import {
  createPositionInput,
  enabledPosition,
  positionDetail,
  positionPage,
  positionPageInput,
  positionStatusInput,
  updatePositionInput,
} from './schemas.js';

const idQuery = z.object({ id: zQueryId() });

/** /api/Position: the position dictionary of the caller's context. */
export const positionRouter = router({
  CreatePositionAsync: authedProcedure
    .meta({
      permission: permission('saas:position:create'),
      summary: 'Adds a position (code unique in the context: 409)',
    })
    .input(createPositionInput)
    .output(positionDetail)
    .mutation(({ ctx, input }) => ctx.services.positions.create(actorOf(ctx), input)),

  UpdatePositionAsync: authedProcedure
    .meta({
      permission: permission('saas:position:update'),
      summary: 'Changes a position (send the version read; a stale one answers 409)',
    })
    .input(updatePositionInput)
    .output(positionDetail)
    .mutation(({ ctx, input }) => ctx.services.positions.update(actorOf(ctx), input)),

  UpdatePositionStatusAsync: authedProcedure
    .meta({ permission: permission('saas:position:status'), summary: 'Enables or disables a position' })
    .input(positionStatusInput)
    .output(positionDetail)
    .mutation(({ ctx, input }) =>
      ctx.services.positions.setStatus(actorOf(ctx), input.basicId, input.status, input.version),
    ),

  DeletePositionAsync: authedProcedure
    .meta({ permission: permission('saas:position:delete'), summary: 'Deletes a position (soft delete)' })
    .input(idQuery)
    .output(z.boolean())
    .mutation(async ({ ctx, input }) => {
      await ctx.services.positions.remove(actorOf(ctx), input.id);
      return true;
    }),
});

/** /api/PositionQuery: reads of the caller's context's positions. */
export const positionQueryRouter = router({
  GetPositionPageAsync: authedProcedure
    .meta({
      paged: true,
      permission: permission('saas:position:read'),
      summary: 'Paged positions (keyword over code and name; filters and sorts)',
    })
    .input(positionPageInput)
    .output(positionPage)
    .mutation(async ({ ctx, input }) => {
      const { keyword, status, ...request } = input;
      return ctx.services.positions.page(ctx.auth.tenantId, withKeyword(request, keyword), status, await canOf(ctx));
    }),

  GetPositionDetailAsync: authedProcedure
    .meta({ permission: permission('saas:position:read'), summary: 'One position' })
    .input(idQuery)
    .output(positionDetail)
    .query(({ ctx, input }) => ctx.services.positions.detail(ctx.auth.tenantId, input.id)),

  GetEnabledPositionsAsync: authedProcedure
    .meta({ permission: permission('saas:position:read'), summary: 'Enabled positions, for pickers' })
    .output(z.array(enabledPosition))
    .query(({ ctx }) => ctx.services.positions.enabled(ctx.auth.tenantId)),
});
