import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { seedDatabase } from '../../db/seed/seed.js';
import type { AppDeps } from './app-deps.js';
import { createApp, type ApiDefinition } from './app.js';
import type { AppConfig } from './config/schema.js';
import { checkProductionSecrets, resolveJwtSecret, resolveOperatorKey } from './config/secrets.js';
import { createMaintenanceControl } from './modules/maintenance/control.js';
import { createImpersonationExpiry } from './modules/impersonation/expiry.js';
import { createNotificationHub, type NotificationHub } from './modules/hubs/notification-hub.js';
import { MaintenanceSwitch } from './http/maintenance.js';
import { systemClock, type Clock } from './infra/clock.js';
import { openDatabase, pgliteDir, type DatabaseHandle } from './infra/db/client.js';
import { findProjectRoot, runUpgrade, type UpgradeResult } from './infra/db/migrator.js';
import { initialImage } from './infra/db/pglite-image.js';
import { claimNodeId, loadIdKey } from './infra/db/node-lease.js';
import { createIdGenerator, generateIdKey, type IdGenerator } from './infra/ids.js';
import { createLogger, type Logger } from './infra/logger.js';
import { hashPassword, setPasswordHashConcurrency } from './infra/password.js';
import type { AppEvents } from './app-events.js';
import { createEventBus } from './infra/events.js';
import { checkMessagingConfig, createMessageTransport } from './infra/messaging/select.js';
import { registerAuthHandlers } from './modules/auth/handlers.js';
import { createLoginService } from './modules/auth/login-service.js';
import { createSessionOperations } from './modules/auth/session-operations.js';
import { createSessionService } from './modules/auth/session-service.js';
import { createCodeService } from './modules/verification/codes.js';
import { createSessionStateService } from './modules/auth/session-state.js';
import { createTokenService } from './modules/auth/tokens.js';
import { createAuthorizationService } from './modules/authz/service.js';
import { resolveCredentialKeys } from './config/credential-keys.js';
import { createTwoFactorSecrets } from './modules/auth/two-factor-secrets.js';
import { createCredentialDirectory } from './modules/credentials/directory.js';
import { createStore } from './stores/index.js';
import { syncOAuthButtons } from './modules/oauth/buttons.js';

export interface BootOptions {
  clock?: Clock;
  logger?: Logger;
  /** Serve another router (tests of the host itself). */
  api?: ApiDefinition;
}

export interface Runtime {
  deps: AppDeps;
  app: ReturnType<typeof createApp>['app'];
  table: ReturnType<typeof createApp>['table'];
  metrics: ReturnType<typeof createApp>['metrics'];
  /** Settles when the upgrade and seed have run; until then the service answers 503. */
  ready: Promise<UpgradeResult>;
  /** Releases every connection and timer so the process can exit. */
  close(): Promise<void>;
  /** The HTTP server's `upgrade` event (the hubs' WebSockets). */
  upgrade: NotificationHub['upgrade'];
}

async function openConfiguredDatabase(config: AppConfig): Promise<DatabaseHandle> {
  const db = config.Database;
  if (db.Url) return openDatabase({ url: db.Url, searchPath: db.Schema, maxConnections: db.MaxConnections });
  const dataDir = db.InMemory ? undefined : pgliteDir(config.App.DataDir);
  const image = db.InitialImageFile ?? path.join(findProjectRoot(), 'dist', 'pgdata-image.tar.gz');
  const snapshot = db.SnapshotFile ? new Blob([await readFile(db.SnapshotFile)]) : dataDir ? await initialImage(dataDir, image) : undefined;
  return openDatabase({ dataDir, snapshot });
}

/** An id generator that exists once the upgrade has claimed a node number and loaded the key. */
function deferredIds(): { ids: IdGenerator; set(generator: IdGenerator): void } {
  let generator: IdGenerator | undefined;
  return {
    ids: {
      next: () => {
        if (!generator) throw new Error('Ids are not available before the upgrade has finished');
        return generator.next();
      },
      get nodeId() {
        return generator?.nodeId ?? -1;
      },
    },
    set: (g) => {
      generator = g;
    },
  };
}

/**
 * Builds the dependencies and the host from a parsed configuration: config -> stores ->
 * services -> app. The host answers at once (health passes, everything else 503 + Retry-After)
 * while the upgrade engine migrates and seeds; `ready` settles when it is done.
 */
export async function boot(config: AppConfig, options: BootOptions = {}): Promise<Runtime> {
  checkProductionSecrets(config);
  checkMessagingConfig(config);
  setPasswordHashConcurrency(config.App.PasswordHashConcurrency);
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger({ level: config.App.LogLevel });
  const jwtSecret = await resolveJwtSecret(config);
  const operatorKey = await resolveOperatorKey(config);
  const resolved: AppConfig = { ...config, App: { ...config.App, OperatorKey: operatorKey }, Jwt: { ...config.Jwt, SecretKey: jwtSecret } };
  const credentialKeys = await resolveCredentialKeys(config);
  const maintenance = new MaintenanceSwitch(config.App.MaintenanceMode, config.App.MaintenanceRetryAfterSeconds);
  const database = await openConfiguredDatabase(config);
  const store = createStore(config, clock, logger);
  const idHolder = deferredIds();
  const messages = createMessageTransport(config, { clock });
  const authz = createAuthorizationService({ db: database.db, store, clock, logger });
  const sessionState = createSessionStateService({ db: database.db, store, clock, logger });
  const credentials = createCredentialDirectory({ db: database.db, store, clock, logger, keys: credentialKeys.keys, currentKeyId: credentialKeys.currentId });
  await Promise.all([authz.start(), sessionState.start(), credentials.start()]);
  const maintenanceControl = createMaintenanceControl({ db: database.db, store, clock, logger, maintenance, pollMs: config.App.MaintenancePollSeconds * 1000 });
  const base = {
    config: resolved,
    logger,
    clock,
    maintenance,
    readiness: [
      { name: 'database', check: () => database.ping() },
      { name: 'store', check: () => store.ping() },
    ],
    db: database.db,
    database,
    ids: idHolder.ids,
    store,
    authz,
    tokens: createTokenService(resolved.Jwt, clock),
    sessionState,
    events: createEventBus<AppEvents>(logger),
    messages,
    // Codes are stored as HMACs under a key derived from the JWT secret (never the secret itself).
    codes: createCodeService(store, `codes:${jwtSecret}`),
    credentials,
    twoFactorSecrets: createTwoFactorSecrets(credentialKeys.keys, credentialKeys.currentId),
    maintenanceControl,
  };
  // Services that need the others are attached once the rest exists.
  const deps = { ...base, sessions: createSessionService(base) } as unknown as AppDeps;
  deps.login = createLoginService(deps);
  deps.sessionOps = createSessionOperations(deps);
  deps.notificationHub = createNotificationHub(deps);
  await deps.notificationHub.start();
  registerAuthHandlers(deps);
  const { app, table, metrics } = createApp(deps, options.api);
  const impersonationExpiry = createImpersonationExpiry(deps);

  let releaseNode = async () => {};
  maintenance.enable('upgrade');
  const ready = runUpgrade(database, {
    appVersion: config.App.Version,
    logger,
    afterMigrations: async () => {
      const lease = await claimNodeId(database, config.App.NodeId);
      releaseNode = lease.release;
      idHolder.set(createIdGenerator({ nodeId: lease.nodeId, key: await loadIdKey(database, generateIdKey) }));
      const seeded = await seedDatabase({
        db: database.db,
        ids: idHolder.ids,
        admin: { email: config.Saas.Seed.AdminEmail, password: config.Saas.Seed.AdminPassword, userName: config.Saas.Seed.AdminUserName },
        hashPassword,
      });
      if (seeded.createdAdmin) logger.info('seeded the platform administrator', { email: config.Saas.Seed.AdminEmail });
      await syncOAuthButtons({ db: database.db, config, logger });
      await maintenanceControl.start();
      impersonationExpiry.start();
    },
  }).then(
    (result) => {
      maintenance.disable('upgrade');
      return result;
    },
    (error: unknown) => {
      // Stay in maintenance: serving a half-upgraded schema would be worse than 503.
      logger.error('upgrade failed; staying in maintenance mode', { error });
      throw error;
    },
  );
  // The caller decides what a failed upgrade means; an unobserved rejection must not crash tests.
  ready.catch(() => undefined);

  return {
    deps,
    app,
    table,
    metrics,
    ready,
    upgrade: (request, socket, head) => deps.notificationHub.upgrade(request, socket, head),
    close: async () => {
      await ready.catch(() => undefined);
      await releaseNode();
      impersonationExpiry.stop();
      await deps.notificationHub.stop();
      await Promise.all([authz.stop(), sessionState.stop(), credentials.stop(), maintenanceControl.stop()]);
      await store.close();
      await database.close();
      messages.close();
    },
  };
}
