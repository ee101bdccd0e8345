import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveCredentialKeys } from './credential-keys.js';
import { ConfigError, loadConfig } from './load.js';

/** Keys that seal API credential secrets: configured, refused in production when missing, generated in development. */

const key = () => randomBytes(32).toString('base64');
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('Security__CredentialKeys', () => {
  it('reads keys from ASP.NET-style variables, ids case-insensitively', async () => {
    const a = key();
    const b = key();
    const config = loadConfig({
      Security__CredentialKeys__K2025: a,
      SECURITY__CREDENTIALKEYS__k2026: b,
      Security__CredentialKeyId: 'K2026',
    });
    expect(config.Security.CredentialKeys).toEqual({ k2025: a, k2026: b });
    await expect(resolveCredentialKeys(config)).resolves.toEqual({ keys: { k2025: a, k2026: b }, currentId: 'k2026' });
    // One key needs no id.
    await expect(resolveCredentialKeys(loadConfig({ Security__CredentialKeys__only: a }))).resolves.toMatchObject({
      currentId: 'only',
    });
  });

  it('stops the start, naming the key, on a value that is not 32 bytes of Base64', () => {
    expect(() => loadConfig({ Security__CredentialKeys__k1: 'c2hvcnQ=' })).toThrow(
      /Security__CredentialKeys__k1: must be 32 bytes in Base64/,
    );
    expect(() => loadConfig({ Security__CredentialKeys__k1: 'not base64 at all!' })).toThrow(ConfigError);
  });

  it('refuses an unknown current id, or several keys without one', async () => {
    await expect(
      resolveCredentialKeys(loadConfig({ Security__CredentialKeys__a: key(), Security__CredentialKeyId: 'b' })),
    ).rejects.toThrow(/names "b"/);
    await expect(
      resolveCredentialKeys(loadConfig({ Security__CredentialKeys__a: key(), Security__CredentialKeys__b: key() })),
    ).rejects.toThrow(/CredentialKeyId/);
  });

  it('production refuses to start without a key, or with a patterned one', async () => {
    await expect(resolveCredentialKeys(loadConfig({ APP_ENV: 'production' }))).rejects.toThrow(/production refuses/);
    await expect(
      resolveCredentialKeys(
        loadConfig({ APP_ENV: 'production', Security__CredentialKeys__k: Buffer.alloc(32, 1).toString('base64') }),
      ),
    ).rejects.toThrow(/not random/);
    await expect(
      resolveCredentialKeys(loadConfig({ APP_ENV: 'production', Security__CredentialKeys__k: key() })),
    ).resolves.toMatchObject({ currentId: 'k' });
  });

  it('development generates a key once under DATA_DIR (mode 0600) and keeps it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'portcullis-keys-'));
    dirs.push(dir);
    const config = loadConfig({ DATA_DIR: dir });
    const first = await resolveCredentialKeys(config);
    const file = path.join(dir, 'secrets', 'credential-keys.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(first);
    expect(await resolveCredentialKeys(config)).toEqual(first);
    // A damaged file is never replaced silently (its key may still be needed).
    await writeFile(file, 'garbage');
    await expect(resolveCredentialKeys(config)).rejects.toThrow(/not a valid credential key file/);
  });

  it('an in-memory database gets a key for the life of the process', async () => {
    const keys = await resolveCredentialKeys(loadConfig({}, { Database: { InMemory: true } }));
    expect(Buffer.from(keys.keys[keys.currentId]!, 'base64')).toHaveLength(32);
  });
});
