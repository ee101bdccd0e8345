import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameResponse, leanConnection, leanLoad, serializeRequests } from './lean-load.js';

describe('frameResponse', () => {
  const head = (extra: string) => Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${extra}\r\n`);

  it('frames by Content-Length and waits for the whole body', () => {
    const full = Buffer.concat([head('Content-Length: 5\r\n'), Buffer.from('hello')]);
    expect(frameResponse(full.subarray(0, full.length - 1))).toBeUndefined();
    expect(frameResponse(full)).toEqual({ status: 200, length: full.length, close: false });
    // A second response behind the first is not part of it.
    expect(frameResponse(Buffer.concat([full, full]))?.length).toBe(full.length);
  });

  it('frames chunked bodies, chunk by chunk', () => {
    const full = Buffer.concat([
      head('transfer-encoding: chunked\r\n'),
      Buffer.from('3\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\n\r\n'),
    ]);
    for (let cut = 1; cut < full.length; cut++) expect(frameResponse(full.subarray(0, cut))).toBeUndefined();
    expect(frameResponse(full)).toEqual({ status: 200, length: full.length, close: false });
  });

  it('reads the status and Connection: close', () => {
    const full = Buffer.from('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\ncontent-length: 0\r\n\r\n');
    expect(frameResponse(full)).toEqual({ status: 429, length: full.length, close: true });
  });

  it('refuses what is not an HTTP response', () => {
    expect(() => frameResponse(Buffer.from('SSH-2.0-x\r\n\r\n'))).toThrow();
  });
});

describe('serializeRequests', () => {
  it('writes each body with its byte length', () => {
    const [request] = serializeRequests({
      url: 'http://127.0.0.1:1/api/x?a=1',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      bodies: ['{"n":"é"}'],
    });
    const text = request!.toString('utf8');
    expect(text.startsWith('POST /api/x?a=1 HTTP/1.1\r\nhost: 127.0.0.1:1\r\n')).toBe(true);
    expect(text).toContain('content-length: 10\r\n\r\n{"n":"é"}');
  });
});

describe('leanLoad', () => {
  let server: ReturnType<typeof serve>;
  let port = 0;
  const seen: string[] = [];
  beforeAll(async () => {
    const app = new Hono();
    app.post('/echo', async (c) => {
      const body = await c.req.json<{ n: number }>();
      seen.push(String(body.n));
      return body.n % 5 === 0 ? c.json({ refused: body.n }, 400) : c.json({ ok: body.n });
    });
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the bodies in turn and counts answers, non-2xx included', async () => {
    const result = await leanLoad('echo', {
      url: `http://127.0.0.1:${port}/echo`,
      connections: 2,
      duration: 0.5,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      bodies: [1, 2, 3, 4, 5].map((n) => JSON.stringify({ n })),
    });
    expect(result.total).toBe(seen.length);
    expect(result.total).toBeGreaterThan(20);
    expect(result.errors).toBe(0);
    // Every fifth body is refused: a fifth of the answers, give or take the requests in flight.
    expect(Math.abs(result.non2xx - result.total / 5)).toBeLessThanOrEqual(2);
    expect(new Set(seen)).toEqual(new Set(['1', '2', '3', '4', '5']));
  });

  it('times single requests on one keep-alive connection, one at a time', async () => {
    const url = `http://127.0.0.1:${port}/echo`;
    const [accepted, refused] = serializeRequests({
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      bodies: ['{"n":7}', '{"n":10}'],
    });
    const connection = await leanConnection(url);
    try {
      const answers = [
        await connection.send(accepted!),
        await connection.send(refused!),
        await connection.send(accepted!),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 400, 200]);
      for (const answer of answers) expect(answer.ms).toBeGreaterThan(0);
      await expect(Promise.all([connection.send(accepted!), connection.send(accepted!)])).rejects.toThrow(
        /one request at a time/,
      );
    } finally {
      connection.close();
    }
  });
});
