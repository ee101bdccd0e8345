import autocannon from 'autocannon';
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
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
export async function startBenchServer(args: string[] = [], env: Record<string, string> = {}): Promise<{ ports: Record<string, number>; child: ChildProcess }> {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/build.ts')], { stdio: 'inherit' });
  const child = fork(path.join(root, 'dist/server/bench-server.mjs'), args, {
    execArgv: ['--enable-source-maps', ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ports = await new Promise<Record<string, number>>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Record<string, number>));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { ports, child };
}

export function printTable(rows: LoadResult[]): void {
  for (const r of rows) {
    process.stdout.write(`${r.label.padEnd(40)} ${String(r.requestsPerSecond).padStart(8)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   non-2xx ${r.non2xx}   errors ${r.errors}\n`);
  }
}
