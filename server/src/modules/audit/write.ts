import { auditEntries } from '../../../../db/schema/index.js';
import type { Executor } from '../../infra/db/client.js';
import type { IdGenerator } from '../../infra/ids.js';

/** Security-relevant actions recorded as audit entries (SPEC "Events"). */
export type AuditAction =
  | 'TokenRefreshed'
  | 'PasswordChanged'
  | 'PasswordReset'
  | 'MfaBound'
  | 'MfaUnbound'
  | 'TenantSwitched'
  | 'SessionRevoked'
  | 'RefreshTokenReuse'
  | 'ImpersonationStarted'
  | 'ImpersonationEnded'
  | 'ApiCredentialCreated'
  | 'ApiCredentialRotated'
  | 'ApiCredentialStatusChanged'
  | 'ApiCredentialDeleted'
  | 'UserCreated'
  | 'UserDeleted'
  | 'UserStatusChanged'
  | 'PasswordResetByAdmin'
  | 'UserUpdated'
  | 'UserRoleGranted'
  | 'UserRoleChanged'
  | 'UserRoleRevoked'
  | 'UserDepartmentChanged'
  | 'UserLocked'
  | 'UserUnlocked'
  | 'UserLoginPolicyChanged'
  | 'UserDataScopeChanged'
  // The user's own deactivation and deletion (Profile/DeactivateAccount, DeleteAccount).
  | 'AccountDeactivated'
  | 'AccountDeleted'
  // Second-factor recovery codes (a new set made; one spent at login).
  | 'RecoveryCodesGenerated'
  | 'RecoveryCodeUsed'
  // The user's own profile, contacts, links and preferences (modules/profile, modules/user-setting).
  | 'ProfileUpdated'
  | 'UserNameChanged'
  | 'EmailChanged'
  | 'PhoneChanged'
  | 'EmailVerified'
  | 'PhoneVerified'
  | 'ExternalLoginUnlinked'
  | 'NotificationPreferenceChanged'
  | 'UserSettingSaved'
  // Administration of roles, tenants, editions and the directory (audit/change.ts).
  | 'RoleCreated'
  | 'RoleUpdated'
  | 'RoleDeleted'
  | 'RoleStatusChanged'
  | 'RoleDataScopeChanged'
  | 'RoleParentAdded'
  | 'RoleParentRemoved'
  | 'RolePermissionGranted'
  | 'RolePermissionRevoked'
  | 'RolePermissionStatusChanged'
  | 'RolePermissionsReplaced'
  | 'TenantCreated'
  | 'TenantUpdated'
  | 'TenantEditionChanged'
  | 'TenantStatusChanged'
  | 'TenantSuspended'
  | 'TenantResumed'
  | 'TenantDeleted'
  | 'TenantMemberAdded'
  | 'TenantMemberUpdated'
  | 'TenantMemberRemoved'
  | 'TenantInvitationCreated'
  | 'TenantInvitationRevoked'
  | 'TenantInvitationRejected'
  | 'EditionCreated'
  | 'EditionUpdated'
  | 'EditionDeleted'
  | 'DepartmentCreated'
  | 'DepartmentUpdated'
  | 'DepartmentStatusChanged'
  | 'DepartmentDeleted'
  | 'PositionCreated'
  | 'PositionUpdated'
  | 'PositionStatusChanged'
  | 'PositionDeleted'
  | 'MenuCreated'
  | 'MenuUpdated'
  | 'MenuStatusChanged'
  | 'MenuDeleted';

export interface AuditEntry {
  action: AuditAction;
  tenantId: bigint;
  userId?: bigint | null;
  actorUserId?: bigint | null;
  targetType?: string;
  targetId?: string;
  detail?: Record<string, unknown>;
  ip?: string;
  traceId?: string;
  at: Date;
}

/** The audit row of an entry (for callers that write it together with other rows). */
export function auditRow(ids: IdGenerator, entry: AuditEntry): typeof auditEntries.$inferInsert {
  return {
    id: ids.next(),
    tenantId: entry.tenantId,
    userId: entry.userId ?? null,
    actorUserId: entry.actorUserId ?? entry.userId ?? null,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    detail: entry.detail,
    ipAddress: entry.ip,
    traceId: entry.traceId,
    createdTime: entry.at,
  };
}

export async function writeAudit(db: Executor, ids: IdGenerator, entry: AuditEntry): Promise<void> {
  await db.insert(auditEntries).values(auditRow(ids, entry));
}
