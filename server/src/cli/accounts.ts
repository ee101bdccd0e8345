import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import {
  auditEntries,
  roles,
  tenantMemberships,
  tenants,
  userRoles,
  users,
  userSecurity,
} from '../../../db/schema/index.js';
import type { AppDeps } from '../app-deps.js';
import type { AppGraph } from '../services.js';
import { notDeleted } from '../infra/db/predicates.js';
import { announceEnded, endAllSessionsIn } from '../modules/user-session/revoke-all.js';

/**
 * The operator's account commands. They act with no signed-in user (the audit entries say
 * `via: cli`) and with the same effects as the API: the security stamp rotates and sessions end
 * on every node through the shared store.
 */
type Deps = Pick<AppGraph, 'db' | 'ids' | 'clock' | 'sessions' | 'sessionState' | 'events' | 'authz' | 'hasher'>;

export class CliError extends Error {}

/** A temporary password the policy accepts: four character classes, 20 characters. */
export function temporaryPassword(): string {
  return `Tmp-${randomBytes(12).toString('base64url')}7a!`;
}

/** An account by id, e-mail or user name (a user name must be unique across tenants). */
export async function findUser(
  deps: Pick<AppDeps, 'db'>,
  who: string,
): Promise<{ id: bigint; userName: string; tenantId: bigint }> {
  const condition = /^\d{1,19}$/.test(who)
    ? eq(users.id, BigInt(who))
    : who.includes('@')
      ? sql`lower(${users.email}) = ${who.toLowerCase()}`
      : sql`lower(${users.userName}) = ${who.toLowerCase()}`;
  const found = await deps.db
    .select({ id: users.id, userName: users.userName, tenantId: users.tenantId })
    .from(users)
    .where(and(condition, notDeleted(users.isDeleted)))
    .limit(2);
  if (found.length === 0) throw new CliError(`no account matches ${who}`);
  if (found.length > 1) throw new CliError(`${who} names accounts in several tenants; give the id or the e-mail`);
  return found[0]!;
}

async function audit(
  deps: Deps,
  tx: Parameters<Parameters<AppDeps['db']['transaction']>[0]>[0],
  userId: bigint,
  tenantId: bigint,
  action: string,
  detail: Record<string, unknown> = {},
) {
  await tx.insert(auditEntries).values({
    id: deps.ids.next(),
    tenantId,
    userId,
    action,
    targetType: 'User',
    targetId: String(userId),
    detail: { via: 'cli', ...detail },
    createdTime: deps.clock.now(),
  });
}

/** A platform account with the super_admin role; its password must be changed at first login. */
export async function createAdmin(
  deps: Deps,
  input: { email: string; userName?: string; password?: string },
): Promise<{ id: bigint; password: string }> {
  const password = input.password ?? temporaryPassword();
  const userName =
    input.userName ??
    input.email
      .split('@')[0]!
      .replace(/[^\p{L}\p{N}_.-]/gu, '_')
      .slice(0, 50);
  const [role] = await deps.db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.tenantId, 0n), eq(roles.roleCode, 'super_admin'), notDeleted(roles.isDeleted)));
  if (!role) throw new CliError('the super_admin role is missing: has the database been seeded?');
  const [taken] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        notDeleted(users.isDeleted),
        sql`(lower(${users.email}) = ${input.email.toLowerCase()} or (${users.tenantId} = 0 and lower(${users.userName}) = ${userName.toLowerCase()}))`,
      ),
    );
  if (taken)
    throw new CliError(`an account with the e-mail ${input.email} or the platform user name ${userName} exists`);
  const hash = await deps.hasher.hash(password);
  const id = deps.ids.next();
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(users)
      .values({ id, tenantId: 0n, userName, email: input.email, emailVerified: true, isSystemAccount: false });
    await tx
      .insert(userSecurity)
      .values({ userId: id, passwordHash: hash, securityStamp: randomUUID(), mustChangePassword: true });
    await tx.insert(userRoles).values({ id: deps.ids.next(), tenantId: 0n, userId: id, roleId: role.id });
    await audit(deps, tx, id, 0n, 'UserCreated', { role: 'super_admin' });
  });
  await deps.authz.invalidateUser(id);
  return { id, password };
}

/** A new temporary password, to be changed at the next login; every session of the user ends. */
export async function resetPassword(deps: Deps, who: string): Promise<{ userName: string; password: string }> {
  const user = await findUser(deps, who);
  const password = temporaryPassword();
  const hash = await deps.hasher.hash(password);
  const reason = 'Password reset by an operator';
  const ended = await deps.db.transaction(async (tx) => {
    await tx
      .update(userSecurity)
      .set({
        passwordHash: hash,
        passwordChangedTime: deps.clock.now(),
        mustChangePassword: true,
        securityStamp: randomUUID(),
        failedLoginAttempts: 0,
        lockoutEndTime: null,
        passwordExpiresTime: null,
      })
      .where(eq(userSecurity.userId, user.id));
    await audit(deps, tx, user.id, user.tenantId, 'PasswordResetByAdmin', { mustChangePassword: true });
    return endAllSessionsIn(tx, deps, user.id, reason);
  });
  await deps.sessionState.invalidateUser(user.id);
  await announceEnded(deps, user.id, ended, reason);
  return { userName: user.userName, password };
}

/** Disables (ending every session) or enables an account. */
export async function setStatus(
  deps: Deps,
  who: string,
  status: 'Enabled' | 'Disabled',
): Promise<{ userName: string }> {
  const user = await findUser(deps, who);
  const reason = 'Account disabled by an operator';
  const ended = await deps.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ status, modifiedTime: deps.clock.now(), version: sql`${users.version} + 1` })
      .where(eq(users.id, user.id));
    await audit(deps, tx, user.id, user.tenantId, 'UserStatusChanged', { to: status });
    return status === 'Disabled' ? endAllSessionsIn(tx, deps, user.id, reason) : new Map<bigint, bigint[]>();
  });
  await deps.sessionState.invalidateUser(user.id);
  await announceEnded(deps, user.id, ended, reason);
  return { userName: user.userName };
}

/** Ends every session of the user (and the impersonations it started). */
export async function revokeSessions(deps: Deps, who: string): Promise<{ userName: string; ended: number }> {
  const user = await findUser(deps, who);
  const reason = 'Revoked by an operator';
  const ended = await deps.db.transaction(async (tx) => {
    const result = await endAllSessionsIn(tx, deps, user.id, reason);
    await audit(deps, tx, user.id, user.tenantId, 'SessionRevoked', { sessions: [...result.values()].flat().length });
    return result;
  });
  await deps.sessionState.invalidateUser(user.id);
  await announceEnded(deps, user.id, ended, reason);
  return { userName: user.userName, ended: [...ended.values()].flat().length };
}

export async function listTenants(deps: Pick<AppDeps, 'db'>) {
  const rows = await deps.db
    .select({
      id: tenants.id,
      code: tenants.code,
      name: tenants.name,
      status: tenants.status,
      members: sql<number>`(select count(*)::int from ${tenantMemberships} m where m.tenant_id = ${tenants.id})`,
    })
    .from(tenants)
    .where(notDeleted(tenants.isDeleted))
    .orderBy(tenants.id);
  return rows.map((r) => ({ ...r, id: String(r.id), members: Number(r.members) }));
}
