/**
 * Counts requests whose handler is still running. Closing the listening server only waits for
 * connections, and a client that gives up closes its connection while the handler goes on
 * writing to the database; shutdown therefore also waits for this count to reach zero before
 * the database and stores close under those handlers.
 */
export interface InFlight<A extends unknown[]> {
  /** The handler, counted from its call until its promise settles. */
  handler: (...args: A) => Promise<Response>;
  /** How many handlers are running now. */
  readonly count: number;
  /** Resolves once no handler is running (at once when none is). */
  idle(): Promise<void>;
}

export function trackInFlight<A extends unknown[]>(handler: (...args: A) => Response | Promise<Response>): InFlight<A> {
  let count = 0;
  let waiters: Array<() => void> = [];
  const settle = () => {
    count--;
    if (count === 0) {
      const ready = waiters;
      waiters = [];
      for (const resolve of ready) resolve();
    }
  };
  return {
    handler: async (...args) => {
      count++;
      try {
        return await handler(...args);
      } finally {
        settle();
      }
    },
    get count() {
      return count;
    },
    idle: () => (count === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}
