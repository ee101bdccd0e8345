import type { AuthEvents } from './modules/auth/events.js';
import type { InboxEvents } from './modules/inbox/events.js';

/** Every domain event of the service, by name (modules add theirs here). */
export type AppEvents = AuthEvents & InboxEvents;
