import { describe, expect, it } from 'vitest';
import { appRouter, serviceRoutes } from '../../app-router.js';
import { buildOpenApiDocument } from '../../routes/openapi.js';
import { buildRouteTable } from '../../routes/table.js';
import { PERMISSION_CATALOGUE } from '../authz/permission-catalogue.js';

/** The routes of users, assignments, sessions, the login log and impersonation, as derived. */
const EXPECTED: Record<string, string | null> = {
  'GET /api/UserQuery/UserDetail': 'saas:user:read',
  'POST /api/UserQuery/UserPage': 'saas:user:read',
  'GET /api/UserQuery/EnabledUsers': 'saas:user:read',
  'POST /api/User/User': 'saas:user:create',
  'PUT /api/User/User': 'saas:user:update',
  'PUT /api/User/UserStatus': 'saas:user:status',
  'DELETE /api/User/User': 'saas:user:delete',
  'POST /api/UserSecurity/ResetUserPassword': 'saas:user-security:reset-password',
  'POST /api/UserSecurity/ResetUserTwoFactor': 'saas:user-security:reset-two-factor',
  'PUT /api/UserSecurity/UserLock': 'saas:user-security:lock',
  'PUT /api/UserSecurity/UserLoginPolicy': 'saas:user-security:login-policy',
  'GET /api/UserRole/UserRoles': 'saas:user-role:read',
  'POST /api/UserRole/UserRole': 'saas:user-role:grant',
  'PUT /api/UserRole/UserRole': 'saas:user-role:update',
  'PUT /api/UserRole/UserRoleStatus': 'saas:user-role:status',
  'DELETE /api/UserRole/UserRole': 'saas:user-role:revoke',
  'PUT /api/UserRole/UserRoles': 'saas:user-role:update',
  'GET /api/UserDepartment/UserDepartments': 'saas:user-department:read',
  'POST /api/UserDepartment/UserDepartment': 'saas:user-department:grant',
  'PUT /api/UserDepartment/UserDepartment': 'saas:user-department:update',
  'DELETE /api/UserDepartment/UserDepartment': 'saas:user-department:revoke',
  'GET /api/UserSessionQuery/UserSessions': 'saas:user-session:read',
  'POST /api/UserSession/RevokeUserSession': 'saas:user-session:revoke',
  'POST /api/UserSession/RevokeUserSessions': 'saas:user-session:revoke',
  'POST /api/LoginLogQuery/LoginLogPage': 'saas:login-log:read',
  'POST /api/Impersonation/Impersonation': 'saas:impersonation:start',
  // Login required only: the impersonation session itself ends or describes itself.
  'POST /api/Impersonation/EndImpersonation': null,
  'GET /api/Impersonation/Impersonation': null,
};

describe('administration routes', () => {
  const table = buildRouteTable(appRouter, serviceRoutes);
  const doc = buildOpenApiDocument(table, { title: 't', version: '0' }) as {
    paths: Record<string, Record<string, { 'x-permission'?: string; security?: unknown }>>;
  };

  it('derive the expected paths and document each permission code in the OpenAPI document', () => {
    for (const [route, code] of Object.entries(EXPECTED)) {
      const [method, path] = route.split(' ') as [string, string];
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op, route).toBeDefined();
      expect(op!['x-permission'] ?? null, route).toBe(code);
      expect(op!.security, route).toEqual([{ Bearer: [] }]);
      if (code)
        expect(
          PERMISSION_CATALOGUE.some((p) => p.code === code),
          code,
        ).toBe(true);
    }
  });

  it('mark the paged lists as POST with the query object as body', () => {
    const paged = table.filter((e) => e.meta.paged && ['UserQueryService', 'LoginLogQueryService'].includes(e.service));
    expect(paged.map((e) => `${e.method} ${e.path}`).sort()).toEqual([
      'POST /api/LoginLogQuery/LoginLogPage',
      'POST /api/UserQuery/UserPage',
    ]);
  });
});
