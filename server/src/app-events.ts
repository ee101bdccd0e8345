import type { AuthEvents } from './modules/auth/events.js';

/** Every domain event of the service, by name (modules add theirs here). */
export type AppEvents = AuthEvents;
