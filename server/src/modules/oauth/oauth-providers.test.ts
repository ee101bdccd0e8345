import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalLogins, users } from '../../../../db/schema/index.js';
import { ManualClock } from '../../infra/clock.js';
import { bearer, claimsOf, createTestUser, loginAs } from '../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { callback, frontendResult, startFlow } from './oauth-test-kit.js';

/**
 * The fixed-endpoint providers (GitHub, Google, Microsoft Entra ID, GitLab) through arctic, with
 * their token and profile endpoints answered by a local server in this test (the endpoint keys
 * point them here; GitLab by its BaseUrl, the way a self-hosted instance is configured). Their
 * default authorization addresses are checked as well.
 */

interface Seen {
  path: string;
  method: string;
  authorization?: string;
  body: URLSearchParams;
}

const seen: Seen[] = [];
const toggles = { githubEmails: 'ok' as 'ok' | 'forbidden' };
let providerServer: Server;
let base = '';
let server: TestServer;
const deps = () => server.runtime.deps;

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The providers' token and profile endpoints, as they answer. */
function answer(req: IncomingMessage, res: ServerResponse, body: URLSearchParams) {
  const path = new URL(req.url!, 'http://x').pathname;
  const auth = req.headers.authorization ?? '';
  const code = body.get('code');
  switch (`${req.method} ${path}`) {
    case 'POST /github/login/oauth/access_token':
      if (auth !== `Basic ${Buffer.from('gh-id:gh-secret').toString('base64')}`)
        return json(res, 401, { error: 'invalid_client' });
      if (code === 'gh-500') return json(res, 502, {});
      if (code === 'gh-hang') return; // never answers
      // GitHub reports a bad code with 200 and an error body.
      if (code !== 'gh-ok')
        return json(res, 200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect or expired.',
        });
      return json(res, 200, { access_token: 'gho_test', token_type: 'bearer', scope: 'read:user,user:email' });
    case 'GET /github/api/user':
      if (auth !== 'Bearer gho_test') return json(res, 401, {});
      return json(res, 200, {
        id: 4242,
        login: 'octocat',
        name: 'The Octocat',
        avatar_url: 'https://avatars.test/4242',
        email: 'public@octo.test',
      });
    case 'GET /github/api/user/emails':
      if (toggles.githubEmails === 'forbidden')
        return json(res, 403, { message: 'Resource not accessible by integration' });
      return json(res, 200, [
        { email: 'old@octo.test', primary: false, verified: true },
        { email: 'octo@octo.test', primary: true, verified: true },
      ]);
    case 'POST /google/token':
      if (!body.get('code_verifier')) return json(res, 400, { error: 'invalid_request' });
      return json(res, 200, { access_token: 'ya29.test', token_type: 'Bearer', expires_in: 3599 });
    case 'GET /google/userinfo':
      return json(res, 200, {
        sub: '1100220033',
        email: 'someone@gmail.test',
        email_verified: true,
        name: 'Some One',
        picture: 'https://lh3.test/p.png',
      });
    case 'POST /entra/token':
      if (!body.get('code_verifier')) return json(res, 400, { error: 'invalid_request' });
      return json(res, 200, { access_token: 'entra.test', token_type: 'Bearer', expires_in: 3599 });
    case 'GET /entra/userinfo':
      return json(res, 200, { sub: 'AAAAentra-pairwise', email: 'ceo@victim.test', name: 'Claimed CEO' });
    case 'POST /gitlab/oauth/token':
      if (code !== 'gl-ok') return json(res, 400, { error: 'invalid_grant' });
      return json(res, 200, { access_token: 'glpat-test', token_type: 'Bearer' });
    case 'GET /gitlab/api/v4/user':
      if (auth !== 'Bearer glpat-test') return json(res, 401, {});
      return json(res, 200, {
        id: 77,
        username: 'tanuki',
        name: 'Tanuki',
        avatar_url: 'https://gitlab.test/a.png',
        email: 'tanuki@lab.test',
        confirmed_at: '2020-01-01T00:00:00Z',
      });
    default:
      return json(res, 404, {});
  }
}

beforeAll(async () => {
  providerServer = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const body = new URLSearchParams(text);
      seen.push({
        path: new URL(req.url!, 'http://x').pathname,
        method: req.method!,
        authorization: req.headers.authorization,
        body,
      });
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => providerServer.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}`;
  server = await startTestServer({
    config: {
      App: { PublicBaseUrl: 'https://id.example.test' },
      Saas: { Auth: { CaptchaEnabled: false, ThrottlePerIp: 1000 } },
      OAuth: {
        TimeoutSeconds: 1,
        Providers: {
          github: {
            Type: 'github',
            ClientId: 'gh-id',
            ClientSecret: 'gh-secret',
            AuthorizationEndpoint: `${base}/github/login/oauth/authorize`,
            TokenEndpoint: `${base}/github/login/oauth/access_token`,
            ApiBaseUrl: `${base}/github/api`,
          },
          google: {
            Type: 'google',
            ClientId: 'g-id',
            ClientSecret: 'g-secret',
            AuthorizationEndpoint: `${base}/google/auth`,
            TokenEndpoint: `${base}/google/token`,
            UserInfoEndpoint: `${base}/google/userinfo`,
          },
          entra: {
            Type: 'microsoft-entra-id',
            ClientId: 'e-id',
            ClientSecret: 'e-secret',
            AuthorizationEndpoint: `${base}/entra/authorize`,
            TokenEndpoint: `${base}/entra/token`,
            UserInfoEndpoint: `${base}/entra/userinfo`,
          },
          gitlab: { Type: 'gitlab', ClientId: 'gl-id', ClientSecret: 'gl-secret', BaseUrl: `${base}/gitlab` },
          // Their real addresses (arctic's own constants), for the authorization step.
          github_default: { Type: 'github', ClientId: 'gh-id', ClientSecret: 'gh-secret', Provider: 'github' },
          google_default: { Type: 'google', ClientId: 'g-id', ClientSecret: 'g-secret' },
          entra_default: { Type: 'microsoft-entra-id', ClientId: 'e-id', Tenant: 'contoso.onmicrosoft.test' },
          gitlab_default: { Type: 'gitlab', ClientId: 'gl-id', Scopes: 'read_user,openid' },
        },
      },
    },
  });
});
afterAll(async () => {
  await server?.close();
  providerServer.closeAllConnections();
  await new Promise<void>((resolve) => providerServer.close(() => resolve()));
});

/** Our redirect, then our callback as the provider would call it with `code`. */
async function login(provider: string, code: string, extraQuery = '') {
  const start = await startFlow(server, `provider=${provider}${extraQuery}`);
  return (await callback(server, { code, state: start.state! }, start.cookie)).result;
}

const userOf = async (accessToken: string) =>
  (
    await deps()
      .db.select()
      .from(users)
      .where(eq(users.id, BigInt(String(claimsOf(accessToken).UserId))))
  )[0]!;

describe('GitHub', () => {
  it('exchanges the code with client credentials and reads the profile and the verified primary e-mail', async () => {
    const start = await startFlow(server, 'provider=github');
    const authorize = new URL(start.location);
    expect(authorize.origin + authorize.pathname).toBe(`${base}/github/login/oauth/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: 'gh-id',
      redirect_uri: 'https://id.example.test/api/OAuth/Callback',
      scope: 'read:user user:email',
    });
    // HTTPS public address: the browser cookie is Secure.
    expect(start.setCookie).toMatch(/; Secure$/);
    const { result } = await callback(server, { code: 'gh-ok', state: start.state! }, start.cookie);
    expect(result.params.accessToken).toBeTruthy();
    const token = seen.filter((s) => s.path === '/github/login/oauth/access_token').at(-1)!;
    expect(token.body.get('grant_type')).toBe('authorization_code');
    expect(token.body.get('redirect_uri')).toBe('https://id.example.test/api/OAuth/Callback');
    const user = await userOf(result.params.accessToken!);
    expect(user).toMatchObject({
      email: 'octo@octo.test',
      emailVerified: true,
      nickName: 'The Octocat',
      avatar: 'https://avatars.test/4242',
    });
    expect(user.userName).toMatch(/^github_[0-9a-f]{8}$/);
    const [link] = await deps()
      .db.select()
      .from(externalLogins)
      .where(and(eq(externalLogins.provider, 'github'), eq(externalLogins.providerKey, '4242')));
    expect(link!.userId).toBe(user.id);
    // Second login: same account; the e-mail scope refused this time changes nothing.
    toggles.githubEmails = 'forbidden';
    const again = await login('github', 'gh-ok');
    expect(claimsOf(again.params.accessToken!).UserId).toBe(String(user.id));
    toggles.githubEmails = 'ok';
  });

  it('reports a refused code, a provider error and a provider that does not answer', async () => {
    expect((await login('github', 'gh-wrong')).params).toEqual({ error: 'external_auth_failed' });
    expect((await login('github', 'gh-500')).params).toEqual({ error: 'provider_unavailable' });
    const started = Date.now();
    expect((await login('github', 'gh-hang')).params).toEqual({ error: 'provider_unavailable' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('uses the placeholder e-mail when GitHub gives no verified address', async () => {
    // The test provider has one subject: unlinking it makes the next login a first login.
    toggles.githubEmails = 'forbidden';
    try {
      await deps()
        .db.delete(externalLogins)
        .where(and(eq(externalLogins.provider, 'github'), eq(externalLogins.providerKey, '4242')));
      const result = await login('github', 'gh-ok');
      const user = await userOf(result.params.accessToken!);
      expect(user.email).toBe(`${user.userName}@external.local`);
      expect(user.emailVerified).toBe(false);
    } finally {
      toggles.githubEmails = 'ok';
    }
  });
});

describe('Google, Microsoft Entra ID, GitLab', () => {
  it('Google: PKCE verifier sent, verified e-mail adopted', async () => {
    const start = await startFlow(server, 'provider=google');
    expect(new URL(start.location).searchParams.get('code_challenge_method')).toBe('S256');
    const { result } = await callback(server, { code: 'g-code', state: start.state! }, start.cookie);
    const token = seen.filter((s) => s.path === '/google/token').at(-1)!;
    expect(token.body.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(await userOf(result.params.accessToken!)).toMatchObject({
      email: 'someone@gmail.test',
      emailVerified: true,
      nickName: 'Some One',
    });
  });

  it('Entra ID: its e-mail claim is never trusted for the account e-mail', async () => {
    const result = await login('entra', 'e-code');
    const user = await userOf(result.params.accessToken!);
    expect(user.email).toMatch(/^entra_[0-9a-f]{8}@external\.local$/);
    const [link] = await deps().db.select().from(externalLogins).where(eq(externalLogins.userId, user.id));
    expect(link).toMatchObject({ provider: 'entra', providerKey: 'AAAAentra-pairwise', email: 'ceo@victim.test' });
  });

  it('GitLab: a self-hosted instance by its base URL', async () => {
    const start = await startFlow(server, 'provider=gitlab');
    expect(new URL(start.location).origin + new URL(start.location).pathname).toBe(`${base}/gitlab/oauth/authorize`);
    const { result } = await callback(server, { code: 'gl-ok', state: start.state! }, start.cookie);
    expect(await userOf(result.params.accessToken!)).toMatchObject({
      email: 'tanuki@lab.test',
      emailVerified: true,
      nickName: 'Tanuki',
    });
    expect((await login('gitlab', 'gl-bad')).params).toEqual({ error: 'external_auth_failed' });
  });

  it('the real authorization addresses', async () => {
    const at = async (name: string) => new URL((await startFlow(server, `provider=${name}`)).location);
    const gh = await at('github_default');
    expect(gh.origin + gh.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(gh.searchParams.get('client_id')).toBe('gh-id');
    const g = await at('google_default');
    expect(g.origin + g.pathname).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(g.searchParams.get('scope')).toBe('openid email profile');
    const e = await at('entra_default');
    expect(e.origin + e.pathname).toBe(
      'https://login.microsoftonline.com/contoso.onmicrosoft.test/oauth2/v2.0/authorize',
    );
    const gl = await at('gitlab_default');
    expect(gl.origin + gl.pathname).toBe('https://gitlab.com/oauth/authorize');
    expect(gl.searchParams.get('scope')).toBe('read_user openid');
  });
});

describe('bind ticket lifetime (frozen clock, in-process store)', () => {
  let frozen: TestServer;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    frozen = await startTestServer({
      clock,
      config: {
        Redis: { Url: undefined },
        Saas: { Auth: { CaptchaEnabled: false, ThrottlePerIp: 4 } },
        OAuth: { Providers: { github: { Type: 'github', ClientId: 'a', ClientSecret: 'b' } } },
      },
    });
  });
  afterAll(() => frozen.close());

  it('is valid 5 minutes', async () => {
    const user = await createTestUser(frozen.runtime.deps);
    const token = (await loginAs(frozen, user)).accessToken;
    const ticket = async () =>
      (await frozen.json('/api/Auth/OAuthBindTicket', { method: 'POST', headers: bearer(token) })).body.data as string;
    const fresh = await ticket();
    clock.advance(4 * 60_000 + 50_000);
    expect(new URL((await startFlow(frozen, `provider=github&bindTicket=${fresh}`)).location).host).toBe('github.com');
    const stale = await ticket();
    clock.advance(5 * 60_000 + 1000);
    expect(frontendResult((await startFlow(frozen, `provider=github&bindTicket=${stale}`)).location).params).toEqual({
      bind: 'ticket_invalid',
    });
  });

  it('throttles ExternalLogin per client address, answering with a redirect', async () => {
    clock.advance(60_000);
    for (let i = 0; i < 4; i++)
      expect(new URL((await startFlow(frozen, 'provider=github')).location).host).toBe('github.com');
    expect(frontendResult((await startFlow(frozen, 'provider=github')).location).params).toEqual({
      error: 'too_many_requests',
    });
    // A binding page reads bind=, so a throttled binding answers there.
    expect(frontendResult((await startFlow(frozen, 'provider=github&bindTicket=any')).location).params).toEqual({
      bind: 'too_many_requests',
    });
  });
});
