import { and, eq } from 'drizzle-orm';
import { users, userSecurity } from '../../../../../db/schema/index.js';
import type { AppDeps } from '../../../app-deps.js';
import { notDeleted } from '../../../infra/db/predicates.js';

/** The columns every login reads of an account (user row and security row), in drizzle's terms. */
export const accountColumns = {
  user: {
    id: users.id,
    tenantId: users.tenantId,
    userName: users.userName,
    email: users.email,
    emailVerified: users.emailVerified,
    phone: users.phone,
    phoneVerified: users.phoneVerified,
    avatar: users.avatar,
    isActive: users.isActive,
    status: users.status,
  },
  security: {
    passwordHash: userSecurity.passwordHash,
    securityStamp: userSecurity.securityStamp,
    failedLoginAttempts: userSecurity.failedLoginAttempts,
    lockoutEndTime: userSecurity.lockoutEndTime,
    passwordExpiresTime: userSecurity.passwordExpiresTime,
    mustChangePassword: userSecurity.mustChangePassword,
    twoFactorMethod: userSecurity.twoFactorMethod,
    twoFactorSecret: userSecurity.twoFactorSecret,
    lastTotpStep: userSecurity.lastTotpStep,
    allowMultiLogin: userSecurity.allowMultiLogin,
    maxLoginDevices: userSecurity.maxLoginDevices,
  },
};

/** An account as login sees it: the user row joined with its security row (undefined: none). */
export type LoginAccount = Awaited<ReturnType<typeof findAccountById>>;

/**
 * The same columns as SQL text, for the password login's lookups (every password login runs one):
 * the drizzle-built select named and quoted both whole tables (1,358 characters, 44 columns), and
 * the driver copies and hashes a statement's text on every call to find its prepared form. Ids
 * come as text and instants as whole epoch milliseconds (as JavaScript reads them), so both
 * drivers (postgres.js, PGlite) give the same values. `is_deleted = false` is written out: a parameter would keep the partial unique
 * indexes out of the generic plan (infra/db/predicates.ts).
 */
const SELECT = `select u.id::text as id, u.tenant_id::text as tenant_id, u.user_name, u.email, u.email_verified, u.phone,
    u.phone_verified, u.avatar, u.is_active, u.status, s.password_hash, s.security_stamp, s.failed_login_attempts,
    floor(extract(epoch from s.lockout_end_time) * 1000)::float8 as lockout_end_ms,
    floor(extract(epoch from s.password_expires_time) * 1000)::float8 as password_expires_ms,
    s.must_change_password, s.two_factor_method, s.two_factor_secret, s.last_totp_step, s.allow_multi_login, s.max_login_devices
  from users u join user_security s on s.user_id = u.id where u.is_deleted = false`;
/** By e-mail: unique platform-wide, case-insensitive (users_email_uq on lower(email)). */
export const ACCOUNT_BY_EMAIL = `${SELECT} and lower(u.email) = $1 limit 1`;
/** By user name, among platform accounts only (users_tenant_username_uq). */
export const ACCOUNT_BY_USER_NAME = `${SELECT} and u.tenant_id = 0 and lower(u.user_name) = $1 limit 1`;

type AccountRow = {
  id: string;
  tenant_id: string;
  user_name: string;
  email: string | null;
  email_verified: boolean;
  phone: string | null;
  phone_verified: boolean;
  avatar: string | null;
  is_active: boolean;
  status: string;
  password_hash: string;
  security_stamp: string;
  failed_login_attempts: number;
  lockout_end_ms: number | null;
  password_expires_ms: number | null;
  must_change_password: boolean;
  two_factor_method: number;
  two_factor_secret: string | null;
  last_totp_step: number | null;
  allow_multi_login: boolean;
  max_login_devices: number;
};

const instant = (ms: number | null): Date | null => (ms === null ? null : new Date(ms));

function toAccount(r: AccountRow): NonNullable<LoginAccount> {
  return {
    user: {
      id: BigInt(r.id),
      tenantId: BigInt(r.tenant_id),
      userName: r.user_name,
      email: r.email,
      emailVerified: r.email_verified,
      phone: r.phone,
      phoneVerified: r.phone_verified,
      avatar: r.avatar,
      isActive: r.is_active,
      status: r.status as NonNullable<LoginAccount>['user']['status'],
    },
    security: {
      passwordHash: r.password_hash,
      securityStamp: r.security_stamp,
      failedLoginAttempts: r.failed_login_attempts,
      lockoutEndTime: instant(r.lockout_end_ms),
      passwordExpiresTime: instant(r.password_expires_ms),
      mustChangePassword: r.must_change_password,
      twoFactorMethod: r.two_factor_method,
      twoFactorSecret: r.two_factor_secret,
      lastTotpStep: r.last_totp_step,
      allowMultiLogin: r.allow_multi_login,
      maxLoginDevices: r.max_login_devices,
    },
  };
}

/**
 * Locates an account platform-wide: by e-mail (unique, case-insensitive) when the name holds an
 * `@`, otherwise by user name among platform accounts (tenant 0). The caller lower-cases the name.
 */
export async function findAccount(deps: Pick<AppDeps, 'database'>, loginName: string): Promise<LoginAccount> {
  const [row] = await deps.database.prepared<AccountRow>(
    loginName.includes('@') ? ACCOUNT_BY_EMAIL : ACCOUNT_BY_USER_NAME,
    [loginName],
  );
  return row && toAccount(row);
}

/** An account by id, as login sees it (undefined when deleted). */
export async function findAccountById(deps: Pick<AppDeps, 'db'>, userId: bigint) {
  const [row] = await deps.db
    .select(accountColumns)
    .from(users)
    .innerJoin(userSecurity, eq(userSecurity.userId, users.id))
    .where(and(eq(users.id, userId), notDeleted(users.isDeleted)));
  return row;
}
