import type { AppConfig } from './config/schema.js';
import type { MaintenanceSwitch } from './http/maintenance.js';
import type { Clock } from './infra/clock.js';
import type { AppEvents } from './app-events.js';
import type { Database, DatabaseHandle } from './infra/db/client.js';
import type { EventBus } from './infra/events.js';
import type { MessageTransport } from './infra/messaging/transport.js';
import type { IdGenerator } from './infra/ids.js';
import type { Logger } from './infra/logger.js';
import type { LoginService } from './modules/auth/login-service.js';
import type { SessionOperations } from './modules/auth/session-operations.js';
import type { SessionService } from './modules/auth/session-service.js';
import type { SessionStateService } from './modules/auth/session-state.js';
import type { TokenService } from './modules/auth/tokens.js';
import type { TwoFactorSecrets } from './modules/auth/two-factor-secrets.js';
import type { AuthorizationService } from './modules/authz/service.js';
import type { CodeService } from './modules/verification/codes.js';
import type { CredentialDirectory } from './modules/credentials/directory.js';
import type { MaintenanceControl } from './modules/maintenance/control.js';
import type { NotificationHub } from './modules/hubs/notification-hub.js';
import type { EphemeralStore } from './stores/store.js';

/** A readiness probe: resolves when the part it checks can serve. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/** What the host shell needs before the database exists (front door, health, envelopes). */
export type HostDeps = Pick<AppDeps, 'config' | 'logger' | 'clock' | 'maintenance' | 'readiness'>;

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
  /** Authorization snapshots (roles, permissions, data scope) with cross-node invalidation. */
  authz: AuthorizationService;
  /** Access and refresh tokens. */
  tokens: TokenService;
  /** Cached session state checked by every authenticated request. */
  sessionState: SessionStateService;
  /** Sessions: create, refresh, move, lock, revoke. */
  sessions: SessionService;
  /** Domain events (login log, audit, hub pushes subscribe to them). */
  events: EventBus<AppEvents>;
  /** E-mail and SMS. */
  messages: MessageTransport;
  /** One-time codes (captcha, e-mail, phone, second factor). */
  codes: CodeService;
  /** Password login and its second-factor stages. */
  login: LoginService;
  /** Refresh, logout, lock, unlock, tenant switch. */
  sessionOps: SessionOperations;
  /** API credentials by AppKey (cached, secrets opened) for the signature check; seals new secrets. */
  credentials: CredentialDirectory;
  /** TOTP secrets sealed at rest and recovery-code digests, under the credential keys. */
  twoFactorSecrets: TwoFactorSecrets;
  /** The operator's run-time maintenance switch, shared by every node. */
  maintenanceControl: MaintenanceControl;
  /** The notification hub (its connections on this node; pushes reach every node's). */
  notificationHub: NotificationHub;
}
