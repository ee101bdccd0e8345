import { authedProcedure, router } from '../../rpc/trpc.js';
import { dashboardSummary } from './schemas.js';
import { dashboardSummaryOf } from './summary.js';

/** /api/WorkbenchQuery: the start page of the admin front end. */
export const workbenchQueryRouter = router({
  GetDashboardSummaryAsync: authedProcedure
    .meta({
      summary: "The caller's statistics of the current UTC day in the session's context",
      description:
        'loginCount and lastLoginTime from the login log, onlineTime (seconds) and lastAccessTime from the sessions, operationCount and lastOperationTime from the audit entries the caller wrote; accessCount, apiCallCount and errorOperationCount are 0 (not recorded).',
    })
    .output(dashboardSummary)
    .query(({ ctx }) =>
      dashboardSummaryOf(ctx.deps.db, { userId: ctx.auth.userId, tenantId: ctx.auth.tenantId }, ctx.deps.clock.now()),
    ),
});
