import { randomUUID } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import {
  departments,
  passwordHistory,
  positions,
  tenantMemberships,
  userDepartments,
  users,
  userSecurity,
} from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import type { SessionStateService } from '../auth/session/session-state.js';
import type { SessionService } from '../auth/session/session-service.js';
import { appError } from '../../errors/app-error.js';
import type { Executor } from '../../infra/db/client.js';
import { updateVersioned } from '../../infra/db/versioned.js';
import type { CallContext } from '../../rpc/call-context.js';
import { actorOf, auditChange } from '../audit/change.js';
import type { AuditAction } from '../audit/write.js';
import { assertPasswordPolicy } from '../auth/password-policy.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import { announceEnded, endAllSessionsIn } from '../user-session/revoke-all.js';
import { setAccountStatus, softDeleteAccount } from './account-removal.js';
import { RESERVED_MEMBER_TYPES } from '../tenant/enums.js';
import { assertSeatAvailable } from '../tenant/seats.js';
import { Gender } from './enums.js';
import { userErrors } from './errors.js';
import type { CreateUserRequest, UpdateUserRequest } from './schemas.js';
import {
  callerScope,
  codeBeyondCallerAnywhere,
  departmentInScope,
  findVisibleUser,
  type CallerScope,
  type VisibleUser,
} from './scope.js';
import { notDeleted } from '../../infra/db/predicates.js';
import { formerPasswordHashes } from '../auth/password-history.js';

/**
 * Writes of user administration: create, update, status, delete, password and second-factor
 * reset. Every one acts within the caller's context and data scope (a user outside them is
 * 404); profile, status, password and existence change only for accounts managed here (home
 * tenant = the context). Caches are dropped and revocations announced after the commit.
 */

export type Ctx = CallContext & { auth: AuthContext };

/** The audit row of a write on a user, in the write's transaction. */
export function audit(
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  tx: Executor,
  ctx: Ctx,
  action: AuditAction,
  target: bigint,
  detail?: Record<string, unknown>,
) {
  return auditChange(tx, deps, actorOf(ctx), action, { type: 'User', id: target, userId: target }, detail);
}

/** A user the caller sees, or 404. */
export async function requireVisibleUser(db: Executor, scope: CallerScope, id: bigint): Promise<VisibleUser> {
  const user = await findVisibleUser(db, scope, id);
  if (!user) throw appError(userErrors.NOT_FOUND, { params: { id: String(id) } });
  return user;
}

/** A user the caller sees and whose account is managed in the caller's context. */
export async function requireManagedUser(db: Executor, scope: CallerScope, id: bigint): Promise<VisibleUser> {
  const user = await requireVisibleUser(db, scope, id);
  if (user.tenantId !== scope.tenantId) throw appError(userErrors.MANAGED_ELSEWHERE);
  return user;
}

/** A live department of the context within the caller's data scope, or 404. */
export async function requireScopedDepartment(
  db: Executor,
  scope: CallerScope,
  id: bigint,
): Promise<{ id: bigint; departmentName: string }> {
  const [row] = await db
    .select({ id: departments.id, departmentName: departments.departmentName })
    .from(departments)
    .where(and(eq(departments.id, id), eq(departments.tenantId, scope.tenantId), notDeleted(departments.isDeleted)));
  if (!row || !departmentInScope(scope, id))
    throw appError(userErrors.DEPARTMENT_NOT_FOUND, { params: { id: String(id) } });
  return row;
}

/** A live position of the context, or 404. */
export async function requirePosition(db: Executor, tenantId: bigint, id: bigint): Promise<void> {
  const [row] = await db
    .select({ id: positions.id })
    .from(positions)
    .where(and(eq(positions.id, id), eq(positions.tenantId, tenantId), notDeleted(positions.isDeleted)));
  if (!row) throw appError(userErrors.POSITION_NOT_FOUND, { params: { id: String(id) } });
}

async function assertUserNameFree(db: Executor, tenantId: bigint, userName: string, except?: bigint): Promise<void> {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        sql`lower(${users.userName}) = ${userName.toLowerCase()}`,
        notDeleted(users.isDeleted),
        except ? ne(users.id, except) : undefined,
      ),
    );
  if (taken) throw appError(userErrors.USER_NAME_TAKEN, { params: { userName } });
}

async function assertEmailFree(db: Executor, email: string, except?: bigint): Promise<void> {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        sql`lower(${users.email}) = ${email.toLowerCase()}`,
        notDeleted(users.isDeleted),
        except ? ne(users.id, except) : undefined,
      ),
    );
  if (taken) throw appError(userErrors.EMAIL_TAKEN);
}

/** Refuses disabling, locking or deleting oneself, a system account or the tenant's owner. */
export async function assertRemovable(db: Executor, scope: CallerScope, user: VisibleUser): Promise<void> {
  if (user.id === scope.userId) throw appError(userErrors.SELF_OPERATION);
  if (user.isSystemAccount) throw appError(userErrors.SYSTEM_ACCOUNT_PROTECTED);
  const [owner] = await db
    .select({ id: tenantMemberships.id })
    .from(tenantMemberships)
    .where(
      and(
        eq(tenantMemberships.tenantId, scope.tenantId),
        eq(tenantMemberships.userId, user.id),
        eq(tenantMemberships.memberType, 'Owner'),
      ),
    );
  if (owner) throw appError(userErrors.OWNER_PROTECTED);
}

type UserServiceDeps = Pick<
  AppDeps,
  'db' | 'ids' | 'clock' | 'config' | 'events' | 'hasher' | 'logger' | 'messages'
> & {
  authz: AuthorizationService;
  sessionState: SessionStateService;
  sessions: SessionService;
};

export function createUserService(deps: UserServiceDeps) {
  const { db, ids, clock } = deps;

  /** Setting someone's password or removing their second factor hands over their account. */
  async function refuseTakeover(scope: CallerScope, userId: bigint): Promise<void> {
    const beyond = await codeBeyondCallerAnywhere(deps, scope, userId);
    if (beyond) throw appError(userErrors.TARGET_MORE_PRIVILEGED, { params: { permission: beyond.code } });
  }

  return {
    /**
     * POST /api/User/User. In a tenant the new account's home is that tenant and it gets a
     * membership there; the tenant row is locked while its members are counted, so two creations
     * cannot both take the last seat. In the platform state it creates a platform account.
     */
    async create(ctx: Ctx, input: CreateUserRequest): Promise<bigint> {
      // Owner and PlatformAdmin are the platform's to make (FACTS §3.4 refuses them here), named or numbered.
      if (input.memberType && RESERVED_MEMBER_TYPES.has(input.memberType))
        throw appError(userErrors.MEMBER_TYPE_NOT_ASSIGNABLE, { params: { memberType: input.memberType } });
      const scope = await callerScope(deps, ctx.auth);
      const T = scope.tenantId;
      if (input.departmentId) await requireScopedDepartment(db, scope, input.departmentId);
      if (input.positionId) await requirePosition(db, T, input.positionId);
      if (input.effectiveTime && input.expirationTime && input.effectiveTime >= input.expirationTime)
        throw appError(userErrors.WINDOW_INVALID);
      await assertPasswordPolicy(input.initialPassword, { userName: input.userName, email: input.email }, ctx.culture);
      const passwordHash = await deps.hasher.hash(input.initialPassword);
      const id = ids.next();
      const now = clock.now();
      await db.transaction(async (tx) => {
        if (T !== 0n) await assertSeatAvailable(tx, T, now);
        await assertUserNameFree(tx, T, input.userName);
        if (input.email) await assertEmailFree(tx, input.email);
        await tx.insert(users).values({
          id,
          tenantId: T,
          userName: input.userName,
          email: input.email ?? null,
          phone: input.phone ?? null,
          realName: input.realName ?? null,
          nickName: input.nickName ?? null,
          avatar: input.avatar ?? null,
          gender: input.gender ? Gender.valueOf(input.gender) : 0,
          birthday: input.birthday ?? null,
          country: input.country ?? null,
          remark: input.remark ?? null,
          status: input.status ?? 'Enabled',
          // Created by an administrator, who vouches for it: no self-verification pending.
          isActive: true,
          createdTime: now,
          createdBy: ctx.auth.userId,
        });
        await tx.insert(userSecurity).values({
          userId: id,
          passwordHash,
          passwordChangedTime: now,
          securityStamp: randomUUID(),
          mustChangePassword: input.mustChangePassword ?? true,
        });
        if (T !== 0n) {
          await tx.insert(tenantMemberships).values({
            id: ids.next(),
            tenantId: T,
            userId: id,
            memberType: input.memberType ?? 'Member',
            displayName: input.displayName ?? null,
            effectiveTime: input.effectiveTime ?? null,
            expirationTime: input.expirationTime ?? null,
            joinedTime: now,
            remark: input.inviteRemark ?? null,
            createdTime: now,
            createdBy: ctx.auth.userId,
          });
        }
        if (input.departmentId) {
          await tx.insert(userDepartments).values({
            id: ids.next(),
            tenantId: T,
            userId: id,
            departmentId: input.departmentId,
            isMain: true,
            positionId: input.positionId ?? null,
            createdTime: now,
            createdBy: ctx.auth.userId,
          });
        }
        await audit(deps, tx, ctx, 'UserCreated', id, { userName: input.userName });
      });
      return id;
    },

    /** PUT /api/User/User: profile fields of a managed account (a system account keeps its name). */
    async update(ctx: Ctx, input: UpdateUserRequest): Promise<void> {
      const scope = await callerScope(deps, ctx.auth);
      const user = await requireManagedUser(db, scope, input.basicId);
      const renaming = input.userName !== undefined && input.userName !== null && input.userName !== user.userName;
      if (renaming && user.isSystemAccount) throw appError(userErrors.SYSTEM_ACCOUNT_PROTECTED);
      const newEmail = input.email === undefined ? undefined : (input.email ?? null);
      const emailChanged =
        newEmail !== undefined && (newEmail ?? '').toLowerCase() !== (user.email ?? '').toLowerCase();
      const newPhone = input.phone === undefined ? undefined : (input.phone ?? null);
      const values: Record<string, unknown> = { modifiedTime: clock.now(), modifiedBy: ctx.auth.userId };
      if (renaming) values.userName = input.userName;
      for (const key of ['realName', 'nickName', 'avatar', 'birthday', 'country', 'remark'] as const) {
        if (input[key] !== undefined) values[key] = input[key];
      }
      if (input.gender !== undefined) values.gender = input.gender ? Gender.valueOf(input.gender) : 0;
      if (newEmail !== undefined) values.email = newEmail;
      if (emailChanged) values.emailVerified = false;
      if (newPhone !== undefined && newPhone !== user.phone)
        Object.assign(values, { phone: newPhone, phoneVerified: false });
      await db.transaction(async (tx) => {
        if (renaming) await assertUserNameFree(tx, user.tenantId, input.userName!, user.id);
        if (emailChanged && newEmail) await assertEmailFree(tx, newEmail, user.id);
        await updateVersioned(tx, users, user.id, input.version ?? user.version, values, notDeleted(users.isDeleted));
        await audit(deps, tx, ctx, 'UserUpdated', user.id, {
          fields: Object.keys(values).filter((k) => k !== 'modifiedTime' && k !== 'modifiedBy'),
        });
      });
      // Names and contacts are part of the cached session state (lock screen, refresh claims).
      await deps.sessionState.invalidateUser(user.id);
    },

    /** PUT /api/User/UserStatus: disabling ends every session of the user. */
    async setStatus(
      ctx: Ctx,
      id: bigint,
      status: 'Enabled' | 'Disabled',
      remark: string | null | undefined,
    ): Promise<void> {
      const scope = await callerScope(deps, ctx.auth);
      const user = await requireManagedUser(db, scope, id);
      if (status === 'Disabled') await assertRemovable(db, scope, user);
      if (user.status === status) return;
      await setAccountStatus(deps, ctx, user.id, status, {
        reason: 'Account disabled by an administrator',
        audit: { action: 'UserStatusChanged', detail: { from: user.status, to: status, remark: remark ?? undefined } },
      });
    },

    /**
     * DELETE /api/User/User: a soft delete (the row stays, its user name and e-mail become free).
     * Every session ends and every connection of the user is told to log out (ForceLogout).
     */
    async remove(ctx: Ctx, id: bigint): Promise<void> {
      refuseWhileImpersonating(ctx.auth);
      const scope = await callerScope(deps, ctx.auth);
      const user = await requireManagedUser(db, scope, id);
      await assertRemovable(db, scope, user);
      await softDeleteAccount(deps, ctx, user.id, {
        reason: 'Account deleted by an administrator',
        audit: { action: 'UserDeleted', detail: { userName: user.userName } },
      });
    },

    /**
     * POST /api/UserSecurity/ResetUserPassword: sets a password chosen by the administrator (the
     * policy applies), by default to be changed at the next login; the security stamp rotates and
     * every session of the user ends.
     */
    async resetPassword(ctx: Ctx, id: bigint, newPassword: string, mustChangePassword: boolean): Promise<void> {
      refuseWhileImpersonating(ctx.auth);
      const scope = await callerScope(deps, ctx.auth);
      const user = await requireManagedUser(db, scope, id);
      if (user.id === scope.userId) throw appError(userErrors.SELF_OPERATION);
      if (user.isSystemAccount && !scope.isSuperAdmin) throw appError(userErrors.SYSTEM_ACCOUNT_PROTECTED);
      await refuseTakeover(scope, user.id);
      const [security] = await db
        .select({ hash: userSecurity.passwordHash })
        .from(userSecurity)
        .where(eq(userSecurity.userId, user.id));
      const history = await formerPasswordHashes(db, user.id);
      await assertPasswordPolicy(
        newPassword,
        {
          userName: user.userName,
          email: user.email,
          hasher: deps.hasher,
          recentHashes: [...(security ? [security.hash] : []), ...history],
        },
        ctx.culture,
      );
      const hash = await deps.hasher.hash(newPassword);
      const now = clock.now();
      const expiryDays = deps.config.Saas.Auth.PasswordExpiryDays;
      const reason = 'Password reset by an administrator';
      const ended = await db.transaction(async (tx) => {
        await tx
          .update(userSecurity)
          .set({
            passwordHash: hash,
            passwordChangedTime: now,
            mustChangePassword,
            securityStamp: randomUUID(),
            failedLoginAttempts: 0,
            lockoutEndTime: null,
            passwordExpiresTime:
              !mustChangePassword && expiryDays ? new Date(now.getTime() + expiryDays * 86_400_000) : null,
          })
          .where(eq(userSecurity.userId, user.id));
        if (security)
          await tx
            .insert(passwordHistory)
            .values({ id: ids.next(), userId: user.id, passwordHash: security.hash, createdTime: now });
        await audit(deps, tx, ctx, 'PasswordResetByAdmin', user.id, { mustChangePassword });
        return endAllSessionsIn(tx, deps, user.id, reason);
      });
      await deps.sessionState.invalidateUser(user.id);
      await announceEnded(deps, user.id, ended, reason);
    },

    /**
     * POST /api/UserSecurity/ResetUserTwoFactor: turns every second factor off (the TOTP secret is
     * wiped), for a user who lost the device; the stamp rotates and the user's sessions end.
     */
    async resetTwoFactor(ctx: Ctx, id: bigint): Promise<void> {
      refuseWhileImpersonating(ctx.auth);
      const scope = await callerScope(deps, ctx.auth);
      const user = await requireManagedUser(db, scope, id);
      if (user.id === scope.userId) throw appError(userErrors.SELF_OPERATION);
      await refuseTakeover(scope, user.id);
      const reason = 'Second factor reset by an administrator';
      const ended = await db.transaction(async (tx) => {
        await tx
          .update(userSecurity)
          .set({ twoFactorMethod: 0, twoFactorSecret: null, lastTotpStep: null, securityStamp: randomUUID() })
          .where(eq(userSecurity.userId, user.id));
        await audit(deps, tx, ctx, 'MfaUnbound', user.id, { byAdministrator: true });
        return endAllSessionsIn(tx, deps, user.id, reason);
      });
      await deps.sessionState.invalidateUser(user.id);
      await announceEnded(deps, user.id, ended, reason);
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
