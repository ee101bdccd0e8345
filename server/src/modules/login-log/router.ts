import { authedProcedure, router } from '../../rpc/trpc.js';
import { permission } from '../authz/permission-catalogue.js';
import { callerScope } from '../user/scope.js';
import { loginLogPage } from './list.js';
import { loginLogPageRequest, loginLogPageResponse } from './schemas.js';

/** /api/LoginLogQuery: the login log for administrators. */
export const loginLogQueryRouter = router({
  GetLoginLogPageAsync: authedProcedure
    .meta({
      permission: permission('saas:login-log:read'),
      paged: true,
      summary:
        "Paged login log of the caller's context: filters on user, session, trace, loginResult, risk flag, address and loginTimeStart/loginTimeEnd",
      description:
        "Rows recorded in the session's context only; rows of users outside the caller's data scope (and of super-administrators, for others) are left out.",
    })
    .input(loginLogPageRequest)
    .output(loginLogPageResponse)
    .mutation(async ({ ctx, input }) =>
      loginLogPage(ctx.deps.db, await callerScope({ db: ctx.deps.db, authz: ctx.services.authz }, ctx.auth), input),
    ),
});
