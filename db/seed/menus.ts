/**
 * Default menus (TenantId 0: global, readable by every tenant). A menu with a permission code is
 * shown only to holders of that code; buttons carry the codes the front end uses for its buttons.
 */
export interface SeedMenu {
  code: string;
  type: 'Directory' | 'Menu' | 'Button' | 'ExternalLink';
  name: string;
  i18nKey?: string;
  path?: string;
  component?: string;
  icon?: string;
  permission?: string;
  link?: string;
  children?: SeedMenu[];
}

const ALL_ACTIONS = ['create', 'update', 'status', 'delete', 'export'] as const;

const buttons = (group: string, label: string, actions: readonly string[] = ALL_ACTIONS): SeedMenu[] =>
  actions.map((action) => ({
    code: `${group}:${action}`,
    type: 'Button',
    name: `${label}: ${action}`,
    permission: `saas:${group}:${action}`,
  }));

const page = (
  code: string,
  name: string,
  path: string,
  component: string,
  icon: string,
  group: string,
  actions?: readonly string[],
): SeedMenu => ({
  code,
  type: 'Menu',
  name,
  i18nKey: `menu.${code}`,
  path,
  component,
  icon,
  permission: `saas:${group}:read`,
  children: buttons(group, name, actions),
});

export const SEED_MENUS: SeedMenu[] = [
  {
    code: 'dashboard',
    type: 'Menu',
    name: 'Dashboard',
    i18nKey: 'menu.dashboard',
    path: '/workbench/dashboard',
    component: 'workbench/dashboard/index',
    icon: 'lucide:layout-dashboard',
  },
  {
    code: 'system',
    type: 'Directory',
    name: 'System',
    i18nKey: 'menu.system',
    path: '/system',
    icon: 'lucide:settings',
    children: [
      page('user', 'Users', '/system/user', 'system/user/index', 'lucide:users', 'user'),
      page('role', 'Roles', '/system/role', 'system/role/index', 'lucide:shield', 'role'),
      page(
        'department',
        'Departments',
        '/system/department',
        'system/department/index',
        'lucide:network',
        'department',
      ),
      page('position', 'Positions', '/system/position', 'system/position/index', 'lucide:briefcase', 'position'),
      page('menu', 'Menus', '/system/menu', 'system/menu/index', 'lucide:menu', 'menu'),
      {
        code: 'session',
        type: 'Menu',
        name: 'Sessions',
        i18nKey: 'menu.session',
        path: '/system/session',
        component: 'system/session/index',
        icon: 'lucide:monitor',
        permission: 'saas:user-session:read',
      },
      {
        code: 'login-log',
        type: 'Menu',
        name: 'Login logs',
        i18nKey: 'menu.loginLog',
        path: '/system/login-log',
        component: 'system/login-log/index',
        icon: 'lucide:history',
        permission: 'saas:login-log:read',
      },
    ],
  },
  {
    code: 'platform',
    type: 'Directory',
    name: 'Platform',
    i18nKey: 'menu.platform',
    path: '/platform',
    icon: 'lucide:building',
    children: [
      page('tenant', 'Tenants', '/platform/tenant', 'platform/tenant/index', 'lucide:building-2', 'tenant', [
        'create',
        'update',
        'status',
        'delete',
      ]),
      {
        code: 'edition',
        type: 'Menu',
        name: 'Editions',
        i18nKey: 'menu.edition',
        path: '/platform/edition',
        component: 'platform/edition/index',
        icon: 'lucide:layers',
        permission: 'saas:edition:read',
      },
    ],
  },
  {
    code: 'docs',
    type: 'ExternalLink',
    name: 'API reference',
    i18nKey: 'menu.docs',
    icon: 'lucide:book-open',
    link: '/swagger',
  },
];
