import { z } from 'zod';
import { pagedRequest, pagedResponse } from '../../query/index.js';
import { zDateTimeOut, zId, zIdOut, zInt32 } from '../../rpc/wire.js';
import { EnableStatus, zKeyword } from '../permission/admin-scope.js';
import { authorShape } from '../user/authors.js';
import { DepartmentType } from './enums.js';

/** Request and response shapes of /api/Department and /api/DepartmentQuery (the original's names). */

const fields = {
  departmentCode: z.string().trim().max(64).nullish(),
  /** Absent: Department on create, unchanged on update. */
  departmentType: DepartmentType.schema().optional(),
  leaderId: zId().nullish(),
  phone: z.string().trim().max(32).nullish(),
  email: z.string().trim().max(254).nullish(),
  address: z.string().max(500).nullish(),
  status: EnableStatus.schema().optional(),
  sort: zInt32().optional(),
  remark: z.string().max(500).nullish(),
};

/** Name checks (blank, length in characters) are the service's, so they answer its 422. */
const departmentName = z.string().max(512);

export const createDepartmentInput = z.object({
  /** Absent, null or 0: a root department. */
  parentId: zId().nullish(),
  departmentName,
  ...fields,
});

/** The status changes through DepartmentStatus (its own permission code). */
const { status: _status, ...updatableFields } = fields;

export const updateDepartmentInput = z.object({
  basicId: zId(),
  /** The version read; a stale one answers 409. */
  version: zInt32().min(0).optional(),
  /** Present moves the department with its subtree (null or 0: to the root). */
  parentId: zId().nullish(),
  departmentName: departmentName.optional(),
  ...updatableFields,
});

export const departmentStatusInput = z.object({
  basicId: zId(),
  status: EnableStatus.schema(),
  version: zInt32().min(0).optional(),
});

const departmentShape = {
  basicId: zIdOut(),
  parentId: zIdOut().nullable().optional(),
  departmentName: z.string(),
  departmentCode: z.string().nullable().optional(),
  departmentType: DepartmentType.out(),
  leaderId: zIdOut().nullable().optional(),
  phone: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  address: z.string().nullable().optional(),
  status: EnableStatus.out(),
  sort: z.number().int(),
  remark: z.string().nullable().optional(),
  version: z.number().int(),
  createdTime: zDateTimeOut(),
  modifiedTime: zDateTimeOut().nullable().optional(),
  /** Ids and user names of the author and of the last modifier (list and tree items carry them too). */
  ...authorShape,
};

export const departmentDetail = z.object({
  ...departmentShape,
  /** Ids from the root to this department, `/`-joined. */
  path: z.string().optional(),
  /** Names from the root to this department, `/`-joined. */
  pathName: z.string().optional(),
});

export type DepartmentItem = z.infer<typeof departmentItem>;
export const departmentItem = z.object(departmentShape);

export interface DepartmentTreeNode extends DepartmentItem {
  children: DepartmentTreeNode[];
}
export const departmentTreeNode: z.ZodType<DepartmentTreeNode> = z
  .lazy(() => z.object({ ...departmentShape, children: z.array(departmentTreeNode) }))
  .meta({ id: 'DepartmentTreeNode' });

export const departmentPageInput = pagedRequest({
  keyword: zKeyword(),
  status: EnableStatus.schema().nullish(),
  departmentType: DepartmentType.schema().nullish(),
  /** Only the direct children of this department. */
  parentId: zId().nullish(),
});
export const departmentPage = pagedResponse(departmentItem);

export const enabledDepartment = z.object({
  basicId: zIdOut(),
  parentId: zIdOut().nullable().optional(),
  departmentName: z.string(),
  departmentCode: z.string().nullable().optional(),
  sort: z.number().int(),
});
