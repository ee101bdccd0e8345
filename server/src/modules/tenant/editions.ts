import { and, asc, count, eq } from 'drizzle-orm';
import { editions, tenants } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import { appError } from '../../errors/app-error.js';
import { updateVersioned } from '../../infra/db/versioned.js';
import { auditChange, codeChanges, fieldsOf, type Actor } from '../audit/change.js';
import { isPlatformCode } from '../authz/permission-catalogue.js';
import { EnableStatus, checkVersion, idOut, nameIn, resolvePermissions } from '../permission/admin-scope.js';
import { adminErrors } from '../permission/errors.js';
import { tenantErrors } from './errors.js';
import type { CreateEditionInput, UpdateEditionInput } from './schemas.js';
import { notDeleted } from '../../infra/db/predicates.js';

type Edition = typeof editions.$inferSelect;
type Deps = Pick<AppDeps, 'db' | 'ids' | 'clock'> & { authz: AuthorizationService };

function toDetail(e: Edition) {
  return {
    basicId: idOut(e.id),
    editionCode: e.code,
    editionName: e.name,
    description: e.description,
    permissionWhitelist: [...e.permissionWhitelist].sort(),
    status: nameIn(EnableStatus, e.status, 'Disabled'),
    version: e.version,
    createdTime: e.createdTime,
    modifiedTime: e.modifiedTime,
  };
}

/**
 * Whitelist codes must be catalogue codes (never `*`, never a platform code: a whitelist is what
 * its tenants may use, and a tenant uses no platform code); stored lower-cased like the snapshot
 * compares.
 */
async function whitelistOf(deps: Deps, codes: string[] | undefined): Promise<string[] | undefined> {
  if (codes === undefined) return undefined;
  const found = await resolvePermissions(deps.db, { codes });
  const platform = found.find((p) => isPlatformCode(p.code));
  if (platform) throw appError(adminErrors.PLATFORM_CODE_NOT_GRANTABLE, { params: { permission: platform.code } });
  return found.map((p) => p.code.toLowerCase()).sort();
}

/**
 * Editions: the plans tenants are on, each a whitelist of permission codes (empty: every code).
 * A tenant's sessions hold only codes its edition allows; a change to an edition applies to every
 * tenant on it from the next request (every snapshot is dropped: editions change rarely).
 */
export function createEditionService(deps: Deps) {
  const { db, ids, clock } = deps;

  async function detail(id: bigint) {
    const [row] = await db.select().from(editions).where(eq(editions.id, id));
    if (!row) throw appError(tenantErrors.EDITION_NOT_FOUND, { params: { id: String(id) } });
    return toDetail(row);
  }

  return {
    detail,

    async list() {
      return (await db.select().from(editions).orderBy(asc(editions.code), asc(editions.id))).map(toDetail);
    },

    async create(actor: Actor, input: CreateEditionInput) {
      const id = ids.next();
      const whitelist = (await whitelistOf(deps, input.permissionWhitelist)) ?? [];
      await db.transaction(async (tx) => {
        await tx.insert(editions).values({
          id,
          code: input.editionCode,
          name: input.editionName,
          description: input.description ?? null,
          permissionWhitelist: whitelist,
          status: input.status ?? 'Enabled',
          createdTime: clock.now(),
          createdBy: actor.actorId,
        });
        await auditChange(
          tx,
          deps,
          actor,
          'EditionCreated',
          { type: 'Edition', id },
          { editionCode: input.editionCode, ...codeChanges([], whitelist) },
        );
      });
      return detail(id);
    },

    /**
     * A whitelist change is audited as the codes it adds and removes. `guardWhitelist` runs when
     * the whitelist would change (before anything is written): the router refuses such changes
     * from an impersonation session there.
     */
    async update(actor: Actor, input: UpdateEditionInput, guardWhitelist: () => void = () => {}) {
      const whitelist = await whitelistOf(deps, input.permissionWhitelist);
      await db.transaction(async (tx) => {
        const [current] = await tx.select().from(editions).where(eq(editions.id, input.basicId));
        if (!current) throw appError(tenantErrors.EDITION_NOT_FOUND, { params: { id: String(input.basicId) } });
        checkVersion(current, input.version);
        const changes = codeChanges(current.permissionWhitelist, whitelist ?? current.permissionWhitelist);
        if (changes.added.length || changes.removed.length) guardWhitelist();
        const values: Record<string, unknown> = {
          code: input.editionCode,
          name: input.editionName,
          description: input.description,
          permissionWhitelist: whitelist,
          status: input.status,
        };
        for (const key of Object.keys(values)) if (values[key] === undefined) delete values[key];
        await updateVersioned(tx, editions, current.id, current.version, {
          ...values,
          modifiedTime: clock.now(),
          modifiedBy: actor.actorId,
        });
        const { basicId: _id, version: _version, ...asked } = input;
        await auditChange(
          tx,
          deps,
          actor,
          'EditionUpdated',
          { type: 'Edition', id: current.id },
          { editionCode: current.code, fields: fieldsOf(asked), ...changes },
        );
      });
      await deps.authz.invalidateAll();
      return detail(input.basicId);
    },

    /** Refused while live tenants use it; deleted tenants let go of it. */
    async remove(actor: Actor, id: bigint): Promise<void> {
      await db.transaction(async (tx) => {
        const [current] = await tx.select().from(editions).where(eq(editions.id, id));
        if (!current) throw appError(tenantErrors.EDITION_NOT_FOUND, { params: { id: String(id) } });
        const [used] = await tx
          .select({ n: count() })
          .from(tenants)
          .where(and(eq(tenants.editionId, id), notDeleted(tenants.isDeleted)));
        if (used && used.n > 0)
          throw appError(tenantErrors.EDITION_IN_USE, { params: { name: current.name, count: used.n } });
        await tx
          .update(tenants)
          .set({ editionId: null })
          .where(and(eq(tenants.editionId, id), eq(tenants.isDeleted, true)));
        await tx.delete(editions).where(eq(editions.id, id));
        await auditChange(tx, deps, actor, 'EditionDeleted', { type: 'Edition', id }, { editionCode: current.code });
      });
    },
  };
}
