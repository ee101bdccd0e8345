import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { AppConfig } from '../../../config/schema.js';
import { PlainDateTime } from '../../../http/serialize.js';
import type { Clock } from '../../../infra/clock.js';
import { WILDCARD_PERMISSION } from '../../authz/permission-catalogue.js';
import { signJwtJson, verifyJwt, type JwtPayload, type JwtResult } from './jwt.js';

/** The user facts carried as claims. */
export interface TokenSubject {
  userId: bigint;
  userName: string;
  email: string | null;
  phone: string | null;
  avatar: string | null;
}

export interface IssueAccessOptions {
  subject: TokenSubject;
  sessionId: bigint;
  /** The session's context; 0 (the platform state) carries no TenantId claim. */
  tenantId: bigint;
  deviceFingerprint: string | null;
  roles: readonly string[];
  isSuperAdmin: boolean;
  /** The instant of issue (default: now); a new session passes its own start. */
  issuedAt?: Date;
  /** How long the token is valid (default: Jwt__AccessTokenMinutes). */
  lifetimeMs?: number;
}

export interface IssuedAccess {
  token: string;
  jti: string;
  issuedAt: Date;
  expiresAt: Date;
  /** The signed claims as JSON text: `reissueAccess` turns it into the very same token again. */
  claimsJson: string;
}

/** Claims of an access token (SPEC "Bearer tokens" rule 2), plus the registered ones. */
export interface AccessClaims extends JwtPayload {
  sub: string;
  jti: string;
  UserId: string;
  UserName: string;
  SessionId: string;
  TenantId?: string;
  Email?: string;
  Phone?: string;
  Picture?: string;
  DeviceFingerprint?: string;
  /** One value per role. */
  role?: string[];
  /** `*` for the super-administrator only: a fast path; every other check reads the snapshot. */
  permission?: string;
}

/** LoginToken (SPEC): issuedAt and expiresAt in the `YYYY-MM-DD HH:mm:ss` form. */
export interface LoginToken {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  issuedAt: PlainDateTime;
  expiresAt: PlainDateTime;
}

/**
 * Verified access tokens by their exact text. With a fixed key, HMAC verification of a given
 * string always gives the same answer, so a successful one can be remembered: a client sends
 * the same token on every request for an hour, and a hit costs one map lookup instead of an
 * HMAC, a decode and a parse. Only successes are kept (garbage cannot fill it), the map is
 * bounded, and the expiry is checked again on every use; revocation is not a property of the
 * token and is checked by the session gate on every request regardless.
 */
const VERIFIED_MAX = 20_000;

/**
 * The refresh-token reuse grace. Two tabs (or a retried request) often present one refresh token
 * at once; one request rotates it, and without a grace the others count as reuse and end the
 * session. Within `Jwt__RefreshReuseGraceSeconds` of a rotation, presenting again the exact pair
 * that rotation spent (same session, same refresh token, same access-token JTI) answers the pair
 * it issued, again, without rotating. That answer must be reproducible on any node, so the
 * session row keeps (written by the rotation's own statement, under the row lock every refresh
 * takes first, so exactly one request rotates and every other sees its result):
 *
 * - the claims of the issued access token as JSON. They are not a credential: anyone holding the
 *   token reads them, and HS256 is deterministic, so signing the same text again with the JWT key
 *   gives the identical token. Who reads the database without the key can sign nothing; who has
 *   the key can already sign any claims.
 * - no refresh token at all. A rotation's new refresh token is derived instead of drawn:
 *   HMAC-SHA256, under a key derived from the JWT secret (HKDF, its own label), of the new JTI
 *   and the presented refresh token in clear. Only someone presenting the old token can derive
 *   the new one; the database holds its SHA-256 and the old one's, as before, and even the JWT
 *   key together with the database does not give it. Without the key the output is as random
 *   as the 256 random bits a login draws.
 *
 * This is sounder than keeping the pair in the shared store: Redis is optional (a single node
 * runs on an in-process store), a store write would come after the commit (another request could
 * see the rotation before the pair), and a sealed copy of a live refresh token would be a secret
 * at rest, readable by whoever also gets the JWT secret.
 */
const SUCCESSOR_LABEL = 'portcullis refresh-token successor';

export function createTokenService(jwt: AppConfig['Jwt'], clock: Clock) {
  const key = Buffer.from(jwt.SecretKey!, 'utf8');
  const successorKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), SUCCESSOR_LABEL, 32));
  const accessMs = jwt.AccessTokenMinutes * 60_000;
  const skewSeconds = jwt.ClockSkewMinutes * 60;
  const verifyBase = { key, skewSeconds, issuer: jwt.Issuer, audience: jwt.Audience };
  const verified = new Map<string, JwtPayload & { exp: number }>();

  return {
    refreshLifetimeMs: jwt.RefreshTokenDays * 86_400_000,
    /** How long the pair a refresh spent may be presented again (0: never; see above). */
    refreshReuseGraceMs: jwt.RefreshReuseGraceSeconds * 1000,
    accessLifetimeMs: accessMs,

    issueAccess(options: IssueAccessOptions): IssuedAccess {
      const issuedAt = options.issuedAt ?? clock.now();
      const expiresAt = new Date(issuedAt.getTime() + (options.lifetimeMs ?? accessMs));
      const jti = randomBytes(16).toString('hex');
      const iat = Math.floor(issuedAt.getTime() / 1000);
      const { subject } = options;
      const claims: AccessClaims = {
        sub: String(subject.userId),
        jti,
        UserId: String(subject.userId),
        UserName: subject.userName,
        SessionId: String(options.sessionId),
        iss: jwt.Issuer,
        aud: jwt.Audience,
        iat,
        nbf: iat,
        exp: Math.floor(expiresAt.getTime() / 1000),
      };
      if (options.tenantId !== 0n) claims.TenantId = String(options.tenantId);
      if (subject.email) claims.Email = subject.email;
      if (subject.phone) claims.Phone = subject.phone;
      if (subject.avatar) claims.Picture = subject.avatar;
      if (options.deviceFingerprint) claims.DeviceFingerprint = options.deviceFingerprint;
      if (options.roles.length) claims.role = [...options.roles];
      if (options.isSuperAdmin) claims.permission = WILDCARD_PERMISSION;
      const claimsJson = JSON.stringify(claims);
      return { token: signJwtJson(claimsJson, key), jti, issuedAt, expiresAt, claimsJson };
    },

    /** The access token `issueAccess` returned with these claims, again (the reuse grace). */
    reissueAccess(claimsJson: string): IssuedAccess {
      const claims = JSON.parse(claimsJson) as AccessClaims & { iat: number; exp: number };
      // The times as issued, to the second: the LoginToken shows them to the second.
      return {
        token: signJwtJson(claimsJson, key),
        jti: claims.jti,
        issuedAt: new Date(claims.iat * 1000),
        expiresAt: new Date(claims.exp * 1000),
        claimsJson,
      };
    },

    verifyAccess(token: string, ignoreExpiry = false): JwtResult {
      const nowSeconds = Math.floor(clock.nowMs() / 1000);
      const known = verified.get(token);
      if (known) {
        if (ignoreExpiry || known.exp + skewSeconds > nowSeconds) return { ok: true, payload: known };
        verified.delete(token);
        return { ok: false, reason: 'expired', payload: known };
      }
      const result = verifyJwt(token, { ...verifyBase, nowSeconds, ignoreExpiry });
      // Not-yet-valid tokens are not remembered: their validity starts later than the check.
      if (
        result.ok &&
        typeof result.payload.exp === 'number' &&
        (typeof result.payload.nbf !== 'number' || result.payload.nbf <= nowSeconds)
      ) {
        if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
        verified.set(token, result.payload as JwtPayload & { exp: number });
      }
      return result;
    },

    /** An opaque refresh token of 256 random bits; only its SHA-256 is ever stored. */
    newRefreshToken(): { token: string; hash: string } {
      const token = randomBytes(32).toString('base64url');
      return { token, hash: hashRefreshToken(token) };
    },

    /**
     * The refresh token a rotation issues with the access token `jti` for the presented refresh
     * token: the same inputs always give the same 256 bits (the reuse grace, see above).
     */
    successorRefreshToken(presented: string, jti: string): { token: string; hash: string } {
      const token = createHmac('sha256', successorKey).update(jti).update('.').update(presented).digest('base64url');
      return { token, hash: hashRefreshToken(token) };
    },

    loginToken(access: IssuedAccess, refreshToken: string): LoginToken {
      return {
        accessToken: access.token,
        refreshToken,
        tokenType: 'Bearer',
        expiresIn: Math.round((access.expiresAt.getTime() - access.issuedAt.getTime()) / 1000),
        issuedAt: new PlainDateTime(access.issuedAt),
        expiresAt: new PlainDateTime(access.expiresAt),
      };
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Typed view of verified claims (a token we signed always has these). */
export function asAccessClaims(payload: JwtPayload): AccessClaims | undefined {
  const p = payload as Partial<AccessClaims>;
  if (
    typeof p.SessionId !== 'string' ||
    typeof p.UserId !== 'string' ||
    typeof p.jti !== 'string' ||
    !/^\d+$/.test(p.SessionId) ||
    !/^\d+$/.test(p.UserId)
  )
    return undefined;
  return p as AccessClaims;
}
