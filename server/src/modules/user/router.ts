import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { permission } from '../authz/permission-catalogue.js';
import { enabledUsers, userDetail, userPage } from './queries.js';
import {
  createUserDepartmentRequest,
  createUserRequest,
  createUserRoleRequest,
  enabledUser,
  enabledUsersRequest,
  idQuery,
  resetPasswordRequest,
  setUserRolesRequest,
  updateUserDepartmentRequest,
  updateUserRequest,
  updateUserRoleRequest,
  userDepartmentItem,
  userDetail as userDetailSchema,
  userIdQuery,
  userIdRequest,
  userLockRequest,
  userLoginPolicyRequest,
  userPageRequest,
  userPageResponse,
  userRoleItem,
  userRoleStatusRequest,
  userSecurityState,
  userStatusRequest,
} from './schemas.js';
import { callerScope } from './scope.js';

/**
 * User administration: /api/UserQuery (reads), /api/User (writes), /api/UserSecurity (password
 * and second-factor reset, lock, login policy), /api/UserRole and /api/UserDepartment (assignments). Every operation
 * names its permission code; all of them act in the caller's context and data scope.
 */

const SCOPE_NOTE =
  "Acts in the session's context (a tenant, or the platform state for platform accounts) and within the caller's data scope; users outside them are not found.";

export const userQueryRouter = router({
  GetUserDetailAsync: authedProcedure
    .meta({
      permission: permission('saas:user:read'),
      summary: "One user (null when absent or outside the caller's scope)",
      description: `${SCOPE_NOTE} E-mail and phone are masked without saas:user:read-contact.`,
    })
    .input(idQuery)
    .output(userDetailSchema.nullable())
    .query(async ({ ctx, input }) =>
      userDetail(ctx.deps.db, await callerScope({ db: ctx.deps.db, authz: ctx.services.authz }, ctx.auth), input.id),
    ),

  GetUserPageAsync: authedProcedure
    .meta({
      permission: permission('saas:user:read'),
      paged: true,
      summary:
        'Paged users: keyword over user name, nick name, e-mail and phone; filters and sorts on the declared fields',
      description: `${SCOPE_NOTE} E-mail and phone take part in filters, sorts and the keyword (and are shown unmasked) only with saas:user:read-contact. Super-administrators are hidden from others.`,
    })
    .input(userPageRequest)
    .output(userPageResponse)
    .mutation(async ({ ctx, input }) =>
      userPage(ctx.deps, await callerScope({ db: ctx.deps.db, authz: ctx.services.authz }, ctx.auth), input),
    ),

  GetEnabledUsersAsync: authedProcedure
    .meta({
      permission: permission('saas:user:read'),
      summary: 'Enabled users for pickers (optional keyword; at most `limit`, default 200, max 1000)',
      description: SCOPE_NOTE,
    })
    .input(enabledUsersRequest.optional())
    .output(z.array(enabledUser))
    .query(async ({ ctx, input }) =>
      enabledUsers(
        ctx.deps.db,
        await callerScope({ db: ctx.deps.db, authz: ctx.services.authz }, ctx.auth),
        input ?? {},
      ),
    ),
});

export const userRouter = router({
  CreateUserAsync: authedProcedure
    .meta({
      permission: permission('saas:user:create'),
      summary:
        "Creates a user in the caller's tenant (with its membership) or, in the platform state, a platform account",
      description:
        "Refused (422) when the tenant's seat limit is reached. The initial password must pass the policy and, unless mustChangePassword is false, must be changed at the first login. memberType uses the tenant numbering (Owner 0, Admin 1, Member 2, …; default Member); Owner and PlatformAdmin are refused (422).",
    })
    .input(createUserRequest)
    .output(userDetailSchema.nullable())
    .mutation(async ({ ctx, input }) => {
      const id = await ctx.services.users.create(ctx, input);
      const scope = await callerScope({ db: ctx.deps.db, authz: ctx.services.authz }, ctx.auth);
      // The creator sees what it created even when it lies outside its data scope.
      return userDetail(ctx.deps.db, { ...scope, departmentIds: null }, id);
    }),

  UpdateUserAsync: authedProcedure
    .meta({
      permission: permission('saas:user:update'),
      summary: 'Updates the profile fields of a user managed in this context',
      description: 'A system account cannot be renamed. `version` (from UserDetail) makes a stale update answer 409.',
    })
    .input(updateUserRequest)
    .output(userDetailSchema.nullable())
    .mutation(async ({ ctx, input }) => {
      await ctx.services.users.update(ctx, input);
      return userDetail(
        ctx.deps.db,
        await callerScope({ db: ctx.deps.db, authz: ctx.services.authz }, ctx.auth),
        input.basicId,
      );
    }),

  UpdateUserStatusAsync: authedProcedure
    .meta({
      permission: permission('saas:user:status'),
      summary: 'Enables or disables a user; disabling ends every session of the user',
      description: 'Refused for oneself, system accounts and the tenant owner.',
    })
    .input(userStatusRequest)
    .mutation(({ ctx, input }) => ctx.services.users.setStatus(ctx, input.basicId, input.status, input.remark)),

  DeleteUserAsync: authedProcedure
    .meta({
      permission: permission('saas:user:delete'),
      summary: 'Soft-deletes a user: every session ends and its connections get a forced logout',
      description: 'Refused for oneself, system accounts, the tenant owner, and while impersonating.',
    })
    .input(idQuery)
    .mutation(({ ctx, input }) => ctx.services.users.remove(ctx, input.id)),
});

export const userSecurityRouter = router({
  ResetUserPasswordAsync: authedProcedure
    .meta({
      permission: permission('saas:user-security:reset-password'),
      summary: "Sets a user's password (policy applies); by default it must be changed at the next login",
      description:
        'The security stamp rotates and every session of the user ends. Refused for oneself and while impersonating.',
    })
    .input(resetPasswordRequest)
    .mutation(({ ctx, input }) =>
      ctx.services.users.resetPassword(ctx, input.basicId, input.newPassword, input.mustChangePassword ?? true),
    ),

  ResetUserTwoFactorAsync: authedProcedure
    .meta({
      permission: permission('saas:user-security:reset-two-factor'),
      summary: "Turns off every second factor of a user (lost device); the user's sessions end",
      description: 'Refused while impersonating.',
    })
    .input(userIdRequest)
    .mutation(({ ctx, input }) => ctx.services.users.resetTwoFactor(ctx, input.basicId)),

  UpdateUserLockAsync: authedProcedure
    .meta({
      permission: permission('saas:user-security:lock'),
      summary:
        'Locks a user until lockoutEndTime (default Saas.Auth.LockoutMinutes from now) or unlocks; locking ends every session of the user',
      description:
        'Login refuses a locked account until the end time. Unlocking clears the lock and the failed-login count. A lock end not in the future answers 400. Locking oneself, a system account or the tenant owner is refused (422). Refused while impersonating.',
    })
    .input(userLockRequest)
    .output(userSecurityState)
    .mutation(({ ctx, input }) => ctx.services.userSecurity.setLock(ctx, input)),

  UpdateUserLoginPolicyAsync: authedProcedure
    .meta({
      permission: permission('saas:user-security:login-policy'),
      summary:
        "Sets whether a user may be signed in on several devices and how many (0 = unlimited); applies from the user's next login",
      description:
        'maxLoginDevices is 0 to 1000 (400 otherwise) and must be above 0 when allowMultiLogin is false (422). Open sessions stay until the next login evicts the oldest. Refused while impersonating.',
    })
    .input(userLoginPolicyRequest)
    .output(userSecurityState)
    .mutation(({ ctx, input }) => ctx.services.userSecurity.setLoginPolicy(ctx, input)),
});

const ASSIGNMENT_NOTE =
  "Takes effect on the user's next request. Refused while impersonating, and for roles carrying a permission the caller does not hold.";

export const userRoleRouter = router({
  GetUserRolesAsync: authedProcedure
    .meta({
      permission: permission('saas:user-role:read'),
      summary: "A user's roles in this context, with their validity windows",
    })
    .input(userIdQuery)
    .output(z.array(userRoleItem))
    .query(({ ctx, input }) => ctx.services.userRoles.list(ctx, input.userId)),

  CreateUserRoleAsync: authedProcedure
    .meta({
      permission: permission('saas:user-role:grant'),
      summary: 'Grants a role, optionally within [effectiveTime, expirationTime)',
      description: ASSIGNMENT_NOTE,
    })
    .input(createUserRoleRequest)
    .output(z.object({ basicId: z.string() }))
    .mutation(async ({ ctx, input }) => ({ basicId: String(await ctx.services.userRoles.grant(ctx, input)) })),

  UpdateUserRoleAsync: authedProcedure
    .meta({
      permission: permission('saas:user-role:update'),
      summary: 'Changes the validity window of a role assignment',
      description: ASSIGNMENT_NOTE,
    })
    .input(updateUserRoleRequest)
    .mutation(({ ctx, input }) => ctx.services.userRoles.update(ctx, input)),

  UpdateUserRoleStatusAsync: authedProcedure
    .meta({
      permission: permission('saas:user-role:status'),
      summary: 'Suspends or restores a role assignment',
      description: ASSIGNMENT_NOTE,
    })
    .input(userRoleStatusRequest)
    .mutation(({ ctx, input }) => ctx.services.userRoles.setStatus(ctx, input.basicId, input.status)),

  DeleteUserRoleAsync: authedProcedure
    .meta({
      permission: permission('saas:user-role:revoke'),
      summary: 'Revokes a role assignment',
      description: ASSIGNMENT_NOTE,
    })
    .input(idQuery)
    .mutation(({ ctx, input }) => ctx.services.userRoles.revoke(ctx, input.id)),

  UpdateUserRolesAsync: authedProcedure
    .meta({
      permission: permission('saas:user-role:update'),
      summary: "Makes a user's roles in this context exactly the given set",
      description: ASSIGNMENT_NOTE,
    })
    .input(setUserRolesRequest)
    .mutation(({ ctx, input }) => ctx.services.userRoles.replace(ctx, input.userId, input.roles)),
});

export const userDepartmentRouter = router({
  GetUserDepartmentsAsync: authedProcedure
    .meta({
      permission: permission('saas:user-department:read'),
      summary: "A user's departments in this context, main first",
    })
    .input(userIdQuery)
    .output(z.array(userDepartmentItem))
    .query(({ ctx, input }) => ctx.services.userDepartments.list(ctx, input.userId)),

  CreateUserDepartmentAsync: authedProcedure
    .meta({
      permission: permission('saas:user-department:grant'),
      summary: 'Puts a user in a department (the first one, or isMain, becomes the main department)',
    })
    .input(createUserDepartmentRequest)
    .output(z.object({ basicId: z.string() }))
    .mutation(async ({ ctx, input }) => ({ basicId: String(await ctx.services.userDepartments.add(ctx, input)) })),

  UpdateUserDepartmentAsync: authedProcedure
    .meta({
      permission: permission('saas:user-department:update'),
      summary: 'Changes a department assignment (isMain: true makes it the only main one)',
    })
    .input(updateUserDepartmentRequest)
    .mutation(({ ctx, input }) => ctx.services.userDepartments.update(ctx, input)),

  DeleteUserDepartmentAsync: authedProcedure
    .meta({ permission: permission('saas:user-department:revoke'), summary: 'Takes a user out of a department' })
    .input(idQuery)
    .mutation(({ ctx, input }) => ctx.services.userDepartments.remove(ctx, input.id)),
});
