import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import { initialImage, writePgliteImage } from './pglite-image.js';

describe('the embedded database start image', () => {
  const dirs: string[] = [];
  const temp = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'portcullis-image-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('is written once per PGlite release, starts a new data directory, and is ignored by one that has a cluster', async () => {
    const dir = await temp();
    const image = path.join(dir, 'image.tar.gz');
    expect(await writePgliteImage(image)).toBe(true);
    expect(await writePgliteImage(image)).toBe(false);

    const dataDir = path.join(dir, 'pgdata');
    const blob = await initialImage(dataDir, image);
    expect(blob).toBeInstanceOf(Blob);
    const db = await openDatabase({ dataDir, snapshot: blob });
    expect(await db.prepared<{ ok: number }>('select 1 as ok', [])).toEqual([{ ok: 1 }]);
    await db.prepared('create table kept (x int)', []);
    await db.close();
    // The cluster now exists: the image must not be unpacked over it.
    expect(await initialImage(dataDir, image)).toBeUndefined();
    const reopened = await openDatabase({ dataDir });
    expect(await reopened.prepared('select count(*)::int as n from kept', [])).toEqual([{ n: 0 }]);
    await reopened.close();
  }, 60_000);

  it('is not used when missing or made by another PGlite release', async () => {
    const dir = await temp();
    const image = path.join(dir, 'image.tar.gz');
    expect(await initialImage(path.join(dir, 'pgdata'), image)).toBeUndefined();
    await writeFile(image, 'not an image');
    await writeFile(`${image}.version`, '0.0.0-other');
    expect(await initialImage(path.join(dir, 'pgdata'), image)).toBeUndefined();
  });
});
