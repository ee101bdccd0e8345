import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import { menus, permissions } from '../../../../db/schema/index.js';
import type { Executor } from '../../infra/db/client.js';
import type { MenuNode } from './schemas.js';
import { notDeleted } from '../../infra/db/predicates.js';

/**
 * The menu route tree the front end builds its routes from, in the original's node shape
 * (the original service). Menus are UI only: a menu bound to a permission is shown to holders of
 * it; authorization never depends on menus. Global menus (tenant 0) and the tenant's own count.
 */

type MenuRow = typeof menus.$inferSelect & { permissionCode: string | null };

/** PascalCase of a menu code without `: - _ . / \` (the original's route names). */
export function routeName(code: string): string {
  return code
    .split(/[:\-_./\\\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

const DASHBOARD: MenuNode = {
  basicId: '0',
  path: '/workbench/dashboard',
  name: 'Dashboard',
  component: 'workbench/dashboard/index',
  meta: { title: 'menu.dashboard', hidden: false, keepAlive: false, affixTab: true, order: 0, dot: false },
};

function toNode(m: MenuRow): MenuNode {
  const external = m.menuType === 'ExternalLink';
  return {
    basicId: String(m.id),
    path: m.path ?? `/${m.menuCode}`,
    name: routeName(m.menuCode),
    component: external ? null : (m.component?.replace(/\.vue$/, '').replace(/^\/+/, '') ?? null),
    redirect: m.redirect,
    meta: {
      title: m.i18nKey ?? m.title ?? m.menuName,
      icon: m.icon,
      hidden: false,
      keepAlive: m.keepAlive,
      affixTab: m.affixTab,
      ...(m.permissionCode ? { permissions: [m.permissionCode] } : {}),
      order: m.sort,
      badge: m.badge,
      badgeType: m.badgeType,
      dot: m.dot,
      link: external ? m.link : null,
    },
  };
}

export async function loadMenus(
  db: Executor,
  tenantId: bigint,
  can: (code: string) => boolean,
): Promise<{ menus: MenuNode[]; buttons: string[] }> {
  const rows: MenuRow[] = await db
    .select({ menu: menus, permissionCode: permissions.code })
    .from(menus)
    .leftJoin(permissions, eq(permissions.id, menus.permissionId))
    .where(
      and(
        inArray(menus.tenantId, [0n, tenantId]),
        notDeleted(menus.isDeleted),
        eq(menus.status, 'Enabled'),
        or(isNull(menus.permissionId), eq(permissions.isEnabled, true)),
      ),
    )
    .orderBy(asc(menus.sort), asc(menus.id))
    .then((r) => r.map((x) => ({ ...x.menu, permissionCode: x.permissionCode })));
  const visible = rows.filter((m) => !m.permissionCode || can(m.permissionCode));
  const buttons = visible.filter((m) => m.menuType === 'Button').map((m) => m.menuCode);
  const pages = visible.filter((m) => m.menuType !== 'Button' && m.isVisible);
  const children = new Map<string, MenuRow[]>();
  for (const m of pages) {
    const parent = m.parentId === null ? '' : String(m.parentId);
    children.set(parent, [...(children.get(parent) ?? []), m]);
  }
  const build = (parent: string, seen: Set<string>): MenuNode[] =>
    (children.get(parent) ?? []).flatMap((m) => {
      const id = String(m.id);
      if (seen.has(id)) return [];
      const node = toNode(m);
      const kids = build(id, new Set([...seen, id]));
      // A directory with nothing visible inside is left out.
      if (m.menuType === 'Directory' && kids.length === 0) return [];
      return [kids.length ? { ...node, children: kids } : node];
    });
  const tree = build('', new Set());
  return { menus: tree.length ? tree : [DASHBOARD], buttons };
}
