import { z } from 'zod';
import { pagedRequest, pagedResponse } from '../../query/index.js';
import { zDateTimeOut, zId, zIdOut, zInt32 } from '../../rpc/wire.js';
import { EnableStatus, zKeyword } from '../permission/admin-scope.js';
import { authorShape } from '../user/authors.js';

/** Request and response shapes of /api/Position and /api/PositionQuery (the original's names). */

const positionCode = z.string().trim().min(1).max(64);
const positionName = z.string().trim().min(1).max(128);
const fields = {
  status: EnableStatus.schema().optional(),
  sort: zInt32().optional(),
  remark: z.string().max(500).nullish(),
};

export const createPositionInput = z.object({ positionCode, positionName, ...fields });
/** The status changes through PositionStatus (its own permission code). */
export const updatePositionInput = z.object({
  basicId: zId(),
  version: zInt32().min(0).optional(),
  positionCode: positionCode.optional(),
  positionName: positionName.optional(),
  sort: fields.sort,
  remark: fields.remark,
});
export const positionStatusInput = z.object({
  basicId: zId(),
  status: EnableStatus.schema(),
  version: zInt32().min(0).optional(),
});

export const positionDetail = z.object({
  basicId: zIdOut(),
  positionCode: z.string(),
  positionName: z.string(),
  status: EnableStatus.out(),
  sort: z.number().int(),
  remark: z.string().nullable().optional(),
  version: z.number().int(),
  createdTime: zDateTimeOut(),
  modifiedTime: zDateTimeOut().nullable().optional(),
  /** Ids and user names of the author and of the last modifier (list items carry them too). */
  ...authorShape,
});

export const positionPageInput = pagedRequest({ keyword: zKeyword(), status: EnableStatus.schema().nullish() });
export const positionPage = pagedResponse(positionDetail);
export const enabledPosition = z.object({
  basicId: zIdOut(),
  positionCode: z.string(),
  positionName: z.string(),
  sort: z.number().int(),
});

export type CreatePositionInput = z.infer<typeof createPositionInput>;
export type UpdatePositionInput = z.infer<typeof updatePositionInput>;
