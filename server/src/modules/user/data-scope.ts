import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { users } from '../../../../db/schema/index.js';
import type { AuthorizationService } from '../authz/service.js';
import { appError } from '../../errors/app-error.js';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zId, zIdOut } from '../../rpc/wire.js';
import { permission } from '../authz/permission-catalogue.js';
import { DATA_SCOPES, type DataScope as Scope } from '../authz/snapshot.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import { DataScope } from '../role/enums.js';
import { userErrors } from './errors.js';
import { callerScope, type CallerScope } from './scope.js';
import { audit, requireManagedUser, requireVisibleUser } from './service.js';
import type { AuthedContext as Ctx } from '../../rpc/context.js';

/**
 * A user's data-scope override (SPEC entity User: DataScopeOverride): when set, it replaces the
 * data scopes of the user's roles, in the user's home context only (it is the account's, set where
 * the account is managed; elsewhere the roles held there decide). Custom is not an override (it
 * needs a role's departments). Nobody gives a wider scope than the widest they hold themselves
 * (All for All), and the change applies from the user's next request.
 */

const overridable = DataScope.schema().refine((s) => s !== 'Custom', {
  message:
    "Custom is a role scope (it needs the role's departments); choose All, DepartmentAndChildren, DepartmentOnly or SelfOnly",
});
const userDataScope = z.object({
  userId: zIdOut(),
  /** Absent: the roles decide. */
  dataScopeOverride: DataScope.out().nullable().optional(),
  /** What applies in the user's home context now, widest first. */
  effectiveDataScopes: z.array(DataScope.out()),
});

const rank = (s: Scope) => DATA_SCOPES.indexOf(s);

/** Whether the caller may give `wanted`: at most as wide as its own widest scope other than Custom (Custom, which is not comparable, needs All). */
function withinCaller(scope: CallerScope, wanted: Scope): boolean {
  if (scope.isSuperAdmin || wanted === 'SelfOnly') return true;
  const own = scope.snapshot.dataScopes.filter((s) => s !== 'Custom');
  return own.length > 0 && rank(wanted) >= Math.min(...own.map(rank));
}

async function read(deps: { authz: AuthorizationService }, userId: bigint, home: bigint, override: string | null) {
  const snapshot = await deps.authz.get(userId, home);
  // A stored value this version does not know is reported as none (the snapshot ignores it too).
  const known = override !== null && (DATA_SCOPES as readonly string[]).includes(override) ? (override as Scope) : null;
  return { userId: String(userId), dataScopeOverride: known, effectiveDataScopes: snapshot.dataScopes };
}

async function write(ctx: Ctx, userId: bigint, wanted: Scope | null) {
  const { deps, services } = ctx;
  refuseWhileImpersonating(ctx.auth);
  const scope = await callerScope({ db: deps.db, authz: services.authz }, ctx.auth);
  const user = await requireManagedUser(deps.db, scope, userId);
  // Clearing gives the user its roles' scopes back, which may be wider than the override was:
  // the same bound applies to what the user then has (a snapshot from an older version, without
  // the roles' scopes, counts as All).
  const resulting =
    wanted ?? ((await services.authz.get(user.id, user.tenantId)).roleDataScopes ?? ['All'])[0] ?? 'SelfOnly';
  if (!withinCaller(scope, resulting))
    throw appError(userErrors.DATA_SCOPE_BEYOND_CALLER, { params: { scope: resulting } });
  await deps.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ dataScopeOverride: wanted, modifiedTime: deps.clock.now(), modifiedBy: ctx.auth.userId })
      .where(eq(users.id, user.id));
    await audit(deps, tx, ctx, 'UserDataScopeChanged', user.id, { from: user.dataScopeOverride, to: wanted });
  });
  await services.authz.invalidateUser(user.id);
  return read(services, user.id, user.tenantId, wanted);
}

/** /api/UserDataScope: set or clear a user's override (account-wide: users managed here only). */
export const userDataScopeRouter = router({
  UpdateUserDataScopeAsync: authedProcedure
    .meta({
      permission: permission('saas:user-data-scope:update'),
      summary: "Sets a user's data-scope override, which replaces its roles' scopes in its home context",
      description:
        "Users managed in this context only (a member from elsewhere: 422). No wider than the caller's own widest scope (403); Custom is refused (400). Applies from the user's next request. Refused while impersonating.",
    })
    .input(z.object({ userId: zId(), dataScope: overridable }))
    .output(userDataScope)
    .mutation(({ ctx, input }) => write(ctx, input.userId, input.dataScope)),

  DeleteUserDataScopeAsync: authedProcedure
    .meta({
      permission: permission('saas:user-data-scope:revoke'),
      summary: "Clears a user's data-scope override: its roles decide again",
      description: 'Users managed in this context only. Refused while impersonating.',
    })
    .input(z.object({ userId: zId() }))
    .output(userDataScope)
    .mutation(({ ctx, input }) => write(ctx, input.userId, null)),
});

/** /api/UserDataScopeQuery: a user's override and what applies. */
export const userDataScopeQueryRouter = router({
  GetUserDataScopeAsync: authedProcedure
    .meta({
      permission: permission('saas:user-data-scope:read'),
      summary: "A user's data-scope override and the scopes that apply in its home context",
    })
    .input(z.object({ userId: zId() }))
    .output(userDataScope)
    .query(async ({ ctx, input }) => {
      const scope = await callerScope({ db: ctx.deps.db, authz: ctx.services.authz }, ctx.auth);
      const user = await requireVisibleUser(ctx.deps.db, scope, input.userId);
      return read(ctx.services, user.id, user.tenantId, user.dataScopeOverride);
    }),
});
