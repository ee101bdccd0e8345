/**
 * The `ReceiveNotification` push (the original service): the original's shape, with ids as strings
 * and enums as names (SPEC "Real-time hubs"). `type` is the toast style the front end shows.
 */
export interface ReceiveNotification {
  type: 'Info' | 'Success' | 'Warning' | 'Error';
  title: string;
  content: string | null;
  contentFormat: string;
  /** The inbox row (what MarkRead and Delete take). */
  basicId: string;
  /** The announcement it came from; the row itself for a notice to one user. */
  notificationId: string;
  notificationType: string;
  notificationStatus: 'Unread' | 'Read' | null;
  sendTime: string;
}

/** Emergency shows as an error, Security as a warning, Business as a success, the rest as info. */
export function toastType(notificationType: string): ReceiveNotification['type'] {
  switch (notificationType) {
    case 'Emergency':
      return 'Error';
    case 'Security':
      return 'Warning';
    case 'Business':
      return 'Success';
    default:
      return 'Info';
  }
}

export function receiveNotification(row: {
  id: bigint;
  notificationId: bigint | null;
  notificationType: string;
  title: string;
  content: string | null;
  contentFormat: string;
  isRead: boolean;
  createdTime: Date;
}): ReceiveNotification {
  return {
    type: toastType(row.notificationType),
    title: row.title,
    content: row.content,
    contentFormat: row.contentFormat,
    basicId: String(row.id),
    notificationId: String(row.notificationId ?? row.id),
    notificationType: row.notificationType,
    notificationStatus: row.isRead ? 'Read' : 'Unread',
    sendTime: row.createdTime.toISOString(),
  };
}
