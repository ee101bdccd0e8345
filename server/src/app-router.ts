import { authRouter } from './modules/auth/router.js';
import { impersonationRouter } from './modules/impersonation/router.js';
import { notificationQueryRouter, notificationRouter, userInboxRouter } from './modules/inbox/router.js';
import { loginLogQueryRouter } from './modules/login-log/router.js';
import {
  userDepartmentRouter,
  userQueryRouter,
  userRoleRouter,
  userRouter,
  userSecurityRouter,
} from './modules/user/router.js';
import { userSessionQueryRouter, userSessionRouter } from './modules/user-session/router.js';
import { openApiRouter } from './modules/openapi/router.js';
import { profileRouter } from './modules/profile/router.js';
import { userSettingQueryRouter, userSettingRouter } from './modules/user-setting/router.js';
import { systemRouter } from './modules/system/router.js';
import { tenantQueryRouter } from './modules/tenant/query-router.js';
import { departmentQueryRouter } from './modules/department/query-router.js';
import { departmentRouter } from './modules/department/router.js';
import { menuQueryRouter, menuRouter } from './modules/menu/router.js';
import { enumMetadataRouter, timeZoneMetadataRouter } from './modules/metadata/router.js';
import { workbenchQueryRouter } from './modules/workbench/router.js';
import { permissionQueryRouter } from './modules/permission/router.js';
import { positionQueryRouter, positionRouter } from './modules/position/router.js';
import { roleQueryRouter } from './modules/role/query-router.js';
import { roleRouter } from './modules/role/router.js';
import { editionQueryRouter, editionRouter } from './modules/tenant/edition-router.js';
import { tenantMemberQueryRouter, tenantMemberRouter, tenantRouter } from './modules/tenant/router.js';
import type { ServiceRouteOptions } from './routes/derive.js';
import { router } from './rpc/trpc.js';
import { tenantInvitationQueryRouter, tenantInvitationRouter } from './modules/tenant-invitation/router.js';
import { userDataScopeQueryRouter, userDataScopeRouter } from './modules/user/data-scope.js';

/**
 * The whole API. Each key is a service class name as the spec would write it; its procedures are
 * the service methods. REST routes are derived from these names (routes/derive.ts).
 */
export const appRouter = router({
  AuthAppService: authRouter,
  OpenApiAppService: openApiRouter,
  ProfileAppService: profileRouter,
  UserSettingAppService: userSettingRouter,
  UserSettingQueryService: userSettingQueryRouter,
  SystemAppService: systemRouter,
  TenantQueryService: tenantQueryRouter,
  // Users, sessions, login log and impersonation (modules/{user,user-session,login-log,impersonation}).
  UserQueryService: userQueryRouter,
  UserAppService: userRouter,
  UserSecurityAppService: userSecurityRouter,
  UserRoleAppService: userRoleRouter,
  UserDepartmentAppService: userDepartmentRouter,
  UserDataScopeAppService: userDataScopeRouter,
  UserDataScopeQueryService: userDataScopeQueryRouter,
  UserSessionQueryService: userSessionQueryRouter,
  UserSessionAppService: userSessionRouter,
  LoginLogQueryService: loginLogQueryRouter,
  // The message center (modules/inbox).
  UserInboxAppService: userInboxRouter,
  NotificationQueryService: notificationQueryRouter,
  NotificationAppService: notificationRouter,
  ImpersonationAppService: impersonationRouter,
  // Tenants, editions, memberships, roles, catalogue, departments, positions, menus
  // (modules/{tenant,role,permission,department,position,menu}).
  TenantAppService: tenantRouter,
  EditionAppService: editionRouter,
  EditionQueryService: editionQueryRouter,
  TenantMemberAppService: tenantMemberRouter,
  TenantMemberQueryService: tenantMemberQueryRouter,
  TenantInvitationAppService: tenantInvitationRouter,
  TenantInvitationQueryService: tenantInvitationQueryRouter,
  RoleAppService: roleRouter,
  RoleQueryService: roleQueryRouter,
  PermissionQueryService: permissionQueryRouter,
  DepartmentAppService: departmentRouter,
  DepartmentQueryService: departmentQueryRouter,
  PositionAppService: positionRouter,
  PositionQueryService: positionQueryRouter,
  MenuAppService: menuRouter,
  MenuQueryService: menuQueryRouter,
  EnumMetadataAppService: enumMetadataRouter,
  TimeZoneMetadataAppService: timeZoneMetadataRouter,
  WorkbenchQueryService: workbenchQueryRouter,
});

export type AppRouter = typeof appRouter;

/** Class-level route templates (the spec fixes the authentication service to "Auth"). */
export const serviceRoutes: Record<string, ServiceRouteOptions> = {
  AuthAppService: { route: 'Auth' },
  // The signed self-test endpoints: /api/openapi/Ping and /api/openapi/Echo (SPEC).
  OpenApiAppService: { route: 'openapi' },
};
