import { defineEnum } from '../../rpc/wire.js';

/** Whether a tenant can be entered: Normal; Suspended and Disabled sessions answer 403. */
export const TenantStatus = defineEnum('TenantStatus', { Normal: 0, Suspended: 1, Disabled: 2 });
/** A tenant still being set up (Pending) cannot be entered. */
export const ConfigStatus = defineEnum('ConfigStatus', { Pending: 0, Configured: 1 });
/** The member's standing in the tenant. Owner memberships are made with the tenant, by the platform. */
export const MemberType = defineEnum('MemberType', { Owner: 0, Admin: 1, Member: 2 });
export const MembershipStatus = defineEnum('MembershipStatus', { Disabled: 0, Active: 1 });
export const InviteStatus = defineEnum('InviteStatus', { Pending: 0, Accepted: 1 });
