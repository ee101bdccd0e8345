import { and, asc, eq } from 'drizzle-orm';
import { positions } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors/app-error.js';
import type { Executor } from '../../infra/db/client.js';
import { updateVersioned } from '../../infra/db/versioned.js';
import { definePagedList, type PagedRequest } from '../../query/index.js';
import { auditChange, fieldsOf, type Actor } from '../audit/change.js';
import type { AuditAction } from '../audit/write.js';
import { EnableStatus, checkVersion, idOut, nameIn } from '../permission/admin-scope.js';
import { authorsOf, type Authors } from '../user/authors.js';
import { positionErrors } from './errors.js';
import type { CreatePositionInput, UpdatePositionInput } from './schemas.js';
import { notDeleted } from '../../infra/db/predicates.js';

type Position = typeof positions.$inferSelect;
type Deps = Pick<AppDeps, 'db' | 'ids' | 'clock'>;

/** The positions list of PositionQuery/PositionPage. */
export const positionList = definePagedList({
  fields: {
    basicId: { column: positions.id, type: 'id' },
    positionCode: { column: positions.positionCode, type: 'string', keyword: true },
    positionName: { column: positions.positionName, type: 'string', keyword: true },
    status: { column: positions.status, type: 'enum', enum: EnableStatus },
    sort: { column: positions.sort, type: 'integer' },
    createdTime: { column: positions.createdTime, type: 'datetime' },
    modifiedTime: { column: positions.modifiedTime, type: 'datetime' },
  },
  defaultSort: [{ field: 'sort' }, { field: 'positionName' }],
  tieBreaker: positions.id,
});

const live = (tenantId: bigint) => and(eq(positions.tenantId, tenantId), notDeleted(positions.isDeleted));

async function requirePosition(db: Executor, tenantId: bigint, id: bigint): Promise<Position> {
  const [row] = await db
    .select()
    .from(positions)
    .where(and(live(tenantId), eq(positions.id, id)));
  if (!row) throw appError(positionErrors.NOT_FOUND, { params: { id: String(id) } });
  return row;
}

function toDetail(p: Position, authors: Authors) {
  return {
    basicId: idOut(p.id),
    positionCode: p.positionCode,
    positionName: p.positionName,
    status: nameIn(EnableStatus, p.status, 'Disabled'),
    sort: p.sort,
    remark: p.remark,
    version: p.version,
    createdTime: p.createdTime,
    modifiedTime: p.modifiedTime,
    ...authors(p),
  };
}

/** One live position of the tenant as a detail, its author names resolved (404 when missing). */
async function detailOf(db: Executor, tenantId: bigint, id: bigint) {
  const position = await requirePosition(db, tenantId, id);
  return toDetail(position, await authorsOf(db, [position]));
}

/**
 * The flat position dictionary of one context; codes are unique per tenant (409). Every write is
 * audited in its transaction.
 */
export function createPositionService(deps: Deps) {
  const { db, ids, clock } = deps;

  /**
   * A versioned change of a live position of the actor's context (404 for anyone else's),
   * audited in its transaction with the detail `describe` makes of the row before it.
   */
  async function change(
    actor: Actor,
    id: bigint,
    version: number | undefined,
    values: Record<string, unknown>,
    action: AuditAction,
    describe: (current: Position) => Record<string, unknown>,
  ): Promise<void> {
    await db.transaction(async (tx) => {
      const current = await requirePosition(tx, actor.tenantId, id);
      checkVersion(current, version);
      await updateVersioned(
        tx,
        positions,
        id,
        current.version,
        { ...values, modifiedTime: clock.now(), modifiedBy: actor.actorId },
        live(actor.tenantId),
      );
      await auditChange(
        tx,
        deps,
        actor,
        action,
        { type: 'Position', id },
        { positionCode: current.positionCode, ...describe(current) },
      );
    });
  }

  return {
    async create(actor: Actor, input: CreatePositionInput) {
      const id = ids.next();
      // One transaction with the entry: a duplicate code (409) leaves none.
      await db.transaction(async (tx) => {
        await tx.insert(positions).values({
          id,
          tenantId: actor.tenantId,
          positionCode: input.positionCode,
          positionName: input.positionName,
          status: input.status ?? 'Enabled',
          sort: input.sort ?? 0,
          remark: input.remark ?? null,
          createdTime: clock.now(),
          createdBy: actor.actorId,
        });
        await auditChange(
          tx,
          deps,
          actor,
          'PositionCreated',
          { type: 'Position', id },
          { positionCode: input.positionCode, positionName: input.positionName },
        );
      });
      return detailOf(db, actor.tenantId, id);
    },

    async update(actor: Actor, input: UpdatePositionInput) {
      const { basicId, version, ...fields } = input;
      const values: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(fields)) if (value !== undefined) values[key] = value;
      await change(actor, basicId, version, values, 'PositionUpdated', () => ({ fields: fieldsOf(values) }));
      return detailOf(db, actor.tenantId, basicId);
    },

    async setStatus(actor: Actor, id: bigint, status: string, version?: number) {
      await change(actor, id, version, { status }, 'PositionStatusChanged', (current) => ({
        from: current.status,
        to: status,
      }));
      return detailOf(db, actor.tenantId, id);
    },

    /** Soft delete; links of users to the position stay and read as "no position". */
    async remove(actor: Actor, id: bigint): Promise<void> {
      const now = clock.now();
      await change(
        actor,
        id,
        undefined,
        { isDeleted: true, deletedTime: now, deletedBy: actor.actorId },
        'PositionDeleted',
        (current) => ({ positionName: current.positionName }),
      );
    },

    async detail(tenantId: bigint, id: bigint) {
      return detailOf(db, tenantId, id);
    },

    async page(
      tenantId: bigint,
      request: PagedRequest,
      status: string | null | undefined,
      can: (code: string) => boolean,
    ) {
      const result = await positionList.run(db, {
        request,
        base: and(live(tenantId), status ? eq(positions.status, status) : undefined),
        can,
        select: (q) => q.select().from(positions).$dynamic(),
      });
      // One lookup for the authors of the whole page.
      const authors = await authorsOf(db, result.items);
      return { ...result, items: result.items.map((p) => toDetail(p, authors)) };
    },

    async enabled(tenantId: bigint) {
      const rows = await db
        .select()
        .from(positions)
        .where(and(live(tenantId), eq(positions.status, 'Enabled')))
        .orderBy(asc(positions.sort), asc(positions.positionName), asc(positions.id));
      return rows.map((p) => ({
        basicId: idOut(p.id),
        positionCode: p.positionCode,
        positionName: p.positionName,
        sort: p.sort,
      }));
    },
  };
}
