import { createHash, randomBytes } from 'node:crypto';
import { generateCodeVerifier } from 'arctic';
import type { Context } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import type { Services } from '../../services.js';
import { appError } from '../../errors/app-error.js';
import { commonErrors } from '../../errors/common.js';
import { createRequestContext, type HonoEnv } from '../../http/request-context.js';
import { respondError } from '../../http/respond.js';
import { hitRateLimit } from '../../stores/rate-limit.js';
import { takeBindTicket } from './bind-ticket.js';
import { bindIdentity, loginWithIdentity } from './external-accounts.js';
import { createProviderRegistry, ProviderError } from './providers.js';

/**
 * The OAuth web endpoints (SPEC "OAuth web endpoints"): plain browser redirects, not procedures.
 *
 * GET /api/OAuth/ExternalLogin?provider=&bindTicket= validates the provider, consumes the bind
 * ticket when present, keeps state, PKCE verifier and nonce in the store (10 minutes, one use)
 * and redirects to the provider. A cookie bound to that state (HttpOnly, SameSite=Lax) makes the
 * callback complete only in the browser that started the flow, so a callback link cannot log a
 * victim into someone else's account.
 *
 * GET /api/OAuth/Callback?code=&state= reads the identity and logs in or binds, then redirects
 * to `OAuth__FrontendCallbackUrl`. Everything it reports travels in the URL fragment, never the
 * query: `accessToken, refreshToken, expiresIn` on success; `requiresTwoFactor, twoFactorTicket,
 * availableTwoFactorMethods, twoFactorMethod, codeSent` when the account has a second factor
 * (completed with POST /api/Auth/TwoFactorLogin); `error=<code>` when a login fails and
 * `bind=<outcome>` (with `provider` on success) for a binding. No failure answers a 500.
 */

const STATE_TTL_MS = 10 * 60_000;
const stateKey = (state: string) => `oauth:state:${createHash('sha256').update(state).digest('hex')}`;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const cookieName = (state: string) => `pc_oauth_${sha256(`cookie:${state}`).slice(0, 16)}`;

interface StateData {
  provider: string;
  verifier: string;
  nonce: string;
  mode: 'login' | 'bind';
  bindUserId?: string;
  /** SHA-256 of the browser cookie set with the redirect. */
  browser: string;
}

/** Appends parameters to the front-end callback inside its fragment (the hash route of a SPA, or a bare `#`). */
export function fragmentUrl(base: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  const hash = base.indexOf('#');
  if (hash < 0) return `${base}#${query}`;
  return `${base}${base.slice(hash + 1).includes('?') ? '&' : '?'}${query}`;
}

function queryOf(c: Context<HonoEnv>): Map<string, string> {
  const out = new Map<string, string>();
  // Keys bind case-insensitively, like the REST facade's; the first occurrence wins.
  for (const [k, v] of new URL(c.req.url).searchParams) if (!out.has(k.toLowerCase())) out.set(k.toLowerCase(), v);
  return out;
}

function cookieOf(c: Context<HonoEnv>, name: string): string | undefined {
  for (const part of (c.req.header('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function createOAuthWeb(deps: AppDeps, services: Services) {
  const providers = createProviderRegistry(deps.config);
  const secure = deps.config.App.PublicBaseUrl.startsWith('https:');
  const cookieAttributes = `Path=/api/OAuth; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

  function redirect(c: Context<HonoEnv>, location: string, cookie?: string): Response {
    const headers = new Headers({
      location,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-trace-id': c.get('info').traceId,
    });
    if (cookie) headers.append('set-cookie', cookie);
    return new Response(null, { status: 302, headers });
  }

  const toFrontend = (c: Context<HonoEnv>, params: Record<string, string>, cookie?: string) =>
    redirect(c, fragmentUrl(deps.config.OAuth.FrontendCallbackUrl, params), cookie);

  async function externalLogin(c: Context<HonoEnv>): Promise<Response> {
    const query = queryOf(c);
    const name = query.get('provider')?.trim().toLowerCase();
    const bindTicket = query.get('bindticket');
    // A binding page reads `bind=`, not `error=` (the original service: `bind=challenge_failed`).
    const param = bindTicket === undefined ? 'error' : 'bind';
    if (!name) return toFrontend(c, { error: 'invalid_provider' });
    const provider = providers.get(name);
    if (!provider) return toFrontend(c, { [param]: 'challenge_failed' });
    const ip = c.get('info').ip;
    const limit = await hitRateLimit(deps.store, `oauth-start:ip:${ip}`, deps.config.Saas.Auth.ThrottlePerIp, 60_000);
    if (!limit.allowed) return toFrontend(c, { [param]: 'too_many_requests' });
    let bindUserId: bigint | undefined;
    if (bindTicket !== undefined) {
      bindUserId = await takeBindTicket(deps.store, bindTicket);
      if (bindUserId === undefined) return toFrontend(c, { bind: 'ticket_invalid' });
    }
    const state = randomBytes(32).toString('base64url');
    const verifier = generateCodeVerifier();
    const nonce = randomBytes(16).toString('base64url');
    let url: URL;
    try {
      url = await provider.authorizationUrl(state, verifier, nonce);
    } catch (error) {
      deps.logger.warn('external login could not start', { provider: name, traceId: c.get('info').traceId, error });
      return toFrontend(c, bindUserId === undefined ? { error: 'challenge_failed' } : { bind: 'challenge_failed' });
    }
    const browser = randomBytes(32).toString('base64url');
    const data: StateData = {
      provider: name,
      verifier,
      nonce,
      mode: bindUserId === undefined ? 'login' : 'bind',
      bindUserId: bindUserId?.toString(),
      browser: sha256(browser),
    };
    await deps.store.set(stateKey(state), JSON.stringify(data), STATE_TTL_MS);
    return redirect(
      c,
      url.toString(),
      `${cookieName(state)}=${browser}; Max-Age=${STATE_TTL_MS / 1000}; ${cookieAttributes}`,
    );
  }

  async function callback(c: Context<HonoEnv>): Promise<Response> {
    const query = queryOf(c);
    const state = query.get('state');
    if (!state) return toFrontend(c, { error: 'invalid_state' });
    const clear = `${cookieName(state)}=; Max-Age=0; ${cookieAttributes}`;
    // One use: a state is gone once a callback has read it, whatever happens next.
    const raw = await deps.store.take(stateKey(state));
    if (!raw) return toFrontend(c, { error: 'invalid_state' }, clear);
    const data = JSON.parse(raw) as StateData;
    const param = data.mode === 'bind' ? 'bind' : 'error';
    const fail = (code: string) => toFrontend(c, { [param]: code }, clear);
    const browser = cookieOf(c, cookieName(state));
    if (!browser || sha256(browser) !== data.browser) return fail('invalid_state');
    const denied = query.get('error');
    if (denied) return fail(denied === 'access_denied' ? 'access_denied' : 'external_auth_failed');
    const code = query.get('code');
    if (!code) return fail('external_auth_failed');
    try {
      return await complete(c, data, code, fail, clear);
    } catch (error) {
      deps.logger.error('external login failed', { traceId: c.get('info').traceId, error });
      return fail('server_error');
    }
  }

  async function complete(
    c: Context<HonoEnv>,
    data: StateData,
    code: string,
    fail: (code: string) => Response,
    clear: string,
  ): Promise<Response> {
    const provider = providers.get(data.provider);
    if (!provider) return fail('challenge_failed');

    let identity;
    try {
      identity = await provider.identify(code, data.verifier, data.nonce);
    } catch (error) {
      const kind = error instanceof ProviderError ? error.kind : 'refused';
      deps.logger.warn('external identity could not be read', {
        provider: provider.name,
        kind,
        traceId: c.get('info').traceId,
        error,
      });
      return fail(
        kind === 'unavailable'
          ? 'provider_unavailable'
          : kind === 'profile'
            ? 'external_profile_invalid'
            : 'external_auth_failed',
      );
    }

    if (data.mode === 'bind') {
      const outcome = await bindIdentity(deps, provider, identity, BigInt(data.bindUserId!));
      return toFrontend(
        c,
        outcome === 'success' ? { bind: 'success', provider: provider.name } : { bind: outcome },
        clear,
      );
    }
    const ctx = createRequestContext(c, deps, services, 'rest');
    const outcome = await loginWithIdentity(ctx, provider, identity);
    if (outcome.kind === 'error') return fail(outcome.code);
    if (outcome.kind === 'challenge') {
      const ch = outcome.challenge;
      return toFrontend(
        c,
        {
          requiresTwoFactor: 'true',
          twoFactorTicket: ch.twoFactorTicket,
          availableTwoFactorMethods: ch.availableTwoFactorMethods.join(','),
          ...(ch.twoFactorMethod ? { twoFactorMethod: ch.twoFactorMethod } : {}),
          codeSent: String(ch.codeSent),
        },
        clear,
      );
    }
    const { token } = outcome;
    return toFrontend(
      c,
      { accessToken: token.accessToken, refreshToken: token.refreshToken, expiresIn: String(token.expiresIn) },
      clear,
    );
  }

  const routes: Record<string, (c: Context<HonoEnv>) => Promise<Response>> = {
    '/api/oauth/externallogin': externalLogin,
    '/api/oauth/callback': callback,
  };

  return {
    /** Answers the two OAuth paths (case-insensitive); undefined for any other path. */
    handle(c: Context<HonoEnv>): Promise<Response> | undefined {
      const path = c.req.path.toLowerCase().replace(/\/+$/, '');
      const route = routes[path];
      if (!route) return undefined;
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
        return Promise.resolve(
          respondError(
            c,
            deps,
            appError(commonErrors.METHOD_NOT_ALLOWED, {
              params: { method: c.req.method, allow: 'GET' },
              headers: { Allow: 'GET' },
            }),
          ),
        );
      }
      return route(c).catch((error: unknown) => {
        deps.logger.error('external login failed', { path: c.req.path, traceId: c.get('info').traceId, error });
        const mode = path.endsWith('callback') ? 'error' : queryOf(c).has('bindticket') ? 'bind' : 'error';
        return toFrontend(c, { [mode]: 'server_error' });
      });
    },
  };
}
