/**
 * `npm run credentials:reseal`: seals every API credential secret and every TOTP secret again
 * under the current key (`Security__CredentialKeyId`), with the configuration the server itself
 * would start with, so that an old key can then be removed (recovery codes made under it stop
 * working then: they are digests, which cannot be re-sealed). Run it with the old key still
 * listed; partners and authenticator apps change nothing (the secrets stay the same). Safe to
 * run while servers run, and again.
 */
import { boot } from '../server/src/bootstrap.js';
import { loadConfig } from '../server/src/config/load.js';
import { createLogger } from '../server/src/infra/logger.js';
import { resealTotpSecrets } from '../server/src/modules/auth/totp-reseal.js';

const config = loadConfig(process.env);
const runtime = await boot(config, { logger: createLogger({ level: config.App.LogLevel }) });
try {
  await runtime.ready;
  const { resealed, unreadable } = await runtime.deps.credentials.reseal();
  process.stdout.write(
    `re-sealed ${resealed} secret(s) under the current key; ${unreadable} did not open (their key is not configured)\n`,
  );
  const totp = await resealTotpSecrets(runtime.deps);
  process.stdout.write(
    `re-sealed ${totp.resealed} TOTP secret(s) under the current key; ${totp.unreadable} did not open\n`,
  );
  process.exitCode = unreadable + totp.unreadable > 0 ? 1 : 0;
} finally {
  await runtime.close();
}
