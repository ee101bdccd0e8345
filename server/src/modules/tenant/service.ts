import { and, eq, ne } from 'drizzle-orm';
import { editions, tenantMemberships, tenants, users } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import type { SessionStateService } from '../auth/session/session-state.js';
import { appError } from '../../errors/app-error.js';
import type { Executor, Transaction } from '../../infra/db/client.js';
import { updateVersioned } from '../../infra/db/versioned.js';
import { definePagedList, type PagedRequest } from '../../query/index.js';
import { auditChange, fieldsOf, type Actor } from '../audit/change.js';
import type { AuditAction } from '../audit/write.js';
import { adminErrors } from '../permission/errors.js';
import { checkVersion, idOrNull, idOut, nameIn } from '../permission/admin-scope.js';
import { ConfigStatus, TenantStatus } from './enums.js';
import { tenantErrors } from './errors.js';
import type { CreateTenantInput, UpdateTenantInput } from './schemas.js';
import { assertSeatAvailable, seatsUsedOf } from './seats.js';
import { notDeleted } from '../../infra/db/predicates.js';

type Deps = Pick<AppDeps, 'db' | 'ids' | 'clock'> & { authz: AuthorizationService; sessionState: SessionStateService };
type Tenant = typeof tenants.$inferSelect;

/** The status operations, each with its own audit action (one entry per request). */
export type TenantStatusAction = Extract<AuditAction, 'TenantStatusChanged' | 'TenantSuspended' | 'TenantResumed'>;

/** The tenants list of TenantQuery/TenantPage. */
export const tenantList = definePagedList({
  fields: {
    basicId: { column: tenants.id, type: 'id' },
    tenantCode: { column: tenants.code, type: 'string', keyword: true },
    tenantName: { column: tenants.name, type: 'string', keyword: true },
    tenantShortName: { column: tenants.shortName, type: 'string', keyword: true },
    domain: { column: tenants.domain, type: 'string', keyword: true },
    tenantStatus: { column: tenants.status, type: 'enum', enum: TenantStatus },
    configStatus: { column: tenants.configStatus, type: 'enum', enum: ConfigStatus },
    editionId: { column: tenants.editionId, type: 'id' },
    seatLimit: { column: tenants.seatLimit, type: 'integer' },
    expirationTime: { column: tenants.expirationTime, type: 'datetime' },
    createdTime: { column: tenants.createdTime, type: 'datetime' },
  },
  defaultSort: [{ field: 'createdTime', direction: 'Descending' }],
  tieBreaker: tenants.id,
  defaultKeywordFields: ['tenantCode', 'tenantName', 'tenantShortName'],
});

/** Live tenants other than the platform context (tenant 0 is not managed through the API). */
const managed = and(notDeleted(tenants.isDeleted), ne(tenants.id, 0n));

const select = (q: Executor, now: Date) =>
  q
    .select({ tenant: tenants, editionName: editions.name, seatsUsed: seatsUsedOf(tenants.id, now) })
    .from(tenants)
    .leftJoin(editions, eq(editions.id, tenants.editionId))
    .$dynamic();

type Row = { tenant: typeof tenants.$inferSelect; editionName: string | null; seatsUsed: number };

function toDetail({ tenant: t, editionName, seatsUsed }: Row) {
  return {
    basicId: idOut(t.id),
    tenantCode: t.code,
    tenantName: t.name,
    tenantShortName: t.shortName,
    logo: t.logo,
    domain: t.domain,
    tenantStatus: nameIn(TenantStatus, t.status, 'Disabled'),
    configStatus: nameIn(ConfigStatus, t.configStatus, 'Pending'),
    suspendedTime: t.suspendedTime,
    suspendReason: t.suspendReason,
    editionId: idOrNull(t.editionId),
    editionName,
    seatLimit: t.seatLimit,
    seatsUsed,
    storageQuotaBytes: String(t.storageQuotaBytes),
    storageUsedBytes: String(t.storageUsedBytes),
    expirationTime: t.expirationTime,
    version: t.version,
    createdTime: t.createdTime,
    modifiedTime: t.modifiedTime,
  };
}

/**
 * The edition a tenant is given must exist and, unless the tenant already has it (forms send the
 * whole record back), be enabled: a disabled edition is withdrawn from sale, while the tenants
 * on it keep it and its whitelist.
 */
async function requireEdition(db: Executor, id: bigint | null | undefined, current?: bigint | null): Promise<void> {
  if (id === null || id === undefined) return;
  const [row] = await db
    .select({ id: editions.id, name: editions.name, status: editions.status })
    .from(editions)
    .where(eq(editions.id, id));
  if (!row) throw appError(tenantErrors.EDITION_NOT_FOUND, { params: { id: String(id) } });
  if (row.status !== 'Enabled' && id !== current)
    throw appError(tenantErrors.EDITION_DISABLED, { params: { name: row.name } });
}

/**
 * Tenants, as the platform manages them. Every change that can affect who may act in a tenant
 * (status, expiry, configuration, edition) drops, after it commits, the cached session state
 * and authorization snapshots of that tenant on every node: its sessions answer 403 "tenant not
 * available" (or lose the codes the new edition excludes) on their next request.
 */
export function createTenantService(deps: Deps) {
  const { db, ids, clock } = deps;

  async function detail(id: bigint) {
    const [row] = await select(db, clock.now()).where(and(managed, eq(tenants.id, id)));
    if (!row) throw appError(tenantErrors.NOT_FOUND, { params: { id: String(id) } });
    return toDetail(row);
  }

  async function changed(id: bigint) {
    await deps.sessionState.invalidateTenant(id);
    await deps.authz.invalidateTenant(id);
    return detail(id);
  }

  /** Entries of a tenant go to that tenant's trail, though written from the platform state. */
  const audit = (
    tx: Transaction,
    actor: Actor,
    action: AuditAction,
    tenantId: bigint,
    detail: Record<string, unknown>,
  ) => auditChange(tx, deps, actor, action, { type: 'Tenant', id: tenantId, tenantId }, detail);

  /**
   * A versioned change of a managed tenant (404 for tenant 0, deleted and unknown ones), audited
   * in its transaction with the action and detail `describe` makes of the row before it.
   */
  async function change(
    actor: Actor,
    id: bigint,
    version: number | null | undefined,
    values: Record<string, unknown>,
    describe: (current: Tenant) => [AuditAction, Record<string, unknown>],
  ): Promise<void> {
    await db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(tenants)
        .where(and(managed, eq(tenants.id, id)));
      if (!current) throw appError(tenantErrors.NOT_FOUND, { params: { id: String(id) } });
      checkVersion(current, version);
      await requireEdition(tx, values.editionId as bigint | null | undefined, current.editionId);
      await updateVersioned(
        tx,
        tenants,
        id,
        current.version,
        { ...values, modifiedTime: clock.now(), modifiedBy: actor.actorId },
        managed,
      );
      const [action, detail] = describe(current);
      await audit(tx, actor, action, id, detail);
    });
  }

  return {
    detail,

    async create(actor: Actor, input: CreateTenantInput) {
      const id = ids.next();
      const now = clock.now();
      await db.transaction(async (tx) => {
        await requireEdition(tx, input.editionId);
        await tx.insert(tenants).values({
          id,
          code: input.tenantCode,
          name: input.tenantName,
          shortName: input.tenantShortName ?? null,
          logo: input.logo ?? null,
          domain: input.domain ?? null,
          editionId: input.editionId ?? null,
          seatLimit: input.seatLimit ?? 0,
          storageQuotaBytes: input.storageQuotaBytes ?? 0n,
          expirationTime: input.expirationTime ?? null,
          configStatus: input.configStatus ?? 'Configured',
          createdTime: now,
          createdBy: actor.actorId,
        });
        if (input.ownerUserId !== undefined) {
          const [owner] = await tx
            .select({ id: users.id })
            .from(users)
            .where(and(eq(users.id, input.ownerUserId), notDeleted(users.isDeleted)));
          if (!owner) throw appError(adminErrors.USER_NOT_FOUND, { params: { id: String(input.ownerUserId) } });
          await assertSeatAvailable(tx, id, now);
          await tx.insert(tenantMemberships).values({
            id: ids.next(),
            tenantId: id,
            userId: owner.id,
            memberType: 'Owner',
            joinedTime: now,
            createdTime: now,
            createdBy: actor.actorId,
          });
        }
        await audit(tx, actor, 'TenantCreated', id, {
          tenantCode: input.tenantCode,
          editionId: idOrNull(input.editionId),
          seatLimit: input.seatLimit ?? 0,
          ownerUserId: idOrNull(input.ownerUserId),
        });
      });
      if (input.ownerUserId !== undefined) await deps.authz.invalidateUser(input.ownerUserId);
      return detail(id);
    },

    /** An update that moves the tenant to another edition is audited as TenantEditionChanged. */
    async update(actor: Actor, input: UpdateTenantInput) {
      const { basicId, version, tenantCode, tenantName, tenantShortName, ...rest } = input;
      const values: Record<string, unknown> = {
        code: tenantCode,
        name: tenantName,
        shortName: tenantShortName,
        ...rest,
      };
      for (const key of Object.keys(values)) if (values[key] === undefined) delete values[key];
      await change(actor, basicId, version, values, (current) => {
        const detail: Record<string, unknown> = {
          fields: fieldsOf({ tenantCode, tenantName, tenantShortName, ...rest }),
        };
        const editionChanged = values.editionId !== undefined && values.editionId !== current.editionId;
        if (editionChanged)
          detail.editionId = { from: idOrNull(current.editionId), to: idOrNull(values.editionId as bigint | null) };
        if (values.seatLimit !== undefined && values.seatLimit !== current.seatLimit)
          detail.seatLimit = { from: current.seatLimit, to: values.seatLimit };
        return [editionChanged ? 'TenantEditionChanged' : 'TenantUpdated', detail];
      });
      return changed(basicId);
    },

    /** Normal, Suspended, Expired or Disabled; any but Normal records when and why. */
    async setStatus(
      actor: Actor,
      action: TenantStatusAction,
      id: bigint,
      status: string,
      reason: string | null | undefined,
      version?: number,
    ) {
      const now = clock.now();
      const values =
        status === 'Normal'
          ? { status, suspendedTime: null, suspendReason: null }
          : { status, suspendedTime: now, suspendReason: reason ?? null };
      await change(actor, id, version, values, (current) => [
        action,
        { from: current.status, to: status, reason: values.suspendReason ?? undefined },
      ]);
      return changed(id);
    },

    /** Soft delete: the tenant's sessions answer 403 from their next request. */
    async remove(actor: Actor, id: bigint): Promise<void> {
      const now = clock.now();
      await change(actor, id, undefined, { isDeleted: true, deletedTime: now, deletedBy: actor.actorId }, (current) => [
        'TenantDeleted',
        { tenantCode: current.code },
      ]);
      await deps.sessionState.invalidateTenant(id);
      await deps.authz.invalidateTenant(id);
    },

    async page(request: PagedRequest, tenantStatus: string | null | undefined, can: (code: string) => boolean) {
      const now = clock.now();
      const result = await tenantList.run(db, {
        request,
        base: and(managed, tenantStatus ? eq(tenants.status, tenantStatus) : undefined),
        can,
        select: (q) => select(q, now),
      });
      return { ...result, items: result.items.map(toDetail) };
    },
  };
}
