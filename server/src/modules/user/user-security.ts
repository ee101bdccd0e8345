import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { userSecurity } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import type { SessionStateService } from '../auth/session/session-state.js';
import type { SessionService } from '../auth/session/session-service.js';
import { appError } from '../../errors/app-error.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import { announceEnded, endAllSessionsIn } from '../user-session/revoke-all.js';
import { userErrors } from './errors.js';
import type { UserLockRequest, UserLoginPolicyRequest, UserSecurityState } from './schemas.js';
import { callerScope } from './scope.js';
import { assertRemovable, audit, requireManagedUser, type Ctx } from './service.js';

/**
 * The administrator's lock and login policy of an account (PUT /api/UserSecurity/UserLock and
 * UserLoginPolicy). Both are account-wide, so like the other account writes they act only on users
 * managed in the caller's context (a member from elsewhere: 422; outside the scope: 404), and both
 * are refused while impersonating: they change another account's security under the name of the
 * impersonated administrator, like the password and second-factor resets.
 */

const LAST_YEAR = 9999;

const stateColumns = {
  lockoutEndTime: userSecurity.lockoutEndTime,
  failedLoginAttempts: userSecurity.failedLoginAttempts,
  allowMultiLogin: userSecurity.allowMultiLogin,
  maxLoginDevices: userSecurity.maxLoginDevices,
};

function toState(
  userId: bigint,
  row: { lockoutEndTime: Date | null; failedLoginAttempts: number; allowMultiLogin: boolean; maxLoginDevices: number },
  now: Date,
): UserSecurityState {
  return { basicId: String(userId), isLocked: row.lockoutEndTime !== null && row.lockoutEndTime > now, ...row };
}

type UserSecurityDeps = Pick<
  AppDeps,
  'db' | 'ids' | 'clock' | 'config' | 'events' | 'hasher' | 'logger' | 'messages'
> & {
  authz: AuthorizationService;
  sessionState: SessionStateService;
  sessions: SessionService;
};

export function createUserSecurityService(deps: UserSecurityDeps) {
  const { db, clock } = deps;

  return {
    /**
     * Locks until `lockoutEndTime` (default: Saas.Auth.LockoutMinutes from now), or unlocks. The
     * lock is the same LockoutEndTime that failed logins set, so login refuses it as it refuses a
     * lockout. Locking ends every session of the user the way disabling does, and rotates the
     * security stamp (SPEC: after an account lock old tokens stop working). Unlocking also clears
     * the failure count, so the next wrong password does not lock the account again at once.
     */
    async setLock(ctx: Ctx, input: UserLockRequest): Promise<UserSecurityState> {
      refuseWhileImpersonating(ctx.auth);
      const scope = await callerScope(deps, ctx.auth);
      const user = await requireManagedUser(db, scope, input.basicId);
      const now = clock.now();
      const remark = input.remark ?? undefined;
      if (!input.isLocked) {
        const row = await db.transaction(async (tx) => {
          const [updated] = await tx
            .update(userSecurity)
            .set({ lockoutEndTime: null, failedLoginAttempts: 0, lastFailedLoginTime: null })
            .where(eq(userSecurity.userId, user.id))
            .returning(stateColumns);
          if (!updated) throw appError(userErrors.NOT_FOUND, { params: { id: String(user.id) } });
          await audit(deps, tx, ctx, 'UserUnlocked', user.id, { remark });
          return updated;
        });
        return toState(user.id, row, now);
      }

      await assertRemovable(db, scope, user);
      const until = input.lockoutEndTime ?? new Date(now.getTime() + deps.config.Saas.Auth.LockoutMinutes * 60_000);
      // A past end would lock nothing; past the year 9999 the date no longer round-trips as ISO text.
      if (until <= now || until.getUTCFullYear() > LAST_YEAR) throw appError(userErrors.LOCKOUT_END_INVALID);
      const reason = 'Account locked by an administrator';
      const { row, ended } = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(userSecurity)
          // A failure count below the threshold marks the lock as an administrator's: a password
          // reset lifts only the lockouts that failed logins caused (auth/self-service/password-reset.ts).
          .set({ lockoutEndTime: until, failedLoginAttempts: 0, securityStamp: randomUUID() })
          .where(eq(userSecurity.userId, user.id))
          .returning(stateColumns);
        if (!updated) throw appError(userErrors.NOT_FOUND, { params: { id: String(user.id) } });
        await audit(deps, tx, ctx, 'UserLocked', user.id, { lockoutEndTime: until.toISOString(), remark });
        return { row: updated, ended: await endAllSessionsIn(tx, deps, user.id, reason) };
      });
      await deps.sessionState.invalidateUser(user.id);
      await announceEnded(deps, user.id, ended, reason);
      return toState(user.id, row, now);
    },

    /**
     * Stores AllowMultiLogin and MaxLoginDevices; the session service applies them at the user's
     * next login (evicting the oldest sessions then). Sessions open now are left alone and the
     * stamp is kept: tightening a policy is not a reason to sign the user out mid-work.
     */
    async setLoginPolicy(ctx: Ctx, input: UserLoginPolicyRequest): Promise<UserSecurityState> {
      refuseWhileImpersonating(ctx.auth);
      // The original's rule: "one device at a time" still needs a device count above 0.
      if (!input.allowMultiLogin && input.maxLoginDevices === 0) throw appError(userErrors.LOGIN_POLICY_INVALID);
      const scope = await callerScope(deps, ctx.auth);
      const user = await requireManagedUser(db, scope, input.basicId);
      const row = await db.transaction(async (tx) => {
        const [before] = await tx
          .select({ allowMultiLogin: userSecurity.allowMultiLogin, maxLoginDevices: userSecurity.maxLoginDevices })
          .from(userSecurity)
          .where(eq(userSecurity.userId, user.id))
          .for('update');
        const [updated] = await tx
          .update(userSecurity)
          .set({ allowMultiLogin: input.allowMultiLogin, maxLoginDevices: input.maxLoginDevices })
          .where(eq(userSecurity.userId, user.id))
          .returning(stateColumns);
        if (!before || !updated) throw appError(userErrors.NOT_FOUND, { params: { id: String(user.id) } });
        await audit(deps, tx, ctx, 'UserLoginPolicyChanged', user.id, {
          from: before,
          to: { allowMultiLogin: input.allowMultiLogin, maxLoginDevices: input.maxLoginDevices },
          remark: input.remark ?? undefined,
        });
        return updated;
      });
      return toState(user.id, row, clock.now());
    },
  };
}
