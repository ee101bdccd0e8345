import { boot, type Runtime } from './bootstrap.js';
import { ConfigError, loadConfig } from './config/load.js';
import { createHost } from './http/host.js';
import { trackInFlight } from './http/in-flight.js';
import { MaintenanceSwitch } from './http/maintenance.js';
import { serveApp, type UpgradeHandler } from './http/serve.js';
import { systemClock } from './infra/clock.js';
import { createLogger } from './infra/logger.js';
import { startNotes } from './infra/start-notes.js';
import { startMetricsListener } from './modules/metrics/listener.js';

/**
 * The only place that reads process.env and listens: config -> stores -> services -> app ->
 * listen. It listens first, with the host shell (health answers, everything else 503 +
 * Retry-After), so that opening the database and upgrading it never leave the port silent.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  const logger = createLogger({ level: config.App.LogLevel });
  const starting = new MaintenanceSwitch(true, config.App.MaintenanceRetryAfterSeconds);
  const shell = createHost({
    config,
    logger,
    clock: systemClock,
    maintenance: starting,
    readiness: [{ name: 'startup', check: () => Promise.reject(new Error('starting')) }],
  });
  type Env = Parameters<typeof shell.fetch>[1];
  let handler: (request: Request, env: Env) => Response | Promise<Response> = (request, env) =>
    shell.fetch(request, env);
  const inFlight = trackInFlight((request: Request, env: Env) => handler(request, env));
  let runtime: Runtime | undefined;
  // The hubs' WebSockets exist once the runtime does; before that an upgrade is refused like any request.
  const upgrade: UpgradeHandler = (request, socket, head) => {
    if (runtime) return runtime.upgrade(request, socket, head);
    socket.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  };
  let listeningAt = `http://localhost:${config.App.Port}`;
  const server = serveApp(
    { fetch: inFlight.handler, config, clock: systemClock, port: config.App.Port, hostname: config.App.Host, upgrade },
    (address) => {
      listeningAt = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
      logger.info('listening', { address: listeningAt, env: config.App.Env });
    },
  );

  let stopping = false;
  /**
   * Stops accepting connections, lets requests in flight finish (at most 10 s), and only then
   * closes the database and stores: closing them first would fail those requests. A handler
   * can outlive its connection (the client gave up), so the handlers are waited for as well.
   */
  const stop = (signal: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    const drained = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        resolve();
      }, 10_000);
      timer.unref();
      runtime?.deps.notificationHub.dropConnections();
      server.close(() => {
        void inFlight.idle().then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    });
    void drained.then(() => runtime?.close()).finally(() => process.exit(code));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  try {
    runtime = await boot(config, { logger });
  } catch (error) {
    if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
    else logger.error('start-up failed', { error });
    stop('start-up failure', error instanceof ConfigError ? 2 : 1);
    return;
  }
  const app = runtime.app;
  handler = (request, env) => app.fetch(request, env);
  if (config.Metrics.Enabled && config.Metrics.Port > 0) {
    const metricsAt = await startMetricsListener(runtime.metrics, {
      port: config.Metrics.Port,
      host: config.Metrics.Host,
    });
    logger.info('metrics listening', { address: `http://${config.Metrics.Host}:${metricsAt.port}/metrics` });
  }
  runtime.ready.then(
    (result) => {
      logger.info('ready', { migrationsApplied: result.applied, version: config.App.Version });
      const notes = startNotes(config, listeningAt);
      for (const warning of notes.warnings) logger.warn(`WARNING: ${warning}`);
      if (notes.banner) process.stdout.write(notes.banner);
    },
    // The upgrade failed (logged). Exit so that a supervisor restarts or alerts.
    () => stop('upgrade failure', 1),
  );
}

void main();
