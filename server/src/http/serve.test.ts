import type { ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { ManualClock } from '../infra/clock.js';
import { serveApp } from './serve.js';

/** Sends raw bytes and returns everything the server wrote before closing. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

function parse(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, envelope: JSON.parse(body) as Record<string, unknown> };
}

describe('serveApp', () => {
  let server: ServerType;
  let port = 0;
  const clock = new ManualClock(new Date('2026-03-01T08:00:00Z'));

  beforeAll(async () => {
    const app = new Hono();
    app.get('/ok', (c) => c.json({ ok: true }));
    const config = loadConfig({}, { Localization: { DefaultCulture: 'en-US' } });
    server = await new Promise<ServerType>((resolve) => {
      const s = serveApp({ fetch: app.fetch, config, clock, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('serves the app', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/ok`);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('answers headers over the parser limit with a 431 envelope, trace id in header and body', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/ok?q=${'x'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    const envelope = (await res.json()) as Record<string, unknown>;
    expect(envelope).toMatchObject({ code: 431, message: 'Request Header Fields Too Large', isSuccess: false, timestamp: '2026-03-01T08:00:00.000+00:00' });
    expect(envelope.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(res.headers.get('x-trace-id')).toBe(envelope.traceId);
  });

  it('answers malformed HTTP with a 400 envelope and closes the connection', async () => {
    const answer = parse(await raw(port, 'THIS IS NOT HTTP\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers.connection).toBe('close');
    expect(answer.envelope).toMatchObject({ code: 400, message: 'Bad Request', isSuccess: false });
    expect(answer.headers['x-trace-id']).toBe(answer.envelope.traceId);
  });

  it('answers an invalid header byte the same way', async () => {
    const answer = parse(await raw(port, 'GET /ok HTTP/1.1\r\nHost: x\r\nBad\u0001Header: y\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.envelope).toMatchObject({ code: 400, isSuccess: false });
  });
});
