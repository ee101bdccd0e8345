import { createHash, randomBytes, randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { users, userSecurity } from '../../../../../db/schema/index.js';
import type { AppDeps } from '../../../app-deps.js';
import type { CodeService } from '../../verification/codes.js';
import type { LoginService } from './login-service.js';
import type { SessionService } from '../session/session-service.js';
import { appError, type ErrorDefinition } from '../../../errors/app-error.js';
import type { CallContext } from '../../../rpc/call-context.js';
import { hitRateLimit } from '../../../stores/rate-limit.js';
import { checkSendLimits, throwIfThrottled } from '../self-service/send-limits.js';
import { CODE_TTL_MS, type CodePurpose } from '../../verification/codes.js';
import { authErrors } from '../errors.js';
import type { RequestFacts } from '../events.js';
import { requestFacts, twoFactorAccount } from './login-service.js';
import { accountColumns, findAccount, findAccountById, type LoginAccount } from './account-lookup.js';
import { loginCodeMessage, sendOrUndo } from '../self-service/self-service-mail.js';
import { selfServiceErrors } from '../self-service/self-service-errors.js';
import type { CodeLoginChallenge, CodeLoginRequest } from '../self-service/self-service-schemas.js';
import type { SendKind, SendTiming } from '../self-service/send-timing.js';
import type { LoginToken } from '../session/tokens.js';
import { availableMethods, normalizeLoginName, type TwoFactorMethodName } from '../two-factor/two-factor.js';
import { useRecoveryCode } from '../recovery-login.js';
import { notDeleted } from '../../../infra/db/predicates.js';

/**
 * One-time-code login (SPEC EmailLoginCode / EmailLogin, PhoneLoginCode / PhoneLogin) and the
 * second-factor stage shared by code and external logins.
 *
 * A code is 6 digits, valid 10 minutes and consumed on read, right or wrong, so each code allows
 * exactly one guess and of any number of parallel attempts with one code at most one succeeds.
 * Requesting a code is limited to one per address (e-mail or phone) and client address in a
 * 60-second window; an unknown or unusable address answers exactly like a known one, in about
 * the same time (send-timing.ts), and sends nothing. Phones must be verified.
 *
 * Code logins follow the password login's rules after the first factor: lockout, inactive and
 * disabled accounts, the forced password change, landing, device policies and the login log.
 * An account with a second factor gets the same challenge as password login: a ticket (10
 * minutes, bound to the user, the login name and the first-factor method) and, for e-mail and
 * phone, a code sent at once. The code itself cannot be posted twice, so later stages post the
 * ticket instead of the code. The second factor must be another channel than the first: after an
 * e-mail code the e-mail method is not offered (a second e-mail to the same mailbox proves
 * nothing new), and an account whose only second factor is that channel must use its password.
 */

type Channel = 'email' | 'phone';

interface ChannelRules {
  purpose: CodePurpose;
  /** The login method recorded on the session and in the login log. */
  method: string;
  enabled(deps: Pick<AppDeps, 'config'>): boolean;
  disabled: ErrorDefinition;
}

const CHANNELS: Record<Channel, ChannelRules> = {
  email: {
    purpose: 'login-email',
    method: 'email-code',
    enabled: (d) => d.config.Saas.Auth.EmailCodeLoginEnabled,
    disabled: selfServiceErrors.EMAIL_LOGIN_DISABLED,
  },
  phone: {
    purpose: 'login-phone',
    method: 'phone-code',
    enabled: (d) => d.config.Saas.Auth.PhoneCodeLoginEnabled,
    disabled: selfServiceErrors.PHONE_LOGIN_DISABLED,
  },
};

const TICKET_TTL_MS = 10 * 60_000;
const ticketKey = (ticket: string) => `2fa:login-ticket:${createHash('sha256').update(ticket).digest('hex')}`;

/** What a second-factor ticket of a code or external login remembers. */
interface LoginTicket {
  userId: string;
  loginName: string;
  /** First factor: `email`, `phone` or `oauth:<provider>`; a stage posted to EmailLogin must match. */
  via: string;
  /** The session's login method once the second factor passes. */
  method: string;
  /** The second-factor channel that is the first factor's channel (not offered). */
  excluded: TwoFactorMethodName | null;
}

/**
 * The account of a verified phone. Phones are not unique in the data: a number verified by two
 * accounts signs in neither (logged), rather than picking one.
 */
async function findAccountByPhone(deps: Pick<AppDeps, 'db' | 'logger'>, phone: string): Promise<LoginAccount> {
  const rows = await deps.db
    .select(accountColumns)
    .from(users)
    .innerJoin(userSecurity, eq(userSecurity.userId, users.id))
    .where(and(eq(users.phone, phone), eq(users.phoneVerified, true), notDeleted(users.isDeleted)))
    .limit(2);
  if (rows.length > 1) deps.logger.warn('phone login refused: the number is verified on several accounts');
  return rows.length === 1 ? rows[0] : undefined;
}

const isUsable = (account: LoginAccount): account is NonNullable<LoginAccount> =>
  !!account && account.user.status === 'Enabled' && account.user.isActive;

/**
 * Refuses a locked, inactive or disabled account (the order of password login, after the first
 * factor). Not an expired password: the expiry is the password's, which these logins do not
 * present (SPEC's "password not expired" is a step of the password login flow). Refusing would
 * lock out external accounts, whose random password nobody knows; the password stays refused
 * at password login until it is changed or reset.
 */
function assertCanLogIn(deps: Pick<AppDeps, 'clock'>, account: NonNullable<LoginAccount>): void {
  const now = deps.clock.now();
  const { user, security } = account;
  if (security.lockoutEndTime && security.lockoutEndTime > now) {
    throw appError(authErrors.ACCOUNT_LOCKED, {
      params: { minutes: Math.ceil((security.lockoutEndTime.getTime() - now.getTime()) / 60_000) },
    });
  }
  if (!user.isActive) throw appError(authErrors.ACCOUNT_INACTIVE);
  if (user.status !== 'Enabled') throw appError(authErrors.ACCOUNT_DISABLED);
}

export { throwIfThrottled };

type CodeLoginDeps = Pick<
  AppDeps,
  'db' | 'database' | 'ids' | 'clock' | 'config' | 'logger' | 'messages' | 'events' | 'store' | 'twoFactorSecrets'
> & {
  codes: CodeService;
  login: LoginService;
  sessions: SessionService;
  sendTiming: SendTiming;
};

export function createCodeLogin(deps: CodeLoginDeps) {
  const { store, codes, events, config } = deps;
  const auth = config.Saas.Auth;
  const development = config.App.Env === 'development';
  const timing = deps.sendTiming;

  const lookup = (channel: Channel, target: string) =>
    channel === 'email' ? findAccount(deps, target) : findAccountByPhone(deps, target);

  async function failed(
    account: LoginAccount,
    loginName: string,
    method: string,
    result: 'InvalidCredentials' | 'AccountLocked' | 'AccountDisabled' | 'TwoFactorFailed',
    message: string,
    facts: RequestFacts,
  ) {
    await events.publish('AuthLoginFailed', {
      userId: account?.user.id ?? null,
      userName: loginName,
      tenantId: account?.user.tenantId ?? 0n,
      method,
      result,
      message,
      request: facts,
    });
  }

  /** A successful first and second factor: failure counts reset, session started. */
  async function finish(
    account: NonNullable<LoginAccount>,
    method: string,
    loginName: string,
    facts: RequestFacts,
    ctx: CallContext,
  ): Promise<LoginToken> {
    if (account.security.failedLoginAttempts !== 0 || account.security.lockoutEndTime !== null) {
      await deps.db
        .update(userSecurity)
        .set({ failedLoginAttempts: 0, lockoutEndTime: null })
        .where(eq(userSecurity.userId, account.user.id));
    }
    return deps.login.startSession(account, {
      method,
      loginName,
      facts,
      culture: ctx.culture,
      forceChange: account.security.mustChangePassword,
    });
  }

  /**
   * The first-stage challenge of an account with a second factor. Fails closed when a second
   * factor is on but none can be used, or only the first factor's own channel is left.
   */
  async function challenge(
    account: NonNullable<LoginAccount>,
    ticket: Omit<LoginTicket, 'userId'>,
    requested: TwoFactorMethodName | undefined,
    facts: RequestFacts,
    ctx: CallContext,
  ): Promise<CodeLoginChallenge> {
    const tfa = twoFactorAccount(account);
    const all = availableMethods(tfa, deps.messages);
    if (all.length === 0)
      throw appError(authErrors.TWO_FACTOR_METHOD_UNAVAILABLE, { params: { method: requested ?? '-' } });
    const methods = all.filter((m) => m !== ticket.excluded);
    if (methods.length === 0) throw appError(selfServiceErrors.SECOND_FACTOR_SAME_CHANNEL);
    const value = randomBytes(32).toString('base64url');
    const data: LoginTicket = { userId: String(account.user.id), ...ticket };
    await store.set(ticketKey(value), JSON.stringify(data), TICKET_TTL_MS);
    const method = requested && methods.includes(requested) ? requested : methods.length === 1 ? methods[0]! : null;
    if (method === 'email' || method === 'phone') {
      try {
        await deps.login.twoFactor.sendCode(tfa, method, ctx);
      } catch (error) {
        await store.delete(ticketKey(value));
        throw error;
      }
    }
    await events.publish('AuthTwoFactorRequired', {
      userId: account.user.id,
      userName: ticket.loginName,
      tenantId: account.user.tenantId,
      method: ticket.method,
      request: facts,
    });
    return {
      requiresTwoFactor: true,
      availableTwoFactorMethods: methods,
      twoFactorMethod: method,
      codeSent: method === 'email' || method === 'phone',
      twoFactorTicket: value,
    };
  }

  /**
   * A later stage: the ticket, the chosen method and its code. Without a code it (re)sends one
   * for e-mail and phone and answers the challenge again with the same ticket. Wrong codes count
   * toward the lockout; the ticket is consumed with the tokens. With `expect` (a stage posted to
   * EmailLogin or PhoneLogin) a ticket of another first factor or login name is voided.
   */
  async function completeTicket(
    input: {
      twoFactorTicket: string;
      twoFactorMethod?: TwoFactorMethodName | 'recovery';
      twoFactorCode?: string;
      deviceId?: string;
    },
    ctx: CallContext,
    expect?: { via: string; loginName: string },
  ): Promise<LoginToken | CodeLoginChallenge> {
    const key = ticketKey(input.twoFactorTicket);
    const raw = await store.get(key);
    if (!raw) throw appError(authErrors.TWO_FACTOR_EXPIRED);
    const data = JSON.parse(raw) as LoginTicket;
    if (expect && (data.via !== expect.via || data.loginName !== expect.loginName)) {
      await store.delete(key);
      throw appError(authErrors.TWO_FACTOR_EXPIRED);
    }
    const account = await findAccountById(deps, BigInt(data.userId));
    if (!account) {
      await store.delete(key);
      throw appError(authErrors.TWO_FACTOR_EXPIRED);
    }
    const facts = requestFacts(ctx, input.deviceId);
    assertCanLogIn(deps, account);
    const tfa = twoFactorAccount(account);
    const methods = availableMethods(tfa, deps.messages).filter((m) => m !== data.excluded);
    if (input.twoFactorMethod === 'recovery') {
      // A recovery code stands in for any method (recovery-login.ts); without one, nothing is sent.
      if (!input.twoFactorCode)
        return {
          requiresTwoFactor: true,
          availableTwoFactorMethods: methods,
          twoFactorMethod: null,
          codeSent: false,
          twoFactorTicket: input.twoFactorTicket,
        };
      if (
        !(await useRecoveryCode(
          deps,
          { userId: account.user.id, tenantId: account.user.tenantId, culture: ctx.culture },
          input.twoFactorCode,
          facts,
        ))
      ) {
        await deps.login.countFailure(account, {
          loginName: data.loginName,
          method: data.method,
          result: 'TwoFactorFailed',
          message: 'Second factor (recovery) refused',
          facts,
        });
        throw appError(authErrors.TWO_FACTOR_CODE_INVALID);
      }
      if (!(await store.take(key))) throw appError(authErrors.TWO_FACTOR_EXPIRED);
      return finish(account, data.method, data.loginName, facts, ctx);
    }
    const method = input.twoFactorMethod ?? (methods.length === 1 ? methods[0] : undefined);
    if (!method) throw appError(authErrors.TWO_FACTOR_METHOD_REQUIRED);
    if (!methods.includes(method)) throw appError(authErrors.TWO_FACTOR_METHOD_UNAVAILABLE, { params: { method } });
    if (!input.twoFactorCode) {
      if (method !== 'totp') await deps.login.twoFactor.sendCode(tfa, method, ctx);
      return {
        requiresTwoFactor: true,
        availableTwoFactorMethods: methods,
        twoFactorMethod: method,
        codeSent: method !== 'totp',
        twoFactorTicket: input.twoFactorTicket,
      };
    }
    if (!(await deps.login.twoFactor.verify(tfa, method, input.twoFactorCode))) {
      await deps.login.countFailure(account, {
        loginName: data.loginName,
        method: data.method,
        result: 'TwoFactorFailed',
        message: `Second factor (${method}) refused`,
        facts,
      });
      throw appError(authErrors.TWO_FACTOR_CODE_INVALID);
    }
    // Consumed with the tokens: of two stages racing with one ticket, one gets it.
    if (!(await store.take(key))) throw appError(authErrors.TWO_FACTOR_EXPIRED);
    return finish(account, data.method, data.loginName, facts, ctx);
  }

  return {
    challenge,
    completeTicket,
    finish,

    /**
     * TwoFactorLogin: a later stage on its own. Throttled per client address like the code
     * logins (the ticket is 256 random bits, but each stage costs lookups and may send a code).
     */
    async twoFactorLogin(
      input: Parameters<typeof completeTicket>[0],
      ctx: CallContext,
    ): Promise<LoginToken | CodeLoginChallenge> {
      throwIfThrottled(
        [await hitRateLimit(store, `two-factor-login:ip:${ctx.ip}`, auth.ThrottlePerIp, 60_000)],
        authErrors.TOO_MANY_ATTEMPTS,
      );
      return completeTicket(input, ctx);
    },

    /** EmailLoginCode / PhoneLoginCode: sends a code to a usable account; the same answer for any address. */
    async requestCode(
      channel: Channel,
      target: string,
      ctx: CallContext,
    ): Promise<{ expiresInSeconds: number; debugCode?: string }> {
      const rules = CHANNELS[channel];
      if (!rules.enabled(deps)) throw appError(rules.disabled);
      await checkSendLimits(store, 'login-code', channel, target, ctx.ip);
      const account = await lookup(channel, target);
      const sending: SendKind = { kind: 'login-code', channel: channel === 'email' ? 'email' : 'sms' };
      let code: string | undefined;
      if (isUsable(account)) {
        code = await timing.timed(sending, async () => {
          const issued = await codes.issue(rules.purpose, target);
          await sendOrUndo(deps, loginCodeMessage(sending.channel, target, issued, ctx.culture), () =>
            codes.discard(rules.purpose, target),
          );
          return issued;
        });
      } else {
        // Nothing is sent, but the answer takes as long as a send would: timing must not tell.
        await timing.imitate(sending);
        // Same shape for an unknown address, even in development: a code that works nowhere.
        if (development) code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      }
      return { expiresInSeconds: CODE_TTL_MS / 1000, ...(development && code ? { debugCode: code } : {}) };
    },

    /** EmailLogin / PhoneLogin: the code (first stage) or the second-factor ticket (later stages). */
    async login(
      channel: Channel,
      target: string,
      input: CodeLoginRequest,
      ctx: CallContext,
    ): Promise<LoginToken | CodeLoginChallenge> {
      const rules = CHANNELS[channel];
      if (!rules.enabled(deps)) throw appError(rules.disabled);
      throwIfThrottled(
        [await hitRateLimit(store, `code-login:ip:${ctx.ip}`, auth.ThrottlePerIp, 60_000)],
        authErrors.TOO_MANY_ATTEMPTS,
      );
      const loginName = normalizeLoginName(target);
      if (input.twoFactorTicket) {
        return completeTicket({ ...input, twoFactorTicket: input.twoFactorTicket }, ctx, { via: channel, loginName });
      }
      const facts = requestFacts(ctx, input.deviceId);
      // Consumed on read, right or wrong; only then is the account looked up.
      const ok = !!input.code && (await codes.consume(rules.purpose, target, input.code));
      const account = await lookup(channel, target);
      if (!ok || !account) {
        // Wrong codes do not count toward the lockout: each code allows one guess only, and
        // counting them would let anyone lock an account they only know the address of.
        await failed(account, loginName, rules.method, 'InvalidCredentials', 'Sign-in code wrong or expired', facts);
        throw appError(selfServiceErrors.LOGIN_CODE_INVALID);
      }
      try {
        assertCanLogIn(deps, account);
      } catch (error) {
        await failed(
          account,
          loginName,
          rules.method,
          account.user.isActive && account.user.status === 'Enabled' ? 'AccountLocked' : 'AccountDisabled',
          'Account cannot log in',
          facts,
        );
        throw error;
      }
      if (account.security.twoFactorMethod !== 0) {
        const requested = input.twoFactorMethod === 'recovery' ? undefined : input.twoFactorMethod;
        return challenge(
          account,
          { loginName, via: channel, method: rules.method, excluded: channel },
          requested,
          facts,
          ctx,
        );
      }
      return finish(account, rules.method, loginName, facts, ctx);
    },
  };
}

export type CodeLogin = ReturnType<typeof createCodeLogin>;
