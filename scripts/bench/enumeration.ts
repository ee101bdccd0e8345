/**
 * Account enumeration by timing: a password login naming a known account with a wrong password
 * must take as long as one naming no account, or the answer time tells which accounts exist.
 * Target: medians within 3% of each other over 200 interleaved samples of each.
 *
 * One keep-alive connection sends one login at a time (a request's time, not a rate), the two
 * kinds alternating (and which goes first alternating too), so drift of this machine's cores
 * hits both alike. Requests are serialized once (scripts/bench/lean-load.ts). Known accounts are
 * the bench users, taken in turn with a wrong password; unknown names have the same shape
 * (`bench<i>-<id>@example.test`) and the same password length. The lockout threshold is set to
 * its maximum so that no known account locks during the run (a locked account's failure writes
 * nothing, which would hide the difference this measures).
 */
import { randomInt, randomUUID } from 'node:crypto';
import { postgresClient } from '../../server/src/infra/db/postgres-client.js';
import { withDatabase } from '../../server/src/infra/db/postgres-url.js';
import { startBenchServer } from './load.js';
import { leanConnection, serializeRequests } from './lean-load.js';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

export async function run(): Promise<void> {
  const accounts = 128;
  const env: Record<string, string> = { BENCH_USERS: String(accounts), Saas__Auth__LockoutThreshold: '100' };
  // On PostgreSQL, a database of its own (the failures write rows); in Redis, keys of its own.
  const server = process.env.DATABASE_URL;
  if (server) {
    const admin = postgresClient(server, { max: 1, onnotice: () => {} });
    await admin.unsafe('DROP DATABASE IF EXISTS portcullis_bench_enumeration WITH (FORCE)');
    await admin.unsafe('CREATE DATABASE portcullis_bench_enumeration');
    await admin.end();
    env.DATABASE_URL = withDatabase(server, 'portcullis_bench_enumeration');
  }
  if (process.env.REDIS_URL) env.Redis__KeyPrefix = `bench-enumeration:${randomUUID()}:`;
  process.stdout.write(
    `database: ${server ? 'PostgreSQL' : 'the embedded PGlite (in the server process)'}; stores: ${process.env.REDIS_URL ? 'Redis' : 'in process'}\n`,
  );
  const { ports, users, password, child } = await startBenchServer([], env);
  try {
    const url = `http://127.0.0.1:${ports.app}/api/Auth/Login`;
    const wrong = `${password.slice(0, -1)}${password.endsWith('x') ? 'y' : 'x'}`;
    // Unknown names of the same shape and length as the known ones (bench<i>-<id>@example.test).
    const digits = (n: number) => Array.from({ length: n }, (_, i) => randomInt(i === 0 ? 1 : 0, 10)).join('');
    const unknownNames = users.map((name) => name.replace(/-(\d+)@/, (_, id: string) => `-${digits(id.length)}@`));
    const serialize = (names: string[]) =>
      serializeRequests({
        url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        bodies: names.map((username) => JSON.stringify({ username, password: wrong })),
      });
    const known = serialize(users);
    const unknown = serialize(unknownNames);
    const connection = await leanConnection(url);
    const send = async (request: Buffer) => {
      const { status, ms } = await connection.send(request);
      if (status !== 400) throw new Error(`a failed login answered ${status}`);
      return ms;
    };
    /** `pairs` of one known and one unknown login, interleaved; which goes first alternates. */
    const sample = async (pairs: number, offset: number) => {
      const times = { known: [] as number[], unknown: [] as number[] };
      for (let i = 0; i < pairs; i++) {
        const k = known[(offset + i) % known.length]!;
        const u = unknown[(offset + i) % unknown.length]!;
        if (i % 2 === 0) {
          times.known.push(await send(k));
          times.unknown.push(await send(u));
        } else {
          times.unknown.push(await send(u));
          times.known.push(await send(k));
        }
      }
      return times;
    };
    // V8 optimizes the failure paths after some thousands of calls (as the login benchmark found
    // for the success path): the figures are those of a server that has been running.
    const warmUntil = performance.now() + Number(process.env.BENCH_WARMUP ?? 15) * 1000;
    for (let offset = 0; performance.now() < warmUntil; offset += 20) await sample(20, offset);

    const samples = Number(process.env.BENCH_SAMPLES ?? 200);
    const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
    const all = { known: [] as number[], unknown: [] as number[] };
    const line = (label: string, t: { known: number[]; unknown: number[] }) => {
      const k = median(t.known);
      const u = median(t.unknown);
      const spread = (v: number[]) => `p25 ${quantile(v, 0.25).toFixed(2)}, p75 ${quantile(v, 0.75).toFixed(2)}`;
      process.stdout.write(
        `${label.padEnd(10)} known wrong password: median ${k.toFixed(2)} ms (${spread(t.known)})   unknown account: median ${u.toFixed(2)} ms (${spread(t.unknown)})   known / unknown = ${((k / u) * 100).toFixed(1)}%\n`,
      );
      return Math.abs(k / u - 1) * 100;
    };
    process.stdout.write(`${samples} interleaved samples of each per round, one login at a time\n`);
    for (let round = 1; round <= rounds; round++) {
      const times = await sample(samples, round * samples);
      all.known.push(...times.known);
      all.unknown.push(...times.unknown);
      line(`round ${round}`, times);
    }
    const gap = line('all', all);
    process.stdout.write(`\nmedians differ by ${gap.toFixed(1)}% (target <= 3%)\n`);
    connection.close();
  } finally {
    child.disconnect();
  }
}
