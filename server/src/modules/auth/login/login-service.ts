import { eq } from 'drizzle-orm';
import { userSecurity } from '../../../../../db/schema/index.js';
import type { AppDeps } from '../../../app-deps.js';
import type { AuthorizationService } from '../../authz/service.js';
import type { CodeService } from '../../verification/codes.js';
import type { SessionService } from '../session/session-service.js';
import { appError } from '../../../errors/app-error.js';
import type { CallContext } from '../../../rpc/call-context.js';
import { hitFixedWindow } from '../../../stores/rate-limit.js';
import { notifySecurity } from '../../notifications/notify.js';
import { authErrors } from '../errors.js';
import type { RequestFacts } from '../events.js';
import { availableTenants, landingTenant } from './landing.js';
import type { LoginRequest, LoginResponse } from '../schemas.js';
import type { LoginResultName } from '../../login-log/write.js';
import type { LoginToken } from '../session/tokens.js';
import type { Culture } from '../../../config/schema.js';
import {
  availableMethods,
  createTwoFactor,
  normalizeLoginName,
  type TwoFactorAccount,
  type TwoFactorMethodName,
} from '../two-factor/two-factor.js';
import { findAccount, type LoginAccount } from './account-lookup.js';
import { recordFailedLogin } from './failed-login.js';
import { useRecoveryCode } from '../recovery-login.js';

export function requestFacts(ctx: CallContext, deviceId?: string | null): RequestFacts {
  return { ip: ctx.ip, userAgent: ctx.userAgent, traceId: ctx.traceId, deviceFingerprint: deviceId ?? null };
}

export function twoFactorAccount(account: NonNullable<LoginAccount>): TwoFactorAccount {
  const { user, security } = account;
  return {
    userId: user.id,
    twoFactorMethod: security.twoFactorMethod,
    twoFactorSecret: security.twoFactorSecret,
    lastTotpStep: security.lastTotpStep,
    email: user.email,
    emailVerified: user.emailVerified,
    phone: user.phone,
    phoneVerified: user.phoneVerified,
  };
}

type LoginDeps = Pick<
  AppDeps,
  | 'db'
  | 'database'
  | 'ids'
  | 'clock'
  | 'config'
  | 'events'
  | 'store'
  | 'messages'
  | 'hasher'
  | 'logger'
  | 'twoFactorSecrets'
> & {
  authz: AuthorizationService;
  codes: CodeService;
  sessions: SessionService;
};

export function createLoginService(deps: LoginDeps) {
  const { db, clock, config, events, store } = deps;
  const auth = config.Saas.Auth;
  const twoFactor = createTwoFactor(deps);

  async function fail(
    result: LoginResultName,
    message: string,
    facts: RequestFacts,
    loginName: string,
    account?: LoginAccount,
  ): Promise<void> {
    await events.publish('AuthLoginFailed', {
      userId: account?.user.id ?? null,
      userName: loginName,
      tenantId: account?.user.tenantId ?? 0n,
      method: 'password',
      result,
      message,
      request: facts,
    });
  }

  /**
   * A failure that counts toward the lockout (a wrong password, a wrong second-factor code):
   * counted atomically and written to the login log in one statement (failed-login.ts). A name
   * that names no account runs the same statement, counted against no account, so that both
   * answer in the same time.
   */
  async function countFailure(
    account: LoginAccount,
    attempt: { loginName: string; method: string; result: LoginResultName; message: string; facts: RequestFacts },
  ): Promise<void> {
    const userId = account?.user.id ?? null;
    const tenantId = account?.user.tenantId ?? 0n;
    const { loginName, method, result, message, facts } = attempt;
    await recordFailedLogin(
      deps.database,
      deps.ids,
      { threshold: auth.LockoutThreshold, minutes: auth.LockoutMinutes },
      { userId, tenantId, userName: loginName, method, result, message, request: facts, at: clock.now() },
    );
    await events.publish('AuthLoginFailed', {
      userId,
      userName: loginName,
      tenantId,
      method,
      result,
      message,
      request: facts,
      recorded: true,
    });
  }

  /** SPEC: fixed windows of a minute per (account + address) and per address alone. */
  async function throttle(loginName: string, ip: string): Promise<void> {
    const [perAccount, perIp] = await Promise.all([
      hitFixedWindow(store, `login:account-ip:${loginName}:${ip}`, auth.ThrottlePerAccountAndIp, 60_000),
      hitFixedWindow(store, `login:ip:${ip}`, auth.ThrottlePerIp, 60_000),
    ]);
    const blocked = [perAccount, perIp].filter((r) => !r.allowed);
    if (blocked.length === 0) return;
    const seconds = Math.max(...blocked.map((r) => r.retryAfterSeconds));
    throw appError(authErrors.TOO_MANY_ATTEMPTS, { params: { seconds }, headers: { 'Retry-After': String(seconds) } });
  }

  function challenge(
    methods: TwoFactorMethodName[],
    method: TwoFactorMethodName | null,
    codeSent: boolean,
    ticket: string,
  ): LoginResponse {
    return {
      requiresTwoFactor: true,
      availableTwoFactorMethods: methods,
      twoFactorMethod: method,
      codeSent,
      twoFactorTicket: ticket,
      token: null,
    };
  }

  /**
   * A recovery code in place of the second factor: a stage without a code answers a challenge
   * (nothing is sent); a right code is spent (recovery-login.ts) and the login goes on. It works
   * even when no method is usable, which is what the codes are for.
   */
  async function recoveryStage(
    input: LoginRequest,
    account: NonNullable<LoginAccount>,
    loginName: string,
    facts: RequestFacts,
    ctx: CallContext,
  ): Promise<LoginResponse | undefined> {
    const methods = availableMethods(twoFactorAccount(account), deps.messages);
    if (!input.twoFactorTicket) {
      const ticket = await twoFactor.issueTicket(account.user.id, loginName);
      await events.publish('AuthTwoFactorRequired', {
        userId: account.user.id,
        userName: loginName,
        tenantId: account.user.tenantId,
        method: 'password',
        request: facts,
      });
      return challenge(methods, null, false, ticket);
    }
    if (!input.twoFactorCode) return challenge(methods, null, false, input.twoFactorTicket);
    if (
      !(await useRecoveryCode(
        deps,
        { userId: account.user.id, tenantId: account.user.tenantId, culture: ctx.culture },
        input.twoFactorCode,
        facts,
      ))
    ) {
      await countFailure(account, {
        loginName,
        method: 'password',
        result: 'TwoFactorFailed',
        message: 'Second factor (recovery) refused',
        facts,
      });
      throw appError(authErrors.TWO_FACTOR_CODE_INVALID);
    }
    return undefined;
  }

  /** The second-factor stages; returns a challenge to answer, or undefined when passed. */
  async function secondFactor(
    input: LoginRequest,
    account: NonNullable<LoginAccount>,
    loginName: string,
    facts: RequestFacts,
    ctx: CallContext,
  ): Promise<LoginResponse | undefined> {
    if (account.security.twoFactorMethod === 0) return undefined;
    if (input.twoFactorMethod === 'recovery') return recoveryStage(input, account, loginName, facts, ctx);
    const tfa = twoFactorAccount(account);
    const methods = availableMethods(tfa, deps.messages);
    // Fail closed: a second factor is on but none can be used (e.g. the e-mail lost its verification).
    if (methods.length === 0) {
      await fail('TwoFactorFailed', 'No second-factor method usable', facts, loginName, account);
      throw appError(authErrors.TWO_FACTOR_METHOD_UNAVAILABLE, { params: { method: input.twoFactorMethod ?? '-' } });
    }
    const requested =
      input.twoFactorMethod && methods.includes(input.twoFactorMethod) ? input.twoFactorMethod : undefined;
    if (!input.twoFactorTicket) {
      const ticket = await twoFactor.issueTicket(account.user.id, loginName);
      const method = requested ?? (methods.length === 1 ? methods[0]! : null);
      if (method === 'email' || method === 'phone') await twoFactor.sendCode(tfa, method, ctx);
      await events.publish('AuthTwoFactorRequired', {
        userId: account.user.id,
        userName: loginName,
        tenantId: account.user.tenantId,
        method: 'password',
        request: facts,
      });
      return challenge(methods, method, method === 'email' || method === 'phone', ticket);
    }
    const method = input.twoFactorMethod ?? (methods.length === 1 ? methods[0] : undefined);
    if (!method) {
      await fail('TwoFactorFailed', 'Second-factor method not chosen', facts, loginName, account);
      throw appError(authErrors.TWO_FACTOR_METHOD_REQUIRED);
    }
    if (!methods.includes(method)) {
      await fail('TwoFactorFailed', `Second-factor method ${method} unavailable`, facts, loginName, account);
      throw appError(authErrors.TWO_FACTOR_METHOD_UNAVAILABLE, { params: { method } });
    }
    if (!input.twoFactorCode) {
      // The client switched method or asked again: a new code for e-mail and phone, same ticket.
      if (method !== 'totp') await twoFactor.sendCode(tfa, method, ctx);
      return challenge(methods, method, method !== 'totp', input.twoFactorTicket);
    }
    if (!(await twoFactor.verify(tfa, method, input.twoFactorCode))) {
      // Wrong codes count toward the lockout: a 6-digit code must not be guessable.
      await countFailure(account, {
        loginName,
        method: 'password',
        result: 'TwoFactorFailed',
        message: `Second factor (${method}) refused`,
        facts,
      });
      throw appError(authErrors.TWO_FACTOR_CODE_INVALID);
    }
    return undefined;
  }

  /** A ticket check whose failure (unknown, expired, another user's) is a failed attempt like any other. */
  async function checkTicket(
    ticket: string,
    loginName: string,
    facts: RequestFacts,
    account?: NonNullable<LoginAccount>,
  ): Promise<void> {
    try {
      await twoFactor.checkTicket(ticket, account?.user.id, loginName);
    } catch (error) {
      await fail('TwoFactorFailed', 'Second-factor ticket refused', facts, loginName, account);
      throw error;
    }
  }

  function isDefaultPassword(password: string): boolean {
    return password === config.Saas.Seed.AdminPassword || auth.DefaultPasswords.includes(password);
  }

  /**
   * Lands an authenticated account and starts its session: the end of every login method
   * (password, one-time codes, external login), so landing, device policies, the forced-change
   * lock and the success event are the same for all.
   */
  async function startSession(
    account: NonNullable<LoginAccount>,
    options: {
      method: string;
      loginName: string;
      facts: RequestFacts;
      culture: Culture;
      forceChange: boolean;
      usesDefault?: boolean;
    },
  ): Promise<LoginToken> {
    const { user, security } = account;
    const { facts, forceChange } = options;
    const isSuperAdmin = (await deps.authz.get(user.id, 0n)).isSuperAdmin;
    // Platform accounts and the super-administrator always land in the platform state.
    const landsOnPlatform = user.tenantId === 0n || isSuperAdmin;
    const tenantId = landsOnPlatform
      ? 0n
      : landingTenant(user.tenantId, isSuperAdmin, await availableTenants(db, user.id, isSuperAdmin, clock.now()));
    const { sessionId, token } = await deps.sessions.create({
      user: {
        userId: user.id,
        userName: user.userName,
        email: user.email,
        phone: user.phone,
        avatar: user.avatar,
        securityStamp: security.securityStamp,
        allowMultiLogin: security.allowMultiLogin,
        maxLoginDevices: security.maxLoginDevices,
      },
      tenantId,
      method: options.method,
      request: facts,
      recordLogin: { loginName: options.loginName },
      lockReason: forceChange ? 'PasswordChangeRequired' : undefined,
    });
    if (forceChange)
      await notifySecurity(deps, {
        userId: user.id,
        tenantId,
        culture: options.culture,
        kind: options.usesDefault ? 'defaultPassword' : 'changeRequired',
        request: facts,
      });
    await events.publish('AuthLoginSucceeded', {
      userId: user.id,
      userName: options.loginName,
      tenantId,
      sessionId,
      method: options.method,
      request: facts,
    });
    return token;
  }

  return {
    twoFactor,
    countFailure,
    startSession,

    /** POST /api/Auth/Login: the whole flow of SPEC "Login flow". */
    async login(input: LoginRequest | undefined, ctx: CallContext): Promise<LoginResponse> {
      // SPEC Errors rule 2: a missing body answers the two-factor-expired message.
      if (!input) throw appError(authErrors.TWO_FACTOR_EXPIRED);
      const loginName = normalizeLoginName(input.username);
      const facts = requestFacts(ctx, input.deviceId);
      await throttle(loginName, ctx.ip);

      if (input.twoFactorTicket) {
        // A ticket replaces the captcha, so it is checked before anything else: only a ticket
        // issued for this very login name gets past here.
        await checkTicket(input.twoFactorTicket, loginName, facts);
      } else if (input.twoFactorCode) {
        // A later stage without its ticket (SPEC Errors rule 2: an absent ticket): never a new
        // first stage, which would send another code or ask for a captcha.
        await fail('TwoFactorFailed', 'Second-factor ticket missing', facts, loginName);
        throw appError(authErrors.TWO_FACTOR_EXPIRED);
      } else if (auth.CaptchaEnabled) {
        const ok =
          !!input.captchaId &&
          !!input.captchaCode &&
          (await deps.codes.consume('captcha', input.captchaId, input.captchaCode));
        if (!ok) {
          await fail('Failed', 'Captcha wrong or expired', facts, loginName);
          throw appError(authErrors.CAPTCHA_INVALID);
        }
      }

      const account = await findAccount(deps, loginName);
      // An unknown name does the work of a wrong password, so that the answer time does not tell
      // whether an account exists: the same lookup, an argon2 verification (against a dummy hash),
      // and the same failure statement (counted against no account, its login-log row written).
      const check = account
        ? await deps.hasher.verify(account.security.passwordHash, input.password)
        : { ok: await deps.hasher.verifyAgainstDummy(input.password), needsRehash: false };
      if (!account || !check.ok) {
        await countFailure(account, {
          loginName,
          method: 'password',
          result: 'InvalidCredentials',
          message: 'Wrong user name or password',
          facts,
        });
        throw appError(authErrors.INVALID_CREDENTIALS);
      }
      const { user, security } = account;
      const now = clock.now();
      // With the right password only: a lockout tells nothing to someone who does not know it.
      if (security.lockoutEndTime && security.lockoutEndTime > now) {
        await fail('AccountLocked', 'Account locked', facts, loginName, account);
        throw appError(authErrors.ACCOUNT_LOCKED, {
          params: { minutes: Math.ceil((security.lockoutEndTime.getTime() - now.getTime()) / 60_000) },
        });
      }
      if (!user.isActive) {
        await fail('AccountDisabled', 'Account not activated', facts, loginName, account);
        throw appError(authErrors.ACCOUNT_INACTIVE);
      }
      if (user.status !== 'Enabled') {
        await fail('AccountDisabled', 'Account disabled', facts, loginName, account);
        throw appError(authErrors.ACCOUNT_DISABLED);
      }
      if (security.passwordExpiresTime && security.passwordExpiresTime <= now) {
        await fail('Failed', 'Password expired', facts, loginName, account);
        throw appError(authErrors.PASSWORD_EXPIRED);
      }
      if (input.twoFactorTicket) await checkTicket(input.twoFactorTicket, loginName, facts, account);
      const pending = await secondFactor(input, account, loginName, facts, ctx);
      if (pending) return pending;
      // Tokens are issued below: a presented ticket is spent, even when the second factor was
      // turned off since it was issued (it would otherwise stand in for the captcha 10 minutes).
      if (input.twoFactorTicket) await twoFactor.consumeTicket(input.twoFactorTicket);

      const usesDefault = isDefaultPassword(input.password);
      const forceChange = security.mustChangePassword || usesDefault;
      // Only when there is something to reset or re-hash: most logins change nothing here.
      if (security.failedLoginAttempts !== 0 || security.lockoutEndTime !== null || check.needsRehash) {
        await db
          .update(userSecurity)
          .set({
            failedLoginAttempts: 0,
            lockoutEndTime: null,
            ...(check.needsRehash ? { passwordHash: await deps.hasher.hash(input.password) } : {}),
          })
          .where(eq(userSecurity.userId, user.id));
      }

      const token = await startSession(account, {
        method: 'password',
        loginName,
        facts,
        culture: ctx.culture,
        forceChange,
        usesDefault,
      });
      return { requiresTwoFactor: false, token };
    },
  };
}

export type LoginService = ReturnType<typeof createLoginService>;
