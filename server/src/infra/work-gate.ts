/**
 * A first-come, first-served limit on how many jobs run at once. The original service's PBKDF2
 * verifications use it (argon2 has threads of its own: hash-workers.ts): each holds a thread of
 * libuv's pool for a good part of a second, so a burst of logins of imported accounts would
 * otherwise take every thread of the pool (4 by default) and leave file, DNS and other crypto
 * work queued behind it. With one slot per core the pool keeps free threads.
 */
export interface WorkGate {
  run<T>(job: () => Promise<T>): Promise<T>;
  /** Jobs running now. */
  readonly active: number;
  /** Jobs waiting for a slot. */
  readonly waiting: number;
  readonly limit: number;
}

export function createWorkGate(limit: number): WorkGate {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`work gate limit must be a positive integer, got ${limit}`);
  let active = 0;
  const queue: Array<() => void> = [];

  const release = () => {
    const next = queue.shift();
    // The slot passes straight to the next job, so a burst cannot overtake the queue.
    if (next) next();
    else active--;
  };

  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    limit,
    async run(job) {
      if (active < limit) active++;
      else await new Promise<void>((resolve) => queue.push(resolve));
      try {
        return await job();
      } finally {
        release();
      }
    },
  };
}
