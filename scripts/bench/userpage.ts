/**
 * Target: a keyword + two filters + sort page query over 1,000,000 users of one tenant on
 * PostgreSQL answers with p95 <= 50 ms (both queries: the page and the count).
 *
 * Uses DATABASE_URL's server (default: the local one), in a database of its own
 * (portcullis_bench), seeded once and reused by later runs.
 */
import { and, eq, sql } from 'drizzle-orm';
import path from 'node:path';
import { postgresClient } from '../../server/src/infra/db/postgres-client.js';
import { withDatabase } from '../../server/src/infra/db/postgres-url.js';
import { systemSettings, tenants, users } from '../../db/schema/index.js';
import { openDatabase } from '../../server/src/infra/db/client.js';
import { runUpgrade } from '../../server/src/infra/db/migrator.js';
import { createLogger } from '../../server/src/infra/logger.js';
import { userListIn } from '../../server/src/modules/user/user-list.js';
import { pagedRequestSchema } from '../../server/src/query/index.js';
import { startPostgresCluster } from '../../server/src/testing/postgres.js';

const USERS = 1_000_000;
/** Bumped when the seeded data changes, so an old bench database is reseeded. */
const SEED_VERSION = 'names-v2';
const FIRST = [
  'james',
  'mary',
  'wei',
  'fang',
  'hiroshi',
  'yuki',
  'minjun',
  'seoyeon',
  'lukas',
  'anna',
  'arjun',
  'priya',
  'carlos',
  'sofia',
  'mohamed',
  'fatima',
  'olga',
  'ivan',
  'chen',
  'li',
  'noah',
  'emma',
  'liam',
  'olivia',
  'ethan',
  'ava',
  'lucas',
  'mia',
  'mateo',
  'isabella',
  'leon',
  'hannah',
  'ravi',
  'ananya',
  'kenji',
  'sakura',
  'jisoo',
  'hyun',
  'elena',
  'marco',
  'giulia',
  'pierre',
  'camille',
  'omar',
  'layla',
  'yusuf',
  'zeynep',
  'pedro',
  'lucia',
  'tomas',
];
const LAST = [
  'smith',
  'johnson',
  'wang',
  'zhang',
  'liu',
  'yang',
  'huang',
  'zhao',
  'wu',
  'zhou',
  'sato',
  'suzuki',
  'takahashi',
  'tanaka',
  'kim',
  'lee',
  'park',
  'choi',
  'mueller',
  'schmidt',
  'schneider',
  'fischer',
  'weber',
  'sharma',
  'patel',
  'singh',
  'kumar',
  'garcia',
  'martinez',
  'rodriguez',
  'lopez',
  'hernandez',
  'gonzalez',
  'rossi',
  'russo',
  'ferrari',
  'martin',
  'bernard',
  'dubois',
  'durand',
  'ivanov',
  'petrov',
  'nguyen',
  'tran',
  'ali',
  'khan',
  'hassan',
  'silva',
  'santos',
  'oliveira',
  'kowalski',
  'nowak',
  'jensen',
  'hansen',
  'nielsen',
  'larsen',
  'andersson',
  'johansson',
  'karlsson',
  'nilsson',
  'brown',
  'taylor',
  'wilson',
  'davies',
  'evans',
  'thomas',
  'roberts',
  'walker',
  'wright',
  'robinson',
  'thompson',
  'white',
  'hughes',
  'edwards',
  'green',
  'hall',
  'wood',
  'harris',
  'clarke',
  'jackson',
  'turner',
  'hill',
  'moore',
  'cooper',
  'ward',
  'morris',
  'king',
  'baker',
  'harrison',
  'morgan',
  'phillips',
  'lewis',
  'young',
  'allen',
  'mitchell',
  'carter',
  'adams',
  'scott',
  'murphy',
  'bell',
];
const TENANT = 900_000_000_001n;
async function ensureDatabase(server: string, name: string): Promise<void> {
  const admin = postgresClient(server, { max: 1, onnotice: () => {} });
  const [exists] = await admin`select 1 from pg_database where datname = ${name}`;
  if (!exists) await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Settings of the private cluster: memory for the data set (1M users is about 1.3 GB with indexes). */
const TUNED = {
  shared_buffers: '2GB',
  effective_cache_size: '8GB',
  work_mem: '16MB',
  random_page_cost: '1.1',
  jit: 'off',
};

/**
 * Runs on two servers: the one DATABASE_URL names (default: the machine's PostgreSQL service,
 * as configured, usually with the default 128 MB of shared buffers), and a private cluster this
 * script starts with memory settings sized for the data set (kept under .tmp/ between runs).
 */
export async function run(): Promise<void> {
  const service = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  await measureOn(service, 'the PostgreSQL service as configured');
  const root = path.resolve(import.meta.dirname, '../..');
  const cluster = await startPostgresCluster({ dir: path.join(root, '.tmp', 'bench-pg'), settings: TUNED });
  try {
    await measureOn(
      cluster.url,
      `a private cluster (${Object.entries(TUNED)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')})`,
    );
  } finally {
    await cluster.stop();
  }
}

async function measureOn(server: string, label: string): Promise<void> {
  await ensureDatabase(server, 'portcullis_bench');
  const handle = await openDatabase({ url: withDatabase(server, 'portcullis_bench'), maxConnections: 4 });
  const shared = await handle.db.execute(sql`show shared_buffers`);
  process.stdout.write(
    `\n== ${label} (shared_buffers ${(shared as unknown as Array<{ shared_buffers: string }>)[0]?.shared_buffers})\n`,
  );
  const { db } = handle;
  try {
    await runUpgrade(handle, { appVersion: 'bench', logger: createLogger({ level: 'warn' }) });
    await db.insert(tenants).values({ id: TENANT, code: 'bench', name: 'Bench tenant' }).onConflictDoNothing();
    const [{ n }] = (await db.select({ n: sql<string>`count(*)` }).from(users).where(eq(users.tenantId, TENANT))) as [
      { n: string },
    ];
    const [marker] = await db.select().from(systemSettings).where(eq(systemSettings.settingKey, 'bench.seedVersion'));
    if (Number(n) < USERS || marker?.settingValue !== SEED_VERSION) {
      process.stdout.write(`seeding ${USERS.toLocaleString()} users (once)...\n`);
      const started = performance.now();
      await db.delete(users).where(eq(users.tenantId, TENANT));
      // One statement. People get a first and a last name from the lists (50 x 100, spread by a
      // multiplicative hash so neighbours differ), a user name and an e-mail built from them
      // plus a number; statuses and genders are spread; creation times go back a second each.
      const first = sql.raw(`array[${FIRST.map((f) => `'${f}'`).join(',')}]`);
      const last = sql.raw(`array[${LAST.map((l) => `'${l}'`).join(',')}]`);
      await db.execute(sql`
        insert into users (id, tenant_id, user_name, email, nick_name, real_name, phone, gender, status, country, created_time)
        select 1000000000000 + i, ${TENANT},
               f || '.' || l || i, f || '.' || l || i || '@example.com',
               initcap(f) || ' ' || initcap(l), initcap(f) || ' ' || initcap(l),
               '+1555' || lpad(i::text, 7, '0'), i % 3,
               case when i % 10 = 0 then 'Disabled' else 'Enabled' end,
               (array['CN','DE','US','JP','KR','IN','TW'])[1 + i % 7],
               now() - make_interval(secs => i)
        from generate_series(1, ${USERS}) as g(i),
             lateral (select (${first})[1 + (i::bigint * 2654435761 % 4294967296) % ${FIRST.length}] as f,
                             (${last})[1 + (i::bigint * 40503 % 65536) % ${LAST.length}] as l) as n`);
      await db.execute(sql`analyze users`);
      await db
        .insert(systemSettings)
        .values({ settingKey: 'bench.seedVersion', settingValue: SEED_VERSION })
        .onConflictDoUpdate({ target: systemSettings.settingKey, set: { settingValue: SEED_VERSION } });
      process.stdout.write(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    }

    // What an administrator types: a surname, a full name, a name with digits from a user
    // name, the start of an e-mail, a first name. Drawn from the seeded vocabulary with varying
    // numbers so no two queries are the same text.
    const pick = <T>(list: readonly T[], i: number) => list[(i * 7919) % list.length]!;
    const workload = (i: number): string => {
      switch (i % 5) {
        case 0:
          return pick(LAST, i);
        case 1:
          return `${pick(FIRST, i)} ${pick(LAST, i + 3)}`;
        case 2:
          return `${pick(LAST, i)}${(i * 31) % 9973}`;
        case 3:
          return `${pick(FIRST, i)}.${pick(LAST, i + 1)}${(i * 13) % 100}`;
        default:
          return pick(FIRST, i);
      }
    };
    const measure = async (label: string, keywords: (i: number) => string, n: number) => {
      const timings: number[] = [];
      let matches = 0;
      for (let i = 0; i < n + 20; i++) {
        const started = performance.now();
        const total = await pageQuery(keywords(i));
        if (i >= 20) {
          timings.push(performance.now() - started);
          matches += total;
        }
      }
      const sorted = [...timings].sort((a, b) => a - b);
      process.stdout.write(
        `${label}\n  p50 ${percentile(sorted, 50).toFixed(1)} ms   p95 ${percentile(sorted, 95).toFixed(1)} ms   p99 ${percentile(sorted, 99).toFixed(1)} ms   max ${sorted.at(-1)!.toFixed(1)} ms   (${n} queries, mean ${Math.round(matches / n)} matches)\n`,
      );
    };
    const pageQuery = async (keyword: string): Promise<number> => {
      const request = pagedRequestSchema.parse({
        conditions: {
          keyword: { value: keyword, fields: ['userName', 'nickName', 'email'] },
          filters: [
            { field: 'status', operator: 'Equal', value: 'Enabled' },
            { field: 'gender', operator: 'In', values: ['Male', 'Female'] },
          ],
          sorts: [{ field: 'createdTime', direction: 'Descending' }],
        },
        page: { pageIndex: 1, pageSize: 20 },
      });
      const result = await userListIn(TENANT).run(db, {
        request,
        base: and(eq(users.tenantId, TENANT), eq(users.isDeleted, false)),
        can: () => true,
        select: (q) =>
          q
            .select({
              id: users.id,
              userName: users.userName,
              nickName: users.nickName,
              email: users.email,
              createdTime: users.createdTime,
            })
            .from(users)
            .$dynamic(),
      });
      return result.page.totalCount;
    };
    process.stdout.write(
      `userpage on PostgreSQL: ${USERS.toLocaleString()} users in one tenant; keyword over user name, nick name and e-mail + status and gender filters + sort by creation time; page and count\n`,
    );
    await measure(
      'administrator searches (surname, full name, name fragment, e-mail start, first name)',
      workload,
      500,
    );
    await measure('stress: first names only (each matches about 2% of all users)', (i) => pick(FIRST, i), 100);
    process.stdout.write('  target p95 <= 50 ms (administrator searches)\n');
  } finally {
    await handle.close();
  }
}
