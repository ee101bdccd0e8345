import { z } from 'zod';
import { pagedRequest, pagedResponse } from '../../query/index.js';
import { zDateTime, zDateTimeOut, zId, zIdOut } from '../../rpc/wire.js';
import { zKeyword } from '../permission/admin-scope.js';
import { InviteStatus, MemberType } from '../tenant/enums.js';

/** Request and response shapes of tenant invitations. */

export const createInvitationInput = z.object({
  /** The address invited (the platform-wide login name); it need not have an account yet. */
  email: z.string().trim().max(254).pipe(z.email()),
  memberType: MemberType.schema().optional(),
  displayName: z.string().trim().max(128).nullish(),
  remark: z.string().max(500).nullish(),
  /** The validity period of the membership accepting creates. */
  effectiveTime: zDateTime().nullish(),
  expirationTime: zDateTime().nullish(),
});

export const invitationDetail = z.object({
  basicId: zIdOut(),
  email: z.string(),
  memberType: MemberType.out(),
  displayName: z.string().nullable().optional(),
  /** Pending until answered; an unanswered one past `invitationExpirationTime` reads Expired. */
  status: InviteStatus.out(),
  invitationExpirationTime: zDateTimeOut(),
  effectiveTime: zDateTimeOut().nullable().optional(),
  expirationTime: zDateTimeOut().nullable().optional(),
  remark: z.string().nullable().optional(),
  respondedTime: zDateTimeOut().nullable().optional(),
  createdTime: zDateTimeOut(),
});

export const invitationPageInput = pagedRequest({ keyword: zKeyword(), status: InviteStatus.schema().nullish() });
export const invitationPage = pagedResponse(invitationDetail);

/** What the invited user sees: the tenant and the terms, not who else was invited. */
export const myInvitation = z.object({
  basicId: zIdOut(),
  tenantId: zIdOut(),
  tenantCode: z.string(),
  tenantName: z.string(),
  memberType: MemberType.out(),
  invitationExpirationTime: zDateTimeOut(),
  effectiveTime: zDateTimeOut().nullable().optional(),
  expirationTime: zDateTimeOut().nullable().optional(),
  createdTime: zDateTimeOut(),
});

export const answerInput = z.object({ invitationId: zId() });
export const accepted = z.object({ tenantId: zIdOut(), membershipId: zIdOut() });

export type CreateInvitationInput = z.infer<typeof createInvitationInput>;
