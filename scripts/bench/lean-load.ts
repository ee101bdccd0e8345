/**
 * A lean HTTP/1.1 load generator for the login benchmark: keep-alive connections over raw
 * sockets, requests serialized once before the run, responses framed by Content-Length or
 * chunked encoding and checked only for their status. The load generator shares this machine's
 * two cores with the server it measures; autocannon rebuilds and re-parses every request and
 * spent 0.25-0.65 ms of CPU a login here (3-4% of the cores at login rates), time a real client on
 * another machine would not take from the server.
 */
import net from 'node:net';
import type { LoadResult } from './load.js';

export interface LeanLoadOptions {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Request bodies, sent in turn (one request each). */
  bodies: string[];
}

/** The whole request bytes for each body, built before the run. */
export function serializeRequests(options: Pick<LeanLoadOptions, 'url' | 'method' | 'headers' | 'bodies'>): Buffer[] {
  const url = new URL(options.url);
  const headers = { host: url.host, connection: 'keep-alive', ...options.headers };
  return options.bodies.map((body) => {
    const payload = Buffer.from(body, 'utf8');
    const lines = [
      `${options.method} ${url.pathname}${url.search} HTTP/1.1`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      `content-length: ${payload.length}`,
    ];
    return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
  });
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * Frames one HTTP/1.1 response at the start of `buffer`: its status, its length in bytes, and
 * whether the server will close the connection; undefined while incomplete.
 */
export function frameResponse(buffer: Buffer): { status: number; length: number; close: boolean } | undefined {
  const headerEnd = buffer.indexOf(HEADER_END);
  if (headerEnd < 0) return undefined;
  const head = buffer.toString('latin1', 0, headerEnd);
  const status = Number(head.slice(9, 12));
  if (!(status >= 100 && status <= 599)) throw new Error(`not an HTTP response: ${head.slice(0, 40)}`);
  const close = /\r\nconnection:\s*close/i.test(head);
  const bodyStart = headerEnd + 4;
  const contentLength = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (contentLength) {
    const length = bodyStart + Number(contentLength[1]);
    return buffer.length >= length ? { status, length, close } : undefined;
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    // Chunks: size in hex, CRLF, data, CRLF; a zero size ends the body (no trailers are sent).
    let at = bodyStart;
    for (;;) {
      const lineEnd = buffer.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(buffer.toString('latin1', at, lineEnd), 16);
      if (Number.isNaN(size)) throw new Error('bad chunk size');
      if (size === 0) return buffer.length >= lineEnd + 4 ? { status, length: lineEnd + 4, close } : undefined;
      at = lineEnd + 2 + size + 2;
      if (buffer.length < at) return undefined;
    }
  }
  // Neither: a body without length runs to the end of the connection (not used by our servers).
  if (status === 204 || status === 304) return { status, length: bodyStart, close };
  throw new Error('response without Content-Length or chunked encoding');
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs the load and reports it as autocannon runs are reported (mean requests/s over the run). */
export async function leanLoad(label: string, options: LeanLoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const requests = serializeRequests(options);
  const latencies: number[] = [];
  let next = 0;
  /** Responses that arrived within the run's duration (requests still in flight then finish uncounted). */
  let inTime = 0;
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + options.duration * 1000;

  const connection = () =>
    new Promise<void>((resolve) => {
      let buffered: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      const socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
      const send = () => {
        if (performance.now() >= end) return socket.end();
        sentAt = performance.now();
        socket.write(requests[next++ % requests.length]!);
      };
      socket.on('connect', send);
      socket.on('data', (chunk: Buffer) => {
        buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
        let framed;
        try {
          framed = frameResponse(buffered);
        } catch {
          errors++;
          return socket.destroy();
        }
        if (!framed) return;
        const now = performance.now();
        latencies.push(now - sentAt);
        if (now < end) inTime++;
        if (framed.status < 200 || framed.status > 299) non2xx++;
        buffered = buffered.subarray(framed.length);
        // One request at a time per connection: anything beyond the response is a server error.
        if (buffered.length) {
          errors++;
          return socket.destroy();
        }
        if (framed.close) return socket.end();
        send();
      });
      socket.on('error', () => errors++);
      socket.on('close', () => {
        // A connection the server closed early is replaced while the run lasts.
        if (performance.now() < end) void connection().then(resolve);
        else resolve();
      });
    });

  await Promise.all(Array.from({ length: options.connections }, connection));
  latencies.sort((a, b) => a - b);
  return {
    label,
    requestsPerSecond: Math.round(inTime / options.duration),
    total: latencies.length,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    non2xx,
    errors,
  };
}

/**
 * One keep-alive connection sending one serialized request at a time, for benchmarks that time
 * single requests (enumeration: a request's latency, not a rate). Resolves each request with its
 * status and the milliseconds from writing it to its whole response.
 */
export async function leanConnection(
  target: string,
): Promise<{ send(request: Buffer): Promise<{ status: number; ms: number }>; close(): void }> {
  const url = new URL(target);
  const socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let buffered: Buffer = Buffer.alloc(0);
  let pending: { sentAt: number; resolve(r: { status: number; ms: number }): void; reject(e: Error): void } | undefined;
  const fail = (error: Error) => {
    pending?.reject(error);
    pending = undefined;
  };
  socket.on('data', (chunk: Buffer) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    let framed;
    try {
      framed = frameResponse(buffered);
    } catch (error) {
      return fail(error as Error);
    }
    if (!framed || !pending) return;
    const ms = performance.now() - pending.sentAt;
    buffered = buffered.subarray(framed.length);
    const { resolve } = pending;
    pending = undefined;
    if (framed.close) fail(new Error('the server closed the connection'));
    resolve({ status: framed.status, ms });
  });
  socket.on('error', fail);
  socket.on('close', () => fail(new Error('connection closed')));
  return {
    send: (request) =>
      new Promise((resolve, reject) => {
        if (pending) return reject(new Error('one request at a time'));
        pending = { sentAt: performance.now(), resolve, reject };
        socket.write(request);
      }),
    close: () => socket.destroy(),
  };
}
