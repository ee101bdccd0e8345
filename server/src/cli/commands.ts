import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { AppGraph } from '../services.js';
import { CliError, createAdmin, listTenants, resetPassword, revokeSessions, setStatus } from './accounts.js';
import { readImportFile } from './import-rows.js';
import { exportUsers, importUsers } from './user-import.js';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const USAGE = `Usage: portcullis <command> [options]   (uses the server's configuration: DATABASE_URL, DATA_DIR, ...)

  create-admin --email E [--user-name U] [--password P]   a platform super-administrator (password printed when generated; changed at first login)
  reset-password --user U            a temporary password, changed at next login; the user's sessions end
  disable-user --user U              disable the account and end its sessions
  enable-user --user U
  revoke-sessions --user U           end every session of the user
  list-tenants
  import-users --file F [--format json|csv] [--tenant CODE] [--dry-run]
                                     users with their password hashes (bcrypt, scrypt, argon2, PBKDF2, ASP.NET Identity);
                                     prints a JSON report, progress on stderr; exit 1 when a row was rejected
  export-users [--tenant CODE]       one JSON object per user and line, no secrets

  U is an id, an e-mail, or a user name unique across tenants.
  On the embedded database, stop the server first: its data directory has one user at a time.
`;

const options = {
  email: { type: 'string' },
  'user-name': { type: 'string' },
  password: { type: 'string' },
  user: { type: 'string' },
  file: { type: 'string' },
  format: { type: 'string' },
  tenant: { type: 'string' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

type Deps = Pick<AppGraph, 'db' | 'ids' | 'clock' | 'sessions' | 'sessionState' | 'events' | 'authz' | 'hasher'>;

/** Runs one command; the exit code: 0 done, 1 done with rejected rows or failed, 2 bad usage. */
export async function runCli(argv: string[], deps: Deps, io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command] = positionals;
  const need = (name: keyof typeof values): string => {
    const value = values[name];
    if (typeof value !== 'string' || !value) throw new CliError(`${command} needs --${name}`);
    return value;
  };
  const json = (value: unknown) => io.out(`${JSON.stringify(value, null, 2)}\n`);
  try {
    switch (command) {
      case 'create-admin': {
        const email = need('email');
        const created = await createAdmin(deps, { email, userName: values['user-name'], password: values.password });
        json({
          id: String(created.id),
          email,
          ...(values.password ? {} : { temporaryPassword: created.password }),
          mustChangePassword: true,
        });
        return 0;
      }
      case 'reset-password':
        json({ ...(await resetPassword(deps, need('user'))), mustChangePassword: true });
        return 0;
      case 'disable-user':
        json({ ...(await setStatus(deps, need('user'), 'Disabled')), status: 'Disabled' });
        return 0;
      case 'enable-user':
        json({ ...(await setStatus(deps, need('user'), 'Enabled')), status: 'Enabled' });
        return 0;
      case 'revoke-sessions':
        json(await revokeSessions(deps, need('user')));
        return 0;
      case 'list-tenants':
        json(await listTenants(deps));
        return 0;
      case 'import-users': {
        const file = need('file');
        if (values.format !== undefined && values.format !== 'json' && values.format !== 'csv')
          throw new CliError('--format is json or csv');
        let rows: unknown[];
        try {
          rows = readImportFile(await readFile(file, 'utf8'), values.format, file);
        } catch (error) {
          throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
        }
        if (!Array.isArray(rows)) throw new CliError(`${file} holds no list of users`);
        const report = await importUsers(deps, rows, {
          dryRun: values['dry-run'] ?? false,
          defaultTenant: values.tenant ?? 'default',
          progress: (done, total) => {
            if (done % 100 === 0 || done === total) io.err(`${done}/${total}\n`);
          },
        });
        json(report);
        return report.rejected.length > 0 ? 1 : 0;
      }
      case 'export-users':
        await exportUsers(deps, values.tenant, (line) => io.out(`${line}\n`));
        return 0;
      case undefined:
      case 'help':
        io.out(USAGE);
        return command ? 0 : 2;
      default:
        io.err(`unknown command ${command}\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
