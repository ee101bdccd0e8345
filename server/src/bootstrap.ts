import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { seedDatabase } from '../../db/seed/seed.js';
import type { AppDeps } from './app-deps.js';
import { createApp, type ApiDefinition } from './app.js';
import type { AppConfig } from './config/schema.js';
import { checkProductionSecrets, resolveJwtSecret, resolveOperatorKey } from './config/secrets.js';
import { createImpersonationExpiry } from './modules/impersonation/expiry.js';
import { MaintenanceSwitch } from './http/maintenance.js';
import { systemClock, type Clock } from './infra/clock.js';
import { openDatabase, pgliteDir, type DatabaseHandle } from './infra/db/client.js';
import { findProjectRoot, runUpgrade, type UpgradeResult } from './infra/db/migrator.js';
import { initialImage } from './infra/db/pglite-image.js';
import { claimNodeId, loadIdKey } from './infra/db/node-lease.js';
import { createIdGenerator, generateIdKey, type IdGenerator } from './infra/ids.js';
import { createLogger, type Logger } from './infra/logger.js';
import { createPasswordHasher, type PasswordHasher } from './infra/password.js';
import type { AppEvents } from './app-events.js';
import { createEventBus } from './infra/events.js';
import { checkMessagingConfig, createMessageTransport } from './infra/messaging/select.js';
import { registerAuthHandlers } from './modules/auth/handlers.js';
import { resolveCredentialKeys } from './config/credential-keys.js';
import { createStore } from './stores/index.js';
import { createServices, type AppGraph, type Services } from './services.js';
import { createTwoFactorSecrets } from './modules/auth/two-factor-secrets.js';
import { syncOAuthButtons } from './modules/oauth/buttons.js';

export interface BootOptions {
  clock?: Clock;
  logger?: Logger;
  /** Serve another router (tests of the host itself). */
  api?: ApiDefinition;
  /** A hasher to share (the caller closes it); by default boot builds one and close() ends it. */
  hasher?: PasswordHasher;
}

export interface Runtime {
  /** The infrastructure and, beside it, every service (one object for tests and scripts). */
  deps: AppGraph;
  services: Services;
  app: ReturnType<typeof createApp>['app'];
  table: ReturnType<typeof createApp>['table'];
  metrics: ReturnType<typeof createApp>['metrics'];
  /** Settles when the upgrade and seed have run; until then the service answers 503. */
  ready: Promise<UpgradeResult>;
  /** Releases every connection and timer so the process can exit. */
  close(): Promise<void>;
  /** The HTTP server's `upgrade` event (the hubs' WebSockets). */
  upgrade: Services['notificationHub']['upgrade'];
}

async function openConfiguredDatabase(config: AppConfig): Promise<DatabaseHandle> {
  const db = config.Database;
  if (db.Url) return openDatabase({ url: db.Url, searchPath: db.Schema, maxConnections: db.MaxConnections });
  const dataDir = db.InMemory ? undefined : pgliteDir(config.App.DataDir);
  const image = db.InitialImageFile ?? path.join(findProjectRoot(), 'dist', 'pgdata-image.tar.gz');
  const snapshot = db.SnapshotFile
    ? new Blob([await readFile(db.SnapshotFile)])
    : dataDir
      ? await initialImage(dataDir, image)
      : undefined;
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
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger({ level: config.App.LogLevel });
  const hasher = options.hasher ?? createPasswordHasher({ concurrency: config.App.PasswordHashConcurrency });
  const jwtSecret = await resolveJwtSecret(config);
  const operatorKey = await resolveOperatorKey(config);
  const resolved: AppConfig = {
    ...config,
    App: { ...config.App, OperatorKey: operatorKey },
    Jwt: { ...config.Jwt, SecretKey: jwtSecret },
  };
  const credentialKeys = await resolveCredentialKeys(config);
  const maintenance = new MaintenanceSwitch(config.App.MaintenanceMode, config.App.MaintenanceRetryAfterSeconds);
  const database = await openConfiguredDatabase(config);
  const store = createStore(config, clock, logger);
  const idHolder = deferredIds();
  const messages = createMessageTransport(config, { clock });
  const infra: AppDeps = {
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
    events: createEventBus<AppEvents>(logger),
    messages,
    hasher,
    twoFactorSecrets: createTwoFactorSecrets(credentialKeys.keys, credentialKeys.currentId),
  };
  const services = createServices(infra, { credentialKeys });
  const { authz, sessionState, credentials, maintenanceControl, notificationHub } = services;
  await Promise.all([authz.start(), sessionState.start(), credentials.start()]);
  await notificationHub.start();
  registerAuthHandlers(infra);
  const { app, table, metrics } = createApp(infra, services, options.api);
  const impersonationExpiry = createImpersonationExpiry(infra);

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
        admin: {
          email: config.Saas.Seed.AdminEmail,
          password: config.Saas.Seed.AdminPassword,
          userName: config.Saas.Seed.AdminUserName,
        },
        hashPassword: hasher.hash,
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
    deps: { ...infra, ...services },
    services,
    app,
    table,
    metrics,
    ready,
    upgrade: (request, socket, head) => notificationHub.upgrade(request, socket, head),
    close: async () => {
      await ready.catch(() => undefined);
      await releaseNode();
      impersonationExpiry.stop();
      await notificationHub.stop();
      await Promise.all([authz.stop(), sessionState.stop(), credentials.stop(), maintenanceControl.stop()]);
      await store.close();
      await database.close();
      messages.close();
      if (!options.hasher) await hasher.close();
    },
  };
}
