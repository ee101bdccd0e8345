import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoNodes, type TwoNodes } from '../../testing/two-nodes.js';
import { pollUntil } from '../../testing/poll.js';

/**
 * Two nodes sharing one PostgreSQL and one Redis: the operator switches maintenance on node A
 * and node B answers 503 on its next requests, told by the store's message (the poll is set to
 * an hour here, so only the message can reach it in time), and serves again once it is off.
 */
const KEY = 'Vn3kR8wT1qZ6xM9bC2yH5jL7fP4dS0aE';
let cluster: TwoNodes;

beforeAll(async () => {
  cluster = await startTwoNodes({ App: { OperatorKey: KEY, MaintenancePollSeconds: 3600 } });
});
afterAll(() => cluster?.close());

async function statusOf(url: string, path: string, init: RequestInit = {}) {
  const res = await fetch(url + path, init);
  await res.arrayBuffer();
  return { status: res.status, retryAfter: res.headers.get('retry-after') };
}

/** The milliseconds until `check` holds (within 3 s). */
const until = (check: () => Promise<boolean>) => pollUntil(check, { timeoutMs: 3_000, intervalMs: 20 });

describe('operator maintenance across nodes', () => {
  it('switched on node A is on at node B at once, and off again', async () => {
    const [a, b] = cluster.nodes;
    expect((await statusOf(b.url, '/api/System/ServerTime')).status).toBe(200);
    const put = (on: boolean) =>
      fetch(`${a.url}/ops/maintenance`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ on, retryAfterSeconds: 75 }),
      });
    expect((await put(true)).status).toBe(200);
    const onAfter = await until(async () => (await statusOf(b.url, '/api/System/ServerTime')).status === 503);
    expect(onAfter).toBeLessThan(2000);
    expect((await statusOf(b.url, '/api/System/ServerTime')).retryAfter).toBe('75');
    // B's own switch answers during maintenance and reports it.
    const status = await fetch(`${b.url}/ops/maintenance`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(((await status.json()) as { data: { on: boolean } }).data.on).toBe(true);

    expect((await put(false)).status).toBe(200);
    await until(async () => (await statusOf(b.url, '/api/System/ServerTime')).status === 200);
  });
});
