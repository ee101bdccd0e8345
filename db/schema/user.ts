import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { auditColumns, id, instant, pk, softDeleteColumns, versionColumn } from './columns.js';
import { tenants } from './tenant.js';

/**
 * One natural person. TenantId is the home tenant (0 = platform account), not the set of
 * tenants the user may enter (that is tenant_memberships).
 */
export const users = pgTable(
  'users',
  {
    id: pk(),
    tenantId: id()
      .notNull()
      .references(() => tenants.id),
    userName: varchar({ length: 64 }).notNull(),
    email: varchar({ length: 254 }),
    phone: varchar({ length: 32 }),
    emailVerified: boolean().notNull().default(false),
    phoneVerified: boolean().notNull().default(false),
    realName: varchar({ length: 64 }),
    nickName: varchar({ length: 64 }),
    avatar: text(),
    /** 0 unknown, 1 male, 2 female (an int on the wire, like the original). */
    gender: smallint().notNull().default(0),
    birthday: date({ mode: 'string' }),
    country: varchar({ length: 64 }),
    remark: text(),
    /** Enabled | Disabled. */
    status: varchar({ length: 16 }).notNull().default('Enabled'),
    /** E-mail or phone verified; an inactive user cannot log in. */
    isActive: boolean().notNull().default(true),
    isSystemAccount: boolean().notNull().default(false),
    /** Overrides the data scope of the user's roles when set (SelfOnly | DepartmentOnly | DepartmentAndChildren | All | Custom). */
    dataScopeOverride: varchar({ length: 32 }),
    lastLoginTime: instant(),
    lastLoginIp: varchar({ length: 64 }),
    lastUserNameChangeTime: instant(),
    ...auditColumns(),
    ...versionColumn(),
    ...softDeleteColumns(),
  },
  (t) => [
    uniqueIndex('users_tenant_username_uq')
      .on(t.tenantId, sql`lower(${t.userName})`)
      .where(sql`${t.isDeleted} = false`),
    uniqueIndex('users_email_uq')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.email} is not null and ${t.isDeleted} = false`),
    index('users_tenant_created_idx').on(t.tenantId, t.createdTime),
    index('users_username_trgm').using('gin', sql`lower(${t.userName}) gin_trgm_ops`),
    index('users_nickname_trgm').using('gin', sql`lower(${t.nickName}) gin_trgm_ops`),
    index('users_email_trgm').using('gin', sql`lower(${t.email}) gin_trgm_ops`),
    index('users_phone_trgm').using('gin', sql`${t.phone} gin_trgm_ops`),
  ],
);

/** Secrets and login state of a user (1:1). None of these columns is ever returned. */
export const userSecurity = pgTable('user_security', {
  userId: id()
    .primaryKey()
    .references(() => users.id),
  passwordHash: text().notNull(),
  passwordChangedTime: instant(),
  /** When set and past, the password has expired. */
  passwordExpiresTime: instant(),
  /** Set when the password is a default (seed) password: the next login forces a change. */
  mustChangePassword: boolean().notNull().default(false),
  twoFactorSecret: text(),
  /** Flags: 1 Totp, 2 Email, 4 Phone. */
  twoFactorMethod: integer().notNull().default(0),
  /** Last accepted TOTP time step, so a code cannot be used twice. */
  lastTotpStep: integer(),
  securityStamp: varchar({ length: 64 }).notNull(),
  failedLoginAttempts: integer().notNull().default(0),
  lastFailedLoginTime: instant(),
  lockoutEndTime: instant(),
  allowMultiLogin: boolean().notNull().default(true),
  /** 0 = unlimited. */
  maxLoginDevices: integer().notNull().default(0),
  ...versionColumn(),
});

/** Former password hashes, so a change can refuse recent ones. */
export const passwordHistory = pgTable(
  'password_history',
  {
    id: pk(),
    userId: id()
      .notNull()
      .references(() => users.id),
    passwordHash: text().notNull(),
    createdTime: instant().notNull().defaultNow(),
  },
  (t) => [index('password_history_user_idx').on(t.userId, t.createdTime)],
);

/** A linked external identity. Third-party tokens are never stored. */
export const externalLogins = pgTable(
  'external_logins',
  {
    id: pk(),
    tenantId: id().notNull(),
    userId: id()
      .notNull()
      .references(() => users.id),
    provider: varchar({ length: 64 }).notNull(),
    providerKey: varchar({ length: 255 }).notNull(),
    providerDisplayName: varchar({ length: 128 }),
    email: varchar({ length: 254 }),
    avatarUrl: text(),
    lastLoginTime: instant(),
    ...auditColumns(),
  },
  (t) => [
    uniqueIndex('external_logins_provider_key_uq').on(t.provider, t.providerKey, t.tenantId),
    index('external_logins_user_idx').on(t.userId),
  ],
);

/** Notification switches per channel and type (one row per user). */
export const notificationPreferences = pgTable('notification_preferences', {
  userId: id()
    .primaryKey()
    .references(() => users.id),
  channelInApp: boolean().notNull().default(true),
  channelEmail: boolean().notNull().default(true),
  channelSms: boolean().notNull().default(false),
  channelPush: boolean().notNull().default(true),
  channelBot: boolean().notNull().default(false),
  typeAnnouncement: boolean().notNull().default(true),
  typeTask: boolean().notNull().default(true),
  typeApproval: boolean().notNull().default(true),
  typeSecurity: boolean().notNull().default(true),
  typeMarketing: boolean().notNull().default(false),
  modifiedTime: instant(),
});

/** UI preferences per scene and key; the value is opaque to the service. */
export const userSettings = pgTable(
  'user_settings',
  {
    userId: id()
      .notNull()
      .references(() => users.id),
    scene: varchar({ length: 32 }).notNull(),
    settingKey: varchar({ length: 128 }).notNull(),
    settingValue: text(),
    modifiedTime: instant().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.scene, t.settingKey] })],
);
