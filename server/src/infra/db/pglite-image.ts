import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLITE_START_PARAMS } from './client.js';

/**
 * A fresh embedded database spends most of its first start in initdb (seconds, and a WebAssembly
 * heap that stays hundreds of MiB larger afterwards). The build runs initdb once and keeps the
 * empty cluster as a tarball; a first start unpacks it instead. Only the bare cluster goes in:
 * migrations and the seed (with its per-deployment id key) still run at start, so the image never
 * holds a secret and never goes stale with the schema. It is tied to the PGlite release that made it.
 */
function pgliteVersion(): string {
  // The package exports no package.json: find it above its entry point.
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

const versionFile = (image: string) => `${image}.version`;

export async function writePgliteImage(image: string): Promise<boolean> {
  if (
    existsSync(image) &&
    existsSync(versionFile(image)) &&
    (await readFile(versionFile(image), 'utf8')) === pgliteVersion()
  )
    return false;
  const pg = await PGlite.create({ extensions: { pg_trgm }, startParams: PGLITE_START_PARAMS });
  const blob = await pg.dumpDataDir('gzip');
  await pg.close();
  await mkdir(path.dirname(image), { recursive: true });
  const partial = `${image}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await blob.arrayBuffer()));
  await rename(partial, image);
  await writeFile(versionFile(image), pgliteVersion());
  return true;
}

/** The image to start a data directory from: only for one that holds no cluster yet. */
export async function initialImage(dataDir: string, image: string): Promise<Blob | undefined> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return undefined;
  if (!existsSync(image) || !existsSync(versionFile(image))) return undefined;
  if ((await readFile(versionFile(image), 'utf8')) !== pgliteVersion()) return undefined;
  return new Blob([await readFile(image)]);
}
