import { z } from 'zod';
import { pagedRequest, pagedResponse } from '../../query/index.js';
import { zDateTimeOut, zId, zIdOut, zQueryId, zInt32 } from '../../rpc/wire.js';
import { EnableStatus, zKeyword } from '../permission/admin-scope.js';
import { authorShape } from '../user/authors.js';
import { DataScope, RoleType } from './enums.js';

/** Request and response shapes of /api/Role and /api/RoleQuery (the original's field names). */

const roleFields = {
  roleDescription: z.string().max(500).nullish(),
  roleType: RoleType.schema().optional(),
  dataScope: DataScope.schema().optional(),
  /** Most holders; 0 = unlimited. */
  maxMembers: z.number().int().min(0).max(1_000_000).optional(),
  status: EnableStatus.schema().optional(),
  sort: zInt32().optional(),
  remark: z.string().max(500).nullish(),
};

const roleCode = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N}_:.-]+$/u);
const roleName = z.string().trim().min(1).max(128);
/** The version read with the record; a stale one answers 409. Absent: last write wins. */
const version = zInt32().min(0).optional();

export const createRoleInput = z.object({
  roleCode,
  roleName,
  ...roleFields,
  /** With dataScope Custom: the departments the role sees. */
  departmentIds: z.array(zId()).max(1000).optional(),
});

/**
 * The original's update body carries the data scope but not the status: the status changes
 * through RoleStatus only (a status sent here is ignored). A data scope (or Custom departments)
 * that differs from the stored one needs what RoleDataScope needs: its permission code, and no
 * impersonation.
 */
const { status: _status, ...updatableRoleFields } = roleFields;
export const updateRoleInput = z.object({
  basicId: zId(),
  version,
  roleCode: roleCode.optional(),
  roleName: roleName.optional(),
  ...updatableRoleFields,
  /** With dataScope Custom: the departments the role sees (absent: the current ones are kept). */
  departmentIds: z.array(zId()).max(1000).optional(),
});

export const roleStatusInput = z.object({
  basicId: zId(),
  status: EnableStatus.schema(),
  version,
  remark: z.string().max(500).nullish(),
});

export const idQuery = z.object({ id: zQueryId() });
export const roleIdQuery = z.object({ roleId: zQueryId() });

export const roleDetail = z.object({
  basicId: zIdOut(),
  roleCode: z.string(),
  roleName: z.string(),
  roleDescription: z.string().nullable().optional(),
  roleType: RoleType.out(),
  dataScope: DataScope.out(),
  maxMembers: z.number().int(),
  status: EnableStatus.out(),
  isSystem: z.boolean(),
  sort: z.number().int(),
  remark: z.string().nullable().optional(),
  version: z.number().int(),
  createdTime: zDateTimeOut(),
  modifiedTime: zDateTimeOut().nullable().optional(),
  /** Ids and user names of the author and of the last modifier (list items carry them too). */
  ...authorShape,
});

export const rolePageInput = pagedRequest({
  keyword: zKeyword(),
  status: EnableStatus.schema().nullish(),
  roleType: RoleType.schema().nullish(),
  dataScope: DataScope.schema().nullish(),
});
export const rolePage = pagedResponse(roleDetail);

export const enabledRole = z.object({
  basicId: zIdOut(),
  roleCode: z.string(),
  roleName: z.string(),
  sort: z.number().int(),
});

/** A permission named by id or by code (one of them). */
const permissionRef = {
  permissionId: zId().optional(),
  permissionCode: z.string().trim().min(1).max(128).optional(),
};
const onePermission = (v: { permissionId?: bigint; permissionCode?: string }) =>
  v.permissionId !== undefined || v.permissionCode !== undefined;
const onePermissionMessage = { message: 'permissionId or permissionCode is required', path: ['permissionId'] };

export const grantRolePermissionInput = z
  .object({ roleId: zId(), ...permissionRef })
  .refine(onePermission, onePermissionMessage);
export const revokeRolePermissionInput = z
  .object({ roleId: zQueryId(), ...permissionRef })
  .refine(onePermission, onePermissionMessage);
export const rolePermissionStatusInput = z
  .object({ roleId: zId(), ...permissionRef, status: EnableStatus.schema() })
  .refine(onePermission, onePermissionMessage);
export const batchRolePermissionsInput = z.object({
  roleId: zId(),
  permissionIds: z.array(zId()).max(2000).optional(),
  permissionCodes: z.array(z.string().trim().min(1).max(128)).max(2000).optional(),
});

export const rolePermissionItem = z.object({
  permissionId: zIdOut(),
  permissionCode: z.string(),
  permissionName: z.string(),
  groupCode: z.string(),
  status: EnableStatus.out(),
});
export const batchResult = z.object({ granted: z.array(z.string()), revoked: z.array(z.string()) });

export const hierarchyInput = z.object({ roleId: zId(), parentRoleId: zId() });
export const hierarchyQuery = z.object({ roleId: zQueryId(), parentRoleId: zQueryId() });
export const roleRef = z.object({
  basicId: zIdOut(),
  roleCode: z.string(),
  roleName: z.string(),
  status: EnableStatus.out(),
});
export const roleHierarchy = z.object({ roleId: zIdOut(), parents: z.array(roleRef), children: z.array(roleRef) });

export const roleDataScopeInput = z.object({
  roleId: zId(),
  dataScope: DataScope.schema(),
  /** The departments of a Custom scope (ignored, and cleared, for the other scopes). */
  departmentIds: z.array(zId()).max(1000).optional(),
  version,
});
export const roleDataScope = z.object({
  roleId: zIdOut(),
  dataScope: DataScope.out(),
  departmentIds: z.array(zIdOut()),
  version: z.number().int(),
});

export type CreateRoleInput = z.infer<typeof createRoleInput>;
export type UpdateRoleInput = z.infer<typeof updateRoleInput>;
