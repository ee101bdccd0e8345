import { z } from 'zod';
import { pagedRequest, pagedResponse } from '../../query/index.js';
import { defineEnum, zDateTimeOut, zId, zIdOut, zInt32 } from '../../rpc/wire.js';
import { EnableStatus, zKeyword } from '../permission/admin-scope.js';
import { authorShape } from '../user/authors.js';

/** Menus are UI structure only: a directory, a page, a button or an external link. */
export const MenuType = defineEnum('MenuType', { Directory: 0, Menu: 1, Button: 2, ExternalLink: 3 });

const text = (max: number) => z.string().trim().max(max).nullish();
const fields = {
  title: text(128),
  i18nKey: text(128),
  path: text(255),
  component: text(255),
  redirect: text(255),
  icon: text(128),
  link: z.string().max(2000).nullish(),
  /** The permission gating visibility, by id or code; null (either) makes the menu display-only. */
  permissionId: zId().nullish(),
  permissionCode: z.string().trim().max(128).nullish(),
  isVisible: z.boolean().optional(),
  keepAlive: z.boolean().optional(),
  affixTab: z.boolean().optional(),
  badge: text(32),
  badgeType: text(16),
  dot: z.boolean().optional(),
  status: EnableStatus.schema().optional(),
  sort: zInt32().optional(),
  remark: z.string().max(500).nullish(),
};
const menuCode = z.string().trim().min(1).max(128);
const menuName = z.string().trim().min(1).max(128);

export const createMenuInput = z.object({
  parentId: zId().nullish(),
  menuType: MenuType.schema(),
  menuCode,
  menuName,
  ...fields,
});
/** The status changes through MenuStatus (its own permission code). */
const { status: _status, ...updatableFields } = fields;
export const updateMenuInput = z.object({
  basicId: zId(),
  version: zInt32().min(0).optional(),
  /** Present moves the menu (null or 0: to the top level). */
  parentId: zId().nullish(),
  menuType: MenuType.schema().optional(),
  menuCode: menuCode.optional(),
  menuName: menuName.optional(),
  ...updatableFields,
});
export const menuStatusInput = z.object({
  basicId: zId(),
  status: EnableStatus.schema(),
  version: zInt32().min(0).optional(),
});

const menuShape = {
  basicId: zIdOut(),
  parentId: zIdOut().nullable().optional(),
  /** True for the platform's menus (tenant 0), which every tenant reads and only the platform changes. */
  isGlobal: z.boolean(),
  menuType: MenuType.out(),
  menuCode: z.string(),
  menuName: z.string(),
  title: z.string().nullable().optional(),
  i18nKey: z.string().nullable().optional(),
  path: z.string().nullable().optional(),
  component: z.string().nullable().optional(),
  redirect: z.string().nullable().optional(),
  icon: z.string().nullable().optional(),
  link: z.string().nullable().optional(),
  permissionId: zIdOut().nullable().optional(),
  permissionCode: z.string().nullable().optional(),
  isVisible: z.boolean(),
  keepAlive: z.boolean(),
  affixTab: z.boolean(),
  badge: z.string().nullable().optional(),
  badgeType: z.string().nullable().optional(),
  dot: z.boolean(),
  status: EnableStatus.out(),
  sort: z.number().int(),
  remark: z.string().nullable().optional(),
  version: z.number().int(),
  createdTime: zDateTimeOut(),
  modifiedTime: zDateTimeOut().nullable().optional(),
  /** Ids and user names of the author and of the last modifier (list and tree items carry them too). */
  ...authorShape,
};
export const menuDetail = z.object(menuShape);
export type MenuDetail = z.infer<typeof menuDetail>;
export interface MenuTreeNode extends MenuDetail {
  children: MenuTreeNode[];
}
export const menuTreeNode: z.ZodType<MenuTreeNode> = z
  .lazy(() => z.object({ ...menuShape, children: z.array(menuTreeNode) }))
  .meta({ id: 'MenuTreeNode' });

const listFilters = {
  menuType: MenuType.schema().nullish(),
  status: EnableStatus.schema().nullish(),
};
export const menuPageInput = pagedRequest({ keyword: zKeyword(), ...listFilters, parentId: zId().nullish() });
export const menuPage = pagedResponse(menuDetail);
export const menuListInput = z.object(listFilters).optional();

export type CreateMenuInput = z.infer<typeof createMenuInput>;
export type UpdateMenuInput = z.infer<typeof updateMenuInput>;
