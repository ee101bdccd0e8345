import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { id, instant, pk } from './columns.js';

/**
 * One row per login or authentication attempt. Result: Success 0, InvalidCredentials 1,
 * AccountLocked 2, AccountDisabled 3, RequiresTwoFactor 4, TwoFactorFailed 5, Logout 10,
 * TokenRefreshed 11, PasswordChanged 12, PasswordReset 13, MfaBound 14, MfaUnbound 15,
 * TenantSwitched 16, SessionRevoked 17, Failed 99 (the original's numbering).
 */
export const loginLogs = pgTable(
  'login_logs',
  {
    id: pk(),
    tenantId: id().notNull().default(sql`0`),
    userId: id(),
    userName: varchar({ length: 254 }),
    sessionId: id(),
    loginTime: instant().notNull(),
    loginMethod: varchar({ length: 16 }),
    loginIp: varchar({ length: 64 }),
    loginLocation: varchar({ length: 128 }),
    browser: varchar({ length: 64 }),
    operatingSystem: varchar({ length: 64 }),
    deviceFingerprint: varchar({ length: 200 }),
    result: smallint().notNull(),
    message: text(),
    isRiskLogin: boolean().notNull().default(false),
    traceId: varchar({ length: 128 }),
  },
  (t) => [
    index('login_logs_tenant_time_idx').on(t.tenantId, t.loginTime),
    index('login_logs_user_time_idx').on(t.userId, t.loginTime),
    // The risk check of every successful login reads the user's last 50 successes: through this
    // index exactly those, however many failed attempts (anyone can add those) lie in between.
    index('login_logs_user_success_time_idx').on(t.userId, t.loginTime).where(sql`${t.result} = 0`),
  ],
);

/** Security-relevant actions (TokenRefreshed, PasswordChanged, PasswordReset, MfaBound, ...). */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: pk(),
    tenantId: id().notNull().default(sql`0`),
    userId: id(),
    actorUserId: id(),
    action: varchar({ length: 64 }).notNull(),
    targetType: varchar({ length: 64 }),
    targetId: varchar({ length: 64 }),
    detail: jsonb(),
    ipAddress: varchar({ length: 64 }),
    traceId: varchar({ length: 128 }),
    createdTime: instant().notNull().defaultNow(),
  },
  (t) => [
    index('audit_entries_tenant_time_idx').on(t.tenantId, t.createdTime),
    index('audit_entries_user_action_idx').on(t.userId, t.action),
  ],
);

/**
 * A user's inbox: one row per recipient. NotificationType (the original's names): System |
 * Security | Business | Todo | Emergency. `notificationId`: the announcement the row was fanned
 * out from (null for a notice written to one user, whose own id stands in). Security notices to
 * one user are account-level and shown in every context of the user; every other row only in
 * `tenantId`.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: pk(),
    tenantId: id().notNull().default(sql`0`),
    userId: id().notNull(),
    notificationId: id(),
    notificationType: varchar({ length: 32 }).notNull(),
    title: varchar({ length: 255 }).notNull(),
    content: text(),
    contentFormat: varchar({ length: 16 }).notNull().default('Text'),
    isRead: boolean().notNull().default(false),
    readTime: instant(),
    createdTime: instant().notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdTime),
    index('notifications_announcement_idx').on(t.notificationId),
    // The unread count and "mark all read" of a user read exactly the unread rows.
    index('notifications_user_unread_idx').on(t.userId, t.tenantId).where(sql`${t.isRead} = false`),
  ],
);

/**
 * Announcements an administrator sent to a tenant: to every member (TargetType All) or to the
 * holders of one role (Role). Each recipient gets a `notifications` row pointing here.
 */
export const announcements = pgTable(
  'announcements',
  {
    id: pk(),
    tenantId: id().notNull(),
    notificationType: varchar({ length: 32 }).notNull(),
    title: varchar({ length: 255 }).notNull(),
    content: text(),
    contentFormat: varchar({ length: 16 }).notNull().default('Text'),
    targetType: varchar({ length: 16 }).notNull(),
    targetRoleId: id(),
    sendUserId: id(),
    recipientCount: integer().notNull().default(0),
    sendTime: instant().notNull(),
  },
  (t) => [index('announcements_tenant_time_idx').on(t.tenantId, t.sendTime)],
);
