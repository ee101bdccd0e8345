/**
 * Response coalescing: the responses finished during one turn of the event loop are handed to
 * Node together at the end of that turn (its check phase, through one setImmediate), instead of
 * each the moment its handler returns.
 *
 * Why: writing a response to a client that is waiting in epoll wakes it. When the server is the
 * slower side, the client has already handled the previous response and gone idle, so every
 * response pays a full wake-up, and on a virtual machine waking an idle vCPU is an
 * inter-processor interrupt through the hypervisor. Measured here with `perf`: that wake-up was
 * about a tenth of the server's CPU under signed-call load. Written back to back, the responses
 * of one turn wake the client once; the rest find it running. Signed Ping went from about 9,600
 * to about 13,000 requests/s on this machine, with a lower p99.
 *
 * Cost: a response waits for the rest of the turn it finished in (the other requests already
 * read in that turn), and one promise per request. The check phase runs even when nothing else
 * is pending (libuv does not block in poll while an immediate is queued), so a response is never
 * held past its own turn. `App__CoalesceResponses=false` turns it off.
 */
export function coalesceResponses<A extends unknown[]>(
  handler: (...args: A) => Response | Promise<Response>,
  enabled = true,
): (...args: A) => Response | Promise<Response> {
  if (!enabled) return handler;
  let endOfTurn: Promise<void> | null = null;
  const release = () =>
    (endOfTurn ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        // Responses finishing from here on belong to the next turn.
        endOfTurn = null;
        resolve();
      }),
    ));
  return async (...args) => {
    // A handler that throws is not held: the adapter answers its error at once.
    const response = await handler(...args);
    await release();
    return response;
  };
}
