import type { ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load.js';
import { ManualClock } from '../infra/clock.js';
import { MAX_REQUEST_HEAD_BYTES, requestHeadBytes, serveApp } from './serve.js';

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
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
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
    // An upgrade that gets through answers 418, so a test sees whether it was reached.
    const upgrade = (_request: unknown, socket: import('node:stream').Duplex) =>
      void socket.end('HTTP/1.1 418 Reached\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    server = await new Promise<ServerType>((resolve) => {
      const s = serveApp({ fetch: app.fetch, config, clock, port: 0, hostname: '127.0.0.1', upgrade }, () =>
        resolve(s),
      );
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
    expect(envelope).toMatchObject({
      code: 431,
      message: 'Request Header Fields Too Large',
      isSuccess: false,
      timestamp: '2026-03-01T08:00:00.000+00:00',
    });
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

  describe('request line and headers over 16 KiB however they are split (2,500 small headers, 21 KiB, were served)', () => {
    /** A GET of /ok with these header lines, closing the connection after the answer. */
    const request = (lines: string[], method = 'GET') =>
      `${method} /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${lines.map((l) => `${l}\r\n`).join('')}\r\n`;
    /** What Node's own limit counts of a request: the URL, the header names and the values. */
    const nodeCounted = (lines: string[]) =>
      '/ok'.length +
      'Hostx'.length +
      'Connectionclose'.length +
      lines.reduce((n, l) => n + l.replace(': ', '').length, 0);
    const smallHeaders = (count: number) => Array.from({ length: count }, (_, i) => `h${i}: v`);

    it('answers many small headers with the 431 envelope', async () => {
      const lines = smallHeaders(2500);
      const bytes = request(lines);
      expect(bytes.length).toBeGreaterThan(21 * 1024);
      // Node alone counted too few of these bytes to refuse them.
      expect(nodeCounted(lines)).toBeLessThan(MAX_REQUEST_HEAD_BYTES);
      const answer = parse(await raw(port, bytes));
      expect(answer.status).toBe(431);
      expect(answer.headers.connection).toBe('close');
      expect(answer.envelope).toMatchObject({
        code: 431,
        message: 'Request Header Fields Too Large',
        isSuccess: false,
      });
      expect(answer.headers['x-trace-id']).toBe(answer.envelope.traceId);
    });

    it('answers more empty headers than can fit with 431 (Node keeps only so many)', async () => {
      const lines = Array.from({ length: 4200 }, () => 'a:');
      expect(request(lines).length).toBeGreaterThan(MAX_REQUEST_HEAD_BYTES);
      expect(parse(await raw(port, request(lines))).status).toBe(431);
    });

    it('answers one big header with the 431 envelope', async () => {
      const answer = parse(await raw(port, request([`x-big: ${'b'.repeat(17 * 1024)}`])));
      expect(answer.status).toBe(431);
      expect(answer.envelope).toMatchObject({ code: 431, isSuccess: false });
    });

    it('serves a request just under the limit, many small headers or one big one', async () => {
      for (const lines of [smallHeaders(1700), [`x-big: ${'b'.repeat(16_000)}`]]) {
        const bytes = request(lines);
        expect(bytes.length).toBeLessThanOrEqual(MAX_REQUEST_HEAD_BYTES);
        expect(bytes.length).toBeGreaterThan(MAX_REQUEST_HEAD_BYTES - 500);
        const answer = await raw(port, bytes);
        expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      }
    });

    it('counts the bytes as sent', () => {
      const lines = smallHeaders(30);
      const rawHeaders = ['Host', 'x', 'Connection', 'close', ...lines.flatMap((l) => l.split(': '))];
      expect(requestHeadBytes({ method: 'GET', url: '/ok', httpVersion: '1.1', rawHeaders })).toBe(
        request(lines).length,
      );
    });

    it('refuses a hub upgrade the same way', async () => {
      const upgrade = (lines: string[]) =>
        `GET /hubs/notification HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n${lines.map((l) => `${l}\r\n`).join('')}\r\n`;
      expect((await raw(port, upgrade([]))).split('\r\n')[0]).toBe('HTTP/1.1 418 Reached');
      const answer = parse(await raw(port, upgrade(smallHeaders(2500))));
      expect(answer.status).toBe(431);
      expect(answer.envelope).toMatchObject({ code: 431, isSuccess: false });
    });
  });
});
