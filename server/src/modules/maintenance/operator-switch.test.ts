import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemSettings } from '../../../../db/schema/index.js';
import { runMaintenanceCli } from '../../../../scripts/maintenance-cli.js';
import { createHost } from '../../http/host.js';
import { MaintenanceSwitch } from '../../http/maintenance.js';
import { ManualClock } from '../../infra/clock.js';
import { createLogger } from '../../infra/logger.js';
import { createMemoryStore } from '../../stores/memory.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { createMaintenanceControl, MAINTENANCE_SETTING } from './control.js';
import { mountOperatorSwitch } from './operator-route.js';

const KEY = 'Zp8wQ3mV6tR1yB9nC4xK7hJ2fL5dS0aG';
const auth = { authorization: `Bearer ${KEY}`, 'x-language': 'en-US' };
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ config: { App: { OperatorKey: KEY } } });
});
afterAll(() => server.close());

const put = (json: unknown, headers: Record<string, string> = auth) =>
  server.json('/ops/maintenance', { method: 'PUT', headers, json });
const apiStatus = async () => (await server.json('/api/System/ServerTime')).status;

describe('the operator maintenance switch over HTTP', () => {
  it('refuses a missing or wrong key, in the envelope, without telling which', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer wrong' },
      { authorization: `Basic ${KEY}` },
      { authorization: `Bearer ${KEY}x` },
    ]) {
      const res = await server.json('/ops/maintenance', { headers: { ...headers, 'x-language': 'en-US' } });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 401, isSuccess: false, data: 'The operator key is missing or wrong.' });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await put({ on: true }, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect(await apiStatus()).toBe(200);
    expect(server.logs.join('\n')).not.toContain(KEY);
  });

  it('answers bad requests with an envelope error and changes nothing', async () => {
    const cases: Array<[RequestInit & { json?: unknown }, number]> = [
      [{ json: { on: 'yes' } }, 400],
      [{ json: { on: true, retryAfterSeconds: 0 } }, 400],
      [{ json: { on: true, retryAfterSeconds: 1.5 } }, 400],
      [{ json: { on: true, extra: 1 } }, 400],
      [{ json: { on: true, reason: 'x'.repeat(201) } }, 400],
      [{ json: {} }, 400],
      [{ body: '', headers: { ...auth, 'content-type': 'application/json' } }, 400],
      [{ body: '{"on": tru', headers: { ...auth, 'content-type': 'application/json' } }, 400],
      [{ body: 'on=true', headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' } }, 415],
      [{ json: { on: true, reason: 'x'.repeat(5000) } }, 413],
    ];
    for (const [init, status] of cases) {
      const res = await server.json('/ops/maintenance', { method: 'PUT', headers: auth, ...init });
      expect(res.status, JSON.stringify(init).slice(0, 80)).toBe(status);
      expect(res.body.isSuccess).toBe(false);
    }
    const wrongField = await put({ on: 'yes' });
    expect(wrongField.body.data).toEqual([expect.objectContaining({ field: 'on' })]);
    const other = await server.json('/ops/maintenance', { method: 'DELETE', headers: auth });
    expect(other.status).toBe(405);
    expect(other.headers.get('allow')).toBe('GET, PUT');
    expect(await apiStatus()).toBe(200);
    const [row] = await server.runtime.deps.db
      .select()
      .from(systemSettings)
      .where(eq(systemSettings.settingKey, MAINTENANCE_SETTING));
    expect(row).toBeUndefined();
  });

  it('turns maintenance on with its Retry-After, keeps health and itself answering, and off again', async () => {
    const on = await put({ on: true, retryAfterSeconds: 120, reason: 'moving the database' });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({
      on: true,
      reasons: ['operator'],
      retryAfterSeconds: 120,
      operator: { on: true, reason: 'moving the database', changedBy: 'operator@127.0.0.1' },
    });

    const refused = await server.json('/api/System/ServerTime', { headers: { 'x-language': 'en-US' } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('120');
    expect(refused.body).toMatchObject({ code: 503, isSuccess: false });
    expect((await server.json('/trpc/SystemAppService.GetServerTimeAsync')).status).toBe(503);
    expect((await server.json('/health')).status).toBe(200);
    expect((await server.json('/health/ready')).status).toBe(503);
    const status = await server.json('/ops/maintenance', { headers: auth });
    expect(status.body.data).toMatchObject({ on: true, retryAfterSeconds: 120 });

    // Stored where every node (and this one after a restart) reads it.
    const [row] = await server.runtime.deps.db
      .select()
      .from(systemSettings)
      .where(eq(systemSettings.settingKey, MAINTENANCE_SETTING));
    expect(JSON.parse(row!.settingValue)).toMatchObject({ on: true, retryAfterSeconds: 120 });

    const off = await put({ on: false });
    expect(off.body.data).toMatchObject({ on: false, reasons: [], retryAfterSeconds: 30 });
    expect(await apiStatus()).toBe(200);
    expect((await server.json('/health/ready')).status).toBe(200);
  });

  it('is driven by npm run maintenance with the server configuration', async () => {
    const out: string[] = [];
    const env = { App__OperatorKey: KEY };
    const write = (text: string) => void out.push(text);
    expect(
      await runMaintenanceCli(['on', '--retry-after', '90', '--reason', 'upgrade', '--url', server.url], env, write),
    ).toBe(0);
    expect(JSON.parse(out.pop()!)).toMatchObject({ on: true, retryAfterSeconds: 90 });
    expect(await apiStatus()).toBe(503);
    expect(await runMaintenanceCli(['status', '--url', server.url], env, write)).toBe(0);
    expect(JSON.parse(out.pop()!)).toMatchObject({ on: true, operator: { reason: 'upgrade' } });
    expect(await runMaintenanceCli(['off', '--url', server.url], env, write)).toBe(0);
    expect(await apiStatus()).toBe(200);

    expect(await runMaintenanceCli(['maybe'], env, write)).toBe(2);
    expect(await runMaintenanceCli(['on', '--retry-after', 'soon'], env, write)).toBe(2);
    expect(await runMaintenanceCli(['status', '--url', server.url], { App__OperatorKey: `${KEY}x` }, write)).toBe(1);
    expect(out.pop()).toMatch(/401: The operator key is missing or wrong/);
    expect(await runMaintenanceCli(['status', '--url', server.url], { APP_ENV: 'production' }, write)).toBe(2);
    expect(out.pop()).toMatch(/no run-time maintenance switch/);
  });

  it('limits calls per address before comparing the key', async () => {
    let last = 0;
    for (let i = 0; i < 40 && last !== 429; i++)
      last = (
        await server.json('/ops/maintenance', { headers: { authorization: 'Bearer guess', 'x-language': 'en-US' } })
      ).status;
    expect(last).toBe(429);
    const right = await server.json('/ops/maintenance', { headers: auth });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('the stored switch', () => {
  const quiet = createLogger({ level: 'silent' });

  it('is read by a node starting later, and the config start-up maintenance waits for an operator', async () => {
    const { db, clock } = server.runtime.deps;
    const store = createMemoryStore({ clock });
    const first = new MaintenanceSwitch(false, 30);
    const a = createMaintenanceControl({ db, store, clock, logger: quiet, maintenance: first, pollMs: 3_600_000 });
    await a.start();
    await a.set({ on: true, retryAfterSeconds: 45 }, 'test');

    const late = new MaintenanceSwitch(false, 30);
    const b = createMaintenanceControl({
      db,
      store: createMemoryStore({ clock }),
      clock,
      logger: quiet,
      maintenance: late,
      pollMs: 3_600_000,
    });
    await b.start();
    expect([late.on, late.retryAfterSeconds]).toEqual([true, 45]);

    await a.set({ on: false }, 'test');
    const configured = new MaintenanceSwitch(true, 30);
    const c = createMaintenanceControl({ db, store, clock, logger: quiet, maintenance: configured, pollMs: 3_600_000 });
    await c.start();
    // A stored "off" from before does not cancel App__MaintenanceMode at start-up...
    expect(configured.on).toBe(true);
    // ...an operator's "off" after it does (here through the shared store's message).
    await a.set({ on: false }, 'test');
    await expect.poll(() => configured.on).toBe(false);
    await Promise.all([a.stop(), b.stop(), c.stop()]);
  });

  it('reaches a node that missed the message at its next poll', async () => {
    const { db, clock } = server.runtime.deps;
    const writer = new MaintenanceSwitch(false, 30);
    const a = createMaintenanceControl({
      db,
      store: createMemoryStore({ clock }),
      clock,
      logger: quiet,
      maintenance: writer,
      pollMs: 3_600_000,
    });
    const reader = new MaintenanceSwitch(false, 30);
    // Its own store: no message from `a` reaches it; only the poll does.
    const b = createMaintenanceControl({
      db,
      store: createMemoryStore({ clock }),
      clock,
      logger: quiet,
      maintenance: reader,
      pollMs: 50,
    });
    await Promise.all([a.start(), b.start()]);
    await a.set({ on: true }, 'test');
    await expect.poll(() => reader.on, { timeout: 2000 }).toBe(true);
    await a.set({ on: false }, 'test');
    await expect.poll(() => reader.on, { timeout: 2000 }).toBe(false);
    await Promise.all([a.stop(), b.stop()]);
  });
});

describe('the stored switch across clocks', () => {
  it("orders changes as the database numbered them, whatever the nodes' clocks say", async () => {
    const { db } = server.runtime.deps;
    const quiet = createLogger({ level: 'silent' });
    const node = (clock: ManualClock) => {
      const maintenance = new MaintenanceSwitch(false, 30);
      // A store of its own each: only the poll carries changes between them.
      return {
        maintenance,
        control: createMaintenanceControl({
          db,
          store: createMemoryStore({ clock }),
          clock,
          logger: quiet,
          maintenance,
          pollMs: 20,
        }),
      };
    };
    const now = Date.now();
    const ahead = node(new ManualClock(now + 5_000));
    const behind = node(new ManualClock(now));
    await Promise.all([ahead.control.start(), behind.control.start()]);
    await ahead.control.set({ on: true }, 'ahead');
    await expect.poll(() => behind.maintenance.on, { timeout: 2000 }).toBe(true);
    // Later, but stamped earlier by a slow clock: it still wins everywhere.
    await behind.control.set({ on: false }, 'behind');
    expect(behind.maintenance.on).toBe(false);
    await expect.poll(() => ahead.maintenance.on, { timeout: 2000 }).toBe(false);
    const late = node(new ManualClock(now));
    await late.control.start();
    expect(late.maintenance.on).toBe(false);
    await Promise.all([ahead.control.stop(), behind.control.stop(), late.control.stop()]);
  });

  it('still switches when the shared store (the call limit) is down', async () => {
    const store = server.runtime.deps.store;
    const throttle = store.throttle;
    store.throttle = () => Promise.reject(new Error('redis down'));
    try {
      expect((await put({ on: true })).status).toBe(200);
      expect((await put({ on: false })).status).toBe(200);
    } finally {
      store.throttle = throttle;
    }
  });
});

describe('a server started in maintenance by configuration', () => {
  it('is turned off by the operator at run time', async () => {
    const configured = await startTestServer({ config: { App: { OperatorKey: KEY, MaintenanceMode: true } } });
    try {
      expect((await configured.json('/api/System/ServerTime')).status).toBe(503);
      const off = await configured.json('/ops/maintenance', { method: 'PUT', headers: auth, json: { on: false } });
      expect(off.body.data).toMatchObject({ on: false });
      expect((await configured.json('/api/System/ServerTime')).status).toBe(200);
    } finally {
      await configured.close();
    }
  });

  it('does not exist where no key is configured (production that set none)', async () => {
    const deps = server.runtime.deps;
    const app = createHost(deps);
    mountOperatorSwitch(app, deps, deps.maintenanceControl, undefined);
    const res = await app.request('/ops/maintenance', { headers: auth });
    expect(res.status).toBe(404);
  });
});
