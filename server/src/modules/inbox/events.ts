import type { ReceiveNotification } from './payload.js';

/** Domain events of the message center. */
export interface InboxEvents {
  /**
   * Inbox rows were written (a security notice, an announcement's recipients): each user's
   * connections on every node get its `ReceiveNotification` push.
   */
  NotificationsCreated: { pushes: Array<{ userId: bigint; payload: ReceiveNotification }> };
}
