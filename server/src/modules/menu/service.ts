import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { menus, permissions } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors/app-error.js';
import type { Executor, Transaction } from '../../infra/db/client.js';
import { updateVersioned } from '../../infra/db/versioned.js';
import { definePagedList, type PagedRequest } from '../../query/index.js';
import { auditChange, fieldsOf, type Actor } from '../audit/change.js';
import type { AuditAction } from '../audit/write.js';
import { EnableStatus, checkVersion, idOrNull, idOut, nameIn, resolvePermissions } from '../permission/admin-scope.js';
import { authorsOf, type Authors } from '../user/authors.js';
import { menuErrors } from './errors.js';
import { MenuType, type CreateMenuInput, type MenuDetail, type MenuTreeNode, type UpdateMenuInput } from './schemas.js';
import { notDeleted } from '../../infra/db/predicates.js';

type Menu = typeof menus.$inferSelect;
type Row = Menu & { permissionCode: string | null };
type Deps = Pick<AppDeps, 'db' | 'ids' | 'clock'>;

/** The menus a context reads: the global ones (tenant 0) and, in a tenant, its own. */
const readable = (tenantId: bigint) =>
  and(inArray(menus.tenantId, tenantId === 0n ? [0n] : [0n, tenantId]), notDeleted(menus.isDeleted));

/** The menus list of MenuQuery/MenuPage. */
export const menuList = definePagedList({
  fields: {
    basicId: { column: menus.id, type: 'id' },
    parentId: { column: menus.parentId, type: 'id' },
    menuType: { column: menus.menuType, type: 'enum', enum: MenuType },
    menuCode: { column: menus.menuCode, type: 'string', keyword: true },
    menuName: { column: menus.menuName, type: 'string', keyword: true },
    title: { column: menus.title, type: 'string', keyword: true },
    path: { column: menus.path, type: 'string', keyword: true },
    component: { column: menus.component, type: 'string' },
    permissionCode: { column: permissions.code, type: 'string' },
    isVisible: { column: menus.isVisible, type: 'boolean' },
    status: { column: menus.status, type: 'enum', enum: EnableStatus },
    sort: { column: menus.sort, type: 'integer' },
    createdTime: { column: menus.createdTime, type: 'datetime' },
    modifiedTime: { column: menus.modifiedTime, type: 'datetime' },
  },
  defaultSort: [{ field: 'sort' }, { field: 'menuCode' }],
  tieBreaker: menus.id,
  defaultKeywordFields: ['menuCode', 'menuName', 'title'],
});

const select = (q: Executor) =>
  q
    .select({ menu: menus, permissionCode: permissions.code })
    .from(menus)
    .leftJoin(permissions, eq(permissions.id, menus.permissionId))
    .$dynamic();
const flat = (r: { menu: Menu; permissionCode: string | null }): Row => ({
  ...r.menu,
  permissionCode: r.permissionCode,
});

function toDetail(m: Row, authors: Authors): MenuDetail {
  return {
    basicId: idOut(m.id),
    parentId: idOrNull(m.parentId),
    isGlobal: m.tenantId === 0n,
    menuType: nameIn(MenuType, m.menuType, 'Menu'),
    menuCode: m.menuCode,
    menuName: m.menuName,
    title: m.title,
    i18nKey: m.i18nKey,
    path: m.path,
    component: m.component,
    redirect: m.redirect,
    icon: m.icon,
    link: m.link,
    permissionId: idOrNull(m.permissionId),
    permissionCode: m.permissionCode,
    isVisible: m.isVisible,
    keepAlive: m.keepAlive,
    affixTab: m.affixTab,
    badge: m.badge,
    badgeType: m.badgeType,
    dot: m.dot,
    status: nameIn(EnableStatus, m.status, 'Disabled'),
    sort: m.sort,
    remark: m.remark,
    version: m.version,
    createdTime: m.createdTime,
    modifiedTime: m.modifiedTime,
    ...authors(m),
  };
}

/** Rows as details, with one lookup for the authors of them all. */
async function detailsOf(db: Executor, rows: readonly Row[]): Promise<MenuDetail[]> {
  const authors = await authorsOf(db, rows);
  return rows.map((r) => toDetail(r, authors));
}

async function findReadable(db: Executor, tenantId: bigint, id: bigint): Promise<Row | undefined> {
  const rows = await select(db).where(and(readable(tenantId), eq(menus.id, id)));
  return rows[0] ? flat(rows[0]) : undefined;
}

async function requireReadable(db: Executor, tenantId: bigint, id: bigint): Promise<Row> {
  const row = await findReadable(db, tenantId, id);
  if (!row) throw appError(menuErrors.NOT_FOUND, { params: { id: String(id) } });
  return row;
}

/** One readable menu as a detail, its author names resolved (404 when missing). */
async function detailOf(db: Executor, tenantId: bigint, id: bigint): Promise<MenuDetail> {
  const row = await requireReadable(db, tenantId, id);
  return toDetail(row, await authorsOf(db, [row]));
}

/** A menu the context may change: its own. A global one seen from a tenant answers 403. */
async function requireOwn(db: Executor, tenantId: bigint, id: bigint): Promise<Row> {
  const row = await requireReadable(db, tenantId, id);
  if (row.tenantId !== tenantId) throw appError(menuErrors.GLOBAL_READONLY, { params: { name: row.menuName } });
  return row;
}

/** Serializes the moves of one context's menus, so two moves cannot close a cycle together. */
async function lockMenus(tx: Transaction, tenantId: bigint): Promise<void> {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext('portcullis.menu.' || current_schema() || '.' || ${tenantId.toString()}::text))`,
  );
}

/**
 * A parent must be readable by the context (a tenant's menu may sit under a global one; a global
 * one only under global ones) and must not be the menu itself or below it.
 */
async function checkParent(tx: Executor, tenantId: bigint, parentId: bigint, self?: Row): Promise<void> {
  const parent = await findReadable(tx, tenantId, parentId);
  if (!parent) throw appError(menuErrors.PARENT_NOT_FOUND, { params: { parentId: String(parentId) } });
  if (!self) return;
  let cursor: bigint | null = parent.id;
  for (let depth = 0; cursor !== null && depth < 256; depth++) {
    if (cursor === self.id) throw appError(menuErrors.PARENT_CYCLE, { params: { name: self.menuName } });
    const [up]: Array<{ parentId: bigint | null }> = await tx
      .select({ parentId: menus.parentId })
      .from(menus)
      .where(eq(menus.id, cursor));
    cursor = up?.parentId ?? null;
  }
}

/** The permission column from a request: undefined keeps it, null or blank clears it. */
async function permissionOf(
  db: Executor,
  input: { permissionId?: bigint | null; permissionCode?: string | null },
): Promise<bigint | null | undefined> {
  if (input.permissionId === undefined && input.permissionCode === undefined) return undefined;
  if (input.permissionId) return (await resolvePermissions(db, { ids: [input.permissionId] }))[0]!.id;
  if (input.permissionCode) return (await resolvePermissions(db, { codes: [input.permissionCode] }))[0]!.id;
  return null;
}

const EDITABLE = [
  'menuType',
  'menuCode',
  'menuName',
  'title',
  'i18nKey',
  'path',
  'component',
  'redirect',
  'icon',
  'link',
  'isVisible',
  'keepAlive',
  'affixTab',
  'badge',
  'badgeType',
  'dot',
  'status',
  'sort',
  'remark',
] as const;
function pick(input: Partial<Record<(typeof EDITABLE)[number], unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of EDITABLE) if (input[key] !== undefined) out[key] = input[key];
  return out;
}

/** 0 and null both mean "top level". */
const parentOf = (id: bigint | null | undefined) =>
  id === undefined ? undefined : id === null || id === 0n ? null : id;

/**
 * Menus of a context. Reads see the global menus and the context's own; writes touch only the
 * context's own (the platform state's own are the global ones). Menus never grant anything:
 * the permission only decides who sees the entry.
 */
export function createMenuService(deps: Deps) {
  const { db, ids, clock } = deps;

  /** Every readable menu, flat, ordered by sort then code. */
  async function list(
    tenantId: bigint,
    filters: { menuType?: string | null; status?: string | null } = {},
  ): Promise<MenuDetail[]> {
    const rows = await select(db)
      .where(
        and(
          readable(tenantId),
          filters.menuType ? eq(menus.menuType, filters.menuType) : undefined,
          filters.status ? eq(menus.status, filters.status) : undefined,
        ),
      )
      .orderBy(asc(menus.sort), asc(menus.menuCode), asc(menus.id));
    return detailsOf(db, rows.map(flat));
  }

  /** Every write records one entry on the menu, in its transaction. */
  const audit = (
    tx: Transaction,
    actor: Actor,
    action: AuditAction,
    menu: { id: bigint; menuCode: string },
    detail: Record<string, unknown> = {},
  ) => auditChange(tx, deps, actor, action, { type: 'Menu', id: menu.id }, { menuCode: menu.menuCode, ...detail });

  return {
    async create(actor: Actor, input: CreateMenuInput): Promise<MenuDetail> {
      const { tenantId, actorId } = actor;
      const id = ids.next();
      const permissionId = await permissionOf(db, input);
      const parentId = parentOf(input.parentId) ?? null;
      await db.transaction(async (tx) => {
        await lockMenus(tx, tenantId);
        if (parentId !== null) await checkParent(tx, tenantId, parentId);
        await tx.insert(menus).values({
          ...pick(input),
          id,
          tenantId,
          parentId,
          menuType: input.menuType,
          menuCode: input.menuCode,
          menuName: input.menuName,
          permissionId: permissionId ?? null,
          createdTime: clock.now(),
          createdBy: actorId,
        });
        await audit(
          tx,
          actor,
          'MenuCreated',
          { id, menuCode: input.menuCode },
          { menuType: input.menuType, parentId: idOrNull(parentId), permissionId: idOrNull(permissionId) },
        );
      });
      return detailOf(db, tenantId, id);
    },

    async update(actor: Actor, input: UpdateMenuInput): Promise<MenuDetail> {
      const { tenantId, actorId } = actor;
      const permissionId = await permissionOf(db, input);
      const parentId = parentOf(input.parentId);
      await db.transaction(async (tx) => {
        await lockMenus(tx, tenantId);
        const current = await requireOwn(tx, tenantId, input.basicId);
        checkVersion(current, input.version);
        if (parentId !== undefined && parentId !== null && parentId !== current.parentId)
          await checkParent(tx, tenantId, parentId, current);
        const values = {
          ...pick(input),
          ...(parentId !== undefined ? { parentId } : {}),
          ...(permissionId !== undefined ? { permissionId } : {}),
        };
        await updateVersioned(
          tx,
          menus,
          current.id,
          current.version,
          { ...values, modifiedTime: clock.now(), modifiedBy: actorId },
          eq(menus.tenantId, tenantId),
        );
        await audit(tx, actor, 'MenuUpdated', current, { fields: fieldsOf(values) });
      });
      return detailOf(db, tenantId, input.basicId);
    },

    async setStatus(actor: Actor, id: bigint, status: string, version?: number): Promise<MenuDetail> {
      const { tenantId, actorId } = actor;
      await db.transaction(async (tx) => {
        const current = await requireOwn(tx, tenantId, id);
        checkVersion(current, version);
        await updateVersioned(
          tx,
          menus,
          id,
          current.version,
          { status, modifiedTime: clock.now(), modifiedBy: actorId },
          eq(menus.tenantId, tenantId),
        );
        await audit(tx, actor, 'MenuStatusChanged', current, { from: current.status, to: status });
      });
      return detailOf(db, tenantId, id);
    },

    /** Soft-deletes a menu without live sub-menus. */
    async remove(actor: Actor, id: bigint): Promise<void> {
      const { tenantId, actorId } = actor;
      await db.transaction(async (tx) => {
        await lockMenus(tx, tenantId);
        const current = await requireOwn(tx, tenantId, id);
        const [children] = await tx
          .select({ n: count() })
          .from(menus)
          .where(and(eq(menus.parentId, id), notDeleted(menus.isDeleted)));
        if (children && children.n > 0)
          throw appError(menuErrors.HAS_CHILDREN, { params: { name: current.menuName, count: children.n } });
        const now = clock.now();
        await updateVersioned(
          tx,
          menus,
          id,
          current.version,
          { isDeleted: true, deletedTime: now, deletedBy: actorId, modifiedTime: now, modifiedBy: actorId },
          eq(menus.tenantId, tenantId),
        );
        await audit(tx, actor, 'MenuDeleted', current);
      });
    },

    async detail(tenantId: bigint, id: bigint): Promise<MenuDetail> {
      return detailOf(db, tenantId, id);
    },

    async page(
      tenantId: bigint,
      request: PagedRequest,
      filters: { menuType?: string | null; status?: string | null; parentId?: bigint | null },
      can: (code: string) => boolean,
    ) {
      const result = await menuList.run(db, {
        request,
        base: and(
          readable(tenantId),
          filters.menuType ? eq(menus.menuType, filters.menuType) : undefined,
          filters.status ? eq(menus.status, filters.status) : undefined,
          filters.parentId ? eq(menus.parentId, filters.parentId) : undefined,
        ),
        can,
        select,
      });
      return { ...result, items: await detailsOf(db, result.items.map(flat)) };
    },

    list,

    /** Every readable menu nested under its parent; a menu whose parent is not readable is a root. */
    async tree(tenantId: bigint): Promise<MenuTreeNode[]> {
      const items = await list(tenantId);
      const nodes = new Map(items.map((m) => [m.basicId, { ...m, children: [] as MenuTreeNode[] }]));
      const roots: MenuTreeNode[] = [];
      for (const node of nodes.values()) {
        const parent = node.parentId ? nodes.get(node.parentId) : undefined;
        (parent && parent !== node ? parent.children : roots).push(node);
      }
      return roots;
    },
  };
}
