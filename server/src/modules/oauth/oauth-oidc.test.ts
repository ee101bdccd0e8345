import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { OAuth2Server } from 'oauth2-mock-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  externalLogins,
  loginLogs,
  systemSettings,
  tenantMemberships,
  userRoles,
  users,
  userSecurity,
  userSessions,
} from '../../../../db/schema/index.js';
import { createLogger } from '../../infra/logger.js';
import { bearer, claimsOf, createTestUser, loginAs } from '../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { LoginResult } from '../login-log/write.js';
import { generateTotpSecret, totpCode } from '../auth/two-factor/totp.js';
import { TwoFactorFlags } from '../auth/two-factor/two-factor.js';
import { OAUTH_BUTTONS_KEY, syncOAuthButtons } from './buttons.js';
import { callback, frontendResult, startFlow, visit, type FrontendResult } from './oauth-test-kit.js';

/**
 * The generic OpenID Connect provider end to end against a real local OIDC server
 * (oauth2-mock-server): discovery, the authorize redirect with PKCE and nonce, the callback,
 * the ID token verified against the issuer's keys, userinfo, account creation, the second login,
 * binding, conflicts, the second factor, and every failure ending in a redirect.
 */

const mock = new OAuth2Server();
let server: TestServer;
const deps = () => server.runtime.deps;

interface Identity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}
let current: Identity = { sub: 'nobody' };
let userinfoSub: string | undefined;
const tokensSeen: string[] = [];
let n = 0;
const person = (extra: Partial<Identity> = {}): Identity => {
  n += 1;
  return {
    sub: `sub-${process.pid}-${n}`,
    email: `person${n}-${process.pid}@corp.test`,
    email_verified: true,
    name: `Person ${n}`,
    picture: `https://img.corp.test/${n}.png`,
    ...extra,
  };
};

beforeAll(async () => {
  await mock.issuer.keys.generate('RS256');
  await mock.start(0, '127.0.0.1');
  mock.issuer.url = `http://127.0.0.1:${(mock.address() as AddressInfo).port}`;
  mock.service.on('beforeTokenSigning', (token) => {
    token.payload.sub = current.sub;
  });
  mock.service.on('beforeUserinfo', (response) => {
    response.body = { ...current, sub: userinfoSub ?? current.sub };
  });
  mock.service.on('beforeResponse', (response) => {
    const body = response.body as { access_token?: string; refresh_token?: string };
    if (body.access_token) tokensSeen.push(body.access_token);
    if (body.refresh_token) tokensSeen.push(body.refresh_token);
  });
  const issuer = mock.issuer.url;
  // An issuer nothing answers for (provider down at the start of a flow).
  const dead = createServer();
  await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', () => resolve()));
  const deadPort = (dead.address() as AddressInfo).port;
  await new Promise<void>((resolve) => dead.close(() => resolve()));
  server = await startTestServer({
    config: {
      App: { PublicBaseUrl: 'http://portcullis.test' },
      // Every flow starts from 127.0.0.1: the per-address throttle of ExternalLogin is raised.
      Saas: { Auth: { CaptchaEnabled: false, ThrottlePerIp: 1000 } },
      OAuth: {
        TimeoutSeconds: 3,
        Providers: {
          corp: {
            Type: 'oidc',
            DisplayName: 'Corp SSO',
            Issuer: issuer,
            ClientId: 'portcullis-client',
            ClientSecret: 'client-secret',
          },
          // A second login mode of the same provider (same identities, another button).
          corp_qr: {
            Type: 'oidc',
            DisplayName: 'Corp SSO (QR code)',
            Provider: 'corp',
            Issuer: issuer,
            ClientId: 'portcullis-client',
            ClientSecret: 'client-secret',
          },
          down: { Type: 'oidc', Issuer: `http://127.0.0.1:${deadPort}`, ClientId: 'x' },
          off: { Type: 'oidc', Enabled: false, Issuer: issuer, ClientId: 'x' },
        },
      },
    },
  });
});
afterAll(async () => {
  await server?.close();
  await mock.stop();
});
beforeEach(() => {
  userinfoSub = undefined;
});

/** The whole browser round trip: our redirect, the provider's consent (automatic here), our callback. */
async function flow(identity: Identity, query = 'provider=corp'): Promise<FrontendResult> {
  current = identity;
  const start = await startFlow(server, query);
  if (start.location.startsWith('http://localhost:7777/')) return frontendResult(start.location);
  const consent = await visit(start.location);
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location')!);
  expect(back.origin + back.pathname).toBe('http://portcullis.test/api/OAuth/Callback');
  return (await callback(server, Object.fromEntries(back.searchParams), start.cookie)).result;
}

const linkOf = async (subject: string) =>
  (
    await deps()
      .db.select()
      .from(externalLogins)
      .where(and(eq(externalLogins.provider, 'corp'), eq(externalLogins.providerKey, subject)))
  )[0];

describe('authorize redirect', () => {
  it('redirects to the issuer with the code flow, PKCE (S256), state and nonce, and binds the flow to the browser', async () => {
    const start = await startFlow(server, 'provider=CORP');
    const url = new URL(start.location);
    expect(url.origin + url.pathname).toBe(`${mock.issuer.url}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'portcullis-client',
      redirect_uri: 'http://portcullis.test/api/OAuth/Callback',
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(start.setCookie).toMatch(
      /^pc_oauth_[0-9a-f]{16}=[A-Za-z0-9_-]+; Max-Age=600; Path=\/api\/OAuth; HttpOnly; SameSite=Lax$/,
    );
    expect(start.res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers anything but GET with a 405 envelope', async () => {
    const res = await server.json('/api/OAuth/ExternalLogin?provider=corp', { method: 'POST', json: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.body.isSuccess).toBe(false);
  });
});

describe('login', () => {
  it('creates an account on the first login, delivers the tokens in the fragment only, and finds it again', async () => {
    const identity = person();
    const first = await flow(identity);
    expect(first.query).toBe('');
    expect(Object.keys(first.params).sort()).toEqual(['accessToken', 'expiresIn', 'refreshToken']);
    expect(first.params.expiresIn).toBe('3600');
    const claims = claimsOf(first.params.accessToken!);
    const userId = BigInt(String(claims.UserId));
    expect(claims.TenantId).toBe('1');
    const info = await server.json('/api/Auth/UserInfo', { headers: bearer(first.params.accessToken!) });
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({
      roles: [],
      email: identity.email,
      nickName: identity.name,
      avatar: identity.picture,
    });

    const [user] = await deps().db.select().from(users).where(eq(users.id, userId));
    expect(user!.userName).toMatch(/^corp_[0-9a-f]{8}$/);
    expect(user).toMatchObject({ tenantId: 1n, isActive: true, emailVerified: true, status: 'Enabled' });
    expect(await deps().db.select().from(userRoles).where(eq(userRoles.userId, userId))).toEqual([]);
    expect(await deps().db.select().from(tenantMemberships).where(eq(tenantMemberships.userId, userId))).toHaveLength(
      1,
    );
    const link = await linkOf(identity.sub);
    expect(link).toMatchObject({
      userId,
      tenantId: 1n,
      provider: 'corp',
      email: identity.email,
      avatarUrl: identity.picture,
      providerDisplayName: 'Corp SSO',
    });
    // Third-party tokens are never stored.
    const stored = JSON.stringify([link, user], (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    for (const token of tokensSeen) expect(stored).not.toContain(token);

    const second = await flow(identity);
    expect(claimsOf(second.params.accessToken!).UserId).toBe(String(userId));
    expect(await deps().db.select().from(userSessions).where(eq(userSessions.userId, userId))).toHaveLength(2);
    const logs = await deps()
      .db.select()
      .from(loginLogs)
      .where(and(eq(loginLogs.userId, userId), eq(loginLogs.result, LoginResult.Success)));
    expect(logs.map((l) => l.loginMethod)).toEqual(['oauth', 'oauth']);
  });

  it('never merges by e-mail: a taken or unverified provider e-mail becomes a placeholder', async () => {
    const existing = await createTestUser(deps());
    const taken = await flow(person({ email: existing.email! }));
    const takenUser = (
      await deps()
        .db.select()
        .from(users)
        .where(eq(users.id, BigInt(String(claimsOf(taken.params.accessToken!).UserId))))
    )[0]!;
    expect(takenUser.id).not.toBe(existing.id);
    expect(takenUser.email).toBe(`${takenUser.userName}@external.local`);
    expect(takenUser.emailVerified).toBe(false);

    const unverified = await flow(person({ email_verified: false }));
    const unverifiedUser = (
      await deps()
        .db.select()
        .from(users)
        .where(eq(users.id, BigInt(String(claimsOf(unverified.params.accessToken!).UserId))))
    )[0]!;
    expect(unverifiedUser.email).toMatch(/@external\.local$/);
  });

  it('finds the same account through another login mode of the provider', async () => {
    const identity = person();
    const viaSso = await flow(identity);
    const viaQr = await flow(identity, 'provider=corp_qr');
    expect(claimsOf(viaQr.params.accessToken!).UserId).toBe(claimsOf(viaSso.params.accessToken!).UserId);
  });

  it('asks for the second factor of an account that has one; TwoFactorLogin completes it', async () => {
    const secret = generateTotpSecret();
    const user = await createTestUser(deps());
    const identity = person();
    const ticket = (
      await server.json('/api/Auth/OAuthBindTicket', {
        method: 'POST',
        headers: bearer((await loginAs(server, user)).accessToken),
      })
    ).body.data as string;
    expect((await flow(identity, `provider=corp&bindTicket=${encodeURIComponent(ticket)}`)).params.bind).toBe(
      'success',
    );
    await deps()
      .db.update(userSecurity)
      .set({ twoFactorMethod: TwoFactorFlags.Totp, twoFactorSecret: secret })
      .where(eq(userSecurity.userId, user.id));
    const challenged = await flow(identity);
    expect(challenged.params).toMatchObject({
      requiresTwoFactor: 'true',
      availableTwoFactorMethods: 'totp',
      twoFactorMethod: 'totp',
      codeSent: 'false',
    });
    expect(challenged.params).not.toHaveProperty('accessToken');
    const done = await server.json('/api/Auth/TwoFactorLogin', {
      method: 'POST',
      json: {
        twoFactorTicket: challenged.params.twoFactorTicket,
        twoFactorMethod: 'totp',
        twoFactorCode: totpCode(secret, Date.now()),
      },
    });
    expect(done.status).toBe(200);
    expect(claimsOf(done.body.data.token.accessToken).UserId).toBe(String(user.id));
  });

  it('refuses a disabled account with error=disabled', async () => {
    const identity = person();
    const first = await flow(identity);
    await deps()
      .db.update(users)
      .set({ status: 'Disabled' })
      .where(eq(users.id, BigInt(String(claimsOf(first.params.accessToken!).UserId))));
    expect((await flow(identity)).params).toEqual({ error: 'disabled' });
  });
});

describe('binding', () => {
  it('links an identity to the logged-in user with a one-use ticket valid 5 minutes; the identity then signs in as that user', async () => {
    const user = await createTestUser(deps());
    const token = (await loginAs(server, user)).accessToken;
    const res = await server.json('/api/Auth/OAuthBindTicket', { method: 'POST', headers: bearer(token) });
    expect(res.status).toBe(200);
    const ticket = res.body.data as string;
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const identity = person();
    const bound = await flow(identity, `provider=corp&bindTicket=${ticket}`);
    expect(bound.params).toEqual({ bind: 'success', provider: 'corp' });
    expect(await linkOf(identity.sub)).toMatchObject({ userId: user.id, tenantId: 0n });
    // One use.
    expect((await flow(person(), `provider=corp&bindTicket=${ticket}`)).params).toEqual({ bind: 'ticket_invalid' });
    // The linked identity logs in as the user (no new account).
    const login = await flow(identity);
    expect(claimsOf(login.params.accessToken!).UserId).toBe(String(user.id));
    // Binding again is idempotent.
    const again = (await server.json('/api/Auth/OAuthBindTicket', { method: 'POST', headers: bearer(token) })).body
      .data as string;
    expect((await flow(identity, `provider=corp&bindTicket=${again}`)).params).toEqual({
      bind: 'success',
      provider: 'corp',
    });
  });

  it('refuses an identity bound to another user as a conflict, and a second identity of the same provider', async () => {
    const owner = await createTestUser(deps());
    const other = await createTestUser(deps());
    const identity = person();
    const ticketFor = async (u: typeof owner) =>
      (
        await server.json('/api/Auth/OAuthBindTicket', {
          method: 'POST',
          headers: bearer((await loginAs(server, u)).accessToken),
        })
      ).body.data as string;
    expect((await flow(identity, `provider=corp&bindTicket=${await ticketFor(owner)}`)).params.bind).toBe('success');
    expect((await flow(identity, `provider=corp&bindTicket=${await ticketFor(other)}`)).params).toEqual({
      bind: 'conflict',
    });
    expect((await linkOf(identity.sub))!.userId).toBe(owner.id);
    // An identity that signed up on its own is bound to its own account: a conflict too.
    const selfMade = person();
    await flow(selfMade);
    expect((await flow(selfMade, `provider=corp&bindTicket=${await ticketFor(other)}`)).params).toEqual({
      bind: 'conflict',
    });
    expect((await flow(person(), `provider=corp&bindTicket=${await ticketFor(owner)}`)).params).toEqual({
      bind: 'already_bound',
    });
  });

  it('forgets the link of a deleted account: the identity signs up anew, or binds to another account', async () => {
    const identity = person();
    const first = await flow(identity);
    const deleted = BigInt(String(claimsOf(first.params.accessToken!).UserId));
    // The soft delete of DELETE /api/User/User.
    await deps().db.update(users).set({ isDeleted: true, deletedTime: new Date() }).where(eq(users.id, deleted));
    const again = await flow(identity);
    expect(again.params).toHaveProperty('accessToken');
    const fresh = BigInt(String(claimsOf(again.params.accessToken!).UserId));
    expect(fresh).not.toBe(deleted);
    // Same tenant as before: the dead link was removed, not left to hit the unique index.
    expect(await linkOf(identity.sub)).toMatchObject({ userId: fresh });
    await deps().db.update(users).set({ isDeleted: true, deletedTime: new Date() }).where(eq(users.id, fresh));
    const other = await createTestUser(deps());
    const ticket = (
      await server.json('/api/Auth/OAuthBindTicket', {
        method: 'POST',
        headers: bearer((await loginAs(server, other)).accessToken),
      })
    ).body.data as string;
    expect((await flow(identity, `provider=corp&bindTicket=${ticket}`)).params).toEqual({
      bind: 'success',
      provider: 'corp',
    });
    expect(await deps().db.select().from(externalLogins).where(eq(externalLogins.providerKey, identity.sub))).toEqual([
      expect.objectContaining({ userId: other.id }),
    ]);
  });

  it('refuses the ticket to an impersonation session (403)', async () => {
    const user = await createTestUser(deps());
    const token = (await loginAs(server, user)).accessToken;
    // Mark the session as an impersonation, as the impersonation endpoint writes it.
    const sessionId = BigInt(claimsOf(token).SessionId as string);
    await deps()
      .db.update(userSessions)
      .set({ impersonatorUserId: (await createTestUser(deps())).id })
      .where(eq(userSessions.id, sessionId));
    await deps().sessionState.invalidateSession(sessionId);
    expect((await server.json('/api/Auth/OAuthBindTicket', { method: 'POST', headers: bearer(token) })).status).toBe(
      403,
    );
  });

  it('needs a session for the ticket', async () => {
    expect((await server.json('/api/Auth/OAuthBindTicket', { method: 'POST' })).status).toBe(401);
  });
});

describe('failures end in a redirect with a clear error', () => {
  it('unknown, disabled or missing provider', async () => {
    expect((await startFlow(server, 'provider=nope')).location).toBe(
      'http://localhost:7777/#/auth/oauth-callback?error=challenge_failed',
    );
    expect(frontendResult((await startFlow(server, 'provider=off')).location).params).toEqual({
      error: 'challenge_failed',
    });
    expect(frontendResult((await startFlow(server, '')).location).params).toEqual({ error: 'invalid_provider' });
    expect(frontendResult((await startFlow(server, 'provider=corp&bindTicket=forged')).location).params).toEqual({
      bind: 'ticket_invalid',
    });
  });

  it('answers bind=challenge_failed, not error=, for an unknown provider in bind mode', async () => {
    expect(frontendResult((await startFlow(server, 'provider=nope&bindTicket=forged')).location).params).toEqual({
      bind: 'challenge_failed',
    });
    expect(frontendResult((await startFlow(server, 'provider=off&bindTicket=forged')).location).params).toEqual({
      bind: 'challenge_failed',
    });
  });

  it('provider down at the start', async () => {
    expect(frontendResult((await startFlow(server, 'provider=down')).location).params).toEqual({
      error: 'challenge_failed',
    });
  });

  it('missing, unknown or replayed state, and a callback in another browser', async () => {
    expect((await callback(server, { code: 'x' })).result.params).toEqual({ error: 'invalid_state' });
    expect((await callback(server, { code: 'x', state: 'forged' })).result.params).toEqual({ error: 'invalid_state' });
    current = person();
    const start = await startFlow(server, 'provider=corp');
    const back = new URL((await visit(start.location)).headers.get('location')!);
    const params = Object.fromEntries(back.searchParams);
    // Without the cookie of the browser that started it (a link sent to a victim): refused, and the state is spent.
    expect((await callback(server, params)).result.params).toEqual({ error: 'invalid_state' });
    expect((await callback(server, params, start.cookie)).result.params).toEqual({ error: 'invalid_state' });
  });

  it('denied consent', async () => {
    const start = await startFlow(server, 'provider=corp');
    const { result } = await callback(
      server,
      { error: 'access_denied', error_description: 'The user said no', state: start.state! },
      start.cookie,
    );
    expect(result.params).toEqual({ error: 'access_denied' });
  });

  it('a token request the provider refuses, or answers with a server error', async () => {
    mock.service.once('beforeResponse', (response) => {
      response.statusCode = 400;
      response.body = { error: 'invalid_grant' };
    });
    expect((await flow(person())).params).toEqual({ error: 'external_auth_failed' });
    mock.service.once('beforeResponse', (response) => {
      response.statusCode = 503;
      response.body = {};
    });
    expect((await flow(person())).params).toEqual({ error: 'provider_unavailable' });
  });

  it('an ID token with another nonce, for another client, or with a broken signature', async () => {
    // The mock signs the access token too: only the ID token carries the login's nonce.
    let tamper: ((payload: Record<string, unknown>) => void) | undefined;
    const onSigning = (token: { payload: Record<string, unknown> }) => {
      if ('nonce' in token.payload && tamper) tamper(token.payload);
    };
    mock.service.on('beforeTokenSigning', onSigning);
    try {
      tamper = (payload) => (payload.nonce = 'a-nonce-of-another-login');
      expect((await flow(person())).params).toEqual({ error: 'external_auth_failed' });
      tamper = (payload) => (payload.aud = 'some-other-client');
      expect((await flow(person())).params).toEqual({ error: 'external_auth_failed' });
    } finally {
      mock.service.off('beforeTokenSigning', onSigning);
    }
    mock.service.once('beforeResponse', (response) => {
      const body = response.body as { id_token?: string };
      if (body.id_token) body.id_token = `${body.id_token.slice(0, -6)}AAAAAA`;
    });
    expect((await flow(person())).params).toEqual({ error: 'external_auth_failed' });
    // And the flow itself still works.
    expect((await flow(person())).params.accessToken).toBeTruthy();
  });

  it('userinfo about another subject than the ID token', async () => {
    userinfoSub = 'someone-else';
    expect((await flow(person())).params).toEqual({ error: 'external_profile_invalid' });
  });

  it('bind-mode failures use the bind parameter', async () => {
    const user = await createTestUser(deps());
    const ticket = (
      await server.json('/api/Auth/OAuthBindTicket', {
        method: 'POST',
        headers: bearer((await loginAs(server, user)).accessToken),
      })
    ).body.data as string;
    const start = await startFlow(server, `provider=corp&bindTicket=${ticket}`);
    const { result } = await callback(server, { error: 'access_denied', state: start.state! }, start.cookie);
    expect(result.params).toEqual({ bind: 'access_denied' });
  });
});

describe('LoginConfig buttons', () => {
  it('stores one button per enabled provider at the first start and lists them', async () => {
    const config = await server.json('/api/Auth/LoginConfig');
    expect(config.body.data.oAuthProviders).toEqual([
      { name: 'corp', displayName: 'Corp SSO' },
      { name: 'corp_qr', displayName: 'Corp SSO (QR code)' },
      { name: 'down', displayName: 'OpenID Connect' },
    ]);
    expect(server.logs.some((l) => l.includes('stored the OAuth login buttons'))).toBe(true);
  });

  it('leaves out, and reports at start-up, a provider without a button and a button without a provider', async () => {
    await deps()
      .db.update(systemSettings)
      .set({
        settingValue: JSON.stringify([
          { name: 'corp', displayName: '' },
          { name: 'gitee', displayName: 'Gitee' },
          'off',
        ]),
      })
      .where(eq(systemSettings.settingKey, OAUTH_BUTTONS_KEY));
    try {
      const lines: string[] = [];
      const report = await syncOAuthButtons({
        db: deps().db,
        config: deps().config,
        logger: createLogger({ level: 'warn', sink: (l) => lines.push(l) }),
      });
      expect(report).toEqual({ withoutButton: ['corp_qr', 'down'], withoutProvider: ['gitee', 'off'] });
      const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg).join('\n');
      expect(messages).toMatch(/OAuth provider "corp_qr" is enabled on the server but has no button/);
      expect(messages).toMatch(/OAuth button "gitee" in saas.auth.oauth.providers has no enabled provider/);
      const config = await server.json('/api/Auth/LoginConfig');
      // An empty display name shows the configured one.
      expect(config.body.data.oAuthProviders).toEqual([{ name: 'corp', displayName: 'Corp SSO' }]);
      // A provider without a button still works (nothing breaks), it is only not shown.
      expect(new URL((await startFlow(server, 'provider=corp_qr')).location).pathname).toBe('/authorize');
    } finally {
      await deps().db.delete(systemSettings).where(eq(systemSettings.settingKey, OAUTH_BUTTONS_KEY));
    }
  });
});
