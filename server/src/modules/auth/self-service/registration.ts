import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { users } from '../../../../../db/schema/index.js';
import type { AppDeps } from '../../../app-deps.js';
import type { CodeService } from '../../verification/codes.js';
import type { SessionStateService } from '../session/session-state.js';
import type { SessionService } from '../session/session-service.js';
import { appError } from '../../../errors/app-error.js';
import { commonErrors } from '../../../errors/common.js';
import { postgresErrorCode, UNIQUE_VIOLATION } from '../../../infra/db/errors.js';
import type { CallContext } from '../../../rpc/call-context.js';
import { hitRateLimit } from '../../../stores/rate-limit.js';
import { CODE_TTL_MS } from '../../verification/codes.js';
import { createSelfServiceAccount, emailInUse, removeNewAccount, userNameInUse } from './accounts.js';
import { throwIfThrottled } from '../login/code-login.js';
import { claimSilentWindow } from './send-limits.js';
import { authErrors } from '../errors.js';
import { findAccount } from '../login/account-lookup.js';
import { assertPasswordPolicy } from '../password-policy.js';
import { linkWithToken, sendOrUndo, verificationMessage } from './self-service-mail.js';
import { selfServiceErrors } from './self-service-errors.js';
import type { registerRequest, verifyEmailRequest } from './self-service-schemas.js';
import type { SendKind, SendTiming } from './send-timing.js';
import { notDeleted } from '../../../infra/db/predicates.js';

/**
 * Self-registration (POST /api/Auth/Register) and e-mail verification. A new account lives in
 * the self-service tenant as a member without roles and stays inactive (it cannot log in) until
 * its e-mail is verified: with the 6-digit code of the welcome mail (10 minutes) or its link
 * (24 hours), both posted to VerifyEmail. Registration can be switched off
 * (`Saas__Auth__RegistrationEnabled`).
 */

const LINK_TTL_MS = 24 * 60 * 60_000;
const VERIFICATION_SEND: SendKind = { kind: 'email-verification', channel: 'email' };
const linkKey = (token: string) => `email-verify:${createHash('sha256').update(token).digest('hex')}`;

interface LinkData {
  userId: string;
  email: string;
}

/** A user name from the e-mail's local part when none was given: letters, digits, `_.-`, and a random suffix. */
function derivedUserName(email: string): string {
  const local = email
    .split('@')[0]!
    .replace(/[^A-Za-z0-9_.-]/g, '')
    .slice(0, 40);
  return `${local.length >= 3 ? local : `user${local}`}_${randomBytes(3).toString('hex')}`;
}

/** Which unique rule a violation broke, by asking again (the drivers name constraints differently). */
async function duplicateError(deps: Pick<AppDeps, 'db'>, tenantId: bigint, email: string, userName: string) {
  if (await emailInUse(deps, email)) return appError(selfServiceErrors.EMAIL_TAKEN);
  if (await userNameInUse(deps, tenantId, userName)) return appError(selfServiceErrors.USERNAME_TAKEN);
  return appError(commonErrors.DUPLICATE);
}

type RegistrationDeps = Pick<
  AppDeps,
  'db' | 'database' | 'ids' | 'clock' | 'config' | 'logger' | 'messages' | 'events' | 'store' | 'hasher'
> & {
  codes: CodeService;
  sessionState: SessionStateService;
  sessions: SessionService;
  sendTiming: SendTiming;
};

export function createRegistration(deps: RegistrationDeps) {
  const { config, store, codes } = deps;
  const auth = config.Saas.Auth;
  const development = config.App.Env === 'development';
  const tenantId = () => BigInt(auth.SelfServiceTenantId);
  const timing = deps.sendTiming;

  /**
   * Stores a code and a link for the user and mails both; on a transport failure neither stays
   * usable. Timed (Register's mails too) so that a resend to nobody takes as long.
   */
  function sendVerification(
    userId: bigint,
    email: string,
    ctx: CallContext,
    undoMore?: () => Promise<void>,
  ): Promise<string> {
    return timing.timed(VERIFICATION_SEND, async () => {
      const code = await codes.issue('verify-email', String(userId));
      const token = randomBytes(32).toString('base64url');
      const data: LinkData = { userId: String(userId), email };
      await store.set(linkKey(token), JSON.stringify(data), LINK_TTL_MS);
      const link = linkWithToken(auth.EmailVerificationUrl, token);
      await sendOrUndo(deps, verificationMessage(email, code, link, ctx.culture), async () => {
        await codes.discard('verify-email', String(userId));
        await store.delete(linkKey(token));
        await undoMore?.();
      });
      return code;
    });
  }

  /** Marks the e-mail verified and the account active, if the address is still the account's. */
  async function activate(userId: bigint, email: string): Promise<boolean> {
    const updated = await deps.db
      .update(users)
      .set({ isActive: true, emailVerified: true, modifiedTime: deps.clock.now() })
      .where(and(eq(users.id, userId), eq(users.email, email), notDeleted(users.isDeleted)))
      .returning({ id: users.id });
    if (updated.length === 1) await deps.sessionState.invalidateUser(userId);
    return updated.length === 1;
  }

  return {
    async register(input: z.infer<typeof registerRequest>, ctx: CallContext) {
      if (!auth.RegistrationEnabled) throw appError(selfServiceErrors.REGISTRATION_DISABLED);
      throwIfThrottled([await hitRateLimit(store, `register:ip:${ctx.ip}`, auth.ThrottlePerIp, 60_000)]);
      const domain = config.OAuth.PlaceholderEmailDomain;
      if (input.email.endsWith(`@${domain}`)) throw appError(selfServiceErrors.EMAIL_RESERVED, { params: { domain } });
      const userName = input.username ?? derivedUserName(input.email);
      await assertPasswordPolicy(input.password, { userName, email: input.email }, ctx.culture);
      // Friendly answers for the common case; the unique indexes decide races (409 either way).
      if (await emailInUse(deps, input.email)) throw appError(selfServiceErrors.EMAIL_TAKEN);
      if (await userNameInUse(deps, tenantId(), userName)) throw appError(selfServiceErrors.USERNAME_TAKEN);
      let userId: bigint;
      try {
        ({ userId } = await createSelfServiceAccount(deps, {
          userName,
          email: input.email,
          emailVerified: false,
          isActive: false,
          passwordHash: await deps.hasher.hash(input.password),
          phone: input.phone,
          nickName: input.nickName,
        }));
      } catch (error) {
        if (postgresErrorCode(error) === UNIQUE_VIOLATION)
          throw await duplicateError(deps, tenantId(), input.email, userName);
        throw error;
      }
      // A registration whose welcome mail cannot be sent is undone: retrying must not meet a 409.
      const code = await sendVerification(userId, input.email, ctx, () => removeNewAccount(deps, userId));
      deps.logger.info('account registered', { userId: String(userId) });
      return {
        userId: String(userId),
        userName,
        requiresEmailVerification: true,
        expiresInSeconds: CODE_TTL_MS / 1000,
        ...(development ? { debugCode: code } : {}),
      };
    },

    /** VerifyEmail: the link's token, or the address with the mailed code. Each is single use. */
    async verify(input: z.infer<typeof verifyEmailRequest>, ctx: CallContext) {
      throwIfThrottled(
        [await hitRateLimit(store, `verify-email:ip:${ctx.ip}`, auth.ThrottlePerIp, 60_000)],
        authErrors.TOO_MANY_ATTEMPTS,
      );
      if (input.token) {
        const raw = await store.take(linkKey(input.token));
        const data = raw ? (JSON.parse(raw) as LinkData) : undefined;
        if (!data || !(await activate(BigInt(data.userId), data.email)))
          throw appError(selfServiceErrors.VERIFICATION_INVALID);
        await codes.discard('verify-email', data.userId);
        return { verified: true };
      }
      if (!input.email || !input.code) throw appError(selfServiceErrors.VERIFICATION_INVALID);
      const account = await findAccount(deps, input.email);
      const ok = !!account && (await codes.consume('verify-email', String(account.user.id), input.code));
      if (!ok || !(await activate(account.user.id, account.user.email!)))
        throw appError(selfServiceErrors.VERIFICATION_INVALID);
      return { verified: true };
    },

    /** ResendEmailVerification: a new code and link for an unverified account; the same answer for any address. */
    async resend(email: string, ctx: CallContext) {
      // Silent limits, as for PasswordResetRequest (see there): the answer is always the same, so
      // a 429 drawn only by a recently used address would tell about that address.
      const perClient = await hitRateLimit(store, `verify-email:resend:ip:${ctx.ip}`, auth.ThrottlePerIp, 60_000);
      const release = perClient.allowed
        ? await claimSilentWindow(store, `verify-email:${email.toLowerCase()}`, 60_000)
        : undefined;
      if (!release) {
        await timing.imitate(VERIFICATION_SEND);
        return { accepted: true };
      }
      const account = await findAccount(deps, email);
      if (account && account.user.status === 'Enabled' && (!account.user.isActive || !account.user.emailVerified)) {
        try {
          await sendVerification(account.user.id, account.user.email!, ctx);
        } catch (error) {
          await release();
          throw error;
        }
      } else {
        // Nothing is mailed, but the answer takes as long as a mail would: timing must not tell.
        await timing.imitate(VERIFICATION_SEND);
      }
      return { accepted: true };
    },
  };
}
