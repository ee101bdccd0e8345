import { and, eq, exists, inArray, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { permissions, tenantMemberships, users } from '../../../../db/schema/index.js';
import type { AuthorizationService } from '../authz/service.js';
import { appError } from '../../errors/app-error.js';
import { commonErrors } from '../../errors/common.js';
import type { Executor } from '../../infra/db/client.js';
import type { PagedRequest } from '../../query/index.js';
import { defineEnum } from '../../rpc/wire.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { isPlatformCode, WILDCARD_PERMISSION } from '../authz/permission-catalogue.js';
import { allows, type AuthorizationSnapshot } from '../authz/snapshot.js';
import { adminErrors } from './errors.js';
import { notDeleted } from '../../infra/db/predicates.js';

/**
 * What every administration router shares: the context an operation acts in, the caller's
 * snapshot, the cache invalidations that make a change apply on the next request, and the rule
 * that nobody hands out a permission they do not hold.
 *
 * Scoping: every query and write of roles, departments, positions, menus and memberships is
 * bounded by `ctx.auth.tenantId`, the session's current context. The platform state (0) sees the
 * platform's own data; the super-administrator reaches a tenant's data only after switching in.
 */

/** The context of an authenticated procedure (the guard has set `auth`). */
/** What the scope helpers read of an authenticated request context. */
export interface AdminContext {
  auth: AuthContext;
  services: { authz: AuthorizationService };
}

/** Enabled/Disabled, as the original writes the status of roles, departments, positions and menus. */
export const EnableStatus = defineEnum('EnableStatus', { Disabled: 0, Enabled: 1 });

/** A 64-bit count (bytes) as written: a decimal string. */
export const zInt64Out = () => z.string().regex(/^-?\d+$/);

/** The caller's authorization snapshot in its current context (never call inside a transaction). */
export async function snapshotOf(ctx: AdminContext): Promise<AuthorizationSnapshot> {
  return ctx.services.authz.get(ctx.auth.userId, ctx.auth.tenantId);
}

/** `can` for paged lists: whether the caller holds a code. */
export async function canOf(ctx: AdminContext): Promise<(code: string) => boolean> {
  const snapshot = await snapshotOf(ctx);
  return (code) => allows(snapshot, code);
}

/** Tenant management is a platform operation: refused inside a tenant. */
export function requirePlatform(ctx: AdminContext): void {
  if (ctx.auth.tenantId !== 0n) throw appError(adminErrors.PLATFORM_ONLY);
}

/** Operations on the current tenant (memberships) need one: refused in the platform state. */
export function requireTenant(ctx: AdminContext): bigint {
  if (ctx.auth.tenantId === 0n) throw appError(adminErrors.TENANT_CONTEXT_REQUIRED);
  return ctx.auth.tenantId;
}

/**
 * After a committed change to roles, grants, inheritance or data scopes of a context: drops the
 * cached snapshots so the change applies on the next request on every node. Global roles
 * (tenant 0) take part in every tenant's snapshots, so their changes drop everything.
 */
export async function invalidateGrants(deps: { authz: AuthorizationService }, tenantId: bigint): Promise<void> {
  if (tenantId === 0n) await deps.authz.invalidateAll();
  else await deps.authz.invalidateTenant(tenantId);
}

/** 409 when the caller read an older version than the row has now. */
export function checkVersion(current: { version: number }, expected: number | null | undefined): void {
  if (expected !== undefined && expected !== null && expected !== current.version)
    throw appError(commonErrors.VERSION_CONFLICT);
}

/** A catalogue entry as the grant operations use it. */
export interface CataloguePermission {
  id: bigint;
  code: string;
}

/**
 * Looks up permissions by id or code: each must exist, be enabled and not be the wildcard (which
 * only the seed grants). Unknown ones answer 422 naming the first.
 */
export async function resolvePermissions(
  db: Executor,
  refs: { ids?: readonly bigint[]; codes?: readonly string[] },
): Promise<CataloguePermission[]> {
  const ids = [...new Set(refs.ids ?? [])];
  const codes = [...new Set((refs.codes ?? []).map((c) => c.trim().toLowerCase()))];
  const found = new Map<bigint, CataloguePermission>();
  if (ids.length) {
    const rows = await db
      .select({ id: permissions.id, code: permissions.code })
      .from(permissions)
      .where(and(inArray(permissions.id, ids), eq(permissions.isEnabled, true)));
    const known = new Set(rows.map((r) => r.id));
    const missing = ids.find((id) => !known.has(id));
    if (missing !== undefined)
      throw appError(adminErrors.PERMISSION_UNKNOWN, { params: { permission: String(missing) } });
    for (const r of rows) found.set(r.id, r);
  }
  if (codes.length) {
    const rows = await db
      .select({ id: permissions.id, code: permissions.code })
      .from(permissions)
      .where(and(inArray(permissions.code, codes), eq(permissions.isEnabled, true)));
    const known = new Set(rows.map((r) => r.code.toLowerCase()));
    const missing = codes.find((c) => !known.has(c));
    if (missing !== undefined) throw appError(adminErrors.PERMISSION_UNKNOWN, { params: { permission: missing } });
    for (const r of rows) found.set(r.id, r);
  }
  const wildcard = [...found.values()].find((p) => p.code === WILDCARD_PERMISSION);
  if (wildcard) throw appError(adminErrors.PERMISSION_UNKNOWN, { params: { permission: WILDCARD_PERMISSION } });
  return [...found.values()];
}

/**
 * Nobody hands out what they do not hold: every code must be allowed by the caller's own
 * snapshot (roles and edition whitelist; the super-administrator holds everything its edition
 * allows). Without this, a tenant administrator holding `role-permission:grant` could grant
 * themselves any code through a role they hold.
 */
export function assertHolds(snapshot: AuthorizationSnapshot, codes: Iterable<string>): void {
  for (const code of codes) {
    if (!allows(snapshot, code)) throw appError(adminErrors.CANNOT_GRANT_UNHELD, { params: { permission: code } });
  }
}

/**
 * Platform codes stay with the platform: a role of a tenant (any context but 0) cannot be given
 * one (422 naming the first), whoever asks. Checked before `assertHolds`, so the answer says why.
 */
export function assertGrantableIn(tenantId: bigint, codes: Iterable<string>): void {
  if (tenantId === 0n) return;
  for (const code of codes) {
    if (isPlatformCode(code)) throw appError(adminErrors.PLATFORM_CODE_NOT_GRANTABLE, { params: { permission: code } });
  }
}

/** Ids out as strings (the wire form of 64-bit integers). */
export const idOut = (id: bigint): string => String(id);
export const idOrNull = (id: bigint | null | undefined): string | null =>
  id === null || id === undefined ? null : String(id);

/**
 * The original's list requests carry a plain top-level `keyword`; it searches the list's default
 * keyword fields unless the request also has a `conditions.keyword`, which wins.
 */
export function withKeyword(request: PagedRequest, keyword: string | null | undefined): PagedRequest {
  const value = keyword?.trim();
  if (!value || request.conditions.keyword) return request;
  return { ...request, conditions: { ...request.conditions, keyword: { value, fields: [], matchMode: 'Contains' } } };
}

/** The top-level keyword of a list request (up to 200 characters, like the paged keyword). */
export const zKeyword = () => z.string().max(200).nullish();

/** A stored enum name as written: the stored value when the enum knows it, else the fallback. */
export function nameIn<N extends string>(def: { names: readonly N[] }, value: string, fallback: N): N {
  return (def.names as readonly string[]).includes(value) ? (value as N) : fallback;
}

/**
 * A user who belongs to the context: a platform account in the platform state, otherwise a user
 * whose home is the tenant or who holds a membership of it (any status). 404 for anyone else,
 * so a tenant cannot probe for other tenants' people.
 */
export async function requireContextUser(db: Executor, tenantId: bigint, userId: bigint): Promise<void> {
  const inTenant =
    tenantId === 0n
      ? eq(users.tenantId, 0n)
      : or(
          eq(users.tenantId, tenantId),
          exists(
            db
              .select({ one: sql`1` })
              .from(tenantMemberships)
              .where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.userId, users.id))),
          ),
        );
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), notDeleted(users.isDeleted), inTenant));
  if (!row) throw appError(adminErrors.USER_NOT_FOUND, { params: { id: String(userId) } });
}
