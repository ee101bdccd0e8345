import { execFile } from 'node:child_process';
import { pbkdf2Sync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import bcryptjs from 'bcryptjs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, users, userSecurity } from '../../../db/schema/index.js';
import { findProjectRoot } from '../infra/db/migrator.js';
import { bearer, createTestTenant, grantRole, loginAs } from '../testing/auth-fixtures.js';
import type { TestServer } from '../testing/harness.js';
import { runCli } from './commands.js';
import { startAdminServer } from '../testing/admin.js';

const PASSWORD = 'Correct horse 1!';
/** Written by Python's hashlib for PASSWORD (see infra/password-imported.test.ts). */
const SCRYPT = '$scrypt$ln=14,r=8,p=1$cG9ydGN1bGxpcy1zYWx0LTE$2UulqYQ/hds5XmY2TmKhUbCr8M0RTPATZj6bvHgSr1s';
const KRATOS = '$pbkdf2-sha256$i=100000,l=32$cG9ydGN1bGxpcy1zYWx0LTE$9rUoN44WVw2MKeYxq/MYAoVkKGXkiTHds2pMw5GLQFQ';
const PASSLIB =
  '$pbkdf2-sha512$25000$cG9ydGN1bGxpcy1zYWx0LTE$YUDzh2KagHUYAsYwYwMHw7OnBlNbs2wL8v2aRey6iPZTgBx.N51r.bcRJju/nS15pHmCkxJRUNyUdbdIRRulMQ';
/** dotnet/aspnetcore's published vectors, of "my password". */
const ASPNET_V2 = 'AAABAgMEBQYHCAkKCwwNDg+ukCEMDf0yyQ29NYubggHIVY0sdEUfdyeM+E1LtH1uJg==';
const ASPNET_V3 = 'AQAAAAIAACcQAAAAEAABAgMEBQYHCAkKCwwNDg9B0Oxwty+PGIDSp95gcCfzeDvA4sGapUIUov8usXfD6A==';

function original(password: string): string {
  const salt = Buffer.from('0123456789abcdef0123456789abcdef');
  return `1:1000:SHA256:${salt.toString('base64')}:${pbkdf2Sync(password, salt, 1000, 32, 'sha256').toString('base64')}`;
}

function capture() {
  const io = {
    stdout: '',
    stderr: '',
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

describe('portcullis CLI', () => {
  let server: TestServer;
  let dir: string;
  const cli = async (...argv: string[]) => {
    const io = capture();
    const code = await runCli(argv, server.runtime.deps, io);
    return { code, out: io.stdout, err: io.stderr, json: () => JSON.parse(io.stdout) as any };
  };
  const login = (username: string, password: string) =>
    server.json('/api/Auth/Login', { method: 'POST', json: { username, password } });

  beforeAll(async () => {
    server = await startAdminServer();
    dir = await mkdtemp(path.join(tmpdir(), 'portcullis-cli-'));
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('import-users: every hash format logs in over HTTP and is rehashed to argon2id; memberships and roles arrive', async () => {
    const deps = server.runtime.deps;
    const tenantId = await createTestTenant(deps, { code: 'acme' });
    const other = await createTestTenant(deps, { code: 'globex' });
    const seedUser = await createTestTenantAdminRole(server, tenantId);
    const formats: Record<string, [string, string]> = {
      bcrypt: [await bcryptjs.hash(PASSWORD, 6), PASSWORD],
      bcrypt2y: [(await bcryptjs.hash(PASSWORD, 6)).replace(/^\$2[ab]\$/, '$2y$'), PASSWORD],
      scrypt: [SCRYPT, PASSWORD],
      kratos: [KRATOS, PASSWORD],
      passlib: [PASSLIB, PASSWORD],
      argon2id: [await deps.hasher.hash(PASSWORD), PASSWORD],
      original: [original(PASSWORD), PASSWORD],
      aspnetv2: [ASPNET_V2, 'my password'],
      aspnetv3: [ASPNET_V3, 'my password'],
    };
    const rows = Object.entries(formats).map(([name, [hash]]) => ({
      userName: `imp_${name}`,
      email: `${name}@import.example`,
      passwordHash: hash,
      tenant: 'acme',
      tenants: ['globex'],
      roles: [seedUser.roleCode],
    }));
    const file = path.join(dir, 'users.json');
    await writeFile(file, JSON.stringify(rows));

    const dry = await cli('import-users', '--file', file, '--dry-run');
    expect(dry.code, dry.err).toBe(0);
    expect(dry.json()).toEqual({ dryRun: true, total: rows.length, imported: rows.length, rejected: [] });
    expect(await deps.db.select({ id: users.id }).from(users).where(eq(users.userName, 'imp_bcrypt'))).toEqual([]);

    const run = await cli('import-users', '--file', file);
    expect(run.code, run.err).toBe(0);
    expect(run.json()).toMatchObject({ dryRun: false, imported: rows.length, rejected: [] });
    expect(run.err).toContain(`${rows.length}/${rows.length}`);

    for (const [name, [, password]] of Object.entries(formats)) {
      const res = await login(`${name}@import.example`, password);
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
      expect((await login(`${name}@import.example`, 'Not the password 1!')).status, name).not.toBe(200);
      const [user] = await deps.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.userName, `imp_${name}`));
      const [security] = await deps.db
        .select({ hash: userSecurity.passwordHash })
        .from(userSecurity)
        .where(eq(userSecurity.userId, user!.id));
      expect(security!.hash, name).toMatch(/^\$argon2id\$/);
      const token = res.body.data.token.accessToken as string;
      const tenants = await server.json('/api/TenantQuery/MyAvailableTenants', { headers: bearer(token) });
      expect(
        tenants.body.data.map((t: { tenantCode?: string; code?: string }) => t.tenantCode ?? t.code).sort(),
        name,
      ).toEqual(['acme', 'globex']);
    }
    const [audited] = await deps.db
      .select({ detail: auditEntries.detail })
      .from(auditEntries)
      .where(eq(auditEntries.action, 'UserImported'))
      .limit(1);
    expect(audited!.detail).toMatchObject({ via: 'cli' });
    void other;
  });

  it('import-users from CSV: bad rows are reported with their reasons and skipped; the good ones land', async () => {
    // A PHC hash holds commas, so CSV exporters quote it.
    const csv = [
      'userName,email,passwordHash,tenant,roles',
      `csv_good,csv_good@import.example,"${SCRYPT}",default,`,
      'csv_bad_mail,not-an-address,,default,',
      'csv_bad_hash,csv_bad_hash@import.example,md5:5f4dcc3b5aa765d61d8327deb882cf99,default,',
      `csv_no_tenant,csv_nt@import.example,"${SCRYPT}",nowhere,`,
      `csv_no_role,csv_nr@import.example,"${SCRYPT}",default,no_such_role`,
      `csv_good,csv_dup@import.example,"${SCRYPT}",default,`,
      `csv_taken,csv_good@import.example,"${SCRYPT}",default,`,
      'x,short@import.example,,default,',
    ].join('\n');
    const file = path.join(dir, 'users.csv');
    await writeFile(file, csv);
    const run = await cli('import-users', '--file', file);
    expect(run.code, run.err).toBe(1);
    const report = run.json();
    expect(report.imported).toBe(1);
    const reasons = Object.fromEntries(
      report.rejected.map((r: { row: number; reasons: string[] }) => [r.row, r.reasons.join('; ')]),
    );
    expect(reasons[2]).toMatch(/email/);
    expect(reasons[3]).toMatch(/passwordHash: a password hash in no format we accept/);
    expect(reasons[4]).toMatch(/no tenant with the code nowhere/);
    expect(reasons[5]).toMatch(/no role no_such_role/);
    expect(reasons[6]).toMatch(/userName: appears twice in the file/);
    expect(reasons[7]).toMatch(/email: appears twice in the file/);
    expect(reasons[8]).toMatch(/userName/);
    expect(Object.keys(reasons)).toHaveLength(7);
    expect((await login('csv_good@import.example', PASSWORD)).status).toBe(200);
    expect((await login('csv_nr@import.example', PASSWORD)).status).not.toBe(200);
  });

  it('import-users refuses a file that is not JSON or CSV, and bad usage', async () => {
    const file = path.join(dir, 'broken.json');
    await writeFile(file, '[{"userName": ');
    expect((await cli('import-users', '--file', file)).code).toBe(1);
    expect((await cli('import-users')).code).toBe(1);
    expect((await cli('import-users', '--file', file, '--format', 'xml')).code).toBe(1);
    expect((await cli('no-such-command')).code).toBe(2);
    expect((await cli('list-tenants', '--bogus')).code).toBe(2);
  });

  it('create-admin, reset-password, disable-user, enable-user, revoke-sessions act as the API would', async () => {
    const created = await cli('create-admin', '--email', 'ops@example.test');
    expect(created.code, created.err).toBe(0);
    const { temporaryPassword } = created.json();
    const first = await login('ops@example.test', temporaryPassword);
    expect(first.status).toBe(200);
    // A generated password is a default one: the session waits for the change.
    expect(
      (await server.json('/api/Auth/UserInfo', { headers: bearer(first.body.data.token.accessToken) })).status,
    ).toBe(423);
    expect((await cli('create-admin', '--email', 'ops@example.test')).code).toBe(1);

    const user = { email: 'csv_good@import.example', userName: 'csv_good', password: PASSWORD };
    const token = (await loginAs(server, user)).accessToken;
    const reset = await cli('reset-password', '--user', 'csv_good@import.example');
    expect(reset.code, reset.err).toBe(0);
    expect((await server.json('/api/Auth/UserInfo', { headers: bearer(token) })).status).toBe(401);
    expect((await login(user.email, PASSWORD)).status).not.toBe(200);
    const fresh = await login(user.email, reset.json().password);
    expect(fresh.status).toBe(200);

    expect((await cli('disable-user', '--user', 'csv_good')).code).toBe(0);
    expect(
      (await server.json('/api/Auth/UserInfo', { headers: bearer(fresh.body.data.token.accessToken) })).status,
    ).toBe(401);
    expect((await login(user.email, reset.json().password)).status).not.toBe(200);
    expect((await cli('enable-user', '--user', 'csv_good')).code).toBe(0);
    const again = await login(user.email, reset.json().password);
    expect(again.status).toBe(200);

    const revoked = await cli('revoke-sessions', '--user', user.email);
    expect(revoked.json()).toMatchObject({ userName: 'csv_good' });
    expect(revoked.json().ended).toBeGreaterThanOrEqual(1);
    expect(
      (await server.json('/api/Auth/UserInfo', { headers: bearer(again.body.data.token.accessToken) })).status,
    ).toBe(401);
    expect((await cli('disable-user', '--user', 'nobody@example.test')).code).toBe(1);
  });

  it('list-tenants and export-users (no secrets)', async () => {
    const tenants = (await cli('list-tenants')).json() as Array<{ code: string }>;
    expect(tenants.map((t) => t.code)).toEqual(expect.arrayContaining(['default', 'acme', 'globex']));
    const exported = await cli('export-users', '--tenant', 'acme');
    const lines = exported.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.userName)).toEqual(expect.arrayContaining(['imp_bcrypt', 'imp_scrypt']));
    expect(lines.find((l) => l.userName === 'imp_bcrypt')).toMatchObject({ tenant: 'acme', tenants: ['globex'] });
    expect(exported.out).not.toMatch(/passwordHash|\$argon2|\$2[aby]\$/);
  });
});

describe('npx portcullis (the built bin)', () => {
  it('runs a command against the configured database', async () => {
    const root = findProjectRoot();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'portcullis-bin-'));
    try {
      await promisify(execFile)('npm', ['run', '-s', 'build'], { cwd: root });
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
      delete env.DATABASE_URL;
      delete env.REDIS_URL;
      const { stdout } = await promisify(execFile)('node', ['bin/portcullis.mjs', 'list-tenants'], { cwd: root, env });
      expect((JSON.parse(stdout) as Array<{ code: string }>).map((t) => t.code)).toContain('default');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

/** A role in the tenant for imported users to hold (by code). */
async function createTestTenantAdminRole(server: TestServer, tenantId: bigint) {
  const deps = server.runtime.deps;
  const holder = (await deps.db.select({ id: users.id }).from(users).limit(1))[0]!;
  const roleCode = 'importer_role';
  await grantRole(deps, holder.id, tenantId, ['saas:user:read'], roleCode);
  return { roleCode };
}
