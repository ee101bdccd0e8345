import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zQueryId } from '../../rpc/wire.js';
import { actorOf } from '../audit/change.js';
import { permission } from '../authz/permission-catalogue.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import { requirePlatform } from '../permission/admin-scope.js';
import { createEditionInput, editionDetail, updateEditionInput } from './schemas.js';

const idQuery = z.object({ id: zQueryId() });

/** /api/Edition: platform operations (refused inside a tenant). */
export const editionRouter = router({
  CreateEditionAsync: authedProcedure
    .meta({
      permission: permission('saas:edition:create'),
      summary: 'Creates an edition with its permission whitelist (platform state)',
    })
    .input(createEditionInput)
    .output(editionDetail)
    .mutation(({ ctx, input }) => {
      requirePlatform(ctx);
      return ctx.services.editions.create(actorOf(ctx), input);
    }),

  UpdateEditionAsync: authedProcedure
    .meta({
      permission: permission('saas:edition:update'),
      summary: 'Changes an edition; its tenants get the new whitelist on their next request (platform state)',
    })
    .input(updateEditionInput)
    .output(editionDetail)
    .mutation(({ ctx, input }) => {
      requirePlatform(ctx);
      // A whitelist change is a change of every tenant's codes on the edition: refused while impersonating.
      return ctx.services.editions.update(actorOf(ctx), input, () => refuseWhileImpersonating(ctx.auth));
    }),

  DeleteEditionAsync: authedProcedure
    .meta({
      permission: permission('saas:edition:delete'),
      summary: 'Deletes an edition no live tenant uses (platform state)',
    })
    .input(idQuery)
    .output(z.boolean())
    .mutation(async ({ ctx, input }) => {
      requirePlatform(ctx);
      refuseWhileImpersonating(ctx.auth);
      await ctx.services.editions.remove(actorOf(ctx), input.id);
      return true;
    }),
});

/** /api/EditionQuery: platform reads. */
export const editionQueryRouter = router({
  GetEditionListAsync: authedProcedure
    .meta({ permission: permission('saas:edition:read'), summary: 'Every edition (platform state)' })
    .output(z.array(editionDetail))
    .query(({ ctx }) => {
      requirePlatform(ctx);
      return ctx.services.editions.list();
    }),

  GetEditionDetailAsync: authedProcedure
    .meta({ permission: permission('saas:edition:read'), summary: 'One edition (platform state)' })
    .input(idQuery)
    .output(editionDetail)
    .query(({ ctx, input }) => {
      requirePlatform(ctx);
      return ctx.services.editions.detail(input.id);
    }),
});
