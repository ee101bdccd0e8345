import { describe, expect, it } from 'vitest';
import { deriveController, deriveRoute, type HttpMethod, type MethodRouteOptions } from './derive.js';

type Row = [
  service: string,
  method: string,
  expected: `${HttpMethod} ${string}`,
  opts?: MethodRouteOptions & { route?: string },
];

const table: Row[] = [
  // Every example the contract gives.
  ['AuthAppService', 'GetLoginConfigAsync', 'GET /api/Auth/LoginConfig', { route: 'Auth' }],
  ['AuthAppService', 'CreateOAuthBindTicketAsync', 'POST /api/Auth/OAuthBindTicket', { route: 'Auth' }],
  ['AuthAppService', 'LoginAsync', 'POST /api/Auth/Login', { route: 'Auth' }],
  ['AuthAppService', 'RefreshTokenAsync', 'POST /api/Auth/RefreshToken', { route: 'Auth' }],
  ['AuthAppService', 'GetUserInfoAsync', 'GET /api/Auth/UserInfo', { route: 'Auth' }],
  ['AuthAppService', 'GetPermissionsAsync', 'GET /api/Auth/Permissions', { route: 'Auth' }],
  ['UserQueryService', 'GetUserDetailAsync', 'GET /api/UserQuery/UserDetail'],
  ['UserQueryService', 'GetUserPageAsync', 'POST /api/UserQuery/UserPage', { paged: true }],
  ['UserAppService', 'CreateUserAsync', 'POST /api/User/User'],
  ['UserAppService', 'UpdateUserStatusAsync', 'PUT /api/User/UserStatus'],
  ['TenantQueryService', 'GetMyAvailableTenantsAsync', 'GET /api/TenantQuery/MyAvailableTenants'],
  ['ProfileAppService', 'GetProfileAsync', 'GET /api/Profile/Profile'],
  ['ProfileAppService', 'UpdateProfileAsync', 'PUT /api/Profile/Profile'],
  ['ProfileAppService', 'ChangeUserNameAsync', 'POST /api/Profile/ChangeUserName'],
  ['ProfileAppService', 'Setup2FAAsync', 'POST /api/Profile/Setup2FA'],
  ['ProfileAppService', 'GetSessionsAsync', 'GET /api/Profile/Sessions'],
  ['ProfileAppService', 'RevokeOtherSessionsAsync', 'POST /api/Profile/RevokeOtherSessions'],
  ['ProfileAppService', 'CreateApiCredentialAsync', 'POST /api/Profile/ApiCredential'],
  ['ProfileAppService', 'RotateApiCredentialSecretAsync', 'POST /api/Profile/RotateApiCredentialSecret'],
  ['ProfileAppService', 'UpdateApiCredentialStatusAsync', 'PUT /api/Profile/ApiCredentialStatus'],
  ['ProfileAppService', 'DeleteApiCredentialAsync', 'DELETE /api/Profile/ApiCredential'],
  [
    'ProfileAppService',
    'DeleteAccountAsync',
    'POST /api/Profile/DeleteAccount',
    { method: 'POST', action: 'DeleteAccount' },
  ],
  ['ProfileAppService', 'DeleteAccountAsync', 'DELETE /api/Profile/Account'],
  // Every verb of the prefix table.
  ['ThingAppService', 'RetrieveThingAsync', 'GET /api/Thing/Thing'],
  ['ThingAppService', 'FetchThingAsync', 'GET /api/Thing/Thing'],
  ['ThingAppService', 'FindThingAsync', 'GET /api/Thing/Thing'],
  ['ThingAppService', 'QueryThingAsync', 'GET /api/Thing/Thing'],
  ['ThingAppService', 'ListThingsAsync', 'GET /api/Thing/Things'],
  ['ThingAppService', 'SearchThingsAsync', 'GET /api/Thing/Things'],
  ['ThingAppService', 'AddThingAsync', 'POST /api/Thing/Thing'],
  ['ThingAppService', 'InsertThingAsync', 'POST /api/Thing/Thing'],
  ['ThingAppService', 'EditThingAsync', 'PUT /api/Thing/Thing'],
  ['ThingAppService', 'ModifyThingAsync', 'PUT /api/Thing/Thing'],
  ['ThingAppService', 'RemoveThingAsync', 'DELETE /api/Thing/Thing'],
  ['ThingAppService', 'DestroyThingAsync', 'DELETE /api/Thing/Thing'],
  ['ThingAppService', 'PatchThingAsync', 'PATCH /api/Thing/Thing'],
  ['ThingAppService', 'PartialUpdateThingAsync', 'PATCH /api/Thing/Thing'],
  // Traps.
  ['TripAppService', 'GetawayAsync', 'POST /api/Trip/Getaway'],
  ['FeedAppService', 'UpdatesAsync', 'POST /api/Feed/Updates'],
  ['FeedAppService', 'GetUpdatesAsync', 'GET /api/Feed/Updates'],
  ['ThingAppService', 'Get_ThingAsync', 'GET /api/Thing/Thing'],
  ['ThingAppService', 'GetAsync', 'POST /api/Thing/Get'],
  ['ThingAppService', 'DeleteAsync', 'POST /api/Thing/Delete'],
  ['ThingAppService', 'Async', 'POST /api/Thing/Async'],
  ['ThingAppService', 'Listen', 'POST /api/Thing/Listen'],
  ['ThingAppService', 'Addresses', 'POST /api/Thing/Addresses'],
  ['ThingAppService', 'PartialThing', 'POST /api/Thing/PartialThing'],
  ['ThingAppService', 'GetThing', 'GET /api/Thing/Thing'],
  ['ThingAppService', 'GetThingAsyncAsync', 'GET /api/Thing/ThingAsync'],
  ['ThingAppService', 'GetThingAsync', 'DELETE /api/Thing/Thing', { method: 'DELETE' }],
  ['ThingAppService', 'GetThingPageAsync', 'POST /api/Thing/ThingPage', { paged: true }],
  ['ThingAppService', 'GetThingPageAsync', 'GET /api/Thing/ThingPage'],
  ['OpenApiAppService', 'PingAsync', 'GET /api/openapi/Ping', { route: 'openapi', method: 'GET' }],
  ['OpenApiAppService', 'EchoAsync', 'POST /api/openapi/Echo', { route: 'openapi' }],
];

describe('deriveRoute', () => {
  it.each(table)('%s.%s -> %s', (service, method, expected, opts = {}) => {
    const { route, ...methodOpts } = opts;
    const derived = deriveRoute(service, method, route ? { route } : {}, methodOpts);
    expect(`${derived.method} ${derived.path}`).toBe(expected);
  });
});

describe('deriveController', () => {
  it.each([
    ['UserAppService', 'User'],
    ['UserQueryService', 'UserQuery'],
    ['TenantQueryService', 'TenantQuery'],
    ['AppService', 'AppService'],
    ['Plain', 'Plain'],
  ])('%s -> %s', (service, expected) => {
    expect(deriveController(service)).toBe(expected);
  });

  it('uses the fixed route template over the class name', () => {
    expect(deriveController('AuthenticationAppService', { route: 'Auth' })).toBe('Auth');
  });
});
