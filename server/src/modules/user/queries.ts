import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  departmentHierarchy,
  departments,
  roles,
  tenantMemberships,
  userDepartments,
  userRoles,
  users,
  userSecurity,
} from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { Executor } from '../../infra/db/client.js';
import { escapeLike, type PagedResult } from '../../query/index.js';
import type { z } from 'zod';
import { Gender } from './enums.js';
import type { enabledUsersRequest, enabledUser, userPageItem, userPageRequest, UserDetail } from './schemas.js';
import { visibleUsers, type CallerScope } from './scope.js';
import { userListIn } from './user-list.js';
import { notDeleted } from '../../infra/db/predicates.js';

/** Code that shows e-mail addresses and phone numbers unmasked (lists and details). */
export const READ_CONTACT = 'saas:user:read-contact';

/** `a***@example.com`: enough to recognise, not enough to use. */
export function maskEmail(email: string | null): string | null {
  if (!email) return email;
  const at = email.indexOf('@');
  return at <= 0 ? '***' : `${email[0]}***${email.slice(at)}`;
}

/** `****5678`. */
export function maskPhone(phone: string | null): string | null {
  if (!phone) return phone;
  return `****${phone.slice(-4)}`;
}

const creator = alias(users, 'creator');
const modifier = alias(users, 'modifier');

/**
 * Whether the caller's context is the user's home (or the platform, which sees every account).
 * A member whose home is another tenant is shown without what that tenant knows of them: their
 * home tenant, who created and changed the account there, and their logins (which may be there).
 */
function atHome(scope: CallerScope, user: { tenantId: bigint }): boolean {
  return scope.tenantId === 0n || user.tenantId === scope.tenantId;
}

/** UserQuery/UserDetail: one user the caller may see, or null (the original service: "no data"). */
export async function userDetail(db: Executor, scope: CallerScope, id: bigint): Promise<UserDetail | null> {
  const [row] = await db
    .select({
      user: users,
      createdBy: creator.userName,
      modifiedBy: modifier.userName,
      memberType: tenantMemberships.memberType,
    })
    .from(users)
    .leftJoin(creator, eq(creator.id, users.createdBy))
    .leftJoin(modifier, eq(modifier.id, users.modifiedBy))
    .leftJoin(
      tenantMemberships,
      and(eq(tenantMemberships.tenantId, scope.tenantId), eq(tenantMemberships.userId, users.id)),
    )
    .where(and(eq(users.id, id), visibleUsers(scope)));
  if (!row) return null;
  const { user } = row;
  const contact = scope.can(READ_CONTACT);
  const home = atHome(scope, user);
  return {
    basicId: String(user.id),
    tenantId: home ? String(user.tenantId) : null,
    userName: user.userName,
    realName: user.realName,
    nickName: user.nickName,
    avatar: user.avatar,
    email: contact ? user.email : maskEmail(user.email),
    phone: contact ? user.phone : maskPhone(user.phone),
    emailVerified: user.emailVerified,
    phoneVerified: user.phoneVerified,
    gender: Gender.nameOf(user.gender) ?? 'Unknown',
    birthday: user.birthday,
    status: user.status === 'Enabled' ? 'Enabled' : 'Disabled',
    isActive: user.isActive,
    isSystemAccount: user.isSystemAccount,
    isManaged: user.tenantId === scope.tenantId,
    memberType: row.memberType,
    country: user.country,
    remark: user.remark,
    lastLoginTime: home ? user.lastLoginTime : null,
    lastLoginIp: home ? user.lastLoginIp : null,
    createdTime: user.createdTime,
    createdId: home && user.createdBy !== null ? String(user.createdBy) : null,
    createdBy: home ? row.createdBy : null,
    modifiedTime: home ? user.modifiedTime : null,
    modifiedId: home && user.modifiedBy !== null ? String(user.modifiedBy) : null,
    modifiedBy: home ? row.modifiedBy : null,
    version: user.version,
  };
}

type PageRequest = z.infer<typeof userPageRequest>;
type PageItem = z.infer<typeof userPageItem>;

/** Members of a department of the context or of any department below it. */
function inDepartmentTree(tenantId: bigint, departmentId: bigint): SQL {
  return sql`exists (select 1 from ${userDepartments} inner join ${departmentHierarchy} on ${departmentHierarchy.descendantId} = ${userDepartments.departmentId}
    where ${userDepartments.userId} = ${users.id} and ${userDepartments.tenantId} = ${tenantId}
      and ${departmentHierarchy.tenantId} = ${tenantId} and ${departmentHierarchy.ancestorId} = ${departmentId})`;
}

/**
 * UserQuery/UserPage: the paged engine over the declared users list, inside the caller's scope
 * (context, hidden super-administrators, data scope), plus the business fields of the request.
 */
export async function userPage(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  scope: CallerScope,
  input: PageRequest,
): Promise<PagedResult<PageItem>> {
  const { db } = deps;
  const request = { conditions: input.conditions, page: input.page };
  if (!request.conditions.keyword && input.keyword?.trim()) {
    request.conditions = {
      ...request.conditions,
      keyword: { value: input.keyword.trim(), fields: [], matchMode: 'Contains' },
    };
  }
  const T = scope.tenantId;
  const base = and(
    visibleUsers(scope),
    input.gender ? eq(users.gender, Gender.valueOf(input.gender)) : undefined,
    input.status ? eq(users.status, input.status) : undefined,
    input.isSystemAccount === undefined || input.isSystemAccount === null
      ? undefined
      : eq(users.isSystemAccount, input.isSystemAccount),
    input.country ? eq(users.country, input.country) : undefined,
    input.departmentId ? inDepartmentTree(T, input.departmentId) : undefined,
    input.roleId
      ? sql`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${userRoles.tenantId} = ${T} and ${userRoles.roleId} = ${input.roleId})`
      : undefined,
  );
  const result = await userListIn(T).run(db, {
    request,
    base,
    can: scope.can,
    select: (q) =>
      q
        .select({
          user: users,
          lockoutEndTime: userSecurity.lockoutEndTime,
          twoFactorMethod: userSecurity.twoFactorMethod,
        })
        .from(users)
        .leftJoin(userSecurity, eq(userSecurity.userId, users.id))
        .$dynamic(),
  });
  const ids = result.items.map((r) => r.user.id);
  const [roleRows, departmentRows] = ids.length
    ? await Promise.all([
        db
          .select({ userId: userRoles.userId, name: roles.roleName })
          .from(userRoles)
          .innerJoin(roles, eq(roles.id, userRoles.roleId))
          .where(and(inArray(userRoles.userId, ids), eq(userRoles.tenantId, T), notDeleted(roles.isDeleted)))
          .orderBy(asc(roles.sort), asc(roles.roleName)),
        db
          .select({ userId: userDepartments.userId, name: departments.departmentName })
          .from(userDepartments)
          .innerJoin(departments, eq(departments.id, userDepartments.departmentId))
          .where(
            and(
              inArray(userDepartments.userId, ids),
              eq(userDepartments.tenantId, T),
              eq(userDepartments.isMain, true),
              notDeleted(departments.isDeleted),
            ),
          ),
      ])
    : [[], []];
  const contact = scope.can(READ_CONTACT);
  const now = deps.clock.now();
  return {
    ...result,
    items: result.items.map(({ user, lockoutEndTime, twoFactorMethod }) => ({
      basicId: String(user.id),
      userName: user.userName,
      realName: user.realName,
      nickName: user.nickName,
      avatar: user.avatar,
      email: contact ? user.email : maskEmail(user.email),
      phone: contact ? user.phone : maskPhone(user.phone),
      gender: Gender.nameOf(user.gender) ?? 'Unknown',
      status: user.status === 'Enabled' ? 'Enabled' : 'Disabled',
      country: user.country,
      isSystemAccount: user.isSystemAccount,
      roleNames: roleRows.filter((r) => r.userId === user.id).map((r) => r.name),
      departmentName: departmentRows.find((d) => d.userId === user.id)?.name ?? null,
      isLocked: lockoutEndTime !== null && lockoutEndTime > now,
      twoFactorEnabled: (twoFactorMethod ?? 0) !== 0,
      lastLoginTime: atHome(scope, user) ? user.lastLoginTime : null,
      lastLoginIp: atHome(scope, user) ? user.lastLoginIp : null,
      createdTime: user.createdTime,
      modifiedTime: atHome(scope, user) ? user.modifiedTime : null,
    })),
  };
}

/** UserQuery/EnabledUsers: enabled users in scope, by user name (for pickers). */
export async function enabledUsers(
  db: Executor,
  scope: CallerScope,
  input: z.infer<typeof enabledUsersRequest>,
): Promise<Array<z.infer<typeof enabledUser>>> {
  const limit = Math.min(Math.max(input.limit ?? 200, 1), 1000);
  const keyword = input.keyword?.trim().toLowerCase();
  const pattern = keyword ? `%${escapeLike(keyword)}%` : undefined;
  const rows = await db
    .select({
      id: users.id,
      userName: users.userName,
      nickName: users.nickName,
      realName: users.realName,
      avatar: users.avatar,
    })
    .from(users)
    .where(
      and(
        visibleUsers(scope),
        eq(users.status, 'Enabled'),
        pattern
          ? sql`(lower(${users.userName}) like ${pattern} or lower(${users.nickName}) like ${pattern} or lower(${users.realName}) like ${pattern})`
          : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${users.userName})`), asc(users.id))
    .limit(limit);
  return rows.map((r) => ({
    basicId: String(r.id),
    userName: r.userName,
    nickName: r.nickName,
    realName: r.realName,
    avatar: r.avatar,
  }));
}
