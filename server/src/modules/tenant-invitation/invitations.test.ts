import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries, tenantInvitations, tenantMemberships, users } from '../../../../db/schema/index.js';
import { ManualClock } from '../../infra/clock.js';
import {
  bearer,
  createSuperAdmin,
  createTestTenant,
  createTestUser,
  loginAs,
  type TestUser,
} from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { mailsTo } from '../auth/self-service/self-service-test-kit.js';
import { ADMIN_CODES, member, tenantAdmin } from '../user/admin-test-kit.js';
import { adminApi, startAdminServer, tenantWithAdmin as adminTenant } from '../../testing/admin.js';

/** Invitations over HTTP: the tenant learns nothing of the address; the invitee decides. */
const clock = new ManualClock(Date.now());
let server: TestServer;
beforeAll(async () => {
  server = await startAdminServer({ clock });
});
afterAll(() => server.close());

const deps = () => server.runtime.deps;
const DAY = 86_400_000;
let n = 0;
const freshAddress = () => `invitee-${process.pid}-${++n}@example.test`;
const membershipsOf = (tenantId: bigint, userId: bigint) =>
  deps()
    .db.select()
    .from(tenantMemberships)
    .where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.userId, userId)));

/** A user of another tenant, logged in, with its own API client. */
async function outsider(options: { emailVerified?: boolean } = {}) {
  const home = await createTestTenant(deps());
  const user = await createTestUser(deps(), {
    tenantId: home,
    memberOf: [home],
    email: freshAddress(),
    emailVerified: options.emailVerified ?? true,
  });
  return { user, api: adminApi(server, (await loginAs(server, user)).accessToken) };
}

const MEMBER_CODES = ['saas:tenant-member:grant', 'saas:tenant-member:read', 'saas:tenant-member:revoke'];

/** A tenant with an administrator who may manage its members. */
const tenantWithAdmin = (server: TestServer, fields: Parameters<typeof createTestTenant>[1] = {}) =>
  adminTenant(server, { codes: [...ADMIN_CODES, ...MEMBER_CODES], dataScope: 'All', fields });

const invite = (api: ReturnType<typeof adminApi>, email: string, extra: Record<string, unknown> = {}) =>
  api.post('/api/TenantInvitation/TenantInvitation', { email, ...extra });

describe('tenant invitations', () => {
  it('answers and mails the same whether the address has an account, and makes no membership', async () => {
    const { tenantId, api } = await tenantWithAdmin(server);
    const known = await outsider();
    const unknown = freshAddress();
    const a = await invite(api, known.user.email!.toUpperCase(), { memberType: 'Admin' });
    const b = await invite(api, unknown, { memberType: 'Admin' });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(Object.keys(a.body.data).sort()).toEqual(Object.keys(b.body.data).sort());
    expect(a.body.data).toMatchObject({
      email: known.user.email!.toLowerCase(),
      memberType: 'Admin',
      status: 'Pending',
    });
    // Date-times go out to the second.
    expect(Math.abs(new Date(a.body.data.invitationExpirationTime).getTime() - (clock.nowMs() + 7 * DAY))).toBeLessThan(
      1000,
    );
    const [mailA] = await mailsTo(server, known.user.email!.toLowerCase(), 'tenant-invitation');
    const [mailB] = await mailsTo(server, unknown, 'tenant-invitation');
    expect(mailA?.text).toBeDefined();
    expect(mailA?.text).toBe(mailB?.text);
    expect(mailA?.text).toContain(`Tenant ${tenantId}`);
    expect(await membershipsOf(tenantId, known.user.id)).toEqual([]);

    // An open invitation is not sent twice, for either address.
    expect((await invite(api, known.user.email!)).status).toBe(409);
    expect((await invite(api, unknown)).status).toBe(409);
    // Adding by e-mail is by invitation now; the old way answers 422 saying so.
    const byEmail = await api.post('/api/TenantMember/TenantMember', { email: unknown });
    expect(byEmail.status).toBe(422);
    expect(byEmail.body.data).toMatch(/TenantInvitation/);
    const [audit] = await deps()
      .db.select()
      .from(auditEntries)
      .where(and(eq(auditEntries.action, 'TenantInvitationCreated'), eq(auditEntries.targetId, a.body.data.basicId)));
    expect(audit).toMatchObject({ tenantId });
  });

  it('is seen and accepted only with the verified address it names; accepting makes the membership on its terms', async () => {
    const { tenantId, api } = await tenantWithAdmin(server);
    const invitee = await outsider({ emailVerified: false });
    const sent = await invite(api, invitee.user.email!, {
      memberType: 'Admin',
      displayName: 'Guest star',
      expirationTime: '2099-01-01T00:00:00Z',
    });
    const id = sent.body.data.basicId as string;

    expect((await invitee.api.get('/api/TenantInvitationQuery/MyTenantInvitations')).body.data).toEqual([]);
    expect((await invitee.api.post('/api/TenantInvitation/AcceptTenantInvitation', { invitationId: id })).status).toBe(
      403,
    );
    await deps().db.update(users).set({ emailVerified: true }).where(eq(users.id, invitee.user.id));
    const mine = (await invitee.api.get('/api/TenantInvitationQuery/MyTenantInvitations')).body.data;
    expect(mine).toEqual([
      expect.objectContaining({
        basicId: id,
        tenantId: String(tenantId),
        tenantName: `Tenant ${tenantId}`,
        memberType: 'Admin',
      }),
    ]);

    // Someone else cannot answer it, even knowing its id.
    const stranger = await outsider();
    expect((await stranger.api.post('/api/TenantInvitation/AcceptTenantInvitation', { invitationId: id })).status).toBe(
      404,
    );
    expect((await stranger.api.post('/api/TenantInvitation/RejectTenantInvitation', { invitationId: id })).status).toBe(
      404,
    );

    const accepted = await invitee.api.post('/api/TenantInvitation/AcceptTenantInvitation', { invitationId: id });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ tenantId: String(tenantId) });
    const [membership] = await membershipsOf(tenantId, invitee.user.id);
    expect(membership).toMatchObject({
      id: BigInt(accepted.body.data.membershipId),
      memberType: 'Admin',
      displayName: 'Guest star',
      inviteStatus: 'Accepted',
      status: 'Active',
    });
    expect(membership!.expirationTime?.toISOString()).toBe('2099-01-01T00:00:00.000Z');
    expect((await invitee.api.post('/api/TenantInvitation/AcceptTenantInvitation', { invitationId: id })).status).toBe(
      422,
    );
    expect((await invitee.api.get('/api/TenantInvitationQuery/MyTenantInvitations')).body.data).toEqual([]);
    const page = await api.post('/api/TenantInvitationQuery/TenantInvitationPage', { keyword: invitee.user.email });
    expect(page.body.data.items).toEqual([expect.objectContaining({ basicId: id, status: 'Accepted' })]);
    // The new member enters the tenant.
    const switched = await server.json('/api/Auth/SwitchTenant', {
      method: 'POST',
      json: { tenantId: String(tenantId) },
      headers: bearer((await loginAs(server, invitee.user)).accessToken),
    });
    expect(switched.status).toBe(200);
    // A member is not invited again.
    expect((await invite(api, invitee.user.email!)).status).toBe(409);
  });

  it('can be declined, revoked, and runs out after seven days', async () => {
    const setup = await tenantWithAdmin(server);
    const { tenantId, user: admin } = setup;
    let { api } = setup;
    const invitee = await outsider();
    const first = (await invite(api, invitee.user.email!)).body.data.basicId as string;
    expect(
      (await invitee.api.post('/api/TenantInvitation/RejectTenantInvitation', { invitationId: first })).status,
    ).toBe(200);
    expect(await membershipsOf(tenantId, invitee.user.id)).toEqual([]);
    expect((await api.del('/api/TenantInvitation/TenantInvitation', { id: first })).status).toBe(422);

    const second = (await invite(api, invitee.user.email!)).body.data.basicId as string;
    expect((await api.del('/api/TenantInvitation/TenantInvitation', { id: second })).status).toBe(200);
    expect(
      (await invitee.api.post('/api/TenantInvitation/AcceptTenantInvitation', { invitationId: second })).status,
    ).toBe(422);
    // Another tenant's administrator cannot see or revoke it.
    const other = await tenantWithAdmin(server);
    const third = (await invite(api, invitee.user.email!)).body.data.basicId as string;
    expect((await other.api.del('/api/TenantInvitation/TenantInvitation', { id: third })).status).toBe(404);
    expect((await other.api.post('/api/TenantInvitationQuery/TenantInvitationPage', {})).body.data.items).toEqual([]);

    clock.advance(7 * DAY + 1);
    // Tokens have run out too: both sign in again.
    invitee.api = adminApi(server, (await loginAs(server, invitee.user)).accessToken);
    api = adminApi(server, (await loginAs(server, admin)).accessToken);
    expect((await invitee.api.get('/api/TenantInvitationQuery/MyTenantInvitations')).body.data).toEqual([]);
    const late = await invitee.api.post('/api/TenantInvitation/AcceptTenantInvitation', { invitationId: third });
    expect(late.status).toBe(422);
    expect(late.body.data).toMatch(/Expired/);
    const statuses = (await api.post('/api/TenantInvitationQuery/TenantInvitationPage', {})).body.data.items
      .map((i: { status: string }) => i.status)
      .sort();
    expect(statuses).toEqual(['Expired', 'Rejected', 'Revoked']);
    // Filtered by the status shown: the run-out one is Expired, not Pending.
    expect(
      (await api.post('/api/TenantInvitationQuery/TenantInvitationPage', { status: 'Pending' })).body.data.items,
    ).toEqual([]);
    expect(
      (await api.post('/api/TenantInvitationQuery/TenantInvitationPage', { status: 'Expired' })).body.data.items.map(
        (i: { basicId: string }) => i.basicId,
      ),
    ).toEqual([third]);
    // The address may be invited again once the old one has run out.
    expect((await invite(api, invitee.user.email!)).status).toBe(200);
  });

  it('makes one membership of two accepts at once, and none past the seat limit', async () => {
    const { tenantId, api } = await tenantWithAdmin(server);
    const invitee = await outsider();
    const id = (await invite(api, invitee.user.email!)).body.data.basicId as string;
    const second = adminApi(server, (await loginAs(server, invitee.user)).accessToken);
    const answers = await Promise.all(
      [invitee.api, second].map((c) => c.post('/api/TenantInvitation/AcceptTenantInvitation', { invitationId: id })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.find((a) => a.status !== 200)?.status).toBeGreaterThanOrEqual(409);
    expect(await membershipsOf(tenantId, invitee.user.id)).toHaveLength(1);

    // Two seats: the administrator and one member already.
    const small = await tenantWithAdmin(server, { seatLimit: 2 });
    await member(deps(), small.tenantId);
    const late = await outsider();
    const seatless = (await invite(small.api, late.user.email!)).body.data.basicId as string;
    expect(
      (await late.api.post('/api/TenantInvitation/AcceptTenantInvitation', { invitationId: seatless })).status,
    ).toBe(422);
    expect(await membershipsOf(small.tenantId, late.user.id)).toEqual([]);
    // Still open: it can be accepted once a seat is free.
    expect((await late.api.get('/api/TenantInvitationQuery/MyTenantInvitations')).body.data).toHaveLength(1);
  });

  it('refuses bad input, the platform state, missing codes and impersonation, and takes back what it could not mail', async () => {
    const { tenantId, api } = await tenantWithAdmin(server);
    for (const body of [
      { email: 'not-an-address' },
      {},
      { email: 42 },
      { email: freshAddress(), memberType: 'Boss' },
      { email: `${'x'.repeat(250)}@example.test` },
      { email: freshAddress(), expirationTime: 'soon' },
    ]) {
      const res = await api.post('/api/TenantInvitation/TenantInvitation', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.isSuccess).toBe(false);
    }
    expect((await invite(api, freshAddress(), { memberType: 'Owner' })).status).toBe(422);
    expect(
      (
        await invite(api, freshAddress(), {
          effectiveTime: '2030-01-01T00:00:00Z',
          expirationTime: '2029-01-01T00:00:00Z',
        })
      ).status,
    ).toBe(422);
    expect((await api.post('/api/TenantInvitation/AcceptTenantInvitation', { invitationId: 'abc' })).status).toBe(400);

    const plain = await tenantAdmin(server, tenantId, { codes: ['saas:user:read'] });
    expect((await invite(plain.api, freshAddress())).status).toBe(403);
    expect((await plain.api.post('/api/TenantInvitationQuery/TenantInvitationPage', {})).status).toBe(403);
    const root = await createSuperAdmin(deps());
    const platform = adminApi(server, (await loginAs(server, root as TestUser)).accessToken);
    expect((await invite(platform, freshAddress())).status).toBe(422);

    const bob = await member(deps(), tenantId);
    const as = (await api.post('/api/Impersonation/Impersonation', { userId: String(bob.id) })).body.data.token
      .accessToken as string;
    expect((await invite(adminApi(server, as), freshAddress())).status).toBe(403);

    const messages = deps().messages;
    const send = messages.send;
    try {
      // The mail cannot go: the invitation is withdrawn (as a revocation, audited) and answers 502.
      const invitee = await outsider();
      messages.send = () => Promise.reject(new Error('smtp down'));
      expect((await invite(api, invitee.user.email!)).status).toBe(502);
      const [withdrawn] = await deps()
        .db.select()
        .from(tenantInvitations)
        .where(and(eq(tenantInvitations.tenantId, tenantId), eq(tenantInvitations.email, invitee.user.email!)));
      expect(withdrawn?.status).toBe('Revoked');
      expect((await invitee.api.get('/api/TenantInvitationQuery/MyTenantInvitations')).body.data).toEqual([]);
      // The invitee answered while the mail was on its way, then the mail failed: the answer stands.
      const quick = await outsider();
      messages.send = async () => {
        const [open] = await deps()
          .db.select()
          .from(tenantInvitations)
          .where(and(eq(tenantInvitations.tenantId, tenantId), eq(tenantInvitations.email, quick.user.email!)));
        expect(
          (await quick.api.post('/api/TenantInvitation/AcceptTenantInvitation', { invitationId: String(open!.id) }))
            .status,
        ).toBe(200);
        throw new Error('smtp down');
      };
      expect((await invite(api, quick.user.email!)).status).toBe(200);
      expect(await membershipsOf(tenantId, quick.user.id)).toHaveLength(1);
    } finally {
      messages.send = send;
    }
  });

  it('sends one invitation of two at once for the same address', async () => {
    const { api } = await tenantWithAdmin(server);
    const address = freshAddress();
    const answers = await Promise.all([invite(api, address), invite(api, address)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const page = await api.post('/api/TenantInvitationQuery/TenantInvitationPage', { keyword: address });
    expect(page.body.data.items.map((i: { status: string }) => i.status)).toEqual(['Pending']);
  });
});
