/**
 * Issue 4 targets:
 * - login: password logins/s at least 85% of raw argon2 verifications/s on this machine (each
 *   round also prints where a login's CPU went: scripts/bench/cpu.ts);
 * - userinfo: authenticated GET /api/Auth/UserInfo at least 50% of a bare Hono JSON route
 *   answering the same bytes;
 * - refresh: at least 1,000 refreshes/s on PostgreSQL.
 */
import { verify } from '@node-rs/argon2';
import postgres from 'postgres';
import { hashPassword } from '../../server/src/infra/password.js';
import http from 'node:http';
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { measureCpu, perOperation } from './cpu.js';
import { alternate, load, percentOf, postJson, startBenchServer } from './load.js';

const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);

/**
 * Raw argon2 verifications/s with the server's parameters, `concurrency` in flight. The
 * comparison takes the best of two ways: as many as the thread pool holds (8 asked, 4 threads)
 * and one per core (what the server's password gate allows); which is faster varies between
 * runs here, so the denominator is whichever this run found faster.
 */
async function argon2Rate(hash: string, password: string, seconds: number, concurrency: number): Promise<number> {
  let done = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        if (!(await verify(hash, password))) throw new Error('verification failed');
        done++;
      }
    }),
  );
  return rate(done, performance.now() - started);
}

export async function login(): Promise<void> {
  const { ports, users, password, child } = await startBenchServer([], { BENCH_USERS: '64' });
  try {
    const url = `http://127.0.0.1:${ports.app}/api/Auth/Login`;
    const hash = await hashPassword(password);
    let i = 0;
    const request = () => ({
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: users[i++ % users.length], password }),
    });
    const cores = availableParallelism();
    await argon2Rate(hash, password, 2, cores);
    // Logins warm up too, as every other benchmark does: the first hundreds run unoptimized code.
    await load('warm-up', { url, connections: 8, duration: 3, requests: [{ setupRequest: (req) => ({ ...req, ...request() }) }] });
    const rows: Array<{ label: string; perSecond: number }> = [];
    for (let round = 1; round <= 2; round++) {
      const pool = await argon2Rate(hash, password, 3, 8);
      const perCore = await argon2Rate(hash, password, 3, cores);
      process.stdout.write(`  raw argon2 (round ${round}): ${pool}/s with 8 in flight, ${perCore}/s with ${cores} (one per core)\n`);
      rows.push({ label: `raw argon2 verifications, best (round ${round})`, perSecond: Math.max(pool, perCore) });
      const stop = existsSync('/proc/stat') && child.pid ? measureCpu(child.pid) : undefined;
      const result = await load(`password logins (round ${round})`, { url, connections: 8, duration: 6, requests: [{ setupRequest: (req) => ({ ...req, ...request() }) }] });
      if (result.non2xx || result.errors) throw new Error(`logins failed: ${result.non2xx} non-2xx, ${result.errors} errors`);
      if (stop) process.stdout.write(`  CPU a login (round ${round}): ${perOperation(stop(), result.total)}\n`);
      rows.push({ label: result.label, perSecond: result.requestsPerSecond });
    }
    for (const r of rows) process.stdout.write(`${r.label.padEnd(44)} ${String(r.perSecond).padStart(6)} /s\n`);
    const sum = (prefix: string) => rows.filter((r) => r.label.startsWith(prefix)).reduce((a, r) => a + r.perSecond, 0);
    process.stdout.write(`\nlogins / raw verifications = ${((sum('password') / sum('raw')) * 100).toFixed(1)}% (target >= 85%)\n`);
  } finally {
    child.disconnect();
  }
}

export async function userinfo(): Promise<void> {
  const { ports, users, password, child } = await startBenchServer([], { BENCH_USERS: '1' });
  try {
    const res = await fetch(`http://127.0.0.1:${ports.app}/api/Auth/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: users[0], password }) });
    const token = ((await res.json()) as { data: { token: { accessToken: string } } }).data.token.accessToken;
    const headers = { authorization: `Bearer ${token}`, 'x-timezone': 'Asia/Shanghai' };
    const sample = await fetch(`http://127.0.0.1:${ports.app}/api/Auth/UserInfo`, { headers });
    child.send({ type: 'echo-body', body: await sample.json() });
    const derived = `http://127.0.0.1:${ports.app}/api/Auth/UserInfo`;
    const bare = (port: number) => `http://127.0.0.1:${port}/bare-echo`;
    await load('warm-up', { url: derived, headers, duration: 3 });
    // The baseline gets the same request (headers included) and answers the same bytes: the
    // difference is only what happens in between.
    await load('warm-up', { url: bare(ports.bare), headers, duration: 3 });
    await load('warm-up', { url: bare(ports.bareCoalesced), headers, duration: 3 });
    const rows = await alternate([
      { label: 'bare Hono JSON, same body', options: { url: bare(ports.bare), headers } },
      { label: 'bare Hono, coalesced as the app', options: { url: bare(ports.bareCoalesced), headers } },
      { label: 'GET /api/Auth/UserInfo, Bearer', options: { url: derived, headers } },
    ]);
    process.stdout.write(`\nUserInfo / bare = ${percentOf(rows, 'GET /api/Auth/UserInfo, Bearer', 'bare Hono JSON, same body')} (target >= 50%)\n`);
    process.stdout.write(`UserInfo / bare with the same coalescing = ${percentOf(rows, 'GET /api/Auth/UserInfo, Bearer', 'bare Hono, coalesced as the app')} (for comparison)\n`);
  } finally {
    child.disconnect();
  }
}

export async function refresh(): Promise<void> {
  const server = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe('DROP DATABASE IF EXISTS portcullis_bench_auth WITH (FORCE)');
  await admin.unsafe('CREATE DATABASE portcullis_bench_auth');
  await admin.end();
  const url = new URL(server);
  url.pathname = '/portcullis_bench_auth';
  const sessions = 256;
  const { ports, users, password, child } = await startBenchServer([], { BENCH_USERS: String(sessions), DATABASE_URL: url.toString() });
  try {
    const base = `http://127.0.0.1:${ports.app}`;
    const pairs = await Promise.all(
      users.map(async (username) => {
        const res = await fetch(`${base}/api/Auth/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
        const token = ((await res.json()) as { data: { token: { accessToken: string; refreshToken: string } } }).data.token;
        return { accessToken: token.accessToken, refreshToken: token.refreshToken };
      }),
    );
    // Each client owns sessions and refreshes them in turn with the pair it got last.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const refreshUrl = new URL(`${base}/api/Auth/RefreshToken`);
    const run = async (seconds: number, concurrency: number) => {
      let ok = 0;
      let failed = 0;
      const end = performance.now() + seconds * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: concurrency }, async (_, c) => {
          for (let k = 0; performance.now() < end; k++) {
            const slot = (c + k * concurrency) % sessions;
            const pair = pairs[slot]!;
            const body = (await postJson(agent, refreshUrl, pair)).json as { isSuccess: boolean; data: { accessToken: string; refreshToken: string } };
            if (body.isSuccess) {
              pairs[slot] = { accessToken: body.data.accessToken, refreshToken: body.data.refreshToken };
              ok++;
            } else failed++;
          }
        }),
      );
      return { perSecond: rate(ok, performance.now() - started), failed };
    };
    const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
    await run(3, concurrency);
    const measured = [await run(8, concurrency), await run(8, concurrency)];
    agent.destroy();
    for (const [i, m] of measured.entries()) process.stdout.write(`refreshes on PostgreSQL (round ${i + 1})            ${String(m.perSecond).padStart(6)} /s   failed ${m.failed}\n`);
    process.stdout.write(`\nmean ${Math.round((measured[0]!.perSecond + measured[1]!.perSecond) / 2)} refreshes/s (target >= 1000/s)\n`);
  } finally {
    child.disconnect();
  }
}
