import { and, count, eq, gt, isNull, or, sql, type SQL } from 'drizzle-orm';
import { tenantMemberships, tenants, users } from '../../../../db/schema/index.js';
import { appError } from '../../errors/app-error.js';
import type { Executor } from '../../infra/db/client.js';
import { tenantErrors } from './errors.js';
import { notDeleted } from '../../infra/db/predicates.js';

/** A membership takes a seat while it is Active, not expired, and its user is not deleted. */
export function seatTaken(now: Date): SQL {
  return and(
    eq(tenantMemberships.status, 'Active'),
    or(isNull(tenantMemberships.expirationTime), gt(tenantMemberships.expirationTime, now)),
    sql`${tenantMemberships.userId} in (select ${users.id} from ${users} where ${users.isDeleted} = false)`,
  )!;
}

/** The same rule for one membership in hand (its user is known not to be deleted). */
export function takesSeat(m: { status: string; expirationTime: Date | null }, now: Date): boolean {
  return m.status === 'Active' && (m.expirationTime === null || m.expirationTime > now);
}

/** Seats in use, per tenant, as a select expression (for lists of tenants). */
export function seatsUsedOf(tenantIdColumn: SQL | typeof tenants.id, now: Date) {
  return sql<number>`(select count(*) from ${tenantMemberships} where ${tenantMemberships.tenantId} = ${tenantIdColumn} and ${seatTaken(now)})`.mapWith(
    Number,
  );
}

/**
 * Refuses (422) a new seat when the tenant's seat limit (0 = unlimited) is reached (SPEC Errors
 * rule 9). Call it inside the transaction that adds the member or the user: it locks the tenant
 * row, so two additions racing for the last seat are serialized and only one gets it.
 */
export async function assertSeatAvailable(tx: Executor, tenantId: bigint, now: Date, adding = 1): Promise<void> {
  const [tenant] = await tx
    .select({ name: tenants.name, seatLimit: tenants.seatLimit })
    .from(tenants)
    .where(and(eq(tenants.id, tenantId), notDeleted(tenants.isDeleted)))
    .for('update');
  if (!tenant) throw appError(tenantErrors.NOT_FOUND, { params: { id: String(tenantId) } });
  if (tenant.seatLimit <= 0) return;
  const [used] = await tx
    .select({ n: count() })
    .from(tenantMemberships)
    .where(and(eq(tenantMemberships.tenantId, tenantId), seatTaken(now)));
  if ((used?.n ?? 0) + adding > tenant.seatLimit)
    throw appError(tenantErrors.SEAT_LIMIT_REACHED, { params: { name: tenant.name, limit: tenant.seatLimit } });
}
