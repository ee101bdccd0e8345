import { describe, expect, it, vi } from 'vitest';
import { createAuthClient } from './auth-client.js';
import { retryAfterMs, withThrottleRetry } from './throttle-retry.js';

const envelope = (code: number) => JSON.stringify({ code, message: '', timestamp: '', isSuccess: code < 300 });

describe('Retry-After', () => {
  it('is read as seconds or as an HTTP date', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(retryAfterMs(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(now + 3000).toUTCString() }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });
});

describe('throttle retry', () => {
  it('does not send a tRPC batch again when one of its calls ran', async () => {
    // The server answers a batch with one throttled call with 429, even though the others ran.
    const batch = JSON.stringify([{ result: { data: 1 } }, { error: { data: { httpStatus: 429 } } }]);
    const base = vi.fn(async () => new Response(batch, { status: 429, headers: { 'retry-after': '1' } }));
    const sleep = vi.fn(async () => {});
    const response = await withThrottleRetry(base, { maxRetries: 2, maxBackoffMs: 1000, sleep })(
      'http://x.invalid/trpc/A,B?batch=1',
    );
    expect(response.status).toBe(429);
    expect(base).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('sends a Request body again on every attempt', async () => {
    const bodies: string[] = [];
    const base = vi.fn(async (input: Parameters<typeof fetch>[0]) => {
      bodies.push(await (input as Request).text());
      return new Response(envelope(bodies.length < 3 ? 429 : 200), {
        status: bodies.length < 3 ? 429 : 200,
        headers: { 'retry-after': '0' },
      });
    });
    const request = new Request('http://x.invalid/api/Auth/Login', { method: 'POST', body: '{"a":1}' });
    const response = await withThrottleRetry(base, { maxRetries: 2, maxBackoffMs: 1000 })(request);
    expect(response.status).toBe(200);
    expect(bodies).toEqual(['{"a":1}', '{"a":1}', '{"a":1}']);
  });

  it('stops waiting when the request is aborted', async () => {
    const base = vi.fn(async () => new Response(envelope(429), { status: 429, headers: { 'retry-after': '60' } }));
    const controller = new AbortController();
    const pending = withThrottleRetry(base, { maxRetries: 2, maxBackoffMs: 60_000 })('http://x.invalid/api/x', {
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(base).toHaveBeenCalledTimes(1));
    controller.abort(new Error('left the page'));
    await expect(pending).rejects.toThrow('left the page');
    expect(base).toHaveBeenCalledTimes(1);
  });
});

describe('auth client options', () => {
  it('refuses bad limits when the client is created', () => {
    expect(() => createAuthClient({ baseUrl: 'http://x.invalid', maxRetriesOn429: -1 })).toThrow(RangeError);
    expect(() => createAuthClient({ baseUrl: 'http://x.invalid', maxRetriesOn429: 1.5 })).toThrow(RangeError);
    expect(() => createAuthClient({ baseUrl: 'http://x.invalid', maxBackoffMs: Number.NaN })).toThrow(RangeError);
  });
});
