import type { AppConfig } from './config/schema.js';
import type { MaintenanceSwitch } from './http/maintenance.js';
import type { Clock } from './infra/clock.js';
import type { AppEvents } from './app-events.js';
import type { Database, DatabaseHandle } from './infra/db/client.js';
import type { EventBus } from './infra/events.js';
import type { MessageTransport } from './infra/messaging/transport.js';
import type { IdGenerator } from './infra/ids.js';
import type { Logger } from './infra/logger.js';
import type { PasswordHasher } from './infra/password.js';
import type { TwoFactorSecrets } from './modules/auth/two-factor-secrets.js';
import type { EphemeralStore } from './stores/store.js';

/** A readiness probe: resolves when the part it checks can serve. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/** What the host shell needs before the database exists (front door, health, envelopes). */
export type HostDeps = Pick<AppDeps, 'config' | 'logger' | 'clock' | 'maintenance' | 'readiness'>;

/**
 * The infrastructure every service is built from (services.ts builds the services once, each
 * from the parts it names). Nothing below reads globals: swap a part here and every module sees
 * the swap.
 */
export interface AppDeps {
  config: AppConfig;
  logger: Logger;
  clock: Clock;
  maintenance: MaintenanceSwitch;
  readiness: ReadinessCheck[];
  /** The Drizzle database (PGlite or PostgreSQL). */
  db: Database;
  database: DatabaseHandle;
  /** 64-bit id generator (usable once the upgrade has finished). */
  ids: IdGenerator;
  /** Codes, tickets, throttles, caches and cross-node messages. */
  store: EphemeralStore;
  /** Domain events (login log, audit, hub pushes subscribe to them). */
  events: EventBus<AppEvents>;
  /** E-mail and SMS. */
  messages: MessageTransport;
  /** Password hashing on threads of its own (App:PasswordHashConcurrency). */
  hasher: PasswordHasher;
  /** TOTP secrets sealed at rest and recovery-code digests, under the credential keys. */
  twoFactorSecrets: TwoFactorSecrets;
}
