import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const run = (args: string[] = []) => {
  try {
    execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/check-schema.ts'), ...args], {
      cwd: root,
      stdio: 'pipe',
    });
    return 0;
  } catch (error) {
    return (error as { status: number }).status;
  }
};

describe('schema check', () => {
  it('passes when db/schema and the committed migrations agree', () => {
    expect(run()).toBe(0);
  });

  it('fails when the schema has a change without a migration', async () => {
    await mkdir(path.join(root, '.tmp'), { recursive: true });
    const dir = await mkdtemp(path.join(root, '.tmp', 'drift-'));
    try {
      const file = path.join(dir, 'schema.ts');
      await writeFile(
        file,
        [
          `export * from ${JSON.stringify(path.join(root, 'db/schema/index.ts'))};`,
          `import { pgTable, integer } from 'drizzle-orm/pg-core';`,
          `export const driftTable = pgTable('drift_table', { id: integer().primaryKey() });`,
        ].join('\n'),
      );
      expect(run(['--schema', file])).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
