import { HttpTransportType, HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, userSettings } from '../../../../db/schema/index.js';
import { bearer, createTestUser, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { startTwoNodes, type TwoNodes } from '../../testing/two-nodes.js';
import { startSessionServer } from '../auth/session/sessions-test-kit.js';
import { SETTINGS_PER_USER_MAX } from './schemas.js';

/** POST /api/UserSetting/Save and GET /api/UserSettingQuery/Get over real HTTP, and the hub push. */

let server: TestServer;
beforeAll(async () => {
  server = await startSessionServer();
});
afterAll(() => server.close());
const deps = () => server.runtime.deps;

interface Changed {
  scene: number;
  settingKey: string;
  settingValue: string | null;
  sourceClientId: string | null;
  origin: string | null;
}

/** A hub client of the front end's kind, collecting UserSettingChanged pushes. */
async function listen(baseUrl: string, token: string) {
  const pushes: Changed[] = [];
  const connection = new HubConnectionBuilder()
    .withUrl(`${baseUrl}/hubs/notification`, {
      accessTokenFactory: () => token,
      transport: HttpTransportType.WebSockets,
    })
    .configureLogging(LogLevel.None)
    .build();
  connection.on('UserSettingChanged', (payload: Changed) => void pushes.push(payload));
  await connection.start();
  return { pushes, stop: () => connection.stop() };
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function api(base: { json: TestServer['json'] }, token: string) {
  const headers = { ...bearer(token), 'x-language': 'en-US' };
  return {
    save: (json: unknown) => base.json('/api/UserSetting/Save', { method: 'POST', headers, json }),
    get: (query: string) => base.json(`/api/UserSettingQuery/Get?${query}`, { headers }),
  };
}

async function signedIn() {
  const user = await createTestUser(deps());
  const token = (await loginAs(server, user)).accessToken;
  return { user, token, ...api(server, token) };
}

describe('UserSetting', () => {
  it('saves per scene and key, reads it back, overwrites, and audits scene and key only', async () => {
    const { user, save, get } = await signedIn();
    const value = JSON.stringify({ theme: 'dark', sidebar: { collapsed: true } });
    const saved = await save({
      scene: 'Preference',
      settingKey: ' layout ',
      settingValue: value,
      clientId: 'tab-1',
      origin: 'settings-drawer',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ scene: 'Preference', settingKey: 'layout', settingValue: value });
    expect((await get('scene=Preference&settingKey=layout')).body.data).toEqual({
      scene: 'Preference',
      settingKey: 'layout',
      settingValue: value,
    });
    // Another scene is another setting; scene by number works too; absent scene is Preference.
    expect((await get('scene=1&settingKey=layout')).body.data).toEqual({ scene: 'Page', settingKey: 'layout' });
    expect((await get('settingKey=layout')).body.data.settingValue).toBe(value);
    expect((await save({ scene: 1, settingKey: 'layout', settingValue: 'page' })).body.data).toEqual({
      scene: 'Page',
      settingKey: 'layout',
      settingValue: 'page',
    });
    expect((await save({ settingKey: 'layout', settingValue: 'v2' })).status).toBe(200);
    expect((await get('scene=Preference&settingKey=layout')).body.data.settingValue).toBe('v2');
    expect((await get('scene=Page&settingKey=layout')).body.data.settingValue).toBe('page');
    // Null clears the value.
    expect((await save({ settingKey: 'layout', settingValue: null })).status).toBe(200);
    expect((await get('settingKey=layout')).body.data).not.toHaveProperty('settingValue');
    const audits = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'UserSettingSaved'), eq(auditEntries.userId, user.id)));
    expect(audits).toHaveLength(4);
    expect(audits[0]!.detail).toEqual({ scene: 'Preference', settingKey: 'layout' });
  });

  it("keeps each user's settings apart", async () => {
    const a = await signedIn();
    const b = await signedIn();
    await a.save({ settingKey: 'mine', settingValue: 'a' });
    expect((await b.get('settingKey=mine')).body.data).toEqual({ scene: 'Preference', settingKey: 'mine' });
    await b.save({ settingKey: 'mine', settingValue: 'b' });
    expect((await a.get('settingKey=mine')).body.data.settingValue).toBe('a');
  });

  it("pushes UserSettingChanged to the user's connections (not to other users)", async () => {
    const { user, save } = await signedIn();
    const other = await loginAs(server, user);
    const stranger = await signedIn();
    const mine = await listen(server.url, other.accessToken);
    const theirs = await listen(server.url, stranger.token);
    try {
      await save({
        scene: 'Page',
        settingKey: 'grid.columns',
        settingValue: '[1,2]',
        clientId: 'tab-9',
        origin: 'user-list',
      });
      await until(() => mine.pushes.length > 0);
      expect(mine.pushes).toEqual([
        { scene: 1, settingKey: 'grid.columns', settingValue: '[1,2]', sourceClientId: 'tab-9', origin: 'user-list' },
      ]);
      await new Promise((r) => setTimeout(r, 100));
      expect(theirs.pushes).toEqual([]);
    } finally {
      await mine.stop();
      await theirs.stop();
    }
  });

  it('limits value size, key length and the number of settings (400/422, nothing written)', async () => {
    const { user, save, get } = await signedIn();
    expect((await save({ settingKey: 'big', settingValue: 'x'.repeat(65_536) })).status).toBe(200);
    const big = await save({ settingKey: 'big', settingValue: 'y'.repeat(65_537) });
    expect(big.status).toBe(400);
    expect((await get('settingKey=big')).body.data.settingValue).toHaveLength(65_536);
    await deps()
      .db.insert(userSettings)
      .values(
        Array.from({ length: SETTINGS_PER_USER_MAX - 1 }, (_, i) => ({
          userId: user.id,
          scene: 'Page',
          settingKey: `k${i}`,
          settingValue: 'v',
        })),
      );
    const full = await save({ settingKey: 'one-too-many', settingValue: 'v' });
    expect(full.status).toBe(422);
    expect(full.body.data).toBe(`At most ${SETTINGS_PER_USER_MAX} settings can be stored.`);
    // Overwriting an existing one is still allowed.
    expect((await save({ scene: 'Page', settingKey: 'k0', settingValue: 'w' })).status).toBe(200);
  });

  it('answers bad input with 400, never a 500; needs a session', async () => {
    const { save, get } = await signedIn();
    const bad: unknown[] = [
      {},
      { settingKey: '' },
      { settingKey: '   ' },
      { settingKey: 'k'.repeat(129) },
      { settingKey: 5 },
      { settingKey: 'k', scene: 'Sidebar' },
      { settingKey: 'k', scene: 7 },
      { settingKey: 'k', settingValue: { a: 1 } },
      { settingKey: 'k', clientId: 'c'.repeat(129) },
      { settingKey: 'k', origin: 42 },
    ];
    for (const body of bad) expect((await save(body)).status, JSON.stringify(body)).toBe(400);
    for (const q of ['', 'settingKey=', 'scene=Nope&settingKey=k', `settingKey=${'k'.repeat(129)}`])
      expect((await get(q)).status, q).toBe(400);
    expect((await server.json('/api/UserSetting/Save', { method: 'POST', json: { settingKey: 'k' } })).status).toBe(
      401,
    );
    expect((await server.json('/api/UserSettingQuery/Get?settingKey=k')).status).toBe(401);
  });
});

describe('UserSettingChanged across nodes', () => {
  let cluster: TwoNodes;
  beforeAll(async () => {
    cluster = await startTwoNodes({ Saas: { Auth: { CaptchaEnabled: false } } });
  });
  afterAll(() => cluster?.close());

  it('a save on node A reaches a connection on node B', async () => {
    const [a, b] = cluster.nodes;
    const user = await createTestUser(a.runtime.deps);
    const login = async (url: string) => {
      const res = await fetch(`${url}/api/Auth/Login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: user.email, password: user.password }),
      });
      return ((await res.json()) as { data: { token: { accessToken: string } } }).data.token.accessToken;
    };
    const onB = await listen(b.url, await login(b.url));
    try {
      const tokenA = await login(a.url);
      const res = await fetch(`${a.url}/api/UserSetting/Save`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(tokenA) },
        body: JSON.stringify({ settingKey: 'theme', settingValue: 'dark', clientId: 'a-tab' }),
      });
      expect(res.status).toBe(200);
      await until(() => onB.pushes.length > 0);
      expect(onB.pushes).toEqual([
        { scene: 0, settingKey: 'theme', settingValue: 'dark', sourceClientId: 'a-tab', origin: null },
      ]);
    } finally {
      await onB.stop();
    }
  });
});
