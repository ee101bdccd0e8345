import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zBool } from '../../rpc/wire.js';
import { permission } from '../authz/permission-catalogue.js';
import {
  announcementCreate,
  announcementPageRequest,
  announcementPageResponse,
  inboxItem,
  inboxItemRef,
  inboxPageRequest,
  inboxPageResponse,
  LIST_LIMIT,
  publishResult,
} from './schemas.js';
import { createAnnouncementService, createInboxService } from './service.js';

const VISIBILITY =
  "The caller's own items of its current context, plus its security notices from every context (they concern the account).";

/** /api/UserInbox: the caller's message center. */
export const userInboxRouter = router({
  GetListAsync: authedProcedure
    .meta({
      summary: `The caller's newest inbox items (at most ${LIST_LIMIT}; unread ones only with unreadOnly), newest first`,
      description: VISIBILITY,
    })
    .input(z.object({ unreadOnly: zBool().optional() }))
    .output(z.array(inboxItem))
    .query(({ ctx, input }) => createInboxService(ctx.deps).list(ctx.auth, input.unreadOnly ?? false)),

  GetUnreadCountAsync: authedProcedure
    .meta({ summary: "How many of the caller's inbox items are unread", description: VISIBILITY })
    .input(z.object({}))
    .output(z.object({ unreadCount: z.number().int() }))
    .query(async ({ ctx }) => ({ unreadCount: await createInboxService(ctx.deps).unreadCount(ctx.auth) })),

  GetInboxPageAsync: authedProcedure
    .meta({
      paged: true,
      summary:
        'Paged inbox of the caller: filters on notificationStatus, notificationType and keyword (title, content)',
      description: VISIBILITY,
    })
    .input(inboxPageRequest)
    .output(inboxPageResponse)
    .mutation(({ ctx, input }) => createInboxService(ctx.deps).page(ctx.auth, input)),

  MarkReadAsync: authedProcedure
    .meta({
      summary: 'Marks one inbox item read (again: no change; the first read time stays)',
      description: `${VISIBILITY} Any other id: 404.`,
    })
    .input(inboxItemRef)
    .mutation(({ ctx, input }) => createInboxService(ctx.deps).markRead(ctx.auth, input.basicId)),

  MarkAllReadAsync: authedProcedure
    .meta({ summary: 'Marks every unread inbox item of the caller read', description: VISIBILITY })
    .input(z.object({}))
    .output(z.object({ markedCount: z.number().int() }))
    .mutation(async ({ ctx }) => ({ markedCount: await createInboxService(ctx.deps).markAllRead(ctx.auth) })),

  DeleteInboxItemAsync: authedProcedure
    .meta({ summary: "Removes one item from the caller's inbox", description: `${VISIBILITY} Any other id: 404.` })
    .input(inboxItemRef)
    .mutation(({ ctx, input }) => createInboxService(ctx.deps).remove(ctx.auth, input.basicId)),
});

/** /api/NotificationQuery: announcements sent in the caller's context, for administrators. */
export const notificationQueryRouter = router({
  GetNotificationPageAsync: authedProcedure
    .meta({
      permission: permission('saas:message:read'),
      paged: true,
      summary:
        "Paged announcements sent in the caller's current context: filters on notificationType, targetType, sendUserId and keyword",
    })
    .input(announcementPageRequest)
    .output(announcementPageResponse)
    .mutation(({ ctx, input }) => createAnnouncementService(ctx.deps).page(ctx.auth, input)),
});

/** /api/Notification: sending announcements. */
export const notificationRouter = router({
  CreateNotificationAsync: authedProcedure
    .meta({
      permission: permission('saas:message:publish'),
      summary:
        "Sends an announcement to the caller's current tenant at once: to every admitted member (targetType All) or to the holders of one of its roles (Role, targetRoleId)",
      description:
        'Each recipient gets an inbox item and a ReceiveNotification push on the notification hub. Refused in the platform state (422).',
    })
    .input(announcementCreate)
    .output(publishResult)
    .mutation(({ ctx, input }) => createAnnouncementService(ctx.deps).send(ctx.auth, input)),
});
