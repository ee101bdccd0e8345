import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from './load.js';
import type { AppConfig } from './schema.js';

/** The keys that encrypt API credential secrets at rest, and the one new secrets use. */
export interface CredentialKeys {
  keys: Record<string, string>;
  currentId: string;
}

const DEV_FILE = ['secrets', 'credential-keys.json'];

function newKey(): string {
  return randomBytes(32).toString('base64');
}

/** Random bytes show many distinct values; a typed or patterned key does not. */
function weakness(base64: string): string | undefined {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length !== 32) return 'not 32 bytes';
  if (new Set(bytes).size < 16) return 'not random (too few distinct bytes)';
  return undefined;
}

/**
 * Resolves `Security.CredentialKeys` / `CredentialKeyId`. Configured keys are used as given (the
 * current id may be left out when there is exactly one). Production refuses to start without
 * one, or with a weak one. Development generates one and, for a persistent data directory, keeps
 * it in `DATA_DIR/secrets/credential-keys.json` (mode 0600) so stored secrets survive a restart;
 * an in-memory database gets a key for the life of the process.
 */
export async function resolveCredentialKeys(config: AppConfig): Promise<CredentialKeys> {
  const { CredentialKeys: configured, CredentialKeyId: id } = config.Security;
  const ids = Object.keys(configured);
  if (ids.length > 0) {
    const currentId = id ?? (ids.length === 1 ? ids[0]! : undefined);
    if (!currentId)
      throw new ConfigError(
        `Security__CredentialKeyId must name the key for new secrets (configured: ${ids.join(', ')}).`,
      );
    if (!configured[currentId])
      throw new ConfigError(
        `Security__CredentialKeyId names "${currentId}", which is not among Security__CredentialKeys (${ids.join(', ')}).`,
      );
    if (config.App.Env === 'production') {
      for (const key of ids) {
        const weak = weakness(configured[key]!);
        if (weak) throw new ConfigError(`Security__CredentialKeys__${key} is ${weak}; use 32 random bytes in Base64.`);
      }
    }
    return { keys: { ...configured }, currentId };
  }
  if (config.App.Env === 'production') {
    throw new ConfigError(
      'Security__CredentialKeys__<id> is missing; production refuses to start without a key for API credential secrets (32 random bytes in Base64).',
    );
  }
  if (config.Database.InMemory) return { keys: { ephemeral: newKey() }, currentId: 'ephemeral' };
  const file = path.join(config.App.DataDir, ...DEV_FILE);
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== undefined) {
    // Never replaced silently: a new key could not decrypt the secrets stored under the old one.
    let stored: Partial<CredentialKeys> | undefined;
    try {
      stored = JSON.parse(text) as Partial<CredentialKeys>;
    } catch {
      stored = undefined;
    }
    const current = stored?.currentId && stored.keys?.[stored.currentId];
    if (!current || weakness(current))
      throw new ConfigError(
        `${file} is not a valid credential key file; fix or remove it (secrets stored under it will no longer decrypt).`,
      );
    return { keys: stored!.keys!, currentId: stored!.currentId! };
  }
  const generated: CredentialKeys = { keys: { dev1: newKey() }, currentId: 'dev1' };
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(generated)}\n`, { mode: 0o600 });
  return generated;
}
