import { z } from 'zod';
import { pagedRequest, pagedResponse } from '../../query/index.js';
import { zDateTime, zDateTimeOut, zId, zIdOut, zInt32 } from '../../rpc/wire.js';
import { EnableStatus, zInt64Out, zKeyword } from '../permission/admin-scope.js';
import { ConfigStatus, InviteStatus, MemberType, MembershipStatus, TenantStatus } from './enums.js';

/** Request and response shapes of tenants, editions and memberships. */

const version = zInt32().min(0).optional();
const tenantCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{1,63}$/);
const tenantName = z.string().trim().min(1).max(128);
const tenantFields = {
  tenantShortName: z.string().trim().max(64).nullish(),
  logo: z.string().max(2000).nullish(),
  domain: z.string().trim().max(255).nullish(),
  /** The edition whose whitelist limits the tenant's codes; null: none (every code). */
  editionId: zId().nullish(),
  /** Most active members; 0 = unlimited. */
  seatLimit: z.number().int().min(0).max(10_000_000).optional(),
  /** Bytes; 0 = unlimited. A 64-bit integer: a string or a number. */
  storageQuotaBytes: zId().optional(),
  expirationTime: zDateTime().nullish(),
  configStatus: ConfigStatus.schema().optional(),
};

export const createTenantInput = z.object({
  tenantCode,
  tenantName,
  ...tenantFields,
  /** A user who becomes the tenant's Owner member. */
  ownerUserId: zId().optional(),
});
export const updateTenantInput = z.object({
  basicId: zId(),
  version,
  tenantCode: tenantCode.optional(),
  tenantName: tenantName.optional(),
  ...tenantFields,
});
export const tenantStatusInput = z.object({
  basicId: zId(),
  tenantStatus: TenantStatus.schema(),
  reason: z.string().max(500).nullish(),
  version,
});
export const suspendTenantInput = z.object({ basicId: zId(), reason: z.string().max(500).nullish(), version });
export const resumeTenantInput = z.object({ basicId: zId(), version });

export const tenantDetail = z.object({
  basicId: zIdOut(),
  tenantCode: z.string(),
  tenantName: z.string(),
  tenantShortName: z.string().nullable().optional(),
  logo: z.string().nullable().optional(),
  domain: z.string().nullable().optional(),
  tenantStatus: TenantStatus.out(),
  configStatus: ConfigStatus.out(),
  suspendedTime: zDateTimeOut().nullable().optional(),
  suspendReason: z.string().nullable().optional(),
  editionId: zIdOut().nullable().optional(),
  editionName: z.string().nullable().optional(),
  seatLimit: z.number().int(),
  /** Active, unexpired memberships. */
  seatsUsed: z.number().int(),
  storageQuotaBytes: zInt64Out(),
  storageUsedBytes: zInt64Out(),
  expirationTime: zDateTimeOut().nullable().optional(),
  version: z.number().int(),
  createdTime: zDateTimeOut(),
  modifiedTime: zDateTimeOut().nullable().optional(),
});
export const tenantPageInput = pagedRequest({ keyword: zKeyword(), tenantStatus: TenantStatus.schema().nullish() });
export const tenantPage = pagedResponse(tenantDetail);

const editionCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/);
const editionFields = {
  description: z.string().max(1000).nullish(),
  /** Codes the edition allows; empty allows every code. */
  permissionWhitelist: z.array(z.string().trim().min(1).max(128)).max(2000).optional(),
  status: EnableStatus.schema().optional(),
};
export const createEditionInput = z.object({
  editionCode,
  editionName: z.string().trim().min(1).max(128),
  ...editionFields,
});
export const updateEditionInput = z.object({
  basicId: zId(),
  version,
  editionCode: editionCode.optional(),
  editionName: z.string().trim().min(1).max(128).optional(),
  ...editionFields,
});
export const editionDetail = z.object({
  basicId: zIdOut(),
  editionCode: z.string(),
  editionName: z.string(),
  description: z.string().nullable().optional(),
  permissionWhitelist: z.array(z.string()),
  status: EnableStatus.out(),
  version: z.number().int(),
  createdTime: zDateTimeOut(),
  modifiedTime: zDateTimeOut().nullable().optional(),
});

const validity = {
  effectiveTime: zDateTime().nullish(),
  expirationTime: zDateTime().nullish(),
};
export const addMemberInput = z
  .object({
    /** The user, by id: one whose home is this tenant. Anyone else is invited (TenantInvitation); `email` answers 422 saying so. */
    userId: zId().optional(),
    email: z.string().trim().max(254).optional(),
    memberType: MemberType.schema().optional(),
    displayName: z.string().trim().max(128).nullish(),
    remark: z.string().max(500).nullish(),
    ...validity,
  })
  .refine((v) => v.userId !== undefined || !!v.email, { message: 'userId or email is required', path: ['userId'] });
export const updateMemberInput = z.object({
  basicId: zId(),
  version,
  memberType: MemberType.schema().optional(),
  status: MembershipStatus.schema().optional(),
  displayName: z.string().trim().max(128).nullish(),
  remark: z.string().max(500).nullish(),
  ...validity,
});
export const memberDetail = z.object({
  basicId: zIdOut(),
  userId: zIdOut(),
  userName: z.string(),
  nickName: z.string().nullable().optional(),
  realName: z.string().nullable().optional(),
  displayName: z.string().nullable().optional(),
  memberType: MemberType.out(),
  status: MembershipStatus.out(),
  inviteStatus: InviteStatus.out(),
  effectiveTime: zDateTimeOut().nullable().optional(),
  expirationTime: zDateTimeOut().nullable().optional(),
  joinedTime: zDateTimeOut(),
  remark: z.string().nullable().optional(),
  version: z.number().int(),
  createdTime: zDateTimeOut(),
});
export const memberPageInput = pagedRequest({
  keyword: zKeyword(),
  memberType: MemberType.schema().nullish(),
  status: MembershipStatus.schema().nullish(),
});
export const memberPage = pagedResponse(memberDetail);

export type CreateTenantInput = z.infer<typeof createTenantInput>;
export type UpdateTenantInput = z.infer<typeof updateTenantInput>;
export type CreateEditionInput = z.infer<typeof createEditionInput>;
export type UpdateEditionInput = z.infer<typeof updateEditionInput>;
export type AddMemberInput = z.infer<typeof addMemberInput>;
export type UpdateMemberInput = z.infer<typeof updateMemberInput>;
