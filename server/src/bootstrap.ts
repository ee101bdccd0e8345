import type { AppDeps } from './app-deps.js';
import { createApp, type ApiDefinition } from './app.js';
import type { AppConfig } from './config/schema.js';
import { checkProductionSecrets, resolveJwtSecret } from './config/secrets.js';
import { MaintenanceSwitch } from './http/maintenance.js';
import { systemClock, type Clock } from './infra/clock.js';
import { createLogger, type Logger } from './infra/logger.js';

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
  /** Releases every connection and timer so the process can exit. */
  close(): Promise<void>;
}

/** Builds the dependencies and the host from a parsed configuration: config -> stores -> services -> app. */
export async function boot(config: AppConfig, options: BootOptions = {}): Promise<Runtime> {
  checkProductionSecrets(config);
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger({ level: config.App.LogLevel });
  const jwtSecret = await resolveJwtSecret(config);
  const resolved: AppConfig = { ...config, Jwt: { ...config.Jwt, SecretKey: jwtSecret } };
  const maintenance = new MaintenanceSwitch(config.App.MaintenanceMode, config.App.MaintenanceRetryAfterSeconds);
  const deps: AppDeps = { config: resolved, logger, clock, maintenance, readiness: [] };
  const { app, table } = createApp(deps, options.api);
  return {
    deps,
    app,
    table,
    close: async () => {},
  };
}
