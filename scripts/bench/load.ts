import autocannon from 'autocannon';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  /** Requests answered over the whole run. */
  total: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Runs autocannon against one URL and reports mean requests/s and latency percentiles (ms). */
export async function load(label: string, options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ connections: 50, duration: 8, ...options });
  return {
    label,
    requestsPerSecond: Math.round(result.requests.average),
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Starts the bench server (scripts/bench/server.ts, built like production by scripts/build.ts)
 * in a child process and resolves with the ports it listens on.
 */
export interface BenchServer {
  /** The app; the bare Hono app; the bare app behind the same response coalescing as the app. */
  ports: { app: number; bare: number; bareCoalesced: number };
  users: string[];
  password: string;
}

export async function startBenchServer(
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ ports: BenchServer['ports']; users: string[]; password: string; child: ChildProcess }> {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/build.ts')], { stdio: 'inherit' });
  const child = fork(path.join(root, 'dist/server/bench-server.mjs'), args, {
    execArgv: [
      '--enable-source-maps',
      ...(process.env.BENCH_PERF ? ['--perf-basic-prof-only-functions'] : []),
      ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : []),
    ],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  type Ready = BenchServer & BenchServer['ports'];
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Ready));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    ports: { app: ready.app, bare: ready.bare, bareCoalesced: ready.bareCoalesced },
    users: ready.users ?? [],
    password: ready.password,
    child,
  };
}

/**
 * Runs each contender in turn, `rounds` times over (alternating, so drift on this shared machine
 * hits all alike), prints the table and fails when any request failed. Rows are labelled
 * `<label> (round n)`.
 */
export async function alternate(
  contenders: Array<{ label: string; options: autocannon.Options }>,
  rounds = 2,
): Promise<LoadResult[]> {
  const rows: LoadResult[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const c of contenders) rows.push(await load(`${c.label} (round ${round})`, c.options));
  }
  printTable(rows);
  if (rows.some((r) => r.non2xx || r.errors)) throw new Error('some requests failed');
  return rows;
}

/** Requests/s of one contender over all rounds, as a percentage of another's. */
export function percentOf(rows: LoadResult[], label: string, base: string): string {
  const sum = (l: string) =>
    rows.filter((r) => r.label.startsWith(`${l} (round `)).reduce((a, r) => a + r.requestsPerSecond, 0);
  return `${((sum(label) / sum(base)) * 100).toFixed(1)}%`;
}

export function printTable(rows: LoadResult[]): void {
  for (const r of rows) {
    process.stdout.write(
      `${r.label.padEnd(52)} ${String(r.requestsPerSecond).padStart(8)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   non-2xx ${r.non2xx}   errors ${r.errors}\n`,
    );
  }
}

/**
 * A lean JSON POST over a keep-alive agent, for load loops that must chain responses (refresh):
 * fetch costs the load generator about a millisecond of CPU a call, on the same two cores as
 * the server it measures.
 */
export function postJson(agent: http.Agent, url: URL, body: unknown): Promise<{ status: number; json: unknown }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
