import { and, eq, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { users, userSecurity } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors/app-error.js';
import { commonErrors } from '../../errors/common.js';
import { postgresErrorCode, UNIQUE_VIOLATION } from '../../infra/db/errors.js';
import { notDeleted } from '../../infra/db/predicates.js';
import type { CallContext } from '../../rpc/call-context.js';
import { actorOf, auditChange, fieldsOf } from '../audit/change.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import { notifySecurity } from '../notifications/notify.js';
import { confirmOwnPassword } from './own-password.js';
import type { ProfileOut, updateProfileRequest } from './profile-schemas.js';
import { profileSelfErrors } from './self-service-errors.js';
import type { z } from 'zod';
import { recoveryCodesRemaining } from '../auth/recovery-codes.js';
import type { SessionStateService } from '../auth/session/session-state.js';

/**
 * GET/PUT /api/Profile/Profile and POST /api/Profile/ChangeUserName (the original service). The
 * profile answers the original's fields from the user and its security row; an update writes
 * only the fields it was given (null or empty clears one) and is audited as ProfileUpdated with
 * the names of the fields (never their values). A user name change needs the password, keeps
 * the original's pattern and 90-day interval, is unique in the home tenant and is audited as
 * UserNameChanged; the other sessions stay signed in (their tokens carry the old name until
 * refreshed, which nothing reads for authorization).
 */

type Ctx = CallContext & { auth: AuthContext };
export type ProfileInfoDeps = Pick<
  AppDeps,
  'db' | 'clock' | 'ids' | 'store' | 'messages' | 'logger' | 'hasher' | 'events'
> & { sessionState: SessionStateService };

const USER_NAME = /^[A-Za-z0-9_]{3,30}$/;
export const USER_NAME_INTERVAL_DAYS = 90;
const DAY_MS = 86_400_000;

export function createProfileInfo(deps: ProfileInfoDeps) {
  const { db, clock } = deps;

  async function get(userId: bigint): Promise<ProfileOut> {
    const [row] = await db
      .select({ user: users, security: userSecurity })
      .from(users)
      .innerJoin(userSecurity, eq(userSecurity.userId, users.id))
      .where(and(eq(users.id, userId), notDeleted(users.isDeleted)));
    // The session gate let the request in, so the user exists; a deletion racing it reads as none.
    if (!row) throw appError(commonErrors.NOT_FOUND);
    const { user, security } = row;
    const now = clock.now();
    const nextChange = user.lastUserNameChangeTime
      ? user.lastUserNameChangeTime.getTime() + USER_NAME_INTERVAL_DAYS * DAY_MS
      : 0;
    return {
      userId: String(user.id),
      userName: user.userName,
      realName: user.realName,
      nickName: user.nickName,
      avatar: user.avatar,
      email: user.email,
      phone: user.phone,
      gender: user.gender,
      birthday: user.birthday,
      country: user.country,
      remark: user.remark,
      tenantId: user.tenantId === 0n ? null : String(user.tenantId),
      lastLoginTime: user.lastLoginTime,
      lastLoginIp: user.lastLoginIp,
      isSystemAccount: user.isSystemAccount,
      twoFactorEnabled: security.twoFactorMethod !== 0,
      twoFactorMethod: security.twoFactorMethod,
      recoveryCodesRemaining: await recoveryCodesRemaining(db, user.id),
      emailVerified: user.emailVerified,
      phoneVerified: user.phoneVerified,
      lastPasswordChangeTime: security.passwordChangedTime,
      lastUserNameChangeTime: user.lastUserNameChangeTime,
      canChangeUserName: !user.isSystemAccount && nextChange <= now.getTime(),
      isLocked: !!security.lockoutEndTime && security.lockoutEndTime > now,
      lockoutEndTime: security.lockoutEndTime,
      failedLoginAttempts: security.failedLoginAttempts,
      lastFailedLoginTime: security.lastFailedLoginTime,
    };
  }

  return {
    get: (ctx: Ctx) => get(ctx.auth.userId),

    /** Writes the given fields; an absent field keeps its value, null or empty text clears it. */
    async update(ctx: Ctx, input: z.infer<typeof updateProfileRequest>): Promise<ProfileOut> {
      const blank = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === '' ? null : v);
      const values = {
        nickName: blank(input.nickName),
        realName: blank(input.realName),
        avatar: blank(input.avatar),
        gender: input.gender === undefined ? undefined : (input.gender ?? 0),
        birthday: input.birthday === undefined ? undefined : input.birthday,
        country: blank(input.country),
        remark: blank(input.remark),
      };
      const fields = fieldsOf(values);
      if (fields.length > 0) {
        const userId = ctx.auth.userId;
        await db.transaction(async (tx) => {
          await tx
            .update(users)
            .set({ ...values, modifiedTime: clock.now(), modifiedBy: userId, version: sql`${users.version} + 1` })
            .where(eq(users.id, userId));
          await auditChange(tx, deps, actorOf(ctx), 'ProfileUpdated', { type: 'User', id: userId, userId }, { fields });
        });
        // Sessions cache the names and avatar (the lock detail, the user info): drop them once committed.
        await deps.sessionState.invalidateUser(userId);
      }
      return get(ctx.auth.userId);
    },

    async changeUserName(ctx: Ctx, input: { userName: string; password: string }): Promise<void> {
      refuseWhileImpersonating(ctx.auth);
      const userName = input.userName.trim();
      if (!USER_NAME.test(userName)) throw appError(profileSelfErrors.USER_NAME_PATTERN);
      const userId = ctx.auth.userId;
      const [user] = await db
        .select({
          tenantId: users.tenantId,
          userName: users.userName,
          isSystemAccount: users.isSystemAccount,
          changed: users.lastUserNameChangeTime,
        })
        .from(users)
        .where(eq(users.id, userId));
      if (!user) throw appError(commonErrors.NOT_FOUND);
      if (user.isSystemAccount) throw appError(profileSelfErrors.USER_NAME_SYSTEM_ACCOUNT);
      const now = clock.now();
      const earliest = new Date(now.getTime() - USER_NAME_INTERVAL_DAYS * DAY_MS);
      if (user.changed && user.changed > earliest) throw appError(profileSelfErrors.USER_NAME_TOO_SOON);
      await confirmOwnPassword(deps, userId, input.password);
      if (user.userName === userName) throw appError(profileSelfErrors.USER_NAME_UNCHANGED);
      const [taken] = await db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            eq(users.tenantId, user.tenantId),
            sql`lower(${users.userName}) = ${userName.toLowerCase()}`,
            ne(users.id, userId),
            notDeleted(users.isDeleted),
          ),
        )
        .limit(1);
      if (taken) throw appError(profileSelfErrors.USER_NAME_TAKEN);
      try {
        await db.transaction(async (tx) => {
          // The interval is checked again in the write: of two changes racing, one passes.
          const [changed] = await tx
            .update(users)
            .set({
              userName,
              lastUserNameChangeTime: now,
              modifiedTime: now,
              modifiedBy: userId,
              version: sql`${users.version} + 1`,
            })
            .where(
              and(
                eq(users.id, userId),
                or(isNull(users.lastUserNameChangeTime), lte(users.lastUserNameChangeTime, earliest)),
              ),
            )
            .returning({ id: users.id });
          if (!changed) throw appError(profileSelfErrors.USER_NAME_TOO_SOON);
          await auditChange(
            tx,
            deps,
            actorOf(ctx),
            'UserNameChanged',
            { type: 'User', id: userId, userId },
            { from: user.userName, to: userName },
          );
        });
      } catch (error) {
        // Taken by another account between the check and the write (the unique index decides).
        if (postgresErrorCode(error) === UNIQUE_VIOLATION) throw appError(profileSelfErrors.USER_NAME_TAKEN);
        throw error;
      }
      await deps.sessionState.invalidateUser(userId);
      await notifySecurity(deps, {
        userId,
        tenantId: ctx.auth.tenantId,
        culture: ctx.culture,
        kind: 'userNameChanged',
        request: ctx,
      });
      deps.logger.info('user name changed', { userId: String(userId) });
    },
  };
}
