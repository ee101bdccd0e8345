import type { AppDeps } from './app-deps.js';
import type { CredentialKeys } from './config/credential-keys.js';
import { createCodeLogin } from './modules/auth/login/code-login.js';
import { createLoginService } from './modules/auth/login/login-service.js';
import { createPasswordReset } from './modules/auth/self-service/password-reset.js';
import { createRegistration } from './modules/auth/self-service/registration.js';
import { createSendTiming } from './modules/auth/self-service/send-timing.js';
import { createSessionOperations } from './modules/auth/session/session-operations.js';
import { createSessionService } from './modules/auth/session/session-service.js';
import { createSessionStateService } from './modules/auth/session/session-state.js';
import { createTokenService } from './modules/auth/session/tokens.js';
import { createAuthorizationService } from './modules/authz/service.js';
import { createCredentialDirectory } from './modules/credentials/directory.js';
import { createDepartmentService } from './modules/department/service.js';
import { createNotificationHub } from './modules/hubs/notification-hub.js';
import { createImpersonationService } from './modules/impersonation/service.js';
import { createMaintenanceControl } from './modules/maintenance/control.js';
import { createMenuService } from './modules/menu/service.js';
import { createPositionService } from './modules/position/service.js';
import { createRoleGrantService } from './modules/role/grants.js';
import { createRoleService } from './modules/role/service.js';
import { createInvitationService } from './modules/tenant-invitation/service.js';
import { createEditionService } from './modules/tenant/editions.js';
import { createMemberService } from './modules/tenant/members.js';
import { createTenantService } from './modules/tenant/service.js';
import { createUserSessionService } from './modules/user-session/service.js';
import { createUserDepartmentService } from './modules/user/user-departments.js';
import { createUserRoleService } from './modules/user/user-roles.js';
import { createUserSecurityService } from './modules/user/user-security.js';
import { createUserService } from './modules/user/service.js';
import { createCodeService } from './modules/verification/codes.js';
import { createContacts } from './modules/profile/contacts.js';
import { createHistory } from './modules/profile/history.js';
import { createLinks } from './modules/profile/links.js';
import { createProfileInfo } from './modules/profile/profile-info.js';
import { createTwoFactorEnrolment } from './modules/profile/two-factor-service.js';
import { createUserSettings } from './modules/user-setting/service.js';

/** Secrets resolved at start-up that only the services see. */
export interface ServiceSecrets {
  /** Keys sealing API credential secrets, by id, and the one new secrets are sealed with. */
  credentialKeys: CredentialKeys;
}

/**
 * Builds every service once, in dependency order: each factory gets the parts of the
 * infrastructure it names and the peer services it calls. Boot and the tests build the same
 * graph through this function (tests with fakes in `infra` where they need them).
 */
export function createServices(infra: AppDeps, secrets: ServiceSecrets) {
  const { store, clock, config } = infra;
  const authz = createAuthorizationService(infra);
  const sessionState = createSessionStateService(infra);
  const credentials = createCredentialDirectory({
    ...infra,
    keys: secrets.credentialKeys.keys,
    currentKeyId: secrets.credentialKeys.currentId,
  });
  const maintenanceControl = createMaintenanceControl({ ...infra, pollMs: config.App.MaintenancePollSeconds * 1000 });
  const tokens = createTokenService(config.Jwt, clock);
  // Codes are stored as HMACs under a key derived from the JWT secret (never the secret itself).
  const codes = createCodeService(store, `codes:${config.Jwt.SecretKey}`);
  const sessions = createSessionService({ ...infra, tokens, authz, sessionState });
  const login = createLoginService({ ...infra, authz, codes, sessions });
  const sessionOps = createSessionOperations({ ...infra, authz, sessionState, tokens, sessions });
  const notificationHub = createNotificationHub({ ...infra, tokens, sessionState });
  const sendTiming = createSendTiming({
    capMs: { email: config.Mail.TimeoutSeconds * 1000, sms: config.Sms.TimeoutSeconds * 1000 },
  });
  const selfService = { ...infra, codes, sessionState, sessions, sendTiming };
  return {
    authz,
    sessionState,
    credentials,
    maintenanceControl,
    tokens,
    codes,
    sessions,
    login,
    sessionOps,
    notificationHub,
    sendTiming,
    registration: createRegistration(selfService),
    passwordReset: createPasswordReset(selfService),
    codeLogin: createCodeLogin({ ...selfService, login }),
    menus: createMenuService(infra),
    positions: createPositionService(infra),
    departments: createDepartmentService(infra),
    roles: createRoleService({ ...infra, authz }),
    roleGrants: createRoleGrantService({ ...infra, authz }),
    tenants: createTenantService({ ...infra, authz, sessionState }),
    members: createMemberService({ ...infra, authz, sessions }),
    editions: createEditionService({ ...infra, authz }),
    invitations: createInvitationService({ ...infra, authz }),
    users: createUserService({ ...infra, authz, sessionState, sessions }),
    userRoles: createUserRoleService({ ...infra, authz }),
    userDepartments: createUserDepartmentService({ ...infra, authz }),
    userSecurity: createUserSecurityService({ ...infra, authz, sessionState, sessions }),
    userSessions: createUserSessionService({ ...infra, authz, sessions }),
    impersonation: createImpersonationService({ ...infra, authz, sessionState, sessions, tokens }),
    profileInfo: createProfileInfo({ ...infra, sessionState }),
    contacts: createContacts({ ...infra, codes, sessionState }),
    history: createHistory(infra),
    links: createLinks(infra),
    twoFactorEnrolment: createTwoFactorEnrolment({ ...infra, codes, sessions, sessionState }),
    userSettings: createUserSettings({ ...infra, notificationHub }),
  };
}

/** Every service of a runtime, built once by createServices. */
export type Services = ReturnType<typeof createServices>;

/** The infrastructure with every service beside it: what tests and scripts reach through a runtime. */
export type AppGraph = AppDeps & Services;
