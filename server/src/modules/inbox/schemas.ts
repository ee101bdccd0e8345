import { z } from 'zod';
import { pagedRequest, pagedResponse } from '../../query/index.js';
import { defineEnum, zBool, zDateTimeOut, zId, zIdOut } from '../../rpc/wire.js';

/**
 * The wire shapes of UserInbox/*, NotificationQuery/NotificationPage and Notification/Notification,
 * named as the original's UserInboxItemDto, NotificationListItemDto, NotificationCreateDto and
 * NotificationPublishResultDto (XiHan.BasicApp frontend/src/api/modules/messaging).
 */

/** The original's NotificationType; stored and written by name. */
export const NotificationType = defineEnum('NotificationType', {
  System: 0,
  Security: 1,
  Business: 2,
  Todo: 3,
  Emergency: 4,
});
export const NotificationStatus = defineEnum('NotificationStatus', { Unread: 0, Read: 1 });
export const ContentFormat = defineEnum('NotificationContentFormat', { Text: 0, Markdown: 1, Html: 2 });
/** Who receives an announcement: every member of the tenant, or the holders of given roles. */
export const TargetType = defineEnum('NotificationTargetType', { All: 0, Role: 1 });

export const MAX_TITLE = 255;
export const MAX_CONTENT = 20_000;
/** UserInbox/List answers the newest items only; the page gives the rest. */
export const LIST_LIMIT = 200;

export const inboxItem = z.object({
  basicId: zIdOut(),
  notificationId: zIdOut(),
  title: z.string(),
  content: z.string().nullable(),
  notificationType: z.string(),
  notificationStatus: NotificationStatus.out(),
  /** Always Normal: priorities are not kept. */
  priority: z.literal('Normal'),
  contentFormat: z.string(),
  sendTime: zDateTimeOut(),
  readTime: zDateTimeOut().nullable(),
  confirmTime: zDateTimeOut().nullable(),
  /** An announcement to every member of the tenant. */
  isGlobal: z.boolean(),
  needConfirm: z.boolean(),
  isMandatory: z.boolean(),
  isBanner: z.boolean(),
  isPopup: z.boolean(),
  icon: z.string().nullable(),
  link: z.string().nullable(),
});
export type InboxItem = z.infer<typeof inboxItem>;

export const inboxItemRef = z.object({ basicId: zId() });

export const inboxPageRequest = pagedRequest({
  /** Shorthand for conditions.keyword (title and content). */
  keyword: z.string().trim().max(200).nullish(),
  notificationStatus: NotificationStatus.schema().nullish(),
  notificationType: NotificationType.schema().nullish(),
  unreadOnly: zBool().nullish(),
});
export const inboxPageResponse = pagedResponse(inboxItem);

export const announcementItem = z.object({
  basicId: zIdOut(),
  title: z.string(),
  content: z.string().nullable(),
  contentFormat: z.string(),
  notificationType: z.string(),
  targetType: z.string(),
  /** The role of a Role announcement. */
  targetRoleId: zIdOut().nullable(),
  sendUserId: zIdOut().nullable(),
  recipientCount: z.number().int(),
  sendTime: zDateTimeOut(),
  createdTime: zDateTimeOut(),
  /** Sent as soon as created. */
  isPublished: z.literal(true),
  priority: z.literal('Normal'),
  needConfirm: z.boolean(),
  isMandatory: z.boolean(),
  isBanner: z.boolean(),
  isPopup: z.boolean(),
});

export const announcementPageRequest = pagedRequest({
  keyword: z.string().trim().max(200).nullish(),
  notificationType: NotificationType.schema().nullish(),
  targetType: TargetType.schema().nullish(),
  sendUserId: zId().nullish(),
});
export const announcementPageResponse = pagedResponse(announcementItem);

export const announcementCreate = z
  .object({
    title: z.string().trim().min(1).max(MAX_TITLE),
    content: z.string().max(MAX_CONTENT).nullish(),
    contentFormat: ContentFormat.schema().optional(),
    notificationType: NotificationType.schema().optional(),
    targetType: TargetType.schema().optional(),
    /** For targetType Role: the role whose holders receive it (a role of the current tenant). */
    targetRoleId: zId().nullish(),
  })
  .superRefine((v, ctx) => {
    // A Role announcement without its role: reported as the missing field it is.
    if (v.targetType === 'Role' && !v.targetRoleId)
      ctx.addIssue({ code: 'invalid_type', expected: 'string', input: v.targetRoleId, path: ['targetRoleId'] });
  });

export const publishResult = z.object({
  basicId: zIdOut(),
  recipientCount: z.number().int(),
  sendTime: zDateTimeOut(),
});
