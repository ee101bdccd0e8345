import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, instant, pk, softDeleteColumns, versionColumn } from './columns.js';

/** What a tenant's plan allows: a whitelist of permission codes (empty = everything). */
export const editions = pgTable('editions', {
  id: pk(),
  code: varchar({ length: 64 }).notNull().unique(),
  name: varchar({ length: 128 }).notNull(),
  description: text(),
  /** Permission codes the edition allows; an empty list allows every code. */
  permissionWhitelist: text().array().notNull().default(sql`'{}'::text[]`),
  status: varchar({ length: 16 }).notNull().default('Enabled'),
  ...auditColumns(),
  ...versionColumn(),
});

/**
 * A tenant. Id 0 is the platform context (platform accounts and the operations state).
 * Status: Normal | Suspended | Expired | Disabled. ConfigStatus: Pending | Configuring | Configured |
 * Failed | Disabled (only Normal and Configured tenants can be entered).
 */
export const tenants = pgTable(
  'tenants',
  {
    id: pk(),
    code: varchar({ length: 64 }).notNull(),
    name: varchar({ length: 128 }).notNull(),
    shortName: varchar({ length: 64 }),
    logo: text(),
    domain: varchar({ length: 255 }),
    status: varchar({ length: 16 }).notNull().default('Normal'),
    configStatus: varchar({ length: 16 }).notNull().default('Configured'),
    suspendedTime: instant(),
    suspendReason: text(),
    editionId: id().references(() => editions.id),
    /** Most members; 0 = unlimited. */
    seatLimit: integer().notNull().default(0),
    /** Bytes of storage; 0 = unlimited. */
    storageQuotaBytes: bigint({ mode: 'bigint' }).notNull().default(sql`0`),
    storageUsedBytes: bigint({ mode: 'bigint' }).notNull().default(sql`0`),
    expirationTime: instant(),
    ...auditColumns(),
    ...versionColumn(),
    ...softDeleteColumns(),
  },
  (t) => [uniqueIndex('tenants_code_uq').on(sql`lower(${t.code})`).where(sql`${t.isDeleted} = false`)],
);

/**
 * Membership of a user in a tenant, with its validity period.
 * MemberType: Owner | Admin | Member | External | Guest | Consultant | PlatformAdmin. Status: Active |
 * Disabled. InviteStatus: Pending | Accepted | Rejected | Revoked | Expired (only Accepted admits).
 */
export const tenantMemberships = pgTable(
  'tenant_memberships',
  {
    id: pk(),
    tenantId: id()
      .notNull()
      .references(() => tenants.id),
    userId: id().notNull(),
    memberType: varchar({ length: 16 }).notNull().default('Member'),
    status: varchar({ length: 16 }).notNull().default('Active'),
    inviteStatus: varchar({ length: 16 }).notNull().default('Accepted'),
    displayName: varchar({ length: 128 }),
    effectiveTime: instant(),
    expirationTime: instant(),
    joinedTime: instant().notNull().defaultNow(),
    remark: text(),
    ...auditColumns(),
    ...versionColumn(),
  },
  (t) => [
    uniqueIndex('tenant_memberships_tenant_user_uq').on(t.tenantId, t.userId),
    index('tenant_memberships_user_idx').on(t.userId),
  ],
);

/**
 * An invitation of an e-mail address into a tenant (users of other tenants join by invitation:
 * a tenant must not learn whether an address has an account, nor add one without its consent).
 * Status: Pending | Accepted | Rejected | Revoked | Expired (the InviteStatus names). Accepting
 * creates the membership with the terms stored here; `expiresTime` bounds the invitation itself.
 */
export const tenantInvitations = pgTable(
  'tenant_invitations',
  {
    id: pk(),
    tenantId: id()
      .notNull()
      .references(() => tenants.id),
    /** Lower-cased, trimmed. */
    email: varchar({ length: 254 }).notNull(),
    memberType: varchar({ length: 16 }).notNull().default('Member'),
    displayName: varchar({ length: 128 }),
    effectiveTime: instant(),
    expirationTime: instant(),
    remark: text(),
    status: varchar({ length: 16 }).notNull().default('Pending'),
    expiresTime: instant().notNull(),
    respondedTime: instant(),
    /** The user who accepted or rejected it, and the membership accepting made. */
    respondedBy: id(),
    membershipId: id(),
    ...auditColumns(),
  },
  (t) => [
    // One open invitation per address and tenant.
    uniqueIndex('tenant_invitations_pending_uq').on(t.tenantId, t.email).where(sql`${t.status} = 'Pending'`),
    index('tenant_invitations_email_idx').on(t.email),
  ],
);
