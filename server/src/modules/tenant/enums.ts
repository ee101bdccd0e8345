import { defineEnum } from '../../rpc/wire.js';

/*
 * Names and numbers are the original's (XiHan.BasicApp, Saas/Domain/Enums): its admin front end
 * sends and reads them, so a number must mean here what it means there.
 */

/** Whether a tenant can be entered: only Normal; the sessions of any other answer 403. */
export const TenantStatus = defineEnum('TenantStatus', { Normal: 0, Suspended: 1, Expired: 2, Disabled: 3 });
/** Only a Configured tenant can be entered; every other state (still being set up, failed, off) cannot. */
export const ConfigStatus = defineEnum('TenantConfigStatus', {
  Pending: 0,
  Configuring: 1,
  Configured: 2,
  Failed: 3,
  Disabled: 4,
});
/**
 * The member's standing in the tenant. Owner and PlatformAdmin memberships are the platform's to
 * make (RESERVED_MEMBER_TYPES); the others are labels an administrator may set.
 */
export const MemberType = defineEnum('TenantMemberType', {
  Owner: 0,
  Admin: 1,
  Member: 2,
  External: 3,
  Guest: 4,
  Consultant: 5,
  PlatformAdmin: 99,
});
export const RESERVED_MEMBER_TYPES: ReadonlySet<string> = new Set(['Owner', 'PlatformAdmin']);
export const MembershipStatus = defineEnum('MembershipStatus', { Disabled: 0, Active: 1 });
/** Only Accepted memberships admit their user. */
export const InviteStatus = defineEnum('TenantMemberInviteStatus', {
  Pending: 0,
  Accepted: 1,
  Rejected: 2,
  Revoked: 3,
  Expired: 4,
});
