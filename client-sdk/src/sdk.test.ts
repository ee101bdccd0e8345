import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/src/testing/harness.js';
import { createRestClient, createTrpcClient, envelopeOf, errorText, PortcullisError } from './index.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('REST client against the real server', () => {
  it('returns the typed envelope and unwraps data on success', async () => {
    const client = createRestClient({ baseUrl: server.url, timeZone: 'Asia/Shanghai', language: 'en-US' });
    const { envelope, status } = await client.send('SystemAppService.GetServerTimeAsync');
    expect(status).toBe(200);
    expect(envelope).toMatchObject({ code: 200, message: 'Success', isSuccess: true });
    const data = await client.call('SystemAppService.GetServerTimeAsync');
    // The type of serverTime is string on the wire; the zone header was sent by the client.
    const text: string = data.serverTime;
    expect(text).toMatch(/\+08:00$/);
    expect(data.timeZone).toBe('Asia/Shanghai');
  });

  it('throws PortcullisError with the text from data first, then message', async () => {
    const client = createRestClient({ baseUrl: server.url, language: 'en-US' });
    server.runtime.deps.maintenance.enable('sdk-test');
    try {
      const error = await client.call('SystemAppService.GetServerTimeAsync').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PortcullisError);
      const e = error as PortcullisError;
      expect(e.status).toBe(503);
      expect(e.code).toBe(503);
      expect(e.message).toBe(e.data);
      expect(e.message).toMatch(/upgraded/);
    } finally {
      server.runtime.deps.maintenance.disable('sdk-test');
    }
  });

  it('decides the error text by the client rule', () => {
    const base = { code: 400, timestamp: '', isSuccess: false };
    expect(errorText({ ...base, message: 'Bad Request', data: 'Wrong password' })).toBe('Wrong password');
    expect(errorText({ ...base, message: 'Bad Request', data: [{ field: 'a', message: 'b' }] })).toBe('Bad Request');
    expect(errorText({ ...base, message: 'Bad Request' })).toBe('Bad Request');
  });
});

describe('tRPC client against the real server', () => {
  it('calls procedures with types and carries the envelope on errors', async () => {
    const client = createTrpcClient({ baseUrl: server.url, headers: () => ({ 'x-timezone': 'Asia/Tokyo' }) });
    const result = await client.SystemAppService.GetServerTimeAsync.query();
    expect(result.serverTime).toMatch(/\+09:00$/);
    server.runtime.deps.maintenance.enable('sdk-test');
    try {
      const error = await client.SystemAppService.GetServerTimeAsync.query().catch((e: unknown) => e);
      expect(envelopeOf(error)).toMatchObject({ code: 503, isSuccess: false });
    } finally {
      server.runtime.deps.maintenance.disable('sdk-test');
    }
  });
});
