import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import {
  permissions,
  rolePermissions,
  roles,
  tenantMemberships,
  tenants,
  userRoles,
  users,
  userSecurity,
} from '../../../db/schema/index.js';
import type { AppGraph as AppDeps } from '../services.js';
import type { CodePurpose } from '../modules/verification/codes.js';
import type { TestServer } from './harness.js';

/** Test data for authentication: users, tenants, memberships, roles; and a view of issued codes. */

export const GOOD_PASSWORD = 'Str0ng#Passw0rd!';

let hashCache: Promise<string> | undefined;

export interface TestUserOptions {
  email?: string | null;
  userName?: string;
  password?: string;
  tenantId?: bigint;
  /** Tenants (besides none) the user is an active member of. */
  memberOf?: bigint[];
  status?: 'Enabled' | 'Disabled';
  isActive?: boolean;
  twoFactorMethod?: number;
  twoFactorSecret?: string | null;
  emailVerified?: boolean;
  phone?: string | null;
  phoneVerified?: boolean;
  passwordHash?: string;
  allowMultiLogin?: boolean;
  maxLoginDevices?: number;
  mustChangePassword?: boolean;
  passwordExpiresTime?: Date | null;
  nickName?: string;
}

export interface TestUser {
  id: bigint;
  email: string | null;
  userName: string;
  password: string;
}

export async function createTestUser(deps: AppDeps, options: TestUserOptions = {}): Promise<TestUser> {
  const id = deps.ids.next();
  const userName = options.userName ?? `user_${id}`;
  const email = options.email === undefined ? `${userName}@example.test` : options.email;
  const password = options.password ?? GOOD_PASSWORD;
  // Hashing costs tens of milliseconds; most tests share the good password's hash.
  const passwordHash =
    options.passwordHash ??
    (password === GOOD_PASSWORD
      ? await (hashCache ??= deps.hasher.hash(GOOD_PASSWORD))
      : await deps.hasher.hash(password));
  await deps.db.insert(users).values({
    id,
    tenantId: options.tenantId ?? 0n,
    userName,
    email,
    emailVerified: options.emailVerified ?? true,
    phone: options.phone ?? null,
    phoneVerified: options.phoneVerified ?? false,
    status: options.status ?? 'Enabled',
    isActive: options.isActive ?? true,
    nickName: options.nickName,
  });
  await deps.db.insert(userSecurity).values({
    userId: id,
    passwordHash,
    securityStamp: randomUUID(),
    twoFactorMethod: options.twoFactorMethod ?? 0,
    twoFactorSecret: options.twoFactorSecret ?? null,
    allowMultiLogin: options.allowMultiLogin ?? true,
    maxLoginDevices: options.maxLoginDevices ?? 0,
    mustChangePassword: options.mustChangePassword ?? false,
    passwordExpiresTime: options.passwordExpiresTime ?? null,
  });
  for (const tenantId of options.memberOf ?? []) {
    await deps.db.insert(tenantMemberships).values({ id: deps.ids.next(), tenantId, userId: id });
  }
  return { id, email, userName, password };
}

export async function createTestTenant(
  deps: Pick<AppDeps, 'db' | 'ids'>,
  fields: Partial<typeof tenants.$inferInsert> = {},
): Promise<bigint> {
  const id = deps.ids.next();
  await deps.db.insert(tenants).values({ id, code: `t${id}`, name: `Tenant ${id}`, ...fields });
  return id;
}

/** A role in a tenant with the given permission codes, assigned to the user. */
export async function grantRole(
  deps: AppDeps,
  userId: bigint,
  tenantId: bigint,
  codes: string[],
  roleCode?: string,
): Promise<bigint> {
  const roleId = deps.ids.next();
  await deps.db
    .insert(roles)
    .values({ id: roleId, tenantId, roleCode: roleCode ?? `role_${roleId}`, roleName: roleCode ?? 'Test role' });
  for (const code of codes) {
    const [p] = await deps.db.select({ id: permissions.id }).from(permissions).where(eq(permissions.code, code));
    await deps.db.insert(rolePermissions).values({ roleId, permissionId: p!.id });
  }
  await deps.db.insert(userRoles).values({ id: deps.ids.next(), tenantId, userId, roleId });
  await deps.authz.invalidateUser(userId);
  return roleId;
}

/** A platform account holding the seeded super_admin role (the seeded admin must change its default password first). */
export async function createSuperAdmin(deps: AppDeps): Promise<TestUser> {
  const user = await createTestUser(deps, { tenantId: 0n });
  const [role] = await deps.db.select({ id: roles.id }).from(roles).where(eq(roles.roleCode, 'super_admin'));
  await deps.db.insert(userRoles).values({ id: deps.ids.next(), tenantId: 0n, userId: user.id, roleId: role!.id });
  await deps.authz.invalidateUser(user.id);
  return user;
}

/**
 * Records every code the service issues (codes are stored as HMACs, so tests cannot read them
 * back from the store): the test sees what a user would have seen in the message or image.
 */
export function watchCodes(deps: AppDeps): {
  last(purpose: CodePurpose, target?: string): string | undefined;
  all: Array<{ purpose: CodePurpose; target: string; code: string }>;
} {
  const all: Array<{ purpose: CodePurpose; target: string; code: string }> = [];
  const original = deps.codes.issue.bind(deps.codes);
  deps.codes.issue = async (purpose, target, options) => {
    const code = await original(purpose, target, options);
    all.push({ purpose, target, code });
    return code;
  };
  return {
    all,
    last: (purpose, target) =>
      [...all].reverse().find((c) => c.purpose === purpose && (target === undefined || c.target === target))?.code,
  };
}

/** Logs in with the password (captcha off in the server's config) and returns the token. */
export async function loginAs(
  server: TestServer,
  user: { email: string | null; userName: string; password: string },
  extra: Record<string, unknown> = {},
) {
  const res = await server.json('/api/Auth/Login', {
    method: 'POST',
    json: { username: user.email ?? user.userName, password: user.password, ...extra },
  });
  if (res.status !== 200 || !res.body.data?.token)
    throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.token as {
    accessToken: string;
    refreshToken: string;
    expiresIn: number;
    issuedAt: string;
    expiresAt: string;
    tokenType: string;
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The claims of a JWT (no verification: tests read what the server signed). */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}
