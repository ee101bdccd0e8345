import { appError } from '../../../errors/app-error.js';
import type { Clock } from '../../../infra/clock.js';
import type { RouteMeta } from '../../../rpc/meta.js';
import { isPlatformCode, WILDCARD_PERMISSION } from '../../authz/permission-catalogue.js';
import type { AuthorizationService } from '../../authz/service.js';
import { allows, type AuthorizationSnapshot } from '../../authz/snapshot.js';
import { authErrors } from '../errors.js';
import { SessionStatus, type SessionState, type SessionStateService } from './session-state.js';
import { asAccessClaims, type AccessClaims, type TokenService } from './tokens.js';

/** Who is calling, established by the gate for every non-anonymous procedure. */
export interface AuthContext {
  userId: bigint;
  sessionId: bigint;
  /** The session's current context: 0 is the platform state. */
  tenantId: bigint;
  claims: AccessClaims;
  state: SessionState;
}

/** The bearer token of an Authorization header value. */
export function bearerToken(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return undefined;
  const token = header.slice(space + 1).trim();
  return token || undefined;
}

/** What the gate reads: the request context satisfies it, and so does a hub's connection check. */
export interface GateContext {
  deps: { clock: Clock };
  services: { tokens: TokenService; sessionState: SessionStateService };
}

/**
 * Verifies the token, then checks through the session-state cache that the session is Active,
 * not deleted and not past its absolute expiry, that the token's JTI is the session's current
 * one, that the user's security stamp has not changed since login, that the user may still log
 * in, and that the session's tenant is available. Throws the matching 401/403.
 */
export async function authenticateToken(ctx: GateContext, token: string | undefined): Promise<AuthContext> {
  const { deps, services } = ctx;
  if (!token) throw appError(authErrors.UNAUTHENTICATED);
  const verified = services.tokens.verifyAccess(token);
  if (!verified.ok) {
    if (verified.reason === 'expired') {
      // The original's signal for clients that refresh on it.
      throw appError(authErrors.TOKEN_EXPIRED, { headers: { 'Token-Expired': 'true' } });
    }
    throw appError(authErrors.TOKEN_INVALID);
  }
  const claims = asAccessClaims(verified.payload);
  if (!claims) throw appError(authErrors.TOKEN_INVALID);
  const sessionId = BigInt(claims.SessionId);
  const cached = services.sessionState.get(sessionId);
  const state = cached instanceof Promise ? await cached : cached;
  const now = deps.clock.nowMs();
  if (!state || state.userId !== claims.UserId) throw appError(authErrors.LOGIN_EXPIRED);
  if (state.status !== SessionStatus.Active || state.isDeleted || state.expirationMs <= now)
    throw appError(authErrors.LOGIN_EXPIRED);
  if (state.sessionStamp !== state.userStamp || !state.userEnabled) throw appError(authErrors.LOGIN_EXPIRED);
  if (state.jti !== claims.jti) throw appError(authErrors.TOKEN_INVALID);
  return { userId: state.ids.userId, sessionId, tenantId: state.ids.tenantId, claims, state };
}

/**
 * 403 when the session's tenant is no longer open to the user: the tenant is suspended, expired,
 * unconfigured or deleted, or the user's membership was withdrawn or has run out (the
 * super-administrator enters without one). Procedures marked `allowOutsideTenant` stay reachable
 * so the client can log out, list its tenants and switch elsewhere.
 */
export function enforceTenant(auth: AuthContext, meta: RouteMeta | undefined, now: number): void {
  const { state } = auth;
  if (state.tenantStatus === null || meta?.allowOutsideTenant) return;
  const reason = tenantRefusal(state, auth.claims.permission === WILDCARD_PERMISSION, now);
  if (reason === 'NotMember') throw appError(authErrors.TENANT_NOT_MEMBER);
  if (reason) throw appError(authErrors.TENANT_UNAVAILABLE, { params: { reason } });
}

function tenantRefusal(state: SessionState, isSuperAdmin: boolean, now: number): string | undefined {
  if (state.tenantStatus !== 'Normal') return state.tenantStatus ?? undefined;
  if (state.tenantExpirationMs !== null && state.tenantExpirationMs <= now) return 'Expired';
  if (!state.tenantConfigured) return 'NotConfigured';
  if (isSuperAdmin) return undefined;
  const m = state.membership;
  if (!m || (m.fromMs !== null && m.fromMs > now) || (m.untilMs !== null && m.untilMs <= now)) return 'NotMember';
  return undefined;
}

/** The lock detail the original front end shows on its unlock screen. */
export function lockDetail(state: SessionState) {
  return { reason: state.lockReason ?? 'ScreenLock', displayName: state.displayName, avatarUrl: state.avatar };
}

/** 423 unless the procedure is reachable under this lock. */
export function enforceLock(auth: AuthContext, meta: RouteMeta | undefined): void {
  const { state } = auth;
  if (!state.isLocked) return;
  const allowed = meta?.allowWhileLocked;
  if (allowed === true || (allowed !== undefined && allowed === state.lockReason)) return;
  const def =
    state.lockReason === 'PasswordChangeRequired' ? authErrors.PASSWORD_CHANGE_REQUIRED : authErrors.SESSION_LOCKED;
  throw appError(def, { detail: lockDetail(state) });
}

/** 403 when the snapshot lacks the code or the tenant's edition excludes it. */
export async function requirePermission(
  ctx: { services: { authz: AuthorizationService } },
  auth: AuthContext,
  code: string,
): Promise<void> {
  // The super-administrator's token carries `*`: a fast path without the snapshot (SPEC rule 3),
  // except inside a tenant, where the edition whitelist still applies.
  if (auth.claims.permission === WILDCARD_PERMISSION && auth.tenantId === 0n) return;
  const pending = ctx.services.authz.get(auth.userId, auth.tenantId);
  requireAllowed(pending instanceof Promise ? await pending : pending, code);
}

/**
 * 403 unless the snapshot allows the code, naming why: a platform code inside a tenant, a code
 * the tenant's edition excludes, or a code the roles do not grant.
 */
export function requireAllowed(snapshot: AuthorizationSnapshot, code: string): void {
  if (allows(snapshot, code)) return;
  if (snapshot.tenantId !== '0' && isPlatformCode(code))
    throw appError(authErrors.PLATFORM_PERMISSION, { params: { permission: code } });
  const granted = snapshot.permissions.includes('*') || snapshot.permissions.includes(code.toLowerCase());
  throw appError(granted ? authErrors.EDITION_FORBIDS : authErrors.PERMISSION_DENIED, { params: { permission: code } });
}
