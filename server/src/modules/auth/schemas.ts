import { z } from 'zod';
import { zDateTimeOut, zIdOut, zPlainDateTimeOut } from '../../rpc/wire.js';

/** The shapes of /api/Auth (SPEC "Data transfer shapes"; the original service where SPEC is silent). */

const text = (max: number) => z.string().max(max);
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .optional()
    .nullable()
    .transform((v) => v ?? undefined);

export const twoFactorMethodInput = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['totp', 'email', 'phone']));

/** Password login's later stages also take a recovery code in place of a second factor. */
export const loginTwoFactorMethodInput = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['totp', 'email', 'phone', 'recovery']));

export const loginRequest = z.object({
  username: text(256).trim().min(1),
  password: text(1024).min(1),
  captchaId: optionalText(64),
  captchaCode: optionalText(16),
  twoFactorCode: optionalText(16),
  twoFactorMethod: loginTwoFactorMethodInput
    .optional()
    .nullable()
    .transform((v) => v ?? undefined),
  twoFactorTicket: optionalText(128),
  deviceId: optionalText(200),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginToken = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int(),
  issuedAt: zPlainDateTimeOut(),
  expiresAt: zPlainDateTimeOut(),
});

export const loginResponse = z.object({
  requiresTwoFactor: z.boolean(),
  availableTwoFactorMethods: z.array(z.enum(['totp', 'email', 'phone'])).optional(),
  twoFactorMethod: z.enum(['totp', 'email', 'phone']).nullable().optional(),
  codeSent: z.boolean().optional(),
  twoFactorTicket: z.string().optional(),
  token: loginToken.nullable(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

export const loginConfig = z.object({
  loginMethods: z.array(z.string()),
  oAuthProviders: z.array(z.object({ name: z.string(), displayName: z.string() })),
  captchaEnabled: z.boolean(),
});

export const captchaResponse = z.object({
  captchaId: z.string(),
  image: z.string(),
  expiresInSeconds: z.number().int(),
});

export const refreshTokenRequest = z.object({
  accessToken: text(8192).min(1),
  refreshToken: text(512).min(1),
});

export const switchTenantRequest = z.object({
  /** A tenant id, or null (or 0) for the platform operations state. */
  tenantId: z.union([z.string(), z.number()]).nullable().optional(),
});

export const lockSessionRequest = z.object({ password: text(64).min(4) });
export const unlockSessionRequest = z.object({ password: text(1024).min(1) });

export const userInfo = z.object({
  id: zIdOut(),
  basicId: zIdOut(),
  userName: z.string(),
  nickName: z.string().nullable().optional(),
  realName: z.string().nullable().optional(),
  avatar: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  tenantId: zIdOut().nullable().optional(),
  isPlatform: z.boolean(),
  canAccessPlatform: z.boolean(),
  roles: z.array(z.string()),
  permissions: z.array(z.string()),
  appTitle: z.string(),
  appSubtitle: z.string().nullable().optional(),
  appLogo: z.string().nullable().optional(),
  isImpersonating: z.boolean(),
});

export interface MenuNode {
  basicId: string;
  path: string;
  name: string;
  component?: string | null;
  redirect?: string | null;
  meta: {
    title: string;
    icon?: string | null;
    hidden: boolean;
    keepAlive: boolean;
    affixTab: boolean;
    permissions?: string[];
    order: number;
    badge?: string | null;
    badgeType?: string | null;
    dot: boolean;
    link?: string | null;
  };
  children?: MenuNode[];
}

export const menuNode: z.ZodType<MenuNode> = z
  .lazy(() =>
    z.object({
      basicId: zIdOut(),
      path: z.string(),
      name: z.string(),
      component: z.string().nullable().optional(),
      redirect: z.string().nullable().optional(),
      meta: z.object({
        title: z.string(),
        icon: z.string().nullable().optional(),
        hidden: z.boolean(),
        keepAlive: z.boolean(),
        affixTab: z.boolean(),
        permissions: z.array(z.string()).optional(),
        order: z.number().int(),
        badge: z.string().nullable().optional(),
        badgeType: z.string().nullable().optional(),
        dot: z.boolean(),
        link: z.string().nullable().optional(),
      }),
      children: z.array(menuNode).optional(),
    }),
  )
  .meta({ id: 'PermissionMenuNode' });

export const permissionInfo = z.object({
  roles: z.array(z.string()),
  permissions: z.array(z.string()),
  menus: z.array(menuNode),
  buttons: z.array(z.string()).optional(),
});

export const availableTenant = z.object({
  tenantId: zIdOut(),
  tenantCode: z.string(),
  tenantName: z.string(),
  tenantShortName: z.string().nullable().optional(),
  logo: z.string().nullable().optional(),
  domain: z.string().nullable().optional(),
  tenantStatus: z.string(),
  configStatus: z.string(),
  expirationTime: zDateTimeOut().nullable().optional(),
  membershipId: zIdOut().nullable().optional(),
  memberType: z.string().nullable().optional(),
  inviteStatus: z.string().nullable().optional(),
  membershipExpirationTime: zDateTimeOut().nullable().optional(),
  joinedTime: zDateTimeOut().nullable().optional(),
  isCurrent: z.boolean(),
});
