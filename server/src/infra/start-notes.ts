import type { AppConfig } from '../config/schema.js';

/**
 * What a person starting the server should read once it is ready. Development gets the way in
 * (the seed account and a first command); production gets a loud warning for each part that
 * only suits a single node on a laptop, because nothing else would tell them before data is lost.
 */
export function startNotes(config: AppConfig, address: string): { banner?: string; warnings: string[] } {
  const warnings: string[] = [];
  if (config.App.Env === 'production') {
    if (!config.Database.Url)
      warnings.push(
        'production is running on the embedded database (PGlite): one process, no replication, backups by copying the data directory while stopped. Set DATABASE_URL to a PostgreSQL server.',
      );
    if (!config.Redis.Url)
      warnings.push(
        'production is running with in-process stores: limits, one-use codes, nonces and session revocations are not shared, so a second node would let them through. Set REDIS_URL.',
      );
    return { warnings };
  }
  if (config.App.Env !== 'development') return { warnings };
  const base = address.replace('//0.0.0.0:', '//localhost:').replace('//[::]:', '//localhost:');
  const banner = [
    '',
    `  Portcullis is ready at ${base}`,
    `  Seed administrator: ${config.Saas.Seed.AdminEmail} / ${config.Saas.Seed.AdminPassword}`,
    '  (a default password: the first login must change it; if you already did, use yours)',
    config.Saas.Auth.CaptchaEnabled
      ? '  Password login asks for a captcha; for curl, start with Saas__Auth__CaptchaEnabled=false (README).'
      : '',
    '  First command:',
    `    curl -sS ${base}/api/Auth/Login -H 'Content-Type: application/json' \\`,
    `      -d '{"username":"${config.Saas.Seed.AdminEmail}","password":"<password>"}'`,
    '',
  ].filter((line, i, all) => line !== '' || i === 0 || i === all.length - 1);
  return { banner: `${banner.join('\n')}\n`, warnings };
}
