import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from './load.js';
import type { AppConfig } from './schema.js';

/** Secrets that appear in documentation or samples and must never sign production tokens. */
const KNOWN_DEFAULTS = new Set([
  'changeme',
  'change-me',
  'secret',
  'your-secret-key',
  'development',
  'portcullis',
  'portcullis-dev-secret',
  'XiHanBasicAppSecretKey',
  'SuperAdmin@123',
  'Portcullis@123',
]);

/** At least 256 bits, not a known sample, not one repeated character. */
export function secretWeakness(secret: string | undefined): string | undefined {
  if (!secret) return 'missing';
  if (Buffer.byteLength(secret, 'utf8') < 32) return 'shorter than 32 bytes';
  if (KNOWN_DEFAULTS.has(secret)) return 'a published default';
  if (new Set(secret).size < 8) return 'too little variety';
  return undefined;
}

/**
 * Resolves the JWT signing secret. Production refuses a missing or weak one. Development (and
 * tests) generate one and, for a persistent data directory, keep it under DATA_DIR so tokens
 * survive a restart.
 */
export async function resolveJwtSecret(config: AppConfig): Promise<string> {
  const configured = config.Jwt.SecretKey;
  const weakness = secretWeakness(configured);
  if (!weakness) return configured!;
  if (config.App.Env === 'production') {
    throw new ConfigError(
      `Jwt__SecretKey is ${weakness}; production refuses to start without a strong secret (32+ random bytes).`,
    );
  }
  if (configured) return configured;
  if (config.Database.InMemory) return randomBytes(48).toString('base64url');
  return readOrCreateSecret(path.join(config.App.DataDir, 'secrets', 'jwt-secret'));
}

/**
 * Resolves the operator's key (the maintenance switch). Production refuses a weak one and, when
 * none is set, has no switch (undefined). Development keeps a generated one under DATA_DIR,
 * where `npm run maintenance` finds it; an in-memory database gets one for the process.
 */
export async function resolveOperatorKey(config: AppConfig): Promise<string | undefined> {
  const configured = config.App.OperatorKey;
  const weakness = configured === undefined ? undefined : secretWeakness(configured);
  if (configured !== undefined && !weakness) return configured;
  if (config.App.Env === 'production') {
    if (configured === undefined) return undefined;
    throw new ConfigError(
      `App__OperatorKey is ${weakness}; use 32+ random bytes, or leave it unset to have no run-time maintenance switch.`,
    );
  }
  if (configured) return configured;
  if (config.Database.InMemory) return randomBytes(32).toString('base64url');
  return readOrCreateSecret(operatorKeyFile(config));
}

/** Where development keeps the generated operator key. */
export function operatorKeyFile(config: AppConfig): string {
  return path.join(config.App.DataDir, 'secrets', 'operator-key');
}

async function readOrCreateSecret(file: string): Promise<string> {
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (!secretWeakness(stored)) return stored;
  } catch {
    // Not there yet: generated below.
  }
  const secret = randomBytes(48).toString('base64url');
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Production refuses the built-in seed password for the platform administrator. */
export function checkProductionSecrets(config: AppConfig): void {
  if (config.App.Env !== 'production') return;
  if (config.Saas.Seed.AdminPassword === 'Portcullis@123') {
    throw new ConfigError('SEED_ADMIN_PASSWORD is the built-in default; set your own before starting in production.');
  }
}
