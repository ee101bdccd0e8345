import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimsOf,
  createTestTenant,
  createTestUser,
  loginAs,
  type TestUser,
} from '../../../server/src/testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../../server/src/testing/harness.js';
import { createTrpcClient } from '../trpc-client.js';
import { createAuthClient } from './auth-client.js';
import { createMemoryTokenStore } from './token-store.js';

/**
 * SwitchTenant spends the session's refresh token and answers a new pair. A client that kept the
 * old pair would refresh with a spent token, which the server takes for theft: it ends the session.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: { Saas: { Auth: { CaptchaEnabled: false } } } });
});
afterAll(() => server.close());

/** A member of two tenants (so the login lands in the platform state), signed in through the SDK. */
async function signedIn(): Promise<{
  user: TestUser;
  tenant: bigint;
  auth: ReturnType<typeof createAuthClient>;
  store: ReturnType<typeof createMemoryTokenStore>;
  loggedOut: unknown[];
}> {
  const deps = server.runtime.deps;
  const tenant = await createTestTenant(deps);
  const other = await createTestTenant(deps);
  const user = await createTestUser(deps, { tenantId: tenant, memberOf: [tenant, other] });
  const store = createMemoryTokenStore(await loginAs(server, user));
  const loggedOut: unknown[] = [];
  const auth = createAuthClient({ baseUrl: server.url, tokenStore: store, onLoggedOut: (e) => loggedOut.push(e) });
  return { user, tenant, auth, store, loggedOut };
}

describe('SwitchTenant through the SDK', () => {
  it('switchTenant stores the new pair: later calls are in the tenant and a refresh keeps the session', async () => {
    const { tenant, auth, store, loggedOut } = await signedIn();
    const before = await store.get();
    const token = await auth.switchTenant(String(tenant));
    expect(await store.get()).toEqual({ accessToken: token.accessToken, refreshToken: token.refreshToken });
    expect(claimsOf(token.accessToken).TenantId).toBe(String(tenant));
    expect((await auth.getUserInfo()).tenantId).toBe(String(tenant));
    const refreshed = await auth.refresh();
    expect(refreshed?.refreshToken).not.toBe(before!.refreshToken);
    expect((await auth.getUserInfo()).tenantId).toBe(String(tenant));
    expect(loggedOut).toEqual([]);
  });

  it('stores the pair of a SwitchTenant made through the tRPC client or a raw REST call', async () => {
    const { tenant, auth, store, loggedOut } = await signedIn();
    const trpc = createTrpcClient({ baseUrl: server.url, fetch: auth.fetch });
    const viaTrpc = await trpc.AuthAppService.SwitchTenantAsync.mutate({ tenantId: String(tenant) });
    expect((await store.get())?.refreshToken).toBe(viaTrpc.refreshToken);
    const viaRest = await auth.rest.call('AuthAppService.SwitchTenantAsync', { tenantId: null });
    expect((await store.get())?.refreshToken).toBe(viaRest.refreshToken);
    expect(await auth.refresh()).not.toBeNull();
    expect(loggedOut).toEqual([]);
  });

  it('a call whose 401 arrives while the switch runs takes the new pair instead of refreshing with the spent one', async () => {
    const deps = server.runtime.deps;
    const tenant = await createTestTenant(deps);
    const user = await createTestUser(deps, { tenantId: tenant, memberOf: [tenant, await createTestTenant(deps)] });
    const store = createMemoryTokenStore(await loginAs(server, user));
    const loggedOut: unknown[] = [];
    // The UserInfo call leaves the SDK before the switch and reaches the server after it has
    // committed (so it answers 401: its token is no longer the session's); the switch's answer
    // reaches the SDK only after that 401 has.
    let switched!: () => void;
    const switchCommitted = new Promise<void>((r) => (switched = r));
    let refused!: () => void;
    const userInfoRefused = new Promise<void>((r) => (refused = r));
    const lines: string[] = [];
    const transport: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      lines.push(`${request.method} ${path}`);
      if (path === '/api/Auth/SwitchTenant') {
        const res = await fetch(request);
        switched();
        await userInfoRefused;
        return res;
      }
      if (path === '/api/Auth/UserInfo' && lines.filter((l) => l.endsWith('/UserInfo')).length === 1) {
        await switchCommitted;
        const res = await fetch(request);
        expect(res.status).toBe(401);
        setTimeout(refused, 20);
        return res;
      }
      return fetch(request);
    };
    const auth = createAuthClient({
      baseUrl: server.url,
      fetch: transport,
      tokenStore: store,
      onLoggedOut: (e) => loggedOut.push(e),
    });
    const info = auth.getUserInfo();
    await new Promise((r) => setTimeout(r, 10));
    const token = await auth.switchTenant(String(tenant));
    expect((await info).tenantId).toBe(String(tenant));
    // No refresh was sent: the replay used the switch's pair.
    expect(lines.filter((l) => l.endsWith('/RefreshToken'))).toEqual([]);
    expect(await store.get()).toEqual({ accessToken: token.accessToken, refreshToken: token.refreshToken });
    expect(await auth.refresh()).not.toBeNull();
    expect(loggedOut).toEqual([]);
  });
});
