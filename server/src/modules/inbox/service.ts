import { and, count, desc, eq, getTableColumns, gt, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  announcements,
  notificationPreferences,
  notifications,
  roles,
  tenantMemberships,
  userRoles,
  users,
} from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors/app-error.js';
import { definePagedList, type PagedRequest, type PagedResult } from '../../query/index.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { inboxErrors } from './errors.js';
import { receiveNotification } from './payload.js';
import {
  LIST_LIMIT,
  NotificationType,
  type announcementCreate,
  type announcementItem,
  type announcementPageRequest,
  type InboxItem,
  type inboxPageRequest,
} from './schemas.js';

type Deps = Pick<AppDeps, 'db' | 'ids' | 'clock' | 'events'>;
type Row = typeof notifications.$inferSelect & { targetType: string | null };

/** Rows per insert statement when an announcement fans out. */
const INSERT_CHUNK = 1000;

/**
 * What a user sees in its inbox: its own rows of the current context, plus its security notices
 * from any context (they concern the account, which is the same in every tenant). An
 * announcement stays in its tenant whatever type its sender gave it.
 */
export function visibleTo(auth: Pick<AuthContext, 'userId' | 'tenantId'>): SQL {
  const accountNotice = and(eq(notifications.notificationType, 'Security'), isNull(notifications.notificationId));
  return and(eq(notifications.userId, auth.userId), or(eq(notifications.tenantId, auth.tenantId), accountNotice))!;
}

const selectRow = { ...getTableColumns(notifications), targetType: announcements.targetType };

export function toItem(r: Row): InboxItem {
  return {
    basicId: String(r.id),
    notificationId: String(r.notificationId ?? r.id),
    title: r.title,
    content: r.content,
    notificationType: r.notificationType,
    notificationStatus: r.isRead ? 'Read' : 'Unread',
    priority: 'Normal',
    contentFormat: r.contentFormat,
    sendTime: r.createdTime,
    readTime: r.readTime,
    confirmTime: null,
    isGlobal: r.targetType === 'All',
    needConfirm: false,
    isMandatory: false,
    isBanner: false,
    isPopup: false,
    icon: null,
    link: null,
  };
}

export const inboxList = definePagedList({
  fields: {
    basicId: { column: notifications.id, type: 'id' },
    notificationId: { column: notifications.notificationId, type: 'id' },
    title: { column: notifications.title, type: 'string', keyword: true },
    content: { column: notifications.content, type: 'string', keyword: true },
    notificationType: { column: notifications.notificationType, type: 'enum', enum: NotificationType },
    isRead: { column: notifications.isRead, type: 'boolean' },
    readTime: { column: notifications.readTime, type: 'datetime' },
    sendTime: { column: notifications.createdTime, type: 'datetime' },
    createdTime: { column: notifications.createdTime, type: 'datetime' },
  },
  defaultSort: [{ field: 'sendTime', direction: 'Descending' }],
  tieBreaker: notifications.id,
  defaultKeywordFields: ['title', 'content'],
});

export const announcementList = definePagedList({
  fields: {
    basicId: { column: announcements.id, type: 'id' },
    title: { column: announcements.title, type: 'string', keyword: true },
    content: { column: announcements.content, type: 'string', keyword: true },
    notificationType: { column: announcements.notificationType, type: 'enum', enum: NotificationType },
    targetType: { column: announcements.targetType, type: 'string' },
    sendUserId: { column: announcements.sendUserId, type: 'id' },
    recipientCount: { column: announcements.recipientCount, type: 'integer' },
    sendTime: { column: announcements.sendTime, type: 'datetime' },
    createdTime: { column: announcements.sendTime, type: 'datetime' },
  },
  defaultSort: [{ field: 'sendTime', direction: 'Descending' }],
  tieBreaker: announcements.id,
  defaultKeywordFields: ['title', 'content'],
});

/** The paged request, with the `keyword` shorthand as conditions.keyword when that is absent. */
function withKeyword(input: PagedRequest & { keyword?: string | null }): PagedRequest {
  const request: PagedRequest = { conditions: input.conditions, page: input.page };
  if (!request.conditions.keyword && input.keyword)
    request.conditions = {
      ...request.conditions,
      keyword: { value: input.keyword, fields: [], matchMode: 'Contains' },
    };
  return request;
}

export function createInboxService(deps: Deps) {
  const { db } = deps;
  const notFound = (id: bigint) => appError(inboxErrors.NOT_FOUND, { params: { id: String(id) } });

  return {
    /** UserInbox/List: the newest items of the caller, unread ones only on request. */
    async list(auth: AuthContext, unreadOnly: boolean): Promise<InboxItem[]> {
      const rows = await db
        .select(selectRow)
        .from(notifications)
        .leftJoin(announcements, eq(announcements.id, notifications.notificationId))
        .where(and(visibleTo(auth), unreadOnly ? eq(notifications.isRead, false) : undefined))
        .orderBy(desc(notifications.createdTime), desc(notifications.id))
        .limit(LIST_LIMIT);
      return rows.map(toItem);
    },

    async unreadCount(auth: AuthContext): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(notifications)
        .where(and(visibleTo(auth), eq(notifications.isRead, false)));
      return Number(row?.n ?? 0);
    },

    async page(auth: AuthContext, input: z.infer<typeof inboxPageRequest>): Promise<PagedResult<InboxItem>> {
      const status = input.notificationStatus ?? (input.unreadOnly ? 'Unread' : undefined);
      const base = and(
        visibleTo(auth),
        status ? eq(notifications.isRead, status === 'Read') : undefined,
        input.notificationType ? eq(notifications.notificationType, input.notificationType) : undefined,
      );
      const result = await inboxList.run(db, {
        request: withKeyword(input),
        base,
        select: (q) =>
          q
            .select(selectRow)
            .from(notifications)
            .leftJoin(announcements, eq(announcements.id, notifications.notificationId))
            .$dynamic(),
      });
      return { ...result, items: result.items.map(toItem) };
    },

    /** Marks one item read; the first read time is kept. Not the caller's (or not in its context): 404. */
    async markRead(auth: AuthContext, id: bigint): Promise<void> {
      const done = await db
        .update(notifications)
        .set({
          isRead: true,
          readTime: sql`coalesce(${notifications.readTime}, ${deps.clock.now().toISOString()}::timestamptz)`,
        })
        .where(and(eq(notifications.id, id), visibleTo(auth)))
        .returning({ id: notifications.id });
      if (done.length === 0) throw notFound(id);
    },

    async markAllRead(auth: AuthContext): Promise<number> {
      const done = await db
        .update(notifications)
        .set({ isRead: true, readTime: deps.clock.now() })
        .where(and(visibleTo(auth), eq(notifications.isRead, false)))
        .returning({ id: notifications.id });
      return done.length;
    },

    async remove(auth: AuthContext, id: bigint): Promise<void> {
      const done = await db
        .delete(notifications)
        .where(and(eq(notifications.id, id), visibleTo(auth)))
        .returning({ id: notifications.id });
      if (done.length === 0) throw notFound(id);
    },
  };
}

/**
 * Users an announcement reaches: members the tenant admits now, or among them the holders of a
 * role; in either case not those who switched off in-app notices or announcements.
 */
async function recipients(deps: Deps, tenantId: bigint, roleId: bigint | null, now: Date): Promise<bigint[]> {
  const admitted = and(
    eq(tenantMemberships.tenantId, tenantId),
    eq(tenantMemberships.status, 'Active'),
    eq(tenantMemberships.inviteStatus, 'Accepted'),
    or(isNull(tenantMemberships.effectiveTime), lte(tenantMemberships.effectiveTime, now)),
    or(isNull(tenantMemberships.expirationTime), gt(tenantMemberships.expirationTime, now)),
    eq(users.isDeleted, false),
    // No preference row: the defaults, both on.
    or(
      isNull(notificationPreferences.userId),
      and(eq(notificationPreferences.channelInApp, true), eq(notificationPreferences.typeAnnouncement, true)),
    ),
  );
  const q = deps.db
    .selectDistinct({ userId: tenantMemberships.userId })
    .from(tenantMemberships)
    .innerJoin(users, eq(users.id, tenantMemberships.userId))
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, tenantMemberships.userId));
  const rows = roleId
    ? await q
        .innerJoin(
          userRoles,
          and(
            eq(userRoles.userId, tenantMemberships.userId),
            eq(userRoles.tenantId, tenantId),
            eq(userRoles.roleId, roleId),
          ),
        )
        .where(
          and(
            admitted,
            eq(userRoles.status, 'Enabled'),
            or(isNull(userRoles.effectiveTime), lte(userRoles.effectiveTime, now)),
            or(isNull(userRoles.expirationTime), gt(userRoles.expirationTime, now)),
          ),
        )
    : await q.where(admitted);
  return rows.map((r) => r.userId);
}

type Announcement = z.infer<typeof announcementItem>;

function toAnnouncement(r: typeof announcements.$inferSelect): Announcement {
  return {
    basicId: String(r.id),
    title: r.title,
    content: r.content,
    contentFormat: r.contentFormat,
    notificationType: r.notificationType,
    targetType: r.targetType,
    targetRoleId: r.targetRoleId === null ? null : String(r.targetRoleId),
    sendUserId: r.sendUserId === null ? null : String(r.sendUserId),
    recipientCount: r.recipientCount,
    sendTime: r.sendTime,
    createdTime: r.sendTime,
    isPublished: true,
    priority: 'Normal',
    needConfirm: false,
    isMandatory: false,
    isBanner: false,
    isPopup: false,
  };
}

export function createAnnouncementService(deps: Deps) {
  return {
    /**
     * Sends an announcement to the caller's current tenant: one inbox row per recipient, written
     * in one transaction, then pushed to each recipient's connections on every node.
     */
    async send(
      auth: AuthContext,
      input: z.infer<typeof announcementCreate>,
    ): Promise<{ basicId: string; recipientCount: number; sendTime: Date }> {
      if (auth.tenantId === 0n) throw appError(inboxErrors.NO_TENANT);
      const targetType = input.targetType ?? 'All';
      const roleId = targetType === 'Role' ? input.targetRoleId! : null;
      if (roleId) {
        const [role] = await deps.db
          .select({ id: roles.id })
          .from(roles)
          .where(and(eq(roles.id, roleId), eq(roles.tenantId, auth.tenantId), eq(roles.isDeleted, false)));
        if (!role) throw appError(inboxErrors.ROLE_NOT_FOUND, { params: { id: String(roleId) } });
      }
      const now = deps.clock.now();
      const userIds = await recipients(deps, auth.tenantId, roleId, now);
      const id = deps.ids.next();
      const common = {
        notificationType: input.notificationType ?? 'System',
        title: input.title,
        content: input.content ?? null,
        contentFormat: input.contentFormat ?? 'Text',
      };
      const rows = userIds.map((userId) => ({
        id: deps.ids.next(),
        tenantId: auth.tenantId,
        userId,
        notificationId: id,
        ...common,
        isRead: false,
        readTime: null,
        createdTime: now,
      }));
      await deps.db.transaction(async (tx) => {
        await tx.insert(announcements).values({
          id,
          tenantId: auth.tenantId,
          ...common,
          targetType,
          targetRoleId: roleId,
          sendUserId: auth.userId,
          recipientCount: rows.length,
          sendTime: now,
        });
        for (let i = 0; i < rows.length; i += INSERT_CHUNK)
          await tx.insert(notifications).values(rows.slice(i, i + INSERT_CHUNK));
      });
      await deps.events.publish('NotificationsCreated', {
        pushes: rows.map((r) => ({ userId: r.userId, payload: receiveNotification(r) })),
      });
      return { basicId: String(id), recipientCount: rows.length, sendTime: now };
    },

    /** NotificationQuery/NotificationPage: the announcements sent in the caller's current context. */
    async page(auth: AuthContext, input: z.infer<typeof announcementPageRequest>): Promise<PagedResult<Announcement>> {
      const base = and(
        eq(announcements.tenantId, auth.tenantId),
        input.notificationType ? eq(announcements.notificationType, input.notificationType) : undefined,
        input.targetType ? eq(announcements.targetType, input.targetType) : undefined,
        input.sendUserId ? eq(announcements.sendUserId, input.sendUserId) : undefined,
      );
      const result = await announcementList.run(deps.db, {
        request: withKeyword(input),
        base,
        select: (q) => q.select().from(announcements).$dynamic(),
      });
      return { ...result, items: result.items.map(toAnnouncement) };
    },
  };
}
