/**
 * Where the CPU of a benchmark run went, read from /proc (Linux only): the bench server's main
 * thread and its other threads, PostgreSQL's processes, this process (the load generator), and
 * the time the machine's cores stood idle. Used by the login benchmark to show what a login
 * costs besides its argon2 verification.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds per thread (`pid/tid`), with the process's name. */
type Threads = Map<string, { pid: number; tid: number; comm: string; seconds: number }>;

const TICKS = 100; // USER_HZ on Linux

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process or thread ended meanwhile
  }
}

function threads(): Threads {
  const all: Threads = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const comm = read(`/proc/${pid}/comm`)?.trim() ?? '';
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      if (!stat) continue;
      // Fields after the parenthesised name: state is the first; utime and stime the 12th and 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      all.set(`${pid}/${tid}`, {
        pid: Number(pid),
        tid: Number(tid),
        comm,
        seconds: (Number(fields[11]) + Number(fields[12])) / TICKS,
      });
    }
  }
  return all;
}

function idleSeconds(): number {
  const [, , , , idle, iowait] = (read('/proc/stat') ?? '').split('\n')[0]!.split(/\s+/);
  return (Number(idle) + Number(iowait)) / TICKS;
}

export interface CpuBreakdown {
  /** The server's worker threads that did most of the work (for logins: the argon2 hash threads). */
  pool: number;
  /** The server's main thread (HTTP, JSON, the driver, token signing). */
  main: number;
  /** The server's other threads (V8's garbage collection and compilation helpers). */
  helpers: number;
  postgres: number;
  loadGenerator: number;
  /** Every other process on the machine. */
  other: number;
  /** Core time nobody used. */
  idle: number;
}

/** Starts counting; the returned function stops and gives the CPU seconds of each part. */
export function measureCpu(serverPid: number): () => CpuBreakdown {
  const before = threads();
  const idleBefore = idleSeconds();
  return () => {
    const after = threads();
    const result: CpuBreakdown = {
      pool: 0,
      main: 0,
      helpers: 0,
      postgres: 0,
      loadGenerator: 0,
      other: 0,
      idle: idleSeconds() - idleBefore,
    };
    const serverThreads: number[] = [];
    for (const [key, t] of after) {
      const spent = t.seconds - (before.get(key)?.seconds ?? 0);
      if (spent <= 0) continue;
      if (t.pid === serverPid) {
        if (t.tid === serverPid) result.main += spent;
        else serverThreads.push(spent);
      } else if (t.comm.startsWith('postgres')) result.postgres += spent;
      else if (t.pid === process.pid) result.loadGenerator += spent;
      else result.other += spent;
    }
    // Node 20 names all its threads "node": the pool's threads are told apart by their load.
    const busiest = Math.max(0, ...serverThreads);
    for (const s of serverThreads) {
      if (s > busiest / 4) result.pool += s;
      else result.helpers += s;
    }
    return result;
  };
}

/** One line: milliseconds of each part per operation. */
export function perOperation(cpu: CpuBreakdown, operations: number): string {
  const ms = (s: number) => ((s / operations) * 1000).toFixed(2);
  return `pool ${ms(cpu.pool)}, main ${ms(cpu.main)}, helpers ${ms(cpu.helpers)}, PostgreSQL ${ms(cpu.postgres)}, load generator ${ms(cpu.loadGenerator)}, other ${ms(cpu.other)}, idle ${ms(cpu.idle)} ms`;
}
