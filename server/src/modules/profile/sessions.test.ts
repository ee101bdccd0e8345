import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, userSessions } from '../../../../db/schema/index.js';
import type { TestServer } from '../../testing/harness.js';
import { startSessionServer } from '../auth/session/sessions-test-kit.js';
import { profileApi, sessionOf, setActivity, signedInOn } from './profile-test-kit.js';

/**
 * The caller's own sessions under /api/Profile (the original service, SPEC "Session status"):
 * GET Sessions, POST RevokeSession, POST RevokeOtherSessions, over real HTTP.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startSessionServer();
});
afterAll(() => server.close());
const deps = () => server.runtime.deps;

describe('GET /api/Profile/Sessions', () => {
  it('lists live sessions of the caller only: the current first, then the latest activity', async () => {
    const { tokens } = await signedInOn(server, ['phone', 'laptop', 'tablet', 'gone', 'old']);
    const stranger = await signedInOn(server, ['phone']);
    const now = deps().clock.now().getTime();
    await setActivity(server, tokens.phone!, new Date(now - 3_000));
    await setActivity(server, tokens.laptop!, new Date(now - 1_000));
    await setActivity(server, tokens.tablet!, new Date(now - 2_000));
    // Revoked and expired sessions are not listed.
    await deps()
      .db.update(userSessions)
      .set({ status: 2 })
      .where(eq(userSessions.id, BigInt(sessionOf(tokens.gone!))));
    await deps()
      .db.update(userSessions)
      .set({ expirationTime: new Date(now - 1) })
      .where(eq(userSessions.id, BigInt(sessionOf(tokens.old!))));

    const res = await profileApi(server, tokens.tablet!).sessions();
    expect(res.status).toBe(200);
    const list = res.body.data as Array<Record<string, unknown>>;
    expect(list.map((s) => s.sessionId)).toEqual([
      sessionOf(tokens.tablet!),
      sessionOf(tokens.laptop!),
      sessionOf(tokens.phone!),
    ]);
    expect(list.map((s) => s.isCurrent)).toEqual([true, false, false]);
    expect(list.map((s) => s.sessionId)).not.toContain(sessionOf(stranger.tokens.phone!));
    // The original's item: ids as strings, deviceType as its DeviceType number, nulls left out.
    const phone = list.find((s) => s.sessionId === sessionOf(tokens.phone!))!;
    expect(phone).toMatchObject({
      deviceType: 2,
      browser: expect.stringMatching(/Safari/),
      operatingSystem: expect.stringMatching(/^iOS/),
      ipAddress: '127.0.0.1',
      isCurrent: false,
    });
    expect(typeof phone.sessionId).toBe('string');
    expect(list.find((s) => s.sessionId === sessionOf(tokens.laptop!))).toMatchObject({ deviceType: 1 });
    for (const item of list) {
      expect(
        Object.keys(item).every((k) =>
          [
            'sessionId',
            'deviceName',
            'deviceType',
            'browser',
            'operatingSystem',
            'ipAddress',
            'location',
            'loginTime',
            'lastActivityTime',
            'isCurrent',
          ].includes(k),
        ),
      ).toBe(true);
      expect(item.loginTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
    }
  });

  it('writes times in the X-Timezone zone and needs a login', async () => {
    const { tokens } = await signedInOn(server, ['phone']);
    const res = await server.json('/api/Profile/Sessions', {
      headers: { authorization: `Bearer ${tokens.phone}`, 'x-timezone': 'Asia/Shanghai' },
    });
    expect(res.body.data[0].lastActivityTime).toMatch(/\+08:00$/);
    const anonymous = await server.json('/api/Profile/Sessions');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.isSuccess).toBe(false);
  });
});

describe('POST /api/Profile/RevokeSession', () => {
  it('ends another own session at once: its next request is 401 10001, the others carry on', async () => {
    const { user, tokens } = await signedInOn(server, ['phone', 'laptop']);
    const laptop = profileApi(server, tokens.laptop!);
    // The phone's state is cached by a first request; the revocation must drop it.
    expect((await profileApi(server, tokens.phone!).userInfo()).status).toBe(200);
    const pushed: unknown[] = [];
    const off = deps().events.on('SessionsRevoked', (e) => void pushed.push(e));
    const res = await laptop.revoke(sessionOf(tokens.phone!));
    off();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, isSuccess: true });
    expect(pushed).toEqual([
      expect.objectContaining({ userId: user.id, sessionIds: [BigInt(sessionOf(tokens.phone!))] }),
    ]);

    const next = await profileApi(server, tokens.phone!).userInfo();
    expect(next.status).toBe(401);
    expect(next.body.code).toBe(10001);
    expect((await laptop.userInfo()).status).toBe(200);
    expect((await laptop.sessions()).body.data.map((s: { sessionId: string }) => s.sessionId)).toEqual([
      sessionOf(tokens.laptop!),
    ]);

    const [row] = await deps()
      .db.select()
      .from(userSessions)
      .where(eq(userSessions.id, BigInt(sessionOf(tokens.phone!))));
    expect(row).toMatchObject({ status: 2, revokedReason: 'Revoked by the user' });
    const audit = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'SessionRevoked'), eq(auditEntries.userId, user.id)));
    expect(audit).toEqual([
      expect.objectContaining({ actorUserId: user.id, targetType: 'Session', targetId: sessionOf(tokens.phone!) }),
    ]);
    // Once ended, revoking it again changes nothing and is not an error.
    expect((await laptop.revoke(sessionOf(tokens.phone!))).status).toBe(200);
    expect(
      await deps()
        .db.select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'SessionRevoked'), eq(auditEntries.userId, user.id))),
    ).toHaveLength(1);
  });

  it('refuses the current session with the original text, localized', async () => {
    const { tokens } = await signedInOn(server, ['phone']);
    const zh = await profileApi(server, tokens.phone!, 'zh-CN').revoke(sessionOf(tokens.phone!));
    expect(zh.status).toBe(422);
    expect(zh.body).toMatchObject({ code: 422, isSuccess: false, data: '不能在个人中心踢下线当前会话。' });
    const en = await profileApi(server, tokens.phone!).revoke(sessionOf(tokens.phone!));
    expect(en.body.data).toBe('The current session cannot be revoked from the profile; log out instead.');
    expect((await profileApi(server, tokens.phone!).userInfo()).status).toBe(200);
  });

  it("answers an unknown and another user's session alike (422 会话不存在。), and the other session lives", async () => {
    const { tokens } = await signedInOn(server, ['phone']);
    const other = await signedInOn(server, ['laptop']);
    const api = profileApi(server, tokens.phone!, 'zh-CN');
    for (const id of ['123', sessionOf(other.tokens.laptop!), '9223372036854775807']) {
      const res = await api.revoke(id);
      expect(res.status, id).toBe(422);
      expect(res.body.data).toBe('会话不存在。');
    }
    expect((await profileApi(server, other.tokens.laptop!).userInfo()).status).toBe(200);
  });

  it('answers bad input with a validation envelope, never a 500; unknown fields are ignored', async () => {
    const { tokens } = await signedInOn(server, ['phone', 'laptop']);
    const api = profileApi(server, tokens.phone!);
    for (const bad of [
      undefined,
      null,
      'abc',
      -1,
      1.5,
      true,
      {},
      [],
      '9223372036854775808',
      '99999999999999999999999',
      '',
    ]) {
      const res = await api.revoke(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body).toMatchObject({ code: 400, isSuccess: false });
      expect(res.body.data.map((d: { field: string }) => d.field)).toContain('sessionId');
    }
    for (const body of ['', '{"sessionId":', '[]', '"x"', 'null']) {
      const res = await api.raw('RevokeSession', body);
      expect(res.status, body).toBe(400);
      expect(res.body.isSuccess).toBe(false);
    }
    // A 64-bit id as a bare JSON number is kept exact; an unknown field changes nothing.
    const exact = await api.raw('RevokeSession', `{"sessionId":${sessionOf(tokens.laptop!)},"everything":true}`);
    expect(exact.status).toBe(200);
    expect((await profileApi(server, tokens.laptop!).userInfo()).status).toBe(401);
    // The wrong method on a known path is 405 with an envelope.
    const get = await server.json('/api/Profile/RevokeSession', {
      headers: { authorization: `Bearer ${tokens.phone}` },
    });
    expect(get.status).toBe(405);
    expect(get.body.code).toBe(405);
  });
});

describe('POST /api/Profile/RevokeOtherSessions', () => {
  it('ends every other own session and keeps the current one', async () => {
    const { user, tokens } = await signedInOn(server, ['phone', 'laptop', 'tablet']);
    const other = await signedInOn(server, ['phone']);
    const api = profileApi(server, tokens.laptop!);
    const res = await api.revokeOthers();
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ revokedCount: 2 });
    for (const device of ['phone', 'tablet']) {
      const next = await profileApi(server, tokens[device]!).userInfo();
      expect(next.status, device).toBe(401);
      expect(next.body.code).toBe(10001);
    }
    expect((await api.userInfo()).status).toBe(200);
    expect((await profileApi(server, other.tokens.phone!).userInfo()).status).toBe(200);
    expect((await api.revokeOthers()).body.data).toEqual({ revokedCount: 0 });
    const audit = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'SessionRevoked'), eq(auditEntries.userId, user.id)));
    expect(audit).toHaveLength(1);
    expect((audit[0]!.detail as { sessionIds: string[] }).sessionIds.sort()).toEqual(
      [sessionOf(tokens.phone!), sessionOf(tokens.tablet!)].sort(),
    );
    // A body, even a strange one, is not needed and not read.
    expect((await api.raw('RevokeOtherSessions', '{"sessionId":"1","x":[1]}')).status).toBe(200);
  });

  it('of two concurrent calls from one session, one ends the others and one finds nothing left', async () => {
    const { tokens } = await signedInOn(server, ['a', 'b', 'c', 'd']);
    const api = profileApi(server, tokens.a!);
    const results = await Promise.all([api.revokeOthers(), api.revokeOthers()]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results.map((r) => r.body.data.revokedCount).sort()).toEqual([0, 3]);
    expect((await api.userInfo()).status).toBe(200);
  });

  it('of two devices each signing the other out at once, exactly one stays signed in', async () => {
    const { tokens } = await signedInOn(server, ['a', 'b']);
    const [a, b] = [profileApi(server, tokens.a!), profileApi(server, tokens.b!)];
    // Cached session states let both calls through the gate before either commits.
    await Promise.all([a.userInfo(), b.userInfo()]);
    const results = await Promise.all([a.revokeOthers(), b.revokeOthers()]);
    // The second to run finds its own session ended: 401 10001, and it revokes nothing.
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
    expect(results.find((r) => r.status === 401)!.body.code).toBe(10001);
    const alive = await Promise.all([a.userInfo(), b.userInfo()]);
    expect(alive.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('a call that passed the gate just before another device ended its session revokes nothing (401 10001)', async () => {
    const { tokens } = await signedInOn(server, ['a', 'b']);
    const [a, b] = [profileApi(server, tokens.a!), profileApi(server, tokens.b!)];
    await Promise.all([a.userInfo(), b.userInfo()]);
    // A's revocation commits, but its announcement (which drops the caches) is held back, so B's
    // cached state still lets B through the gate: the check inside B's transaction must stop it.
    const sessions = deps().sessions;
    const announce = sessions.announceRevoked;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    sessions.announceRevoked = async (...args) => {
      sessions.announceRevoked = announce;
      await Promise.race([held, new Promise((r) => setTimeout(r, 5_000))]);
      return announce(...args);
    };
    try {
      const first = a.revokeOthers();
      const bRow = BigInt(sessionOf(tokens.b!));
      for (let i = 0; i < 200; i++) {
        const [row] = await deps()
          .db.select({ status: userSessions.status })
          .from(userSessions)
          .where(eq(userSessions.id, bRow));
        if (row!.status === 2) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const second = await b.revokeOthers();
      release();
      expect((await first).body.data).toEqual({ revokedCount: 1 });
      expect(second.status).toBe(401);
      expect(second.body.code).toBe(10001);
    } finally {
      sessions.announceRevoked = announce;
      release();
    }
    expect((await a.userInfo()).status).toBe(200);
    expect((await b.userInfo()).status).toBe(401);
  });

  it("of two devices each ending the other's session at once, one stays signed in", async () => {
    const { tokens: pair } = await signedInOn(server, ['x', 'y']);
    const [x, y] = [profileApi(server, pair.x!), profileApi(server, pair.y!)];
    await Promise.all([x.userInfo(), y.userInfo()]);
    const crossed = await Promise.all([x.revoke(sessionOf(pair.y!)), y.revoke(sessionOf(pair.x!))]);
    expect(crossed.map((r) => r.status).sort()).toEqual([200, 401]);
    expect((await Promise.all([x.userInfo(), y.userInfo()])).map((r) => r.status).sort()).toEqual([200, 401]);
  });
});
