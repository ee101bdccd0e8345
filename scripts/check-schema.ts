/**
 * Fails when db/schema and the committed migrations disagree: drizzle-kit generates into a copy
 * of db/migrations, and any new migration it writes is a change nobody generated.
 *
 * drizzle-kit needs paths relative to the working directory (it prefixes absolute ones with
 * `./`, fails, and still exits 0), so the copy lives under the project's .tmp/, and its output
 * must say one of the two known outcomes: anything else is treated as a failure.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// `--schema <file>` checks another schema entry point against the migrations (used by its test).
const flag = process.argv.indexOf('--schema');
const schemaFile = flag > 0 ? path.resolve(process.argv[flag + 1]!) : path.join(root, 'db/schema/index.ts');
const work = path.join('.tmp', `schema-check-${process.pid}`);

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

await mkdir(path.join(root, work), { recursive: true });
try {
  const out = path.join(work, 'migrations');
  await cp(path.join(root, 'db', 'migrations'), path.join(root, out), { recursive: true });
  const before = new Set(await readdir(path.join(root, out)));
  const config = path.join(work, 'drizzle.check.config.ts');
  await writeFile(
    path.join(root, config),
    `export default { dialect: 'postgresql', schema: ${JSON.stringify(path.relative(root, schemaFile))}, out: ${JSON.stringify(out)}, casing: 'snake_case' };\n`,
  );
  const result = spawnSync(
    path.join(root, 'node_modules/.bin/drizzle-kit'),
    ['generate', '--config', config, '--name', 'unsynced'],
    { cwd: root, encoding: 'utf8' },
  );
  const output = `${result.stdout}${result.stderr}`;
  const added = (await readdir(path.join(root, out))).filter((f) => !before.has(f));
  if (added.length || /Your SQL migration file/.test(output)) {
    fail(
      `db/schema has changes without a migration (${added.join(', ') || 'see drizzle-kit output'}); run npm run db:generate`,
    );
  }
  if (result.status !== 0 || !/No schema changes/.test(output))
    fail(`drizzle-kit did not confirm the schema:\n${output}`);
  process.stdout.write('db/schema and db/migrations agree\n');
} finally {
  await rm(path.join(root, work), { recursive: true, force: true });
}
