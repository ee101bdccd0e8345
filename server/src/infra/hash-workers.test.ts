import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHashWorkers, type HashWorkers } from './hash-workers.js';
import { ARGON2_OPTIONS } from './password.js';

let pool: HashWorkers | undefined;
afterEach(async () => {
  await pool?.drain();
  pool = undefined;
});

describe('argon2 hash threads', () => {
  it('hashes and verifies on its threads, answering each caller its own result', async () => {
    pool = createHashWorkers(2);
    const stored = await pool.hash('Thread#Passw0rd', ARGON2_OPTIONS);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const checks = ['Thread#Passw0rd', 'wrong', 'Thread#Passw0rd', 'thread#passw0rd', 'Thread#Passw0rd'].map((p) =>
      pool!.verify(stored, p),
    );
    expect(await Promise.all(checks)).toEqual([true, false, true, false, true]);
  });

  it('computes at most one job per thread, holds one more per thread, and queues the rest in order', async () => {
    pool = createHashWorkers(2);
    const stored = await pool.hash('Order#Passw0rd', ARGON2_OPTIONS);
    const finished: number[] = [];
    const jobs = Array.from({ length: 7 }, (_, i) =>
      pool!.verify(stored, i % 3 ? 'Order#Passw0rd' : 'no').then((ok) => {
        finished.push(i);
        return ok;
      }),
    );
    expect(pool.load()).toEqual({ active: 2, waiting: 5, limit: 2 });
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, pool!.load().active)), 1);
    expect(await Promise.all(jobs)).toEqual([false, true, true, false, true, true, false]);
    clearInterval(watch);
    expect(peak).toBe(2);
    expect(pool.load()).toEqual({ active: 0, waiting: 0, limit: 2 });
    // Each thread holds two (0 and 2, 1 and 3) and answers them in order; the queued ones (4-6)
    // go to whichever thread is free first, so their order of answers is not fixed.
    expect(finished.indexOf(0)).toBeLessThan(finished.indexOf(2));
    expect(finished.indexOf(1)).toBeLessThan(finished.indexOf(3));
  });

  it('answers a malformed stored hash as a mismatch, rejects what the binding refuses, and goes on serving', async () => {
    pool = createHashWorkers(1);
    expect(await pool.verify('$argon2id$not-a-hash', 'x')).toBe(false);
    await expect(pool.hash('x', { ...ARGON2_OPTIONS, memoryCost: 1 })).rejects.toThrow();
    const stored = await pool.hash('After#Passw0rd', ARGON2_OPTIONS);
    expect(await pool.verify(stored, 'After#Passw0rd')).toBe(true);
  });

  it('a job that cannot be sent to its thread fails alone; the jobs behind it are answered', async () => {
    pool = createHashWorkers(1);
    const first = pool.hash('a', ARGON2_OPTIONS);
    const unsendable = pool.hash('b', { ...ARGON2_OPTIONS, notCloneable: () => 1 });
    const behind = [pool.hash('c', ARGON2_OPTIONS), pool.hash('d', ARGON2_OPTIONS)];
    await expect(unsendable).rejects.toThrow(/clone/);
    expect(await first).toMatch(/^\$argon2id\$/);
    expect(await Promise.all(behind)).toHaveLength(2);
    expect(pool.load()).toEqual({ active: 0, waiting: 0, limit: 1 });
  });

  it('a thread that dies fails the job it computed; the job it held goes to a new thread', async () => {
    // The real program, except that hashing the password "die" ends the thread.
    const { readFileSync } = await import('node:fs');
    const source = readFileSync(new URL('./hash-workers.ts', import.meta.url), 'utf8');
    const program = /const WORKER_SOURCE = `([\s\S]*?)`;/
      .exec(source)![1]!
      .replace(
        "parentPort.on('message', (job) => {",
        "parentPort.on('message', (job) => { if (job.password === 'die') process.exit(3);",
      );
    pool = createHashWorkers(1, program);
    const dying = pool.hash('die', ARGON2_OPTIONS);
    const held = pool.hash('survivor', ARGON2_OPTIONS);
    await expect(dying).rejects.toThrow('hash thread exited with code 3');
    expect(await pool.verify(await held, 'survivor')).toBe(true);
  });

  it('drain finishes the jobs it holds, then refuses new ones', async () => {
    pool = createHashWorkers(1);
    const stored = await pool.hash('Drain#Passw0rd', ARGON2_OPTIONS);
    const held = [
      pool.verify(stored, 'Drain#Passw0rd'),
      pool.verify(stored, 'x'),
      pool.verify(stored, 'Drain#Passw0rd'),
    ];
    const drained = [pool.drain(), pool.drain()];
    await expect(pool.verify(stored, 'Drain#Passw0rd')).rejects.toThrow('hash threads closed');
    expect(await Promise.all(held)).toEqual([true, false, true]);
    await Promise.all(drained); // both callers are answered
  });

  it('refuses a thread count that is not a positive integer', () => {
    expect(() => createHashWorkers(0)).toThrow(RangeError);
    expect(() => createHashWorkers(1.5)).toThrow(RangeError);
  });

  it('a busy thread keeps a script alive until its answer; an idle one does not hold the process', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hash-threads-'));
    try {
      const script = path.join(dir, 'script.mts');
      const module = path.resolve(import.meta.dirname, 'hash-workers.ts');
      // Nothing else keeps this script's event loop alive: without the reference it would end
      // (exit code 13, unsettled top-level await) before the hash came back; with a reference
      // kept while idle it would never end.
      writeFileSync(
        script,
        `import { createHashWorkers } from ${JSON.stringify(module)};
const pool = createHashWorkers(1);
const stored = await pool.hash('Alive#Passw0rd', { memoryCost: 19456, timeCost: 2, parallelism: 1 });
console.log(stored.slice(0, 9), await pool.verify(stored, 'Alive#Passw0rd'));\n`,
      );
      const started = Date.now();
      const out = execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 20_000 });
      expect(out.trim()).toBe('$argon2id true');
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
