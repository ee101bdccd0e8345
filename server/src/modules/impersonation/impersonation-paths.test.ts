import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, refreshTokens, tenantMemberships, userSessions } from '../../../../db/schema/index.js';
import {
  createSuperAdmin,
  createTestTenant,
  createTestUser,
  loginAs,
  type TestUser,
} from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { ADMIN_CODES, grantScopedRole, member, tenantAdmin } from '../user/admin-test-kit.js';
import { adminApi, startAdminServer, type AdminApi, type Call } from '../../testing/admin.js';

/**
 * Every way into an impersonation, swept against its rules: who may start one for whom and in
 * which context, and what an impersonation session may not do to go further (start another,
 * move to another context, refresh itself). The cross-tenant code is a platform code: a tenant
 * administrator whose tenant role carries it anyway (written outside the API) gets nothing from
 * it.
 */

const CROSS = 'saas:impersonation:cross-tenant';
const PLATFORM_PERMISSION = `${CROSS} is a platform permission: it applies only in the platform operations state.`;
const CROSS_REQUIRED = `The permission ${CROSS} is required.`;
const WHILE_IMPERSONATING = 'This operation is not allowed while impersonating a user.';

let server: TestServer;
const deps = () => server.runtime.deps;

/** The people of the sweep: tenants A, B and C, the platform, and their administrators. */
interface World {
  A: bigint;
  B: bigint;
  C: bigint;
  adminA: { user: TestUser; api: AdminApi };
  memberA: TestUser;
  deputyA: TestUser;
  moreA: TestUser;
  elsewhereA: TestUser;
  disabledA: TestUser;
  superInA: TestUser;
  adminB: TestUser;
  memberB: TestUser;
  platformAccount: TestUser;
  operator: AdminApi;
  operatorWithoutCross: AdminApi;
  root: AdminApi;
  rootInA: AdminApi;
}
let w: World;

const loggedIn = async (user: TestUser) => adminApi(server, (await loginAs(server, user)).accessToken);

beforeAll(async () => {
  server = await startAdminServer();
  const [A, B, C] = [await createTestTenant(deps()), await createTestTenant(deps()), await createTestTenant(deps())];
  // A's administrator holds the cross-tenant code through a role of A.
  const adminA = await tenantAdmin(server, A, { codes: [...ADMIN_CODES, CROSS] });
  const memberA = await member(deps(), A);
  await grantScopedRole(deps(), memberA.id, A, ['saas:user:read']);
  // Can start impersonations, and is a member of B too (somewhere a tenant switch could go).
  const deputyA = await member(deps(), A, { memberOf: [A, B] });
  await grantScopedRole(deps(), deputyA.id, A, ['saas:impersonation:start', 'saas:user:read']);
  const moreA = await member(deps(), A);
  await grantScopedRole(deps(), moreA.id, A, ['saas:role:delete']);
  // Holds in C a code A's administrator does not hold there.
  const elsewhereA = await member(deps(), A, { memberOf: [A, C] });
  await grantScopedRole(deps(), elsewhereA.id, C, ['saas:user:read']);
  const disabledA = await member(deps(), A, { status: 'Disabled' });
  const superInA = await createSuperAdmin(deps());
  await deps().db.insert(tenantMemberships).values({ id: deps().ids.next(), tenantId: A, userId: superInA.id });

  const adminB = await member(deps(), B);
  await grantScopedRole(deps(), adminB.id, B, [...ADMIN_CODES, 'saas:role:delete']);
  const memberB = await member(deps(), B);
  // Can start impersonations (so that from a session as this member, only the nesting rule refuses).
  await grantScopedRole(deps(), memberB.id, B, ['saas:user:read', 'saas:impersonation:start']);

  const platformAccount = await createTestUser(deps(), { tenantId: 0n });
  // Platform operators: global roles (data scope All), which take part in every context.
  const operatorUser = await createTestUser(deps(), { tenantId: 0n });
  await grantScopedRole(deps(), operatorUser.id, 0n, [...ADMIN_CODES, CROSS]);
  const plainOperator = await createTestUser(deps(), { tenantId: 0n });
  await grantScopedRole(deps(), plainOperator.id, 0n, ADMIN_CODES);
  const rootUser = await createSuperAdmin(deps());
  const root = await loggedIn(rootUser);
  const rootInA = await loggedIn(rootUser);
  const switched = await rootInA.post('/api/Auth/SwitchTenant', { tenantId: String(A) });
  expect(switched.status).toBe(200);

  w = {
    A,
    B,
    C,
    adminA,
    memberA,
    deputyA,
    moreA,
    elsewhereA,
    disabledA,
    superInA,
    adminB,
    memberB,
    platformAccount,
    operator: await loggedIn(operatorUser),
    operatorWithoutCross: await loggedIn(plainOperator),
    root,
    rootInA: adminApi(server, switched.body.data.accessToken),
  };
});
afterAll(() => server.close());

const start = (api: AdminApi, userId: bigint, tenantId?: bigint) =>
  api.post('/api/Impersonation/Impersonation', {
    userId: String(userId),
    ...(tenantId === undefined ? {} : { tenantId: String(tenantId) }),
  });

interface StartCase {
  name: string;
  caller: (w: World) => AdminApi;
  target: (w: World) => bigint;
  /** The context asked for (omitted: the caller's own). */
  tenant?: (w: World) => bigint;
  status: number;
  /** 200: the context of the new session; otherwise the refusal's text. */
  expect: (w: World) => bigint | string | RegExp;
}

const NOT_MEMBER = /is not an available member of that tenant/;

const startCases: StartCase[] = [
  {
    name: 'a tenant administrator impersonates a member of its own tenant',
    caller: (w) => w.adminA.api,
    target: (w) => w.memberA.id,
    status: 200,
    expect: (w) => w.A,
  },
  {
    name: "a tenant administrator holding the cross-tenant code cannot impersonate another tenant's administrator",
    caller: (w) => w.adminA.api,
    target: (w) => w.adminB.id,
    tenant: (w) => w.B,
    status: 403,
    expect: () => PLATFORM_PERMISSION,
  },
  {
    name: "a tenant administrator holding the cross-tenant code cannot impersonate another tenant's member",
    caller: (w) => w.adminA.api,
    target: (w) => w.memberB.id,
    tenant: (w) => w.B,
    status: 403,
    expect: () => PLATFORM_PERMISSION,
  },
  {
    name: "a tenant administrator cannot reach another tenant's member through its own tenant",
    caller: (w) => w.adminA.api,
    target: (w) => w.memberB.id,
    status: 422,
    expect: () => NOT_MEMBER,
  },
  {
    name: 'a tenant administrator holding the cross-tenant code cannot impersonate a platform account in the platform state',
    caller: (w) => w.adminA.api,
    target: (w) => w.platformAccount.id,
    tenant: () => 0n,
    status: 403,
    expect: () => PLATFORM_PERMISSION,
  },
  {
    name: 'a tenant administrator cannot impersonate a platform account in its tenant',
    caller: (w) => w.adminA.api,
    target: (w) => w.platformAccount.id,
    status: 422,
    expect: () => NOT_MEMBER,
  },
  {
    name: 'a super-administrator member is hidden from a tenant administrator',
    caller: (w) => w.adminA.api,
    target: (w) => w.superInA.id,
    status: 422,
    expect: () => NOT_MEMBER,
  },
  {
    name: 'nobody impersonates oneself',
    caller: (w) => w.adminA.api,
    target: (w) => w.adminA.user.id,
    status: 422,
    expect: () => 'You cannot impersonate yourself.',
  },
  {
    name: 'a disabled member is not impersonated',
    caller: (w) => w.adminA.api,
    target: (w) => w.disabledA.id,
    status: 422,
    expect: () => /is disabled or not activated/,
  },
  {
    name: 'an unknown user is a non-member',
    caller: (w) => w.adminA.api,
    target: () => 123n,
    status: 422,
    expect: () => NOT_MEMBER,
  },
  {
    name: 'a tenant administrator cannot impersonate a member holding a code it lacks',
    caller: (w) => w.adminA.api,
    target: (w) => w.moreA.id,
    status: 403,
    expect: () => /holds a permission you do not \(saas:role:delete\)/,
  },
  {
    name: 'a tenant administrator cannot impersonate a member holding, in another tenant, a code it lacks there',
    caller: (w) => w.adminA.api,
    target: (w) => w.elsewhereA.id,
    status: 403,
    expect: () => /holds a permission you do not \(saas:user:read\)/,
  },
  {
    name: "a platform operator holding the cross-tenant code impersonates another tenant's member",
    caller: (w) => w.operator,
    target: (w) => w.memberB.id,
    tenant: (w) => w.B,
    status: 200,
    expect: (w) => w.B,
  },
  {
    name: 'a platform operator holding the cross-tenant code cannot impersonate someone holding more than it in the target tenant',
    caller: (w) => w.operator,
    target: (w) => w.adminB.id,
    tenant: (w) => w.B,
    status: 403,
    expect: () => /holds a permission you do not \(saas:role:delete\)/,
  },
  {
    name: 'a platform operator without the cross-tenant code stays in the platform state',
    caller: (w) => w.operatorWithoutCross,
    target: (w) => w.memberB.id,
    tenant: (w) => w.B,
    status: 403,
    expect: () => CROSS_REQUIRED,
  },
  {
    name: 'a platform operator impersonates a platform account',
    caller: (w) => w.operator,
    target: (w) => w.platformAccount.id,
    status: 200,
    expect: () => 0n,
  },
  {
    name: "a super-administrator impersonates another tenant's administrator from the platform state",
    caller: (w) => w.root,
    target: (w) => w.adminB.id,
    tenant: (w) => w.B,
    status: 200,
    expect: (w) => w.B,
  },
  {
    name: 'a super-administrator is never impersonated, even by another',
    caller: (w) => w.root,
    target: (w) => w.superInA.id,
    tenant: (w) => w.A,
    status: 422,
    expect: () => 'A super-administrator cannot be impersonated.',
  },
  {
    name: 'inside a tenant the super-administrator holds no platform code: no impersonation in another tenant',
    caller: (w) => w.rootInA,
    target: (w) => w.memberB.id,
    tenant: (w) => w.B,
    status: 403,
    expect: () => PLATFORM_PERMISSION,
  },
  {
    name: 'inside a tenant the super-administrator impersonates its members',
    caller: (w) => w.rootInA,
    target: (w) => w.memberA.id,
    status: 200,
    expect: (w) => w.A,
  },
];

describe('starting an impersonation', () => {
  const startsOf = async (userId: bigint) =>
    (
      await deps()
        .db.select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'ImpersonationStarted'), eq(auditEntries.userId, userId)))
    ).length;

  it.each(startCases)('$name', async (c) => {
    const before = await startsOf(c.target(w));
    const res = await start(c.caller(w), c.target(w), c.tenant?.(w));
    expect(res.status, JSON.stringify(res.body)).toBe(c.status);
    const expected = c.expect(w);
    if (c.status === 200) {
      expect(res.body.data).toMatchObject({ userId: String(c.target(w)), tenantId: String(expected) });
      const [session] = await deps()
        .db.select()
        .from(userSessions)
        .where(eq(userSessions.id, BigInt(res.body.data.sessionId)));
      expect(session).toMatchObject({ tenantId: expected, userId: c.target(w) });
      return;
    }
    if (expected instanceof RegExp) expect(res.body.data).toMatch(expected);
    else expect(res.body.data).toBe(expected);
    expect(await startsOf(c.target(w))).toBe(before);
  });
});

/** An impersonation session, and what it tries in order to go further. */
interface SessionCase {
  name: string;
  /** Starts the impersonation the case runs in. */
  session: (w: World) => Promise<Call>;
  attempt: (as: AdminApi, w: World, started: { accessToken: string; impersonatorRefresh?: string }) => Promise<Call>;
  status: number;
  message?: string;
}

const asDeputy = (w: World) => start(w.adminA.api, w.deputyA.id);
const asMemberOfB = (w: World) => start(w.operator, w.memberB.id, w.B);
const asAdminOfB = (w: World) => start(w.root, w.adminB.id, w.B);

const sessionCases: SessionCase[] = [
  {
    name: 'no nested start in the same tenant',
    session: asDeputy,
    attempt: (as, w) => start(as, w.memberA.id),
    status: 403,
    message: WHILE_IMPERSONATING,
  },
  {
    name: 'no nested start in another tenant',
    session: asDeputy,
    attempt: (as, w) => start(as, w.memberB.id, w.B),
    status: 403,
    message: WHILE_IMPERSONATING,
  },
  {
    name: 'no nested start from a cross-tenant impersonation',
    session: asMemberOfB,
    attempt: (as, w) => start(as, w.memberB.id),
    status: 403,
    message: WHILE_IMPERSONATING,
  },
  {
    name: "no nested start from a super-administrator's impersonation",
    session: asAdminOfB,
    attempt: (as, w) => start(as, w.memberB.id),
    status: 403,
    message: WHILE_IMPERSONATING,
  },
  {
    name: 'no switch to another tenant the impersonated user belongs to',
    session: asDeputy,
    attempt: (as, w) => as.post('/api/Auth/SwitchTenant', { tenantId: String(w.B) }),
    status: 403,
    message: WHILE_IMPERSONATING,
  },
  {
    name: 'no switch to the platform state',
    session: asDeputy,
    attempt: (as) => as.post('/api/Auth/SwitchTenant', { tenantId: null }),
    status: 403,
    message: WHILE_IMPERSONATING,
  },
  {
    name: 'no switch back into the same tenant (a new token pair)',
    session: asDeputy,
    attempt: (as, w) => as.post('/api/Auth/SwitchTenant', { tenantId: String(w.A) }),
    status: 403,
    message: WHILE_IMPERSONATING,
  },
  {
    name: "no switch out of a super-administrator's impersonation",
    session: asAdminOfB,
    attempt: (as) => as.post('/api/Auth/SwitchTenant', { tenantId: null }),
    status: 403,
    message: WHILE_IMPERSONATING,
  },
  {
    name: 'no refresh with a made-up refresh token',
    session: asDeputy,
    attempt: (_as, _w, s) =>
      server.json('/api/Auth/RefreshToken', {
        method: 'POST',
        json: { accessToken: s.accessToken, refreshToken: 'x'.repeat(43) },
      }),
    status: 401,
  },
  {
    name: "no refresh with the impersonator's own refresh token",
    session: asDeputy,
    attempt: async (_as, w, s) => {
      const own = await loginAs(server, w.adminA.user);
      return server.json('/api/Auth/RefreshToken', {
        method: 'POST',
        json: { accessToken: s.accessToken, refreshToken: own.refreshToken },
      });
    },
    status: 401,
  },
  {
    name: 'no refresh of a cross-tenant impersonation',
    session: asMemberOfB,
    attempt: (_as, _w, s) =>
      server.json('/api/Auth/RefreshToken', {
        method: 'POST',
        json: { accessToken: s.accessToken, refreshToken: 'y'.repeat(43) },
      }),
    status: 401,
  },
];

describe('from an impersonation session', () => {
  it.each(sessionCases)('$name', async (c) => {
    const started = await c.session(w);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { sessionId, tenantId, token } = started.body.data as {
      sessionId: string;
      tenantId: string;
      token: { accessToken: string };
    };
    const as = adminApi(server, token.accessToken);
    const res = await c.attempt(as, w, { accessToken: token.accessToken });
    expect(res.status, JSON.stringify(res.body)).toBe(c.status);
    if (c.message) expect(res.body.data).toBe(c.message);
    // The session stays where it was granted, with its one token and no refresh token.
    const [session] = await deps()
      .db.select()
      .from(userSessions)
      .where(eq(userSessions.id, BigInt(sessionId)));
    expect(String(session!.tenantId)).toBe(tenantId);
    expect(
      await deps()
        .db.select()
        .from(refreshTokens)
        .where(eq(refreshTokens.sessionId, BigInt(sessionId))),
    ).toEqual([]);
    const info = await as.get('/api/Auth/UserInfo');
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ isImpersonating: true, tenantId: tenantId === '0' ? null : tenantId });
  });
});
