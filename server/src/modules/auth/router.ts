import { inArray } from 'drizzle-orm';
import { systemSettings } from '../../../../db/schema/index.js';
import { appError } from '../../errors/app-error.js';
import { commonErrors } from '../../errors/common.js';
import { authedProcedure, publicProcedure, router } from '../../rpc/trpc.js';
import { hitRateLimit } from '../../stores/rate-limit.js';
import { allows } from '../authz/snapshot.js';
import { PERMISSION_CATALOGUE, WILDCARD_PERMISSION } from '../authz/permission-catalogue.js';
import { captchaDataUri } from './captcha/captcha-image.js';
import { authErrors } from './errors.js';
import { loadMenus } from './menus.js';
import {
  captchaResponse,
  lockSessionRequest,
  loginConfig,
  loginRequest,
  loginResponse,
  loginToken,
  permissionInfo,
  refreshTokenRequest,
  switchTenantRequest,
  unlockSessionRequest,
  userInfo,
} from './schemas.js';
import { parseTenantTarget } from './session/session-operations.js';
import { selfServiceProcedures } from './self-service/self-service-router.js';
import { loginButtons, OAUTH_BUTTONS_KEY } from '../oauth/buttons.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';

/**
 * The listed methods without the code logins that are switched off: the UI shows only what is
 * listed (SPEC LoginConfig), and a button for a method answering 403 would be a dead end.
 * Names are matched loosely (`email`, `email-code`, `EmailCode`; `phone`, `sms`, `phone-code`).
 */
export function enabledLoginMethods(
  methods: string[],
  auth: { EmailCodeLoginEnabled: boolean; PhoneCodeLoginEnabled: boolean },
): string[] {
  return methods.filter((m) => {
    const key = m.toLowerCase().replace(/[^a-z]/g, '');
    if (key.startsWith('email') || key === 'mail') return auth.EmailCodeLoginEnabled;
    if (key.startsWith('phone') || key.startsWith('sms')) return auth.PhoneCodeLoginEnabled;
    return true;
  });
}

/** /api/Auth (the service is fixed to the route template "Auth"). */

const CAPTCHA_TTL_MS = 5 * 60_000;

export const authRouter = router({
  GetLoginConfigAsync: publicProcedure
    .meta({ summary: 'Login methods, OAuth providers and whether the captcha is on' })
    .output(loginConfig)
    .query(async ({ ctx }) => {
      const { db, config } = ctx.deps;
      const settings = await db
        .select({ key: systemSettings.settingKey, value: systemSettings.settingValue })
        .from(systemSettings)
        .where(inArray(systemSettings.settingKey, ['saas.auth.login.methods', OAUTH_BUTTONS_KEY]));
      const stored = settings.find((s) => s.key === 'saas.auth.login.methods');
      let methods = config.Saas.Auth.LoginMethods;
      try {
        if (stored) methods = JSON.parse(stored.value) as string[];
      } catch {
        ctx.deps.logger.warn('saas.auth.login.methods is not JSON; using the configured methods');
      }
      // Only providers both enabled on the server and stored as buttons (oauth/buttons.ts).
      const oAuthProviders = loginButtons(config, settings.find((s) => s.key === OAUTH_BUTTONS_KEY)?.value);
      return {
        loginMethods: enabledLoginMethods(methods, config.Saas.Auth),
        oAuthProviders,
        captchaEnabled: config.Saas.Auth.CaptchaEnabled,
      };
    }),

  GetCaptchaAsync: publicProcedure
    .meta({ summary: 'A 4-digit image captcha, valid 5 minutes, consumed on first check' })
    .output(captchaResponse)
    .query(async ({ ctx }) => {
      const limit = await hitRateLimit(ctx.deps.store, `captcha:ip:${ctx.ip}`, 60, 60_000);
      if (!limit.allowed) {
        throw appError(authErrors.TOO_MANY_ATTEMPTS, {
          params: { seconds: limit.retryAfterSeconds },
          headers: { 'Retry-After': String(limit.retryAfterSeconds) },
        });
      }
      const captchaId = ctx.services.tokens.newRefreshToken().hash.slice(0, 32);
      const code = await ctx.services.codes.issue('captcha', captchaId, { digits: 4, ttlMs: CAPTCHA_TTL_MS });
      return { captchaId, image: captchaDataUri(code), expiresInSeconds: CAPTCHA_TTL_MS / 1000 };
    }),

  LoginAsync: publicProcedure
    .meta({
      summary: 'Password login with captcha and second factor',
      description:
        'Later second-factor stages post the credentials again with twoFactorMethod, twoFactorCode and twoFactorTicket.',
    })
    .input(loginRequest.optional())
    .output(loginResponse)
    .mutation(({ ctx, input }) => ctx.services.login.login(input, ctx)),

  RefreshTokenAsync: publicProcedure
    .meta({
      summary: 'Exchanges the old access token and the refresh token for a new pair',
      description:
        'Anonymous: the access token may have expired. The refresh token rotates on every use; presenting a used one ends the session.',
    })
    .input(refreshTokenRequest)
    .output(loginToken)
    .mutation(({ ctx, input }) => ctx.services.sessionOps.refresh(input.accessToken, input.refreshToken, ctx)),

  GetUserInfoAsync: authedProcedure
    .meta({ summary: 'The current user, context, roles and permissions' })
    .output(userInfo)
    .query(async ({ ctx }) => {
      const { auth, deps } = ctx;
      const { state } = auth;
      const snapshot = await ctx.services.authz.get(auth.userId, auth.tenantId);
      const platformSnapshot = auth.tenantId === 0n ? snapshot : await ctx.services.authz.get(auth.userId, 0n);
      return {
        id: state.userId,
        basicId: state.userId,
        userName: state.userName,
        nickName: state.nickName,
        realName: state.realName,
        avatar: state.avatar,
        email: state.email,
        phone: state.phone,
        tenantId: auth.tenantId === 0n ? null : state.tenantId,
        isPlatform: auth.tenantId === 0n,
        canAccessPlatform: platformSnapshot.isSuperAdmin || state.homeTenantId === '0',
        roles: snapshot.roles,
        permissions: snapshot.permissions,
        appTitle: deps.config.App.Name,
        appSubtitle: deps.config.App.Subtitle ?? null,
        appLogo: deps.config.App.LogoUrl ?? null,
        isImpersonating: state.impersonatorUserId !== null,
      };
    }),

  GetPermissionsAsync: authedProcedure
    .meta({ summary: 'Roles, permission codes, the menu route tree and button codes' })
    .output(permissionInfo)
    .query(async ({ ctx }) => {
      const { auth, deps } = ctx;
      const snapshot = await ctx.services.authz.get(auth.userId, auth.tenantId);
      const { menus, buttons } = await loadMenus(deps.db, auth.tenantId, (code) => allows(snapshot, code));
      // Like the original, the super-administrator's list is `*` and every code, for front ends that gate on codes.
      const codes = snapshot.permissions.includes(WILDCARD_PERMISSION)
        ? [
            WILDCARD_PERMISSION,
            ...PERMISSION_CATALOGUE.filter((p) => p.code !== WILDCARD_PERMISSION && allows(snapshot, p.code)).map(
              (p) => p.code,
            ),
          ]
        : snapshot.permissions;
      return { roles: snapshot.roles, permissions: codes, menus, ...(buttons.length ? { buttons } : {}) };
    }),

  SwitchTenantAsync: authedProcedure
    .meta({ summary: 'Moves the session to a tenant, or to the platform state (null)', allowOutsideTenant: true })
    .input(switchTenantRequest)
    .output(loginToken)
    .mutation(({ ctx, input }) => {
      // An impersonation session is scoped to the tenant it was granted in.
      refuseWhileImpersonating(ctx.auth);
      const target = parseTenantTarget(input.tenantId);
      if (target === undefined)
        throw appError(commonErrors.VALIDATION_FAILED, {
          params: { summary: 'tenantId' },
          detail: [{ field: 'tenantId', message: 'not a tenant id' }],
        });
      return ctx.services.sessionOps.switchTenant(ctx.auth, target, ctx);
    }),

  LogoutAsync: authedProcedure
    .meta({ summary: 'Ends the session and its tokens', allowWhileLocked: true, allowOutsideTenant: true })
    .mutation(({ ctx }) => ctx.services.sessionOps.logout(ctx.auth, ctx)),

  LockSessionAsync: authedProcedure
    // Under a screen lock only (locking again keeps the lock); a forced password change allows
    // nothing but the change, logout and refresh (SPEC "Session lock").
    .meta({ summary: 'Locks the session with a lock password (4 to 64 characters)', allowWhileLocked: 'ScreenLock' })
    .input(lockSessionRequest)
    .mutation(({ ctx, input }) => ctx.services.sessionOps.lock(ctx.auth, input.password)),

  UnlockSessionAsync: authedProcedure
    .meta({ summary: 'Unlocks with the lock password or the account password', allowWhileLocked: 'ScreenLock' })
    .input(unlockSessionRequest)
    .mutation(({ ctx, input }) => ctx.services.sessionOps.unlock(ctx.auth, input.password)),

  // One-time-code login, registration, password recovery, the OAuth bind ticket.
  ...selfServiceProcedures,
});
