import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { tenantMemberships, tenants, users, userSecurity } from '../../../../../db/schema/index.js';
import type { AppDeps } from '../../../app-deps.js';
import { appError } from '../../../errors/app-error.js';
import type { Transaction } from '../../../infra/db/client.js';
import { tenantAvailability } from '../login/landing.js';
import { selfServiceErrors } from './self-service-errors.js';
import { notDeleted } from '../../../infra/db/predicates.js';

/** A self-registered or external-login account, before it exists. */
export interface NewAccount {
  userName: string;
  email: string;
  emailVerified: boolean;
  /** False until the e-mail is verified (registration); true when a provider vouched for the person. */
  isActive: boolean;
  passwordHash: string;
  phone?: string;
  nickName?: string;
  avatar?: string;
}

/**
 * Creates an account in the self-service tenant (`Saas__Auth__SelfServiceTenantId`, the seeded
 * default tenant 1): the user, its security row and an active membership, so that a login lands
 * in that tenant. No roles. `extra` writes more rows in the same transaction (a linked external
 * login). Unique violations (e-mail, user name, external identity) propagate to the caller.
 */
export async function createSelfServiceAccount(
  deps: Pick<AppDeps, 'db' | 'ids' | 'clock' | 'config'>,
  account: NewAccount,
  extra?: (tx: Transaction, userId: bigint, tenantId: bigint) => Promise<void>,
): Promise<{ userId: bigint; tenantId: bigint }> {
  const tenantId = BigInt(deps.config.Saas.Auth.SelfServiceTenantId);
  const [tenant] = await deps.db.select().from(tenants).where(eq(tenants.id, tenantId));
  if (!tenant || tenantAvailability(tenant, deps.clock.now()))
    throw appError(selfServiceErrors.SELF_SERVICE_TENANT_UNAVAILABLE);
  const userId = deps.ids.next();
  await deps.db.transaction(async (tx) => {
    await tx.insert(users).values({
      id: userId,
      tenantId,
      userName: account.userName,
      email: account.email,
      emailVerified: account.emailVerified,
      phone: account.phone ?? null,
      phoneVerified: false,
      nickName: account.nickName,
      avatar: account.avatar,
      status: 'Enabled',
      isActive: account.isActive,
      createdTime: deps.clock.now(),
    });
    await tx.insert(userSecurity).values({
      userId,
      passwordHash: account.passwordHash,
      securityStamp: randomUUID(),
      passwordChangedTime: deps.clock.now(),
    });
    await tx.insert(tenantMemberships).values({
      id: deps.ids.next(),
      tenantId,
      userId,
      memberType: 'Member',
      status: 'Active',
      inviteStatus: 'Accepted',
      joinedTime: deps.clock.now(),
    });
    if (extra) await extra(tx, userId, tenantId);
  });
  return { userId, tenantId };
}

/** Removes an account created a moment ago whose creation could not be completed (its mail failed). */
export async function removeNewAccount(deps: Pick<AppDeps, 'db'>, userId: bigint): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await tx.delete(tenantMemberships).where(eq(tenantMemberships.userId, userId));
    await tx.delete(userSecurity).where(eq(userSecurity.userId, userId));
    await tx.delete(users).where(eq(users.id, userId));
  });
}

/** Whether an e-mail address is used by an account (case-insensitive, deleted accounts aside). */
export async function emailInUse(deps: Pick<AppDeps, 'db'>, email: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, notDeleted(users.isDeleted)))
    .limit(1);
  return !!row;
}

/** Whether a user name is taken in a tenant (case-insensitive, deleted accounts aside). */
export async function userNameInUse(deps: Pick<AppDeps, 'db'>, tenantId: bigint, userName: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        sql`lower(${users.userName}) = ${userName.toLowerCase()}`,
        notDeleted(users.isDeleted),
      ),
    )
    .limit(1);
  return !!row;
}
