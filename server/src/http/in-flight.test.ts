import { describe, expect, it } from 'vitest';
import { trackInFlight } from './in-flight.js';

describe('trackInFlight', () => {
  it('resolves idle() only once every running handler has settled, failures included', async () => {
    const gates: Array<{ open: () => void; fail: () => void }> = [];
    const tracked = trackInFlight(
      () =>
        new Promise<Response>((resolve, reject) => {
          gates.push({ open: () => resolve(new Response('ok')), fail: () => reject(new Error('boom')) });
        }),
    );
    await expect(tracked.idle()).resolves.toBeUndefined();
    const first = tracked.handler();
    const second = tracked.handler().catch(() => 'failed');
    expect(tracked.count).toBe(2);
    let idle = false;
    const waiting = tracked.idle().then(() => (idle = true));
    gates[0]!.open();
    await first;
    await Promise.resolve();
    expect(idle).toBe(false);
    gates[1]!.fail();
    expect(await second).toBe('failed');
    await waiting;
    expect(idle).toBe(true);
    expect(tracked.count).toBe(0);
  });
});
