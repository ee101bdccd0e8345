import {
  ArcticFetchError,
  CodeChallengeMethod,
  GitHub,
  GitLab,
  Google,
  MicrosoftEntraId,
  OAuth2Client,
  OAuth2RequestError,
  UnexpectedErrorResponseBodyError,
  UnexpectedResponseError,
  type OAuth2Tokens,
} from 'arctic';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { AppConfig } from '../../config/schema.js';

/**
 * The external identity providers configured in `OAuth__Providers__<name>__*`, as arctic
 * clients: GitHub, Google, Microsoft Entra ID and GitLab with their fixed endpoints (which the
 * endpoint keys can override, e.g. for GitHub Enterprise), and any OpenID Connect provider by
 * its issuer (discovery document, authorization code with PKCE, an ID token verified against the
 * issuer's keys, the nonce, and the userinfo endpoint). A provider reads one identity per login:
 * subject, e-mail (and whether the provider verified it), display name and avatar. Third-party
 * tokens are used for that one read and never stored.
 */

export type ProviderType = AppConfig['OAuth']['Providers'][string]['Type'];

/** What the service keeps of an external identity. */
export interface ExternalIdentity {
  subject: string;
  email: string | null;
  /** Only a provider-verified address is ever adopted as the account's e-mail. */
  emailVerified: boolean;
  displayName: string | null;
  avatar: string | null;
}

/** Why a provider step failed: the redirect's error code is chosen from it. */
export class ProviderError extends Error {
  constructor(
    readonly kind: 'refused' | 'unavailable' | 'profile',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ProviderError';
  }
}

export interface OAuthProvider {
  /** The entry's name (the `provider` query parameter and the LoginConfig button). */
  name: string;
  /** The identity namespace stored with linked accounts (entries of one provider share it). */
  provider: string;
  displayName: string;
  type: ProviderType;
  /** Where the browser goes to consent. */
  authorizationUrl(state: string, codeVerifier: string, nonce: string): Promise<URL>;
  /** Exchanges the authorization code and reads the identity. */
  identify(code: string, codeVerifier: string, nonce: string): Promise<ExternalIdentity>;
}

type ProviderConfig = AppConfig['OAuth']['Providers'][string];

const DEFAULT_SCOPES: Record<ProviderType, string[]> = {
  github: ['read:user', 'user:email'],
  google: ['openid', 'email', 'profile'],
  'microsoft-entra-id': ['openid', 'email', 'profile'],
  gitlab: ['read_user'],
  oidc: ['openid', 'email', 'profile'],
};

const TYPE_NAMES: Record<ProviderType, string> = {
  github: 'GitHub',
  google: 'Google',
  'microsoft-entra-id': 'Microsoft',
  gitlab: 'GitLab',
  oidc: 'OpenID Connect',
};

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Runs a provider call under the configured time limit; a hanging provider counts as unavailable. */
function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderError('unavailable', `no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Maps arctic's failures: a refusal by the provider, or the provider unreachable or broken. */
function classify(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof OAuth2RequestError)
    return new ProviderError('refused', `token request refused: ${error.code}`, { cause: error });
  if (error instanceof ArcticFetchError)
    return new ProviderError('unavailable', 'token endpoint unreachable', { cause: error });
  if (error instanceof UnexpectedResponseError)
    return new ProviderError(
      error.status >= 500 ? 'unavailable' : 'refused',
      `token endpoint answered ${error.status}`,
      { cause: error },
    );
  if (error instanceof UnexpectedErrorResponseBodyError)
    return new ProviderError('refused', `token endpoint answered ${error.status}`, { cause: error });
  return new ProviderError('refused', error instanceof Error ? error.message : String(error), { cause: error });
}

/** A JSON GET with a bearer token (profile and userinfo endpoints). */
async function getJson(
  url: string,
  accessToken: string,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json',
        'user-agent': 'Portcullis',
        ...headers,
      },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new ProviderError('unavailable', `${new URL(url).host} unreachable`, { cause: error });
  }
  if (!response.ok) {
    await response.arrayBuffer().catch(() => undefined);
    throw new ProviderError(
      response.status >= 500 ? 'unavailable' : 'refused',
      `${new URL(url).pathname} answered ${response.status}`,
    );
  }
  try {
    const body = (await response.json()) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
    return body as Record<string, unknown>;
  } catch (error) {
    throw new ProviderError('profile', `${new URL(url).pathname} did not answer a JSON object`, { cause: error });
  }
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const subjectOf = (v: unknown): string => {
  const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : text(v);
  if (!s || s.length > 255) throw new ProviderError('profile', 'the identity has no usable subject');
  return s;
};
const accessTokenOf = (tokens: OAuth2Tokens): string => {
  try {
    return tokens.accessToken();
  } catch (error) {
    throw new ProviderError('refused', 'the token response has no access token', { cause: error });
  }
};

interface Flow {
  /** PKCE (S256) is sent when the provider's protocol takes it. */
  authorize(state: string, verifier: string, scopes: string[]): URL;
  exchange(code: string, verifier: string): Promise<OAuth2Tokens>;
}

/** arctic's provider class with its fixed endpoints, or its generic client when the endpoints are overridden. */
function flowOf(type: Exclude<ProviderType, 'oidc'>, p: ProviderConfig, redirectUri: string): Flow {
  const overridden = p.AuthorizationEndpoint && p.TokenEndpoint;
  if (overridden) {
    const client = new OAuth2Client(p.ClientId, p.ClientSecret ?? null, redirectUri);
    const pkce = type === 'google' || type === 'microsoft-entra-id';
    return {
      authorize: (state, verifier, scopes) =>
        pkce
          ? client.createAuthorizationURLWithPKCE(
              p.AuthorizationEndpoint!,
              state,
              CodeChallengeMethod.S256,
              verifier,
              scopes,
            )
          : client.createAuthorizationURL(p.AuthorizationEndpoint!, state, scopes),
      exchange: (code, verifier) => client.validateAuthorizationCode(p.TokenEndpoint!, code, pkce ? verifier : null),
    };
  }
  switch (type) {
    case 'github': {
      const c = new GitHub(p.ClientId, p.ClientSecret!, redirectUri);
      return {
        authorize: (s, _v, scopes) => c.createAuthorizationURL(s, scopes),
        exchange: (code) => c.validateAuthorizationCode(code),
      };
    }
    case 'google': {
      const c = new Google(p.ClientId, p.ClientSecret!, redirectUri);
      return {
        authorize: (s, v, scopes) => c.createAuthorizationURL(s, v, scopes),
        exchange: (code, v) => c.validateAuthorizationCode(code, v),
      };
    }
    case 'microsoft-entra-id': {
      const c = new MicrosoftEntraId(p.Tenant, p.ClientId, p.ClientSecret ?? null, redirectUri);
      return {
        authorize: (s, v, scopes) => c.createAuthorizationURL(s, v, scopes),
        exchange: (code, v) => c.validateAuthorizationCode(code, v),
      };
    }
    case 'gitlab': {
      const c = new GitLab(
        trimSlash(p.BaseUrl ?? 'https://gitlab.com'),
        p.ClientId,
        p.ClientSecret ?? null,
        redirectUri,
      );
      return {
        authorize: (s, _v, scopes) => c.createAuthorizationURL(s, scopes),
        exchange: (code) => c.validateAuthorizationCode(code),
      };
    }
  }
}

/** Reads the identity from a fixed-endpoint provider's profile API. */
async function profileOf(
  type: Exclude<ProviderType, 'oidc'>,
  p: ProviderConfig,
  accessToken: string,
  timeoutMs: number,
): Promise<ExternalIdentity> {
  switch (type) {
    case 'github': {
      const api = trimSlash(p.ApiBaseUrl ?? 'https://api.github.com');
      const headers = { accept: 'application/vnd.github+json' };
      const user = await getJson(p.UserInfoEndpoint ?? `${api}/user`, accessToken, timeoutMs, headers);
      // The verified primary address needs the user:email scope; without it, no e-mail is adopted.
      let email: string | null = null;
      try {
        const emails = (await fetch(`${api}/user/emails`, {
          headers: { authorization: `Bearer ${accessToken}`, 'user-agent': 'Portcullis', ...headers },
          signal: AbortSignal.timeout(timeoutMs),
        }).then((r) => (r.ok ? r.json() : []))) as unknown;
        const primary = Array.isArray(emails)
          ? (emails as Array<{ email?: unknown; primary?: unknown; verified?: unknown }>).find(
              (e) => e.primary === true && e.verified === true,
            )
          : undefined;
        email = text(primary?.email);
      } catch {
        email = null;
      }
      return {
        subject: subjectOf(user.id),
        email,
        emailVerified: email !== null,
        displayName: text(user.name) ?? text(user.login),
        avatar: text(user.avatar_url),
      };
    }
    case 'gitlab': {
      const base = trimSlash(p.BaseUrl ?? 'https://gitlab.com');
      const user = await getJson(p.UserInfoEndpoint ?? `${base}/api/v4/user`, accessToken, timeoutMs);
      const email = text(user.email);
      return {
        subject: subjectOf(user.id),
        email,
        emailVerified: email !== null && !!text(user.confirmed_at),
        displayName: text(user.name) ?? text(user.username),
        avatar: text(user.avatar_url),
      };
    }
    case 'google': {
      const info = await getJson(
        p.UserInfoEndpoint ?? 'https://openidconnect.googleapis.com/v1/userinfo',
        accessToken,
        timeoutMs,
      );
      const email = text(info.email);
      return {
        subject: subjectOf(info.sub),
        email,
        emailVerified: email !== null && info.email_verified === true,
        displayName: text(info.name),
        avatar: text(info.picture),
      };
    }
    case 'microsoft-entra-id': {
      const info = await getJson(
        p.UserInfoEndpoint ?? 'https://graph.microsoft.com/oidc/userinfo',
        accessToken,
        timeoutMs,
      );
      // Entra ID does not vouch for the e-mail claim (any tenant can set it): never treated as verified.
      return {
        subject: subjectOf(info.sub),
        email: text(info.email),
        emailVerified: false,
        displayName: text(info.name),
        avatar: text(info.picture),
      };
    }
  }
}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint?: string;
  jwks_uri?: string;
}

/** A generic OpenID Connect provider found by its issuer (discovery cached for an hour). */
function oidcProvider(
  p: ProviderConfig,
  redirectUri: string,
  timeoutMs: number,
): Pick<OAuthProvider, 'authorizationUrl' | 'identify'> {
  const issuer = trimSlash(p.Issuer!);
  const client = new OAuth2Client(p.ClientId, p.ClientSecret ?? null, redirectUri);
  let cached: { at: number; doc: Discovery } | undefined;
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;

  async function discover(): Promise<Discovery> {
    if (cached && Date.now() - cached.at < 3_600_000) return cached.doc;
    let response: Response;
    try {
      response = await fetch(`${issuer}/.well-known/openid-configuration`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ProviderError('unavailable', 'discovery document unreachable', { cause: error });
    }
    if (!response.ok) throw new ProviderError('unavailable', `discovery document answered ${response.status}`);
    const doc = (await response.json().catch(() => undefined)) as Partial<Discovery> | undefined;
    if (!doc || trimSlash(String(doc.issuer ?? '')) !== issuer || !doc.authorization_endpoint || !doc.token_endpoint) {
      throw new ProviderError('unavailable', 'the discovery document does not describe this issuer');
    }
    const merged: Discovery = {
      ...(doc as Discovery),
      authorization_endpoint: p.AuthorizationEndpoint ?? doc.authorization_endpoint,
      token_endpoint: p.TokenEndpoint ?? doc.token_endpoint,
      userinfo_endpoint: p.UserInfoEndpoint ?? doc.userinfo_endpoint,
    };
    if (merged.jwks_uri && (!keys || merged.jwks_uri !== cached?.doc.jwks_uri))
      keys = createRemoteJWKSet(new URL(merged.jwks_uri), { timeoutDuration: timeoutMs });
    cached = { at: Date.now(), doc: merged };
    return merged;
  }

  return {
    async authorizationUrl(state, verifier, nonce) {
      const doc = await discover();
      const url = client.createAuthorizationURLWithPKCE(
        doc.authorization_endpoint,
        state,
        CodeChallengeMethod.S256,
        verifier,
        p.Scopes.length ? p.Scopes : DEFAULT_SCOPES.oidc,
      );
      url.searchParams.set('nonce', nonce);
      return url;
    },
    async identify(code, verifier, nonce) {
      const doc = await discover();
      const tokens = await bounded(
        client.validateAuthorizationCode(doc.token_endpoint, code, verifier),
        timeoutMs,
      ).catch((e: unknown) => Promise.reject(classify(e)));
      let claims: JWTPayload = {};
      const idToken =
        'id_token' in tokens.data && typeof tokens.data.id_token === 'string' ? tokens.data.id_token : undefined;
      if (idToken) {
        if (!keys) throw new ProviderError('profile', 'the issuer publishes no keys to verify its ID token');
        try {
          ({ payload: claims } = await jwtVerify(idToken, keys, {
            issuer: doc.issuer,
            audience: p.ClientId,
            clockTolerance: 60,
          }));
        } catch (error) {
          throw new ProviderError('refused', 'the ID token did not verify', { cause: error });
        }
        if (claims.nonce !== nonce)
          throw new ProviderError('refused', 'the ID token does not carry this login’s nonce');
      }
      if (doc.userinfo_endpoint) {
        const info = await getJson(doc.userinfo_endpoint, accessTokenOf(tokens), timeoutMs);
        if (claims.sub !== undefined && info.sub !== claims.sub)
          throw new ProviderError('profile', 'userinfo is about another subject than the ID token');
        claims = { ...claims, ...info };
      } else if (!idToken) {
        throw new ProviderError('profile', 'neither an ID token nor a userinfo endpoint');
      }
      const email = text(claims.email);
      return {
        subject: subjectOf(claims.sub),
        email,
        emailVerified: email !== null && claims.email_verified === true,
        displayName: text(claims.name) ?? text(claims.preferred_username),
        avatar: text(claims.picture),
      };
    },
  };
}

/** Builds every enabled provider of the configuration. */
export function createProviderRegistry(config: AppConfig): Map<string, OAuthProvider> {
  const redirectUri = `${trimSlash(config.App.PublicBaseUrl)}/api/OAuth/Callback`;
  const timeoutMs = config.OAuth.TimeoutSeconds * 1000;
  const registry = new Map<string, OAuthProvider>();
  for (const [name, p] of Object.entries(config.OAuth.Providers)) {
    if (!p.Enabled) continue;
    const base = { name, provider: p.Provider ?? name, displayName: p.DisplayName ?? TYPE_NAMES[p.Type], type: p.Type };
    const type = p.Type;
    if (type === 'oidc') {
      registry.set(name, { ...base, ...oidcProvider(p, redirectUri, timeoutMs) });
      continue;
    }
    const flow = flowOf(type, p, redirectUri);
    const scopes = p.Scopes.length ? p.Scopes : DEFAULT_SCOPES[type];
    registry.set(name, {
      ...base,
      authorizationUrl: async (state, verifier) => flow.authorize(state, verifier, scopes),
      async identify(code, verifier) {
        const tokens = await bounded(flow.exchange(code, verifier), timeoutMs).catch((e: unknown) =>
          Promise.reject(classify(e)),
        );
        return profileOf(type, p, accessTokenOf(tokens), timeoutMs);
      },
    });
  }
  return registry;
}
