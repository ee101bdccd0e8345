import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureApi } from '../testing/fixture-router.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ api: fixtureApi, config: { App: { MaxRequestBodyBytes: 4096 } } });
});
afterAll(() => server.close());

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

describe('envelope', () => {
  it('wraps a success with code, message, data, traceId, timestamp, isSuccess in that order', async () => {
    const res = await server.request('/api/Echo/Echo?id=5', { headers: { 'X-Language': 'en-US' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    const body = JSON.parse(text);
    expect(Object.keys(body)).toEqual(['code', 'message', 'data', 'traceId', 'timestamp', 'isSuccess']);
    expect(body.code).toBe(200);
    expect(text).toContain('"code":200,');
    expect(body.message).toBe('Success');
    expect(body.isSuccess).toBe(true);
    expect(body.timestamp).toMatch(ISO_UTC);
    expect(body.traceId).toBe(res.headers.get('x-trace-id'));
  });

  it('omits data when the result is empty and null fields inside data', async () => {
    const { body } = await server.json('/api/Echo/Echo?id=1');
    expect(body.data).not.toHaveProperty('nothing');
    expect(body.data).not.toHaveProperty('count');
  });

  it('answers 201 with the creation code where the operation says so', async () => {
    const { status, body } = await server.json('/api/Echo/Thing', {
      method: 'POST',
      json: { name: 'a', size: 1, color: 'Red' },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ code: 201, isSuccess: true });
  });

  it('answers a business error with the code text in message and the detail in data', async () => {
    const { status, body } = await server.json('/api/Echo/Conflict', {
      method: 'POST',
      headers: { 'X-Language': 'en-US' },
    });
    expect(status).toBe(409);
    expect(body).toMatchObject({ code: 409, message: 'Conflict', isSuccess: false });
    expect(typeof body.data).toBe('string');
  });

  it('hides internals of an unexpected error, returns the trace id and logs the stack', async () => {
    const { status, body, headers } = await server.json('/api/Echo/Fail', {
      method: 'POST',
      headers: { 'X-Trace-Id': 'trace-500-test' },
    });
    expect(status).toBe(500);
    expect(body.code).toBe(500);
    expect(body.traceId).toBe('trace-500-test');
    expect(headers.get('x-trace-id')).toBe('trace-500-test');
    expect(JSON.stringify(body)).not.toMatch(/hunter2|postgres|stack|at /);
    const logged = server.logs.find((l) => l.includes('trace-500-test') && l.includes('"level":"error"'));
    expect(logged).toBeDefined();
    expect(logged).toContain('stack');
  });
});

describe('trace id', () => {
  it('honours a sane inbound X-Trace-Id and replaces a hostile one', async () => {
    const ok = await server.request('/api/Echo/Echo?id=1', { headers: { 'X-Trace-Id': 'abc-123' } });
    expect(ok.headers.get('x-trace-id')).toBe('abc-123');
    const bad = await server.request('/api/Echo/Echo?id=1', { headers: { 'X-Trace-Id': 'a b<script>' } });
    expect(bad.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('is on 404, 405 and health responses too', async () => {
    for (const [path, method] of [
      ['/nowhere', 'GET'],
      ['/api/Echo/Echo', 'PUT'],
      ['/health', 'GET'],
    ] as const) {
      const res = await server.request(path, { method, headers: { 'X-Trace-Id': 'every-response' } });
      expect(res.headers.get('x-trace-id')).toBe('every-response');
      expect(((await res.json()) as any).traceId).toBe('every-response');
    }
  });
});

describe('languages', () => {
  it('localizes message by X-Language and falls back silently to zh-CN', async () => {
    const msg = async (headers: Record<string, string>) =>
      (await server.json('/api/Echo/Echo?id=1', { headers })).body.message;
    expect(await msg({ 'X-Language': 'en-US' })).toBe('Success');
    expect(await msg({ 'X-Language': 'ja-JP' })).toBe('成功しました');
    expect(await msg({ 'X-Language': 'de-de' })).toBe('Erfolgreich');
    expect(await msg({ 'X-Language': 'fr-FR' })).toBe('请求成功');
    expect(await msg({})).toBe('请求成功');
    expect(await msg({ 'Accept-Language': 'fr;q=0.9, ko;q=0.8' })).toBe('요청 성공');
  });

  it('localizes validation detail too', async () => {
    const { body } = await server.json('/api/Echo/Thing', {
      method: 'POST',
      json: { name: 5, size: 1, color: 'Red' },
      headers: { 'X-Language': 'de-DE' },
    });
    expect(body.data[0].field).toBe('name');
    expect(body.data[0].message).toMatch(/Eingabe|erwartet/);
  });
});

describe('time zones', () => {
  it('converts date-times to X-Timezone, and to the server default when unknown', async () => {
    const at = async (zone?: string) =>
      (await server.json('/api/Echo/Echo?id=1', { headers: zone ? { 'X-Timezone': zone } : {} })).body.data;
    expect((await at('Asia/Shanghai')).when).toBe('2026-01-15T16:30:00+08:00');
    expect((await at('Asia/Shanghai')).plain).toBe('2026-01-15 16:30:00');
    expect((await at('America/Los_Angeles')).when).toBe('2026-01-15T00:30:00-08:00');
    expect((await at('Not/AZone')).when).toBe('2026-01-15T08:30:00+00:00');
    expect((await at()).when).toBe('2026-01-15T08:30:00+00:00');
  });

  it('keeps the envelope timestamp in UTC whatever the zone', async () => {
    const { body } = await server.json('/api/Echo/Echo?id=1', { headers: { 'X-Timezone': 'Asia/Tokyo' } });
    expect(body.timestamp).toMatch(ISO_UTC);
  });
});

describe('64-bit ids and enums', () => {
  it('writes 64-bit integers as strings and reads them as strings or numbers', async () => {
    const { body } = await server.json('/api/Echo/Echo?id=9223372036854775807');
    expect(body.data.id).toBe('9223372036854775807');
    expect(body.data.big).toBe('9007199254740993');
    const created = await server.json('/api/Echo/Thing', {
      method: 'POST',
      body: '{"name":"n","size":9007199254740993,"color":2}',
      headers: { 'content-type': 'application/json' },
    });
    expect(created.body.data.size).toBe('9007199254740993');
    const asText = await server.json('/api/Echo/Thing', {
      method: 'POST',
      json: { name: 'n', size: '123', color: 'Blue' },
    });
    expect(asText.body.data.size).toBe('123');
  });

  it('refuses ids beyond 64 bits, negative or non-numeric', async () => {
    for (const id of ['9223372036854775808', '-1', 'abc', '1.5']) {
      const { status, body } = await server.json(`/api/Echo/Echo?id=${id}`);
      expect(status, id).toBe(400);
      expect(body.data[0].field).toBe('id');
    }
  });

  it('reads enums by name (any case) or number and writes names', async () => {
    for (const color of ['Red', 'red', '1']) {
      const { body } = await server.json(`/api/Echo/Echo?id=1&color=${color}`);
      expect(body.data.color).toBe('Red');
    }
    const byNumber = await server.json('/api/Echo/Thing', { method: 'POST', json: { name: 'n', size: 1, color: 4 } });
    expect(byNumber.body.data.color).toBe('Blue');
  });

  it('answers an unknown enum value with a clear 400, never a 500', async () => {
    for (const color of ['Purple', 3, null, {}]) {
      const { status, body } = await server.json('/api/Echo/Thing', {
        method: 'POST',
        json: { name: 'n', size: 1, color },
        headers: { 'X-Language': 'en-US' },
      });
      expect(status).toBe(400);
      expect(body.isSuccess).toBe(false);
      expect(body.data.find((d: any) => d.field === 'color')).toBeDefined();
    }
  });
});

describe('binding', () => {
  it('reads scalars from the query string with their real types (false stays false)', async () => {
    const { body } = await server.json('/api/Echo/Echo?id=1&active=false&count=7&tags=a&tags=b');
    expect(body.data).toMatchObject({ active: false, count: 7, tags: ['a', 'b'] });
    const on = await server.json('/api/Echo/Echo?id=1&active=true');
    expect(on.body.data.active).toBe(true);
  });

  it('binds query keys case-insensitively', async () => {
    const { body } = await server.json('/api/Echo/Echo?ID=42&Active=true');
    expect(body.data).toMatchObject({ id: '42', active: true });
  });

  it('takes a query-bound id from the query, never from the body (an id in the body is 0)', async () => {
    const fromQuery = await server.json('/api/Echo/Thing?id=8', { method: 'PUT', json: { name: 'x', id: 99 } });
    expect(fromQuery.body.data).toMatchObject({ id: '8', name: 'x' });
    const inBody = await server.json('/api/Echo/Thing', { method: 'PUT', json: { name: 'x', id: 99 } });
    expect(inBody.status).toBe(200);
    expect(inBody.body.data.id).toBe('0');
    const del = await server.json('/api/Echo/Thing', { method: 'DELETE', json: { id: 5 } });
    expect(del.status).toBe(404);
  });

  it('matches paths case-insensitively and tolerates a trailing slash', async () => {
    expect((await server.request('/API/ECHO/ECHO?id=1')).status).toBe(200);
    expect((await server.request('/api/echo/echo/?id=1')).status).toBe(200);
  });

  it('ignores a body on a call that takes none', async () => {
    const { status } = await server.json('/api/Echo/Ping', {
      method: 'POST',
      body: 'not json',
      headers: { 'content-type': 'text/plain' },
    });
    expect(status).toBe(200);
  });
});

describe('refusals', () => {
  it('answers 404 in the envelope for an unknown path, inside and outside /api', async () => {
    for (const path of ['/api/Nope/Nothing', '/api', '/whatever']) {
      const { status, body } = await server.json(path);
      expect(status).toBe(404);
      expect(body).toMatchObject({ code: 404, isSuccess: false });
    }
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const res = await server.request('/api/Echo/Thing', { method: 'PATCH' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('DELETE, POST, PUT');
    expect(((await res.json()) as any).code).toBe(405);
  });

  it('answers 400 for malformed JSON and invalid UTF-8', async () => {
    const bad = await server.json('/api/Echo/Thing', {
      method: 'POST',
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(400);
    const bytes = await server.json('/api/Echo/Thing', {
      method: 'POST',
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      headers: { 'content-type': 'application/json' },
    });
    expect(bytes.status).toBe(400);
  });

  it('answers 400 with per-field detail for missing fields, wrong types and a missing body', async () => {
    const missing = await server.json('/api/Echo/Thing', {
      method: 'POST',
      json: { size: 1 },
      headers: { 'X-Language': 'en-US' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.data.map((d: any) => d.field).sort()).toEqual(['color', 'name']);
    expect(missing.body.message).toContain('name');
    const noBody = await server.json('/api/Echo/Thing', { method: 'POST' });
    expect(noBody.status).toBe(400);
    const array = await server.json('/api/Echo/Thing', { method: 'POST', json: [1, 2] });
    expect(array.status).toBe(400);
  });

  it('answers 413 for a body over the limit, declared or streamed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(5000), size: 1, color: 1 });
    const declared = await server.json('/api/Echo/Thing', {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(declared.status).toBe(413);
    expect(declared.body.code).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1000)));
        controller.close();
      },
    });
    const chunked = await server.request('/api/Echo/Thing', {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('answers 413 to a large streamed body without resetting the connection', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream({
      pull(controller) {
        if (sent++ >= 128) return controller.close();
        controller.enqueue(chunk);
      },
    });
    const res = await server.request('/api/Echo/Thing', {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).code).toBe(413);
    // The server is still fine for the next request.
    expect((await server.request('/api/Echo/Echo?id=1')).status).toBe(200);
  });

  it('answers 415 for a body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', '']) {
      const { status, body } = await server.json('/api/Echo/Thing', {
        method: 'POST',
        body: 'name=a',
        headers: type ? { 'content-type': type } : {},
      });
      expect(status, type).toBe(415);
      expect(body.code).toBe(415);
    }
    const vendor = await server.json('/api/Echo/Thing', {
      method: 'POST',
      body: '{"name":"a","size":1,"color":1}',
      headers: { 'content-type': 'application/vnd.api+json; charset=utf-8' },
    });
    expect(vendor.status).toBe(201);
  });
});

describe('/trpc', () => {
  it('serves the same procedures with the same serialization', async () => {
    const res = await server.request(
      `/trpc/EchoAppService.GetEchoAsync?input=${encodeURIComponent(JSON.stringify({ id: '7', color: 2 }))}`,
      { headers: { 'X-Timezone': 'Asia/Shanghai' } },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.result.data).toMatchObject({
      id: '7',
      color: 'Green',
      big: '9007199254740993',
      when: '2026-01-15T16:30:00+08:00',
    });
    expect(body.result.data).not.toHaveProperty('nothing');
  });

  it('answers validation and business errors with the envelope and the right status', async () => {
    const bad = await server.request('/trpc/EchoAppService.CreateThingAsync', {
      method: 'POST',
      body: JSON.stringify({ size: 1 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    const badBody = (await bad.json()) as any;
    expect(badBody.error.data.envelope).toMatchObject({ code: 400, isSuccess: false });
    const conflict = await server.request('/trpc/EchoAppService.ConflictAsync', { method: 'POST' });
    expect(conflict.status).toBe(409);
    expect(((await conflict.json()) as any).error.data.envelope.code).toBe(409);
  });

  it('never leaks a stack, even for refusals before a context exists', async () => {
    const res = await server.request('/trpc/EchoAppService.PingAsync', {
      method: 'POST',
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    const text = await res.text();
    expect(text).not.toMatch(/stack|node_modules|\.ts:/);
    expect(JSON.parse(text).error.data.envelope.isSuccess).toBe(false);
    const fail = await server.request('/trpc/EchoAppService.FailAsync', { method: 'POST' });
    expect(fail.status).toBe(500);
    expect(await fail.text()).not.toMatch(/stack|hunter2/);
    const unknown = await server.request('/trpc/Nope.Nothing');
    expect(unknown.status).toBe(404);
  });

  it('names the envelope status in the tRPC error code, not INTERNAL_SERVER_ERROR', async () => {
    const conflict = await server.request('/trpc/EchoAppService.ConflictAsync', { method: 'POST' });
    const body = (await conflict.json()) as any;
    expect(body.error.code).toBe(-32009);
    expect(body.error.data.code).toBe('CONFLICT');
  });

  it('answers a batch with mixed outcomes 207, and a batch that failed alike with that status', async () => {
    const mixed = await server.request('/trpc/EchoAppService.PingAsync,EchoAppService.ConflictAsync?batch=1', {
      method: 'POST',
      body: JSON.stringify({}),
      headers: { 'content-type': 'application/json' },
    });
    expect(mixed.status).toBe(207);
    const results = (await mixed.json()) as any[];
    expect(results[0].result.data).toEqual({ pong: true });
    expect(results[1].error.data.httpStatus).toBe(409);
    const failed = await server.request('/trpc/EchoAppService.ConflictAsync,EchoAppService.ConflictAsync?batch=1', {
      method: 'POST',
      body: JSON.stringify({}),
      headers: { 'content-type': 'application/json' },
    });
    expect(failed.status).toBe(409);
  });

  it('applies the body limit', async () => {
    const res = await server.request('/trpc/EchoAppService.CreateThingAsync', {
      method: 'POST',
      body: JSON.stringify({ name: 'x'.repeat(5000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
  });
});

describe('logging', () => {
  it('never writes passwords, tokens, codes or secrets, even when a handler logs its input', async () => {
    server.logs.length = 0;
    const secrets = [
      'Sup3r-Secret-Pass!',
      'captcha-4321',
      'eyJ.secret-access-token',
      'Bearer abc.def.ghi',
      'qs-token-777',
    ];
    await server.json('/api/Echo/LoginLike?access_token=qs-token-777', {
      method: 'POST',
      json: { username: 'someone@example.com', password: secrets[0], captchaCode: secrets[1] },
      headers: { Authorization: secrets[3]!, 'X-Trace-Id': 'log-check' },
    });
    const text = server.logs.join('\n');
    expect(text).toContain('log-check');
    expect(text).toContain('someone@example.com');
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});
