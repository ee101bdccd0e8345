import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * argon2 on threads of our own, one per slot, each with the next job already in hand.
 *
 * On libuv's pool every verification went: worker thread finishes → wakes the main thread →
 * the main thread hands the slot to the next login → wakes a pool thread. On this 2-core
 * virtual machine each of those wake-ups left a core idle for a while: about 1.2 ms a
 * verification of idle cores in the login benchmark, an eighth of the machine. Here each thread
 * is given its next job while it still computes the current one (one queued per thread, never
 * more), so it goes on without waiting for the main thread; answers still go back through it.
 *
 * What runs at once stays one job per thread (argon2 holds 19 MiB while it runs), and libuv's
 * pool keeps all its threads for files, DNS and other crypto.
 */

/** The worker's whole program: the native binding's synchronous calls, one message at a time. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.binding);
// A stored string the binding cannot read is a mismatch, not an error.
const verify = (job) => {
  try {
    return argon2.verifySync(job.hash, job.password);
  } catch {
    return false;
  }
};
parentPort.on('message', (job) => {
  let result;
  let error;
  try {
    result = job.kind === 'verify' ? verify(job) : argon2.hashSync(job.password, job.options);
  } catch (e) {
    error = String((e && e.message) || e);
  }
  parentPort.postMessage({ id: job.id, result, error });
});
`;

type Job = { kind: 'verify'; hash: string; password: string } | { kind: 'hash'; password: string; options: object };

interface Pending {
  id: number;
  job: Job;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker?: Worker;
  /** Jobs given to this thread, the running one first. */
  jobs: Pending[];
}

/** How many jobs a thread holds: the one it computes and the next. */
const DEPTH = 2;

export interface HashWorkers {
  /** False for a wrong password and for a stored string that is no argon2 hash; rejects only when a thread fails. */
  verify(hash: string, password: string): Promise<boolean>;
  hash(password: string, options: object): Promise<string>;
  /** Jobs computing now (at most one per thread) and waiting (given to a thread or queued). */
  load(): { active: number; waiting: number; limit: number };
  /** Takes no more jobs; finishes those it has, then ends its threads. */
  drain(): Promise<void>;
}

/** `program` replaces the thread's source (tests: a thread that dies). */
export function createHashWorkers(threads: number, program = WORKER_SOURCE): HashWorkers {
  if (!Number.isInteger(threads) || threads < 1)
    throw new RangeError(`hash threads must be a positive integer, got ${threads}`);
  const binding = createRequire(import.meta.url).resolve('@node-rs/argon2');
  const slots: Slot[] = Array.from({ length: threads }, () => ({ jobs: [] }));
  const queue: Pending[] = [];
  let nextId = 1;
  let closing = false;
  let drained: (() => void) | undefined;
  let drainDone: Promise<void> | undefined;

  /** A new thread for a slot, or undefined when none can be started (thread or memory limits). */
  function start(slot: Slot): Worker | undefined {
    let worker: Worker;
    try {
      worker = new Worker(program, { eval: true, workerData: { binding } });
    } catch {
      return undefined;
    }
    worker.on('message', (m: { id: number; result?: unknown; error?: string }) => {
      if (slot.worker !== worker) return; // a replaced thread's late answer
      const index = slot.jobs.findIndex((p) => p.id === m.id);
      if (index < 0) return;
      const [done] = slot.jobs.splice(index, 1);
      if (m.error !== undefined) done!.reject(new Error(m.error));
      else done!.resolve(m.result);
      refill(slot);
    });
    // A thread that dies (out of memory, a fault in the binding) fails the job it computed; the
    // one it held without starting goes back to the head of the queue, for a new thread.
    const lost = (error: Error) => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      const [running, ...held] = slot.jobs.splice(0);
      running?.reject(error);
      queue.unshift(...held);
      refill(slot);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`hash thread exited with code ${code}`)));
    return worker;
  }

  /** Gives the slot's thread jobs from the queue up to DEPTH. Never throws: it runs in event listeners. */
  function refill(slot: Slot): void {
    while (slot.jobs.length < DEPTH && queue.length > 0) {
      slot.worker ??= start(slot);
      const p = queue.shift()!;
      if (!slot.worker) {
        p.reject(new Error('no hash thread could be started'));
        continue;
      }
      try {
        slot.worker.postMessage({ id: p.id, ...p.job });
      } catch (error) {
        p.reject(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      slot.jobs.push(p);
    }
    // An idle thread must not keep the process alive; a busy one must (a script awaiting a hash).
    if (slot.worker) slot.jobs.length > 0 ? slot.worker.ref() : slot.worker.unref();
    if (closing && queue.length === 0 && slots.every((s) => s.jobs.length === 0)) drained?.();
  }

  function stop(): Promise<void> {
    return Promise.all(
      slots.map((slot) => {
        const worker = slot.worker;
        slot.worker = undefined; // its exit is then no loss
        return worker?.terminate();
      }),
    ).then(() => undefined);
  }

  function submit<T>(job: Job): Promise<T> {
    if (closing) return Promise.reject(new Error('hash threads closed'));
    return new Promise<T>((resolve, reject) => {
      queue.push({ id: nextId++, job, resolve: resolve as (v: unknown) => void, reject });
      // The thread with the fewest jobs takes it: an idle one first, else one to queue behind.
      const slot = slots.reduce((a, b) => (b.jobs.length < a.jobs.length ? b : a));
      refill(slot);
    });
  }

  return {
    verify: (hash, password) => submit<boolean>({ kind: 'verify', hash, password }),
    hash: (password, options) => submit<string>({ kind: 'hash', password, options }),
    load: () => {
      const active = slots.filter((s) => s.jobs.length > 0).length;
      const given = slots.reduce((n, s) => n + s.jobs.length, 0);
      return { active, waiting: given - active + queue.length, limit: threads };
    },
    drain: () => {
      closing = true;
      drainDone ??= (async () => {
        if (queue.length > 0 || slots.some((s) => s.jobs.length > 0))
          await new Promise<void>((resolve) => (drained = resolve));
        await stop();
      })();
      return drainDone;
    },
  };
}
