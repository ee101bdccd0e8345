import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('maintenance mode', () => {
  it('answers 503 + Retry-After for everything but health and discovery while on', async () => {
    server.runtime.deps.maintenance.enable('test');
    try {
      const api = await server.request('/api/System/ServerTime', { headers: { 'X-Language': 'en-US' } });
      expect(api.status).toBe(503);
      expect(api.headers.get('retry-after')).toBe('30');
      const body = await api.json();
      expect(body).toMatchObject({ code: 503, isSuccess: false });
      const trpc = await server.request('/trpc/SystemAppService.GetServerTimeAsync');
      expect(trpc.status).toBe(503);
      expect(((await trpc.json()) as any).error.data.envelope.code).toBe(503);
      expect((await server.request('/swagger')).status).toBe(503);
      expect((await server.request('/health')).status).toBe(200);
      const ready = await server.request('/health/ready');
      expect(ready.status).toBe(503);
      expect((await server.request('/.well-known/openid-configuration')).status).not.toBe(503);
    } finally {
      server.runtime.deps.maintenance.disable('test');
    }
    expect((await server.request('/api/System/ServerTime')).status).toBe(200);
  });

  it('starts in maintenance when configured', async () => {
    const other = await startTestServer({
      env: { App__MaintenanceMode: 'true', App__MaintenanceRetryAfterSeconds: '120' },
    });
    try {
      const res = await other.request('/api/System/ServerTime');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('120');
    } finally {
      await other.close();
    }
  });
});

describe('health', () => {
  it('answers liveness and readiness in the envelope', async () => {
    const live = await server.json('/health');
    expect(live.body).toMatchObject({ code: 200, data: { status: 'Healthy' } });
    const ready = await server.json('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data.status).toBe('Healthy');
  });

  it('reports a failing readiness check as 503 with the check named', async () => {
    server.runtime.deps.readiness.push({ name: 'broken', check: () => Promise.reject(new Error('down')) });
    try {
      const ready = await server.json('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.data.checks).toContainEqual({ name: 'broken', status: 'Unhealthy' });
    } finally {
      server.runtime.deps.readiness.pop();
    }
  });
});

describe('docs', () => {
  it('serves the interactive reference from local assets and the document it reads', async () => {
    const page = await server.request('/swagger');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    for (const asset of ['/swagger/swagger-ui.css', '/swagger/swagger-ui-bundle.js', '/swagger/init.js']) {
      const res = await server.request(asset);
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(10);
    }
    const doc = await server.json('/openapi/v1.json');
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.paths['/api/System/ServerTime'].get).toBeDefined();
  });
});
