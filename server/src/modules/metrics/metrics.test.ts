import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestUser, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { startMetricsListener } from './listener.js';
import { startAdminServer } from '../../testing/admin.js';

const KEY = 'metrics-operator-key-0123456789abcdef';

/** The value of one sample line, by its name and labels as Prometheus writes them. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAdminServer({ config: { App: { OperatorKey: KEY } } });
  });
  afterAll(() => server?.close());

  const scrape = async () => {
    const res = await server.request('/metrics', { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  it('needs the operator key: none or a wrong one answers 401 in the envelope', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-key' }, { authorization: KEY }] as Record<
      string,
      string
    >[]) {
      const res = await server.json('/metrics', { headers });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ isSuccess: false });
    }
  });

  it('counts requests by derived route and status, logins by method and result, and reads the gauges', async () => {
    const user = await createTestUser(server.runtime.deps);
    await loginAs(server, user);
    await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: user.email, password: 'Wrong-password-1!' },
    });
    // The case the client used does not make a new series; unknown paths are not labelled by their text.
    await server.json('/API/auth/LOGINCONFIG');
    await server.json('/api/No/SuchRoute?x=1');
    await server.json('/no/such/path/at/all');

    const text = await scrape();
    expect(
      sample(text, 'portcullis_http_requests_total{method="POST",route="/api/Auth/Login",status="200"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'portcullis_http_requests_total{method="POST",route="/api/Auth/Login",status="400"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'portcullis_http_requests_total{method="GET",route="/api/Auth/LoginConfig",status="200"}'),
    ).toBe(1);
    expect(sample(text, 'portcullis_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(sample(text, 'portcullis_http_requests_total{method="GET",route="other",status="404"}')).toBe(1);
    expect(text).not.toMatch(/SuchRoute|no\/such/);
    expect(
      sample(
        text,
        'portcullis_http_request_duration_seconds_count{method="POST",route="/api/Auth/Login",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^portcullis_logins_total\{method="[^"]+",result="Success"\} [1-9]/m);
    expect(text).toMatch(/^portcullis_logins_total\{method="[^"]+",result="[A-Za-z]+"\} [1-9]/m);
    expect(sample(text, 'portcullis_active_sessions')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'portcullis_hub_connections')).toBe(0);
    expect(sample(text, 'portcullis_password_hash_jobs{state="limit"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'portcullis_dependency_up{dependency="database"}')).toBe(1);
    expect(sample(text, 'portcullis_dependency_up{dependency="store"}')).toBe(1);
    expect(sample(text, 'portcullis_database_pool_max_connections')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^portcullis_process_cpu_user_seconds_total /m);
    expect(text).toMatch(/^portcullis_nodejs_eventloop_lag_seconds /m);
  });

  it('on a port of its own: served there without a key, and not on the API port', async () => {
    const listener = await startMetricsListener(server.runtime.metrics, { port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`http://127.0.0.1:${listener.port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^portcullis_http_requests_total/m);
      expect((await fetch(`http://127.0.0.1:${listener.port}/other`)).status).toBe(404);
    } finally {
      await listener.close();
    }
    const separate = await startAdminServer({ config: { App: { OperatorKey: KEY }, Metrics: { Port: 9464 } } });
    try {
      expect((await separate.json('/metrics', { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(404);
    } finally {
      await separate.close();
    }
  });

  it('Metrics:Enabled=false: no route and nothing counted', async () => {
    const off = await startAdminServer({ config: { App: { OperatorKey: KEY }, Metrics: { Enabled: false } } });
    try {
      expect((await off.json('/metrics', { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(404);
      await off.json('/api/Auth/LoginConfig');
      expect(await off.runtime.metrics.registry.getSingleMetricAsString('portcullis_http_requests_total')).not.toMatch(
        /LoginConfig/,
      );
    } finally {
      await off.close();
    }
  });
});
