import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorToEnvelope } from '../errors/to-envelope.js';
import { ManualClock } from '../infra/clock.js';
import { fixtureApi } from '../testing/fixture-router.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

// Counts the mapping of thrown values to envelopes, which must run once per failed call.
vi.mock('../errors/to-envelope.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../errors/to-envelope.js')>();
  return { ...actual, errorToEnvelope: vi.fn(actual.errorToEnvelope) };
});
const mapped = vi.mocked(errorToEnvelope);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ api: fixtureApi, clock: new ManualClock(Date.UTC(2026, 5, 1, 12)) });
});
afterAll(() => server.close());
beforeEach(() => {
  mapped.mockClear();
});

const headers = { 'content-type': 'application/json', 'x-language': 'en-US', 'x-trace-id': 'same-call' };

/** The same failing call on REST and on /trpc: status, envelope, and how often the mapping ran. */
async function both(rest: string, key: string, body: unknown) {
  mapped.mockClear();
  const viaRest = await server.json(rest, { method: 'POST', headers, body: JSON.stringify(body) });
  const restMappings = mapped.mock.calls.length;
  mapped.mockClear();
  const viaTrpc = await server.json(`/trpc/${key}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const trpcMappings = mapped.mock.calls.length;
  return { viaRest, viaTrpc, restMappings, trpcMappings };
}

describe('a failed call', () => {
  it.each([
    ['a business error', '/api/Echo/Conflict', 'EchoAppService.ConflictAsync', {}, 409],
    ['a validation failure', '/api/Echo/Thing', 'EchoAppService.CreateThingAsync', { name: '', size: 'x' }, 400],
    ['an unexpected error', '/api/Echo/Fail', 'EchoAppService.FailAsync', {}, 500],
  ])(
    'answers %s with the same envelope on REST and /trpc, mapped once each',
    async (_label, rest, key, body, status) => {
      const { viaRest, viaTrpc, restMappings, trpcMappings } = await both(rest, key, body);
      expect(viaRest.status).toBe(status);
      expect(viaTrpc.status).toBe(status);
      expect(viaRest.body).toMatchObject({ code: status, traceId: 'same-call', isSuccess: false });
      expect(viaTrpc.body.error.data.envelope).toEqual(viaRest.body);
      expect(restMappings).toBe(1);
      expect(trpcMappings).toBe(1);
    },
  );

  it('maps each failed call of a batch once', async () => {
    const res = await server.json(
      '/trpc/EchoAppService.ConflictAsync,EchoAppService.PingAsync,EchoAppService.FailAsync?batch=1',
      { method: 'POST', headers, body: '{}' },
    );
    expect(res.status).toBe(207);
    expect(res.body.map((r: { error?: { data: { httpStatus: number } } }) => r.error?.data.httpStatus)).toEqual([
      409,
      undefined,
      500,
    ]);
    expect(mapped).toHaveBeenCalledTimes(2);
  });

  it('maps a refusal before any call once, with the envelope inside tRPC’s error', async () => {
    const res = await server.json('/trpc/EchoAppService.PingAsync', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(res.status).toBe(415);
    expect(res.body.error.data.envelope).toMatchObject({ code: 415, traceId: 'same-call', isSuccess: false });
    expect(mapped).toHaveBeenCalledTimes(1);
  });
});
