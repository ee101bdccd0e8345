import { and, eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../../db/schema/index.js';
import { loginLogInsert } from '../../modules/login-log/write.js';
import { ACCOUNT_BY_EMAIL, ACCOUNT_BY_USER_NAME } from '../../modules/auth/login/account-lookup.js';
import { INSERT_LOGIN_SESSION } from '../../modules/auth/session/queries.js';
import { bootTestRuntime } from '../../testing/harness.js';
import type { SqlSession } from './client.js';
import { notDeleted } from './predicates.js';

/**
 * The unique indexes on e-mail, user name and codes are partial (`WHERE is_deleted = false`).
 * Every statement is prepared, and PostgreSQL soon runs a prepared statement with one plan for
 * any parameters (a generic plan). These tests force that plan and forbid sequential scans
 * where an index can serve, so they fail when a lookup can no longer use its index, as the
 * login lookup could not while `is_deleted` was a parameter (it scanned the users table).
 */
let runtime: Awaited<ReturnType<typeof bootTestRuntime>>;
let session: SqlSession;

beforeAll(async () => {
  runtime = await bootTestRuntime();
  session = await runtime.deps.database.session();
  await session.exec('set plan_cache_mode = force_generic_plan');
  await session.exec('set enable_seqscan = off');
}, 60_000);

afterAll(async () => {
  await session?.release();
  await runtime?.close();
});

const literal = (v: unknown): string =>
  v === null
    ? 'null'
    : typeof v === 'boolean' || typeof v === 'number' || typeof v === 'bigint'
      ? String(v)
      : `'${String(v).replaceAll("'", "''")}'`;

let statements = 0;
/** The generic plan of a statement given as text with $n parameters, run with `params`. */
async function genericPlan(text: string, params: unknown[]): Promise<string> {
  const name = `plan_probe_${++statements}`;
  await session.exec(`prepare ${name} as ${text}`);
  const rows = await session.query<{ 'QUERY PLAN': string }>(
    `explain execute ${name}${params.length ? `(${params.map(literal).join(', ')})` : ''}`,
  );
  await session.exec(`deallocate ${name}`);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

describe('lookups keep their partial unique index in generic plans', () => {
  it('the login lookup by e-mail uses users_email_uq', async () => {
    const plan = await genericPlan(ACCOUNT_BY_EMAIL, ['someone@example.test']);
    expect(plan).toContain('users_email_uq');
    expect(plan).not.toMatch(/Seq Scan on users/);
  });

  it('the login lookup by user name uses users_tenant_username_uq', async () => {
    const plan = await genericPlan(ACCOUNT_BY_USER_NAME, ['admin']);
    expect(plan).toContain('users_tenant_username_uq');
    expect(plan).not.toMatch(/Seq Scan on users/);
  });

  it('the risk check of a successful login reads only successes (login_logs_user_success_time_idx)', async () => {
    const { sql: text, params } = loginLogInsert(runtime.deps.db, true).toSQL();
    // A generic plan does not depend on the values: nulls stand in for every parameter.
    const plan = await genericPlan(
      text,
      params.map(() => null),
    );
    expect(plan).toContain('login_logs_user_success_time_idx');
  });

  it("the risk check inside a login's session insert reads only successes too", async () => {
    const parameters = INSERT_LOGIN_SESSION.match(/\$\d+/g)!.reduce((n, p) => Math.max(n, Number(p.slice(1))), 0);
    const plan = await genericPlan(
      INSERT_LOGIN_SESSION,
      Array.from({ length: parameters }, () => null),
    );
    expect(plan).toContain('login_logs_user_success_time_idx');
  });

  it('a literal false keeps the index usable where a parameter does not (why notDeleted exists)', async () => {
    const lookup = (deleted: SQL) =>
      runtime.deps.db
        .select({ id: users.id })
        .from(users)
        .where(and(deleted, sql`lower(${users.email}) = ${'x@example.test'}`))
        .toSQL();
    const withLiteral = lookup(notDeleted(users.isDeleted));
    const withParameter = lookup(eq(users.isDeleted, false));
    expect(await genericPlan(withLiteral.sql, withLiteral.params)).toContain('users_email_uq');
    expect(await genericPlan(withParameter.sql, withParameter.params)).not.toContain('users_email_uq');
  });
});
