import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, refreshTokens, userSessions } from '../../../../../db/schema/index.js';
import { ManualClock } from '../../../infra/clock.js';
import { bearer, claimsOf, createTestUser } from '../../../testing/auth-fixtures.js';
import { startTwoNodes, type TwoNodes } from '../../../testing/two-nodes.js';
import { SessionStatus } from './session-state.js';

/**
 * The refresh-token reuse grace on two nodes sharing one PostgreSQL and one Redis: refreshes of
 * one pair split across the nodes still rotate once and all answer the same pair, which both
 * nodes then serve; the same pair after the grace ends the session everywhere.
 */
const clock = new ManualClock(Date.now());
let cluster: TwoNodes;

beforeAll(async () => {
  cluster = await startTwoNodes(
    {
      Jwt: { SecretKey: 'q8Vn2xK5wR7tZ1mB4cY9hL3jF6pD0sGa' },
      Saas: { Auth: { CaptchaEnabled: false, ThrottlePerIp: 100_000, ThrottlePerAccountAndIp: 10_000 } },
    },
    { clock },
  );
});
afterAll(() => cluster?.close());

type Pair = { accessToken: string; refreshToken: string };

async function post(url: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code: number; data: Pair & Record<string, unknown> } };
}

async function userInfoStatus(url: string, accessToken: string): Promise<number> {
  const res = await fetch(`${url}/api/Auth/UserInfo`, { headers: bearer(accessToken) });
  await res.arrayBuffer();
  return res.status;
}

describe('refresh reuse grace across nodes', () => {
  it('rotates once for 20 parallel refreshes split across two nodes, all get one pair, and the same pair 11 s later ends the session', async () => {
    const [a, b] = cluster.nodes;
    const { db } = a.runtime.deps;
    const user = await createTestUser(a.runtime.deps);
    const login = await post(a.url, '/api/Auth/Login', { username: user.email, password: user.password });
    expect(login.status).toBe(200);
    const token = (login.body.data as unknown as { token: Pair }).token;
    const sessionId = BigInt(String(claimsOf(token.accessToken).SessionId));
    const old = { accessToken: token.accessToken, refreshToken: token.refreshToken };

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(i % 2 ? b.url : a.url, '/api/Auth/RefreshToken', old)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const pair = results[0]!.body.data;
    for (const r of results) expect(r.body.data).toEqual(pair);

    expect(await db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, sessionId))).toHaveLength(2);
    expect(
      await db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.userId, user.id), eq(auditEntries.action, 'TokenRefreshed'))),
    ).toHaveLength(1);
    // Both nodes serve the pair (each node's cached session state follows the rotation).
    expect(await userInfoStatus(a.url, pair.accessToken)).toBe(200);
    expect(await userInfoStatus(b.url, pair.accessToken)).toBe(200);

    clock.advance(11_000);
    const late = await post(b.url, '/api/Auth/RefreshToken', old);
    expect(late.status).toBe(401);
    expect(late.body.code).toBe(10001);
    const [row] = await db.select().from(userSessions).where(eq(userSessions.id, sessionId));
    expect(row!.status).toBe(SessionStatus.Revoked);
    expect(await userInfoStatus(a.url, pair.accessToken)).toBe(401);
    expect(
      (await post(a.url, '/api/Auth/RefreshToken', { accessToken: pair.accessToken, refreshToken: pair.refreshToken }))
        .status,
    ).toBe(401);
  });
});
