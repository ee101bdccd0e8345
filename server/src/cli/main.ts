import { boot } from '../bootstrap.js';
import { ConfigError, loadConfig } from '../config/load.js';
import { createLogger } from '../infra/logger.js';
import { runCli } from './commands.js';

/**
 * `npx portcullis <command>`: the operator's commands, on the server's own configuration and
 * database. It boots the same runtime the server does (migrations and seed included), without
 * listening, and logs only warnings so that its output stays readable.
 */
async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig(process.env, { App: { LogLevel: 'warn', MaintenancePollSeconds: 3600 } });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const runtime = await boot(config, {
    logger: createLogger({ level: 'warn', sink: (line) => process.stderr.write(`${line}\n`) }),
  });
  try {
    await runtime.ready;
    return await runCli(process.argv.slice(2), runtime.deps, {
      out: (t) => process.stdout.write(t),
      err: (t) => process.stderr.write(t),
    });
  } finally {
    await runtime.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
