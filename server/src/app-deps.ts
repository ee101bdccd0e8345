import type { AppConfig } from './config/schema.js';
import type { MaintenanceSwitch } from './http/maintenance.js';
import type { Clock } from './infra/clock.js';
import type { Database, DatabaseHandle } from './infra/db/client.js';
import type { IdGenerator } from './infra/ids.js';
import type { Logger } from './infra/logger.js';
import type { EphemeralStore } from './stores/store.js';

/** A readiness probe: resolves when the part it checks can serve. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/**
 * Everything a request can reach, built once in main.ts (or by a test) and passed down. Nothing
 * below reads globals: swap a part here and every module sees the swap.
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
}
