import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userSessions } from '../../../../db/schema/index.js';
import { claimsOf } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { member, USER_ADMIN } from '../user/admin-test-kit.js';
import { startAdminServer, tenantWithAdmin } from '../../testing/admin.js';

/*
 * The original writes a session's deviceType as an int of its DeviceType enum (Unknown 0, Web 1,
 * iOS 2, Android 3, Windows 4, macOS 5, Linux 6, Tablet 7, MiniProgram 8, Api 9).
 */

let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer();
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;

const AGENTS: Record<string, [string, number]> = {
  iphone: [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    2,
  ],
  android: [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
    3,
  ],
  windowsBrowser: [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    1,
  ],
  ipad: [
    'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    7,
  ],
  macApp: [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.291 Electron/28.2.5 Safari/537.36',
    5,
  ],
  curl: ['curl/8.5.0', 0],
};

describe('UserSessionQuery/UserSessions deviceType', () => {
  it("is the original's DeviceType number for each kind of client", async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const expected = new Map<string, number>();
    for (const [deviceId, [agent, code]] of Object.entries(AGENTS)) {
      const res = await server.json('/api/Auth/Login', {
        method: 'POST',
        headers: { 'user-agent': agent },
        json: { username: bob.email, password: bob.password, deviceId },
      });
      expect(res.status).toBe(200);
      expected.set(claimsOf(res.body.data.token.accessToken).SessionId as string, code);
    }
    const list = await api.get('/api/UserSessionQuery/UserSessions', { userId: bob.id });
    expect(list.status).toBe(200);
    const seen = new Map(
      (list.body.data as Array<{ sessionId: string; deviceType: unknown }>).map((s) => [s.sessionId, s.deviceType]),
    );
    expect(seen).toEqual(expected);
    // The other fields of the original's session item keep its names (`location` is null here,
    // and nulls are left out of the output as the original does).
    expect(Object.keys(list.body.data[0])).toEqual(
      expect.arrayContaining([
        'sessionId',
        'deviceName',
        'deviceType',
        'browser',
        'operatingSystem',
        'ipAddress',
        'loginTime',
        'lastActivityTime',
        'isCurrent',
      ]),
    );
  });

  it('maps a stored name of the original to its own number and anything unknown to 0', async () => {
    const { tenantId, api } = await tenantWithAdmin(server, USER_ADMIN);
    const bob = await member(deps(), tenantId);
    const ids: string[] = [];
    for (const deviceId of ['a', 'b']) {
      const res = await server.json('/api/Auth/Login', {
        method: 'POST',
        json: { username: bob.email, password: bob.password, deviceId },
      });
      ids.push(claimsOf(res.body.data.token.accessToken).SessionId as string);
    }
    await deps()
      .db.update(userSessions)
      .set({ deviceType: 'MiniProgram' })
      .where(eq(userSessions.id, BigInt(ids[0]!)));
    await deps()
      .db.update(userSessions)
      .set({ deviceType: 'Toaster' })
      .where(eq(userSessions.id, BigInt(ids[1]!)));
    const list = (await api.get('/api/UserSessionQuery/UserSessions', { userId: bob.id })).body.data as Array<{
      sessionId: string;
      deviceType: number;
    }>;
    expect(new Map(list.map((s) => [s.sessionId, s.deviceType]))).toEqual(
      new Map([
        [ids[0], 8],
        [ids[1], 0],
      ]),
    );
  });
});
