/**
 * A first-come, first-served limit on how many jobs run at once. Password hashing uses it: an
 * argon2 verification holds 19 MiB and a thread-pool thread for ~12 ms, so a burst of logins
 * would otherwise take every thread of libuv's pool (4 by default) and leave file, DNS and other
 * crypto work queued behind it. With one slot per core the pool keeps free threads, and memory
 * stays bounded however many logins arrive.
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
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`work gate limit must be a positive integer, got ${limit}`);
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
