import { serve } from '@hono/node-server';
import { boot } from './bootstrap.js';
import { ConfigError, loadConfig } from './config/load.js';
import { createLogger } from './infra/logger.js';

/** The only place that reads process.env and listens: config -> stores -> services -> app -> listen. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  const logger = createLogger({ level: config.App.LogLevel });
  let runtime;
  try {
    runtime = await boot(config, { logger });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const server = serve({ fetch: runtime.app.fetch, port: config.App.Port, hostname: config.App.Host }, (address) => {
    logger.info('listening', { address: `http://${address.address}:${address.port}`, env: config.App.Env });
  });
  runtime.ready.then(
    (result) => logger.info('ready', { migrationsApplied: result.applied, version: config.App.Version }),
    () => {
      // The upgrade failed (logged). Exit so that a supervisor restarts or alerts.
      server.close();
      void runtime.close().finally(() => process.exit(1));
    },
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    server.close();
    void runtime.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
