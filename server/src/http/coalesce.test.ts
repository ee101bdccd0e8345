import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { coalesceResponses } from './coalesce.js';

/** Lets every queued microtask (and the ones they queue) run, without leaving the turn. */
async function drainMicrotasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

describe('coalesceResponses', () => {
  it('holds the responses finished in one turn until its check phase, then releases them together', async () => {
    const wrapped = coalesceResponses(async (n: number) => new Response(String(n)));
    const released: number[] = [];
    const calls = [1, 2, 3].map((n) => Promise.resolve(wrapped(n)).then(() => released.push(n)));
    await drainMicrotasks();
    expect(released).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.all(calls);
    expect(released).toEqual([1, 2, 3]);
  });

  it('releases a response finished inside a check phase on the next turn, even with nothing else pending', async () => {
    const wrapped = coalesceResponses(async () => new Response('late'));
    const first = await new Promise<Response>((resolve) =>
      setImmediate(() => void Promise.resolve(wrapped()).then(resolve)),
    );
    expect(await first.text()).toBe('late');
    // The turn's promise was reset: a later call is held and released again.
    const again = Promise.resolve(wrapped());
    let done = false;
    void again.then(() => (done = true));
    await drainMicrotasks();
    expect(done).toBe(false);
    expect(await (await again).text()).toBe('late');
  });

  it('passes a handler failure through at once', async () => {
    const boom = new Error('boom');
    const wrapped = coalesceResponses(async () => {
      throw boom;
    });
    let caught: unknown;
    const call = Promise.resolve(wrapped()).catch((error: unknown) => (caught = error));
    await drainMicrotasks();
    expect(caught).toBe(boom);
    await call;
  });

  it('is the handler itself when turned off', () => {
    const handler = () => new Response('x');
    expect(coalesceResponses(handler, false)).toBe(handler);
  });

  it('answers every one of many concurrent requests over HTTP with its own body', async () => {
    const app = new Hono();
    app.get('/echo/:n', async (c) => {
      // Finishing in different turns and phases: now, after a timer, after an immediate.
      const n = Number(c.req.param('n'));
      if (n % 3 === 1) await new Promise((r) => setTimeout(r, 1));
      if (n % 3 === 2) await new Promise((r) => setImmediate(r));
      return c.json({ n });
    });
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: coalesceResponses(app.fetch), port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    try {
      const { port } = server.address() as AddressInfo;
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, n) =>
          fetch(`http://127.0.0.1:${port}/echo/${n}`).then(async (r) => ({
            status: r.status,
            body: (await r.json()) as { n: number },
          })),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(60).fill(200));
      expect(answers.map((a) => a.body.n)).toEqual(Array.from({ length: 60 }, (_, n) => n));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
