import { and, asc, eq, gt, isNull, lte, or } from 'drizzle-orm';
import { tenantMemberships, tenants } from '../../../../../db/schema/index.js';
import type { Executor } from '../../../infra/db/client.js';
import { notDeleted } from '../../../infra/db/predicates.js';

/** A tenant the user may enter, with the membership that allows it. */
export interface AvailableTenant {
  tenantId: bigint;
  tenantCode: string;
  tenantName: string;
  tenantShortName: string | null;
  logo: string | null;
  domain: string | null;
  tenantStatus: string;
  configStatus: string;
  expirationTime: Date | null;
  membershipId: bigint | null;
  memberType: string | null;
  inviteStatus: string | null;
  membershipExpirationTime: Date | null;
  joinedTime: Date | null;
}

/** Whether a tenant can be entered now: Normal, configured, not deleted, not expired. */
export function tenantAvailability(
  row: { status: string; configStatus: string; isDeleted: boolean; expirationTime: Date | null },
  now: Date,
): string | undefined {
  if (row.isDeleted) return 'Deleted';
  if (row.status !== 'Normal') return row.status;
  if (row.configStatus !== 'Configured') return 'NotConfigured';
  if (row.expirationTime && row.expirationTime <= now) return 'Expired';
  return undefined;
}

const tenantColumns = {
  tenantId: tenants.id,
  tenantCode: tenants.code,
  tenantName: tenants.name,
  tenantShortName: tenants.shortName,
  logo: tenants.logo,
  domain: tenants.domain,
  tenantStatus: tenants.status,
  configStatus: tenants.configStatus,
  expirationTime: tenants.expirationTime,
  isDeleted: tenants.isDeleted,
};

/**
 * The tenants a user may enter now: active, accepted memberships within their validity period,
 * in tenants that are available. The super-administrator may enter every available tenant.
 */
export async function availableTenants(
  db: Executor,
  userId: bigint,
  isSuperAdmin: boolean,
  now: Date,
): Promise<AvailableTenant[]> {
  const members = await db
    .select({
      ...tenantColumns,
      membershipId: tenantMemberships.id,
      memberType: tenantMemberships.memberType,
      inviteStatus: tenantMemberships.inviteStatus,
      membershipExpirationTime: tenantMemberships.expirationTime,
      joinedTime: tenantMemberships.joinedTime,
    })
    .from(tenantMemberships)
    .innerJoin(tenants, eq(tenants.id, tenantMemberships.tenantId))
    .where(
      and(
        eq(tenantMemberships.userId, userId),
        eq(tenantMemberships.status, 'Active'),
        eq(tenantMemberships.inviteStatus, 'Accepted'),
        or(isNull(tenantMemberships.effectiveTime), lte(tenantMemberships.effectiveTime, now)),
        or(isNull(tenantMemberships.expirationTime), gt(tenantMemberships.expirationTime, now)),
      ),
    )
    .orderBy(asc(tenants.name), asc(tenants.id));
  const rows: Array<AvailableTenant & { isDeleted: boolean }> = members.filter((m) => m.tenantId !== 0n);
  if (isSuperAdmin) {
    const known = new Set(rows.map((r) => r.tenantId));
    const all = await db
      .select(tenantColumns)
      .from(tenants)
      .where(notDeleted(tenants.isDeleted))
      .orderBy(asc(tenants.name), asc(tenants.id));
    for (const t of all) {
      if (t.tenantId !== 0n && !known.has(t.tenantId))
        rows.push({
          ...t,
          membershipId: null,
          memberType: null,
          inviteStatus: null,
          membershipExpirationTime: null,
          joinedTime: null,
        });
    }
  }
  return rows
    .filter(
      (r) =>
        !tenantAvailability(
          {
            status: r.tenantStatus,
            configStatus: r.configStatus,
            isDeleted: r.isDeleted,
            expirationTime: r.expirationTime,
          },
          now,
        ),
    )
    .map(({ isDeleted: _, ...rest }) => rest);
}

/**
 * Where a login lands (SPEC "Login landing"): a platform account or the super-administrator
 * lands in the platform state (0); exactly one available tenant lands there; zero or several
 * land in the platform state, where the client shows the choice or the reason.
 */
export function landingTenant(homeTenantId: bigint, isSuperAdmin: boolean, available: AvailableTenant[]): bigint {
  if (homeTenantId === 0n || isSuperAdmin) return 0n;
  const memberships = available.filter((t) => t.membershipId !== null);
  return memberships.length === 1 ? memberships[0]!.tenantId : 0n;
}
