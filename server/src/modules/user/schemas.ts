import { z } from 'zod';
import { pagedRequest, pagedResponse } from '../../query/index.js';
import { zBool, zDateTime, zDateTimeOut, zId, zIdOut, zInt, zQueryId, zDate } from '../../rpc/wire.js';
import { MemberType } from '../tenant/enums.js';
import { Gender, UserStatus } from './enums.js';

/**
 * The shapes of user administration (the original service where it records them). Optional
 * fields accept null; on update, an absent field keeps its value and null clears it.
 */

/** Letters, digits, `_`, `.` and `-`, 2 to 50: never an `@`, which would read as an e-mail at login. */
const userName = () =>
  z
    .string()
    .trim()
    .regex(/^[\p{L}\p{N}_.-]{2,50}$/u, 'userName');
const text = (max: number) => z.string().trim().max(max);
const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
const email = () => z.string().trim().max(100).pipe(z.email());
/**
 * Stored without its spaces and dashes: phone login compares the number it is given, with its
 * separators removed, to the stored one exactly (an indexable equality), so `+1 555-0100` typed
 * here must be stored as `+15550100` (migration 0004 did the same to the numbers stored before).
 */
const phone = () =>
  z
    .string()
    .trim()
    .regex(/^\+?[0-9][0-9 -]{2,19}$/, 'phone')
    .transform((v) => v.replace(/[\s-]/g, ''));
const birthday = () => zDate();

const profileFields = {
  realName: optional(text(64)),
  nickName: optional(text(64)),
  avatar: optional(text(2048)),
  email: optional(email()),
  phone: optional(phone()),
  gender: optional(Gender.schema()),
  birthday: optional(birthday()),
  country: optional(text(64)),
  remark: optional(text(500)),
};

export const createUserRequest = z.object({
  userName: userName(),
  initialPassword: z.string().min(1).max(1024),
  ...profileFields,
  status: optional(UserStatus.schema()),
  /** The first login must change the password (default true: the administrator knows this one). */
  mustChangePassword: optional(zBool()),
  /**
   * The tenant module's enum (the original's numbering: Owner 0, Admin 1, Member 2, …), so a
   * number means the same everywhere; default Member. Owner and PlatformAdmin parse but are
   * refused (422) by the service: the platform makes those memberships, never a user creation.
   */
  memberType: optional(MemberType.schema()),
  effectiveTime: optional(zDateTime()),
  expirationTime: optional(zDateTime()),
  displayName: optional(text(128)),
  inviteRemark: optional(text(500)),
  /** Main department (and position) in this tenant; within the caller's data scope. */
  departmentId: optional(zId()),
  positionId: optional(zId()),
});
export type CreateUserRequest = z.infer<typeof createUserRequest>;

export const updateUserRequest = z.object({
  basicId: zId(),
  /** The version read; a stale one answers 409. Absent: last write wins. */
  version: optional(zInt()),
  userName: optional(userName()),
  ...profileFields,
});
export type UpdateUserRequest = z.infer<typeof updateUserRequest>;

export const userStatusRequest = z.object({
  basicId: zId(),
  status: UserStatus.schema(),
  remark: optional(text(500)),
});

export const resetPasswordRequest = z.object({
  basicId: zId(),
  newPassword: z.string().min(1).max(1024),
  /** The next login must change it (default true). */
  mustChangePassword: optional(zBool()),
});

/** PUT /api/UserSecurity/UserLock (the original's UserLockUpdateDto, keyed by basicId like its siblings here). */
export const userLockRequest = z.object({
  basicId: zId(),
  isLocked: zBool(),
  /** When the lock ends (must be in the future); absent: Saas.Auth.LockoutMinutes from now. Ignored when unlocking. */
  lockoutEndTime: optional(zDateTime()),
  remark: optional(text(500)),
});
export type UserLockRequest = z.infer<typeof userLockRequest>;

/** PUT /api/UserSecurity/UserLoginPolicy (the original's UserLoginPolicyUpdateDto). */
export const userLoginPolicyRequest = z.object({
  basicId: zId(),
  allowMultiLogin: zBool(),
  /** 0 = unlimited; must be above 0 when multi-login is off (422, the original's rule). */
  maxLoginDevices: z.number().int().min(0).max(1000),
  remark: optional(text(500)),
});
export type UserLoginPolicyRequest = z.infer<typeof userLoginPolicyRequest>;

/** The lock and login policy of a user after a UserSecurity write. */
export const userSecurityState = z.object({
  basicId: zIdOut(),
  /** LockoutEndTime lies in the future (an administrator's lock or too many failed logins). */
  isLocked: z.boolean(),
  lockoutEndTime: zDateTimeOut().nullable(),
  failedLoginAttempts: z.number().int(),
  allowMultiLogin: z.boolean(),
  maxLoginDevices: z.number().int(),
});
export type UserSecurityState = z.infer<typeof userSecurityState>;

export const userIdRequest = z.object({ basicId: zId() });
export const idQuery = z.object({ id: zQueryId() });

export const userDetail = z.object({
  basicId: zIdOut(),
  /** Home tenant (0: a platform account); null for a member whose home is another tenant. */
  tenantId: zIdOut().nullable(),
  userName: z.string(),
  realName: z.string().nullable(),
  nickName: z.string().nullable(),
  avatar: z.string().nullable(),
  /** Masked unless the caller holds saas:user:read-contact. */
  email: z.string().nullable(),
  phone: z.string().nullable(),
  emailVerified: z.boolean(),
  phoneVerified: z.boolean(),
  gender: Gender.out(),
  birthday: z.string().nullable(),
  status: UserStatus.out(),
  isActive: z.boolean(),
  isSystemAccount: z.boolean(),
  /** The account's home tenant is the caller's context: its profile, status and password can be changed here. */
  isManaged: z.boolean(),
  memberType: z.string().nullable(),
  country: z.string().nullable(),
  remark: z.string().nullable(),
  lastLoginTime: zDateTimeOut().nullable(),
  lastLoginIp: z.string().nullable(),
  createdTime: zDateTimeOut(),
  createdId: zIdOut().nullable(),
  createdBy: z.string().nullable(),
  modifiedTime: zDateTimeOut().nullable(),
  modifiedId: zIdOut().nullable(),
  modifiedBy: z.string().nullable(),
  version: z.number().int(),
});
export type UserDetail = z.infer<typeof userDetail>;

export const userPageRequest = pagedRequest({
  /** Shorthand for conditions.keyword (user name, nick name, e-mail, phone). */
  keyword: optional(text(200)),
  gender: optional(Gender.schema()),
  status: optional(UserStatus.schema()),
  isSystemAccount: optional(zBool()),
  country: optional(text(64)),
  /** Members of this department and of every department below it. */
  departmentId: optional(zId()),
  /** Holders of this role in this tenant. */
  roleId: optional(zId()),
});

export const userPageItem = z.object({
  basicId: zIdOut(),
  userName: z.string(),
  realName: z.string().nullable(),
  nickName: z.string().nullable(),
  avatar: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  gender: Gender.out(),
  status: UserStatus.out(),
  country: z.string().nullable(),
  isSystemAccount: z.boolean(),
  roleNames: z.array(z.string()),
  departmentName: z.string().nullable(),
  isLocked: z.boolean(),
  twoFactorEnabled: z.boolean(),
  lastLoginTime: zDateTimeOut().nullable(),
  lastLoginIp: z.string().nullable(),
  createdTime: zDateTimeOut(),
  modifiedTime: zDateTimeOut().nullable(),
});
export const userPageResponse = pagedResponse(userPageItem);

export const enabledUsersRequest = z.object({
  keyword: optional(text(200)),
  /** At most this many (default 200, at most 1000), by user name. */
  limit: optional(zInt('clamped')),
});

export const enabledUser = z.object({
  basicId: zIdOut(),
  userName: z.string(),
  nickName: z.string().nullable(),
  realName: z.string().nullable(),
  avatar: z.string().nullable(),
});

// Role assignment (user_roles): a role held in this tenant, optionally within a time window.

export const userIdQuery = z.object({ userId: zQueryId() });

export const createUserRoleRequest = z.object({
  userId: zId(),
  roleId: zId(),
  effectiveTime: optional(zDateTime()),
  expirationTime: optional(zDateTime()),
});

export const updateUserRoleRequest = z.object({
  basicId: zId(),
  effectiveTime: optional(zDateTime()),
  expirationTime: optional(zDateTime()),
});

export const userRoleStatusRequest = z.object({ basicId: zId(), status: UserStatus.schema() });

export const setUserRolesRequest = z.object({
  userId: zId(),
  /** The complete set of the user's roles in this tenant afterwards. */
  roles: z
    .array(z.object({ roleId: zId(), effectiveTime: optional(zDateTime()), expirationTime: optional(zDateTime()) }))
    .max(100),
});

export const userRoleItem = z.object({
  basicId: zIdOut(),
  userId: zIdOut(),
  roleId: zIdOut(),
  roleCode: z.string(),
  roleName: z.string(),
  effectiveTime: zDateTimeOut().nullable(),
  expirationTime: zDateTimeOut().nullable(),
  status: UserStatus.out(),
  /** Enabled and inside its window now. */
  isEffective: z.boolean(),
  createdTime: zDateTimeOut(),
});

// Department assignment (user_departments): one main department per user and tenant.

export const createUserDepartmentRequest = z.object({
  userId: zId(),
  departmentId: zId(),
  isMain: optional(zBool()),
  positionId: optional(zId()),
  employeeNumber: optional(text(64)),
  grade: optional(text(32)),
  entryDate: optional(birthday()),
});

export const updateUserDepartmentRequest = z.object({
  basicId: zId(),
  isMain: optional(zBool()),
  positionId: optional(zId()),
  employeeNumber: optional(text(64)),
  grade: optional(text(32)),
  entryDate: optional(birthday()),
});

export const userDepartmentItem = z.object({
  basicId: zIdOut(),
  userId: zIdOut(),
  departmentId: zIdOut(),
  departmentName: z.string(),
  isMain: z.boolean(),
  positionId: zIdOut().nullable(),
  positionName: z.string().nullable(),
  employeeNumber: z.string().nullable(),
  grade: z.string().nullable(),
  entryDate: z.string().nullable(),
  createdTime: zDateTimeOut(),
});
