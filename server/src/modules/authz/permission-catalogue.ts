/**
 * Every permission code the service checks, with the original's names where the original service
 * records them (`saas:<group>:<action>`). Seeded into the permissions table; the OpenAPI
 * document lists the code each endpoint requires.
 */

export const WILDCARD_PERMISSION = '*';
export const SUPER_ADMIN_ROLE = 'super_admin';

const CRUD = ['read', 'create', 'update', 'status', 'delete', 'export'] as const;
const GRANTS = ['read', 'grant', 'update', 'status', 'revoke'] as const;

const groups: Record<string, readonly string[]> = {
  user: [...CRUD, 'read-contact'],
  role: CRUD,
  menu: CRUD,
  department: CRUD,
  position: CRUD,
  'user-security': ['read', 'reset-password', 'reset-two-factor', 'lock', 'login-policy'],
  'user-session': ['read', 'revoke', 'export'],
  'user-role': GRANTS,
  'role-permission': GRANTS,
  'user-permission': GRANTS,
  'role-data-scope': GRANTS,
  'user-data-scope': GRANTS,
  'user-department': GRANTS,
  'role-hierarchy': ['read', 'create', 'delete'],
  'login-log': ['read', 'export'],
  'external-login': ['read'],
  tenant: ['read', 'create', 'update', 'status', 'delete'],
  'tenant-member': ['read', 'grant', 'update', 'revoke'],
  edition: ['read', 'create', 'update', 'delete'],
  permission: ['read'],
  'audit-log': ['read'],
  /** Announcements: the list (read) and sending one to the current tenant (publish). */
  message: ['read', 'publish'],
  impersonation: ['start', 'cross-tenant'],
};

/**
 * Platform codes: they act on the platform itself (tenants, editions) or across tenants. They are
 * held, granted and used only in the platform state: inside a tenant they grant nothing (even to
 * the super-administrator), are not part of a tenant's catalogue, and cannot be granted to a
 * tenant's role or put in an edition's whitelist. Otherwise a tenant administrator given one by
 * its own tenant would act beyond that tenant (cross-tenant impersonation reached other tenants
 * that way).
 */
const PLATFORM_ACTIONS: Record<string, readonly string[]> = {
  tenant: groups.tenant!,
  edition: groups.edition!,
  impersonation: ['cross-tenant'],
};

export interface PermissionDefinition {
  code: string;
  name: string;
  groupCode: string;
  /** A platform code (see PLATFORM_ACTIONS). */
  platform: boolean;
}

const words = (s: string) => s.replaceAll('-', ' ');

export const PERMISSION_CATALOGUE: readonly PermissionDefinition[] = [
  { code: WILDCARD_PERMISSION, name: 'Everything (super-administrator)', groupCode: 'system', platform: false },
  ...Object.entries(groups).flatMap(([group, actions]) =>
    actions.map((action) => ({
      code: `saas:${group}:${action}`,
      name: `${words(group)}: ${words(action)}`,
      groupCode: group,
      platform: PLATFORM_ACTIONS[group]?.includes(action) ?? false,
    })),
  ),
];

const PLATFORM_CODES: ReadonlySet<string> = new Set(PERMISSION_CATALOGUE.filter((p) => p.platform).map((p) => p.code));

/** Whether a code is a platform code (any case): it applies only in the platform state. */
export function isPlatformCode(code: string): boolean {
  return PLATFORM_CODES.has(code.toLowerCase());
}

/** The codes as a typed lookup, so a typo in a router is a compile error. */
export function permission(code: `saas:${string}:${string}`): string {
  if (!PERMISSION_CATALOGUE.some((p) => p.code === code)) throw new Error(`Unknown permission code ${code}`);
  return code;
}
