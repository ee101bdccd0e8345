import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { auditEntries, users, userSecurity, userSessions } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors/app-error.js';
import { commonErrors } from '../../errors/common.js';
import { defineMessages, translate } from '../../i18n/messages.js';
import type { Executor } from '../../infra/db/client.js';
import type { CallContext } from '../../rpc/call-context.js';
import { hitRateLimit } from '../../stores/rate-limit.js';
import { auditRow } from '../audit/write.js';
import { authErrors } from '../auth/errors.js';
import { requestFacts } from '../auth/login/login-service.js';
import { writeLoginLog } from '../login-log/write.js';
import { deleteRecoveryCodesIn, recoveryCodesRemaining, replaceRecoveryCodesIn } from '../auth/recovery-codes.js';
import { throwIfThrottled } from '../auth/self-service/send-limits.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { generateTotpSecret, totpUri, verifyTotp } from '../auth/two-factor/totp.js';
import { notifyTwoFactor } from '../auth/two-factor-notices.js';
import { TwoFactorFlags } from '../auth/two-factor/two-factor.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import { CODE_TTL_MS, type CodePurpose, type CodeService } from '../verification/codes.js';
import { profileErrors } from './errors.js';
import { twoFactorErrors } from './two-factor-errors.js';
import type { TwoFactorMethodFlag, TwoFactorState } from './two-factor-schemas.js';
import type { SessionService } from '../auth/session/session-service.js';
import type { SessionStateService } from '../auth/session/session-state.js';

/**
 * Second-factor enrolment of the signed-in user (SPEC "Profile endpoints"; the original service):
 * Setup2FA makes (or shows again, until it is on) an authenticator secret, sealed at rest;
 * Send2FASetupCode sends an e-mail or SMS code to a verified contact; Enable2FA and Disable2FA
 * turn one method (flag) on or off, given a right code (or, to turn off, the password). Turning a
 * method on or off rotates the security stamp: every other session ends (its tokens stop working)
 * and this one carries on. The first method on brings 10 recovery codes, shown once. Every change
 * is audited (MfaBound, MfaUnbound, RecoveryCodesGenerated) and reported to the user; none of it
 * is open to an impersonation session.
 */

type Ctx = CallContext & { auth: AuthContext };

export type TwoFactorEnrolmentDeps = Pick<
  AppDeps,
  'db' | 'ids' | 'clock' | 'store' | 'messages' | 'logger' | 'config' | 'twoFactorSecrets' | 'hasher' | 'events'
> & {
  codes: CodeService;
  sessions: SessionService;
  sessionState: SessionStateService;
};

const METHOD_NAMES: Record<TwoFactorMethodFlag, string> = { 1: 'Totp', 2: 'Email', 4: 'Phone' };
const WRONG_CODE_LIMIT = 5;
const WRONG_CODE_BAN_MS = 10 * 60_000;

const mail = defineMessages('twoFactorSetupMail', {
  subject: {
    'zh-CN': '两步验证设置验证码',
    'zh-TW': '兩步驟驗證設定驗證碼',
    'en-US': 'Your two-step verification setup code',
    'ja-JP': '2 段階認証の設定用コード',
    'ko-KR': '2단계 인증 설정 코드',
    'de-DE': 'Ihr Code zur Einrichtung der Zwei-Faktor-Anmeldung',
    'hi-IN': 'आपका दो-चरणीय सत्यापन सेटअप कोड',
  },
  body: {
    'zh-CN': '您的验证码是 {code}，10 分钟内有效。如非本人操作，请立即修改密码。',
    'zh-TW': '您的驗證碼是 {code}，10 分鐘內有效。如非本人操作，請立即修改密碼。',
    'en-US': 'Your code is {code}. It is valid for 10 minutes. If this was not you, change your password now.',
    'ja-JP':
      '確認コードは {code} です。有効期間は 10 分です。心当たりがない場合は、すぐにパスワードを変更してください。',
    'ko-KR': '인증 코드는 {code}입니다. 10분 동안 유효합니다. 본인이 아니라면 즉시 비밀번호를 변경하세요.',
    'de-DE':
      'Ihr Code lautet {code}. Er ist 10 Minuten gültig. Falls Sie das nicht waren, ändern Sie sofort Ihr Passwort.',
    'hi-IN': 'आपका कोड {code} है। यह 10 मिनट के लिए मान्य है। यदि यह आप नहीं थे, तो तुरंत अपना पासवर्ड बदलें।',
  },
});

interface Account {
  userName: string;
  email: string | null;
  emailVerified: boolean;
  phone: string | null;
  phoneVerified: boolean;
  passwordHash: string;
  twoFactorMethod: number;
  twoFactorSecret: string | null;
  lastTotpStep: number | null;
}

const purposeOf = (method: 2 | 4): CodePurpose =>
  method === TwoFactorFlags.Email ? 'setup-two-factor-email' : 'setup-two-factor-phone';

export function createTwoFactorEnrolment(deps: TwoFactorEnrolmentDeps) {
  const { db, clock, store, codes } = deps;

  async function load(userId: bigint, tx: Executor = db): Promise<Account> {
    const [row] = await tx
      .select({
        userName: users.userName,
        email: users.email,
        emailVerified: users.emailVerified,
        phone: users.phone,
        phoneVerified: users.phoneVerified,
        passwordHash: userSecurity.passwordHash,
        twoFactorMethod: userSecurity.twoFactorMethod,
        twoFactorSecret: userSecurity.twoFactorSecret,
        lastTotpStep: userSecurity.lastTotpStep,
      })
      .from(users)
      .innerJoin(userSecurity, eq(userSecurity.userId, users.id))
      .where(eq(users.id, userId));
    // The session gate let the request in, so the account exists; a race with a deletion is a conflict.
    if (!row) throw appError(commonErrors.VERSION_CONFLICT);
    return row;
  }

  /** The contact a code method needs, verified; refuses otherwise. */
  function contactOf(account: Account, method: 2 | 4): string {
    if (method === TwoFactorFlags.Email) {
      if (!account.email || !account.emailVerified) throw appError(twoFactorErrors.EMAIL_NOT_VERIFIED);
      return account.email;
    }
    if (!account.phone || !account.phoneVerified) throw appError(twoFactorErrors.PHONE_NOT_VERIFIED);
    return account.phone;
  }

  const banKey = (userId: bigint) => `two-factor-setup-ban:${userId}`;

  /** 429 while the user is banned for wrong codes. */
  async function refuseWhileBanned(userId: bigint): Promise<void> {
    const until = Number(await store.get(banKey(userId)));
    if (!until) return;
    const seconds = Math.max(1, Math.ceil((until - clock.nowMs()) / 1000));
    throw appError(twoFactorErrors.TOO_MANY_WRONG_CODES, {
      params: { seconds },
      headers: { 'Retry-After': String(seconds) },
    });
  }

  /** Counts a wrong code; the fifth within ten minutes bans code checks for ten minutes. */
  async function wrongCode(userId: bigint): Promise<never> {
    const { count } = await store.increment(`two-factor-setup-wrong:${userId}`, WRONG_CODE_BAN_MS);
    if (count >= WRONG_CODE_LIMIT)
      await store.set(banKey(userId), String(clock.nowMs() + WRONG_CODE_BAN_MS), WRONG_CODE_BAN_MS);
    throw appError(twoFactorErrors.CODE_INVALID);
  }

  /** The password check of Disable2FA and RegenerateRecoveryCodes, throttled like the profile's other confirmations. */
  async function checkPassword(userId: bigint, hash: string, password: string): Promise<void> {
    const limit = await hitRateLimit(store, `confirm-password:${userId}`, 5, 60_000);
    if (!limit.allowed)
      throw appError(authErrors.TOO_MANY_ATTEMPTS, {
        params: { seconds: limit.retryAfterSeconds },
        headers: { 'Retry-After': String(limit.retryAfterSeconds) },
      });
    if (!(await deps.hasher.verify(hash, password)).ok) throw appError(profileErrors.PASSWORD_WRONG);
  }

  /** The TOTP step a code matches, against the stored secret; undefined when it does not. */
  function totpStepOf(userId: bigint, account: Account, code: string): number | undefined {
    if (!account.twoFactorSecret) return undefined;
    const secret = deps.twoFactorSecrets.openTotp(account.twoFactorSecret, userId);
    if (!secret) return undefined;
    const check = verifyTotp(secret, code, clock.nowMs(), account.lastTotpStep);
    return check.ok ? check.step : undefined;
  }

  function stateOf(flags: number, secret: string | null, remaining: number): TwoFactorState {
    return {
      twoFactorEnabled: flags !== 0,
      twoFactorMethod: flags,
      totpSetupPending: !(flags & TwoFactorFlags.Totp) && !!secret,
      recoveryCodesRemaining: remaining,
    };
  }

  /**
   * Writes a change of the flags: only over the flags (and TOTP step) it was decided on, so of
   * two changes racing one wins and the other answers a conflict (a code accepted twice at once
   * counts once). The stamp rotates, this session keeps up with it, the others end; MfaBound or
   * MfaUnbound goes to the audit and the login log in the same transaction.
   */
  async function writeFlags(
    ctx: Ctx,
    account: Account,
    change: {
      flags: number;
      wipeSecret: boolean;
      totpStep?: number;
      recovery: 'replace' | 'delete' | 'keep';
      result: 'MfaBound' | 'MfaUnbound';
      method: TwoFactorMethodFlag;
    },
  ): Promise<{ codes: string[] | null }> {
    const userId = ctx.auth.userId;
    const stamp = randomUUID();
    const facts = requestFacts(ctx, ctx.auth.claims.DeviceFingerprint);
    const now = clock.now();
    const reason = change.result === 'MfaBound' ? 'Second factor turned on' : 'Second factor turned off';
    const { codes: made, others } = await db.transaction(async (tx) => {
      const stepGuard =
        change.totpStep === undefined
          ? undefined
          : or(isNull(userSecurity.lastTotpStep), lt(userSecurity.lastTotpStep, change.totpStep));
      const [updated] = await tx
        .update(userSecurity)
        .set({
          twoFactorMethod: change.flags,
          securityStamp: stamp,
          ...(change.wipeSecret ? { twoFactorSecret: null, lastTotpStep: null } : {}),
          ...(change.totpStep === undefined ? {} : { lastTotpStep: change.totpStep }),
        })
        .where(
          and(eq(userSecurity.userId, userId), eq(userSecurity.twoFactorMethod, account.twoFactorMethod), stepGuard),
        )
        .returning({ userId: userSecurity.userId });
      if (!updated)
        throw appError(change.totpStep === undefined ? commonErrors.VERSION_CONFLICT : twoFactorErrors.CODE_INVALID);
      await tx.update(userSessions).set({ securityStamp: stamp }).where(eq(userSessions.id, ctx.auth.sessionId));
      const active = await deps.sessions.activeSessions(tx, userId, ctx.auth.sessionId);
      const ids = active.map((s) => s.id);
      await deps.sessions.revokeIn(tx, ids, reason);
      let codes: string[] | null = null;
      if (change.recovery === 'replace') codes = await replaceRecoveryCodesIn(tx, deps, userId);
      if (change.recovery === 'delete') await deleteRecoveryCodesIn(tx, userId);
      const detail = {
        method: METHOD_NAMES[change.method],
        twoFactorMethod: change.flags,
        otherSessionsEnded: ids.length,
      };
      await tx.insert(auditEntries).values(
        auditRow(deps.ids, {
          action: change.result,
          tenantId: ctx.auth.tenantId,
          userId,
          targetType: 'User',
          targetId: String(userId),
          detail,
          ip: ctx.ip,
          traceId: ctx.traceId,
          at: now,
        }),
      );
      if (codes)
        await tx.insert(auditEntries).values(
          auditRow(deps.ids, {
            action: 'RecoveryCodesGenerated',
            tenantId: ctx.auth.tenantId,
            userId,
            targetType: 'User',
            targetId: String(userId),
            detail: { count: codes.length },
            ip: ctx.ip,
            traceId: ctx.traceId,
            at: now,
          }),
        );
      const verb = change.result === 'MfaBound' ? 'Second factor turned on' : 'Second factor turned off';
      await writeLoginLog(tx, deps.ids, {
        userId,
        userName: account.userName,
        tenantId: ctx.auth.tenantId,
        sessionId: ctx.auth.sessionId,
        result: change.result,
        message: `${verb} (${METHOD_NAMES[change.method]})`,
        request: facts,
        at: now,
      });
      return { codes, others: ids };
    });
    // Only now that it has committed: a request reloading the state earlier would cache the old stamp.
    await deps.sessionState.invalidateUser(userId);
    await deps.sessions.announceRevoked(userId, others, reason);
    await notifyTwoFactor(
      deps,
      { userId, tenantId: ctx.auth.tenantId, culture: ctx.culture, request: ctx },
      { kind: change.result === 'MfaBound' ? 'enabled' : 'disabled', method: METHOD_NAMES[change.method] },
    );
    deps.logger.info(change.result === 'MfaBound' ? 'second factor enabled' : 'second factor disabled', {
      userId: String(userId),
      method: METHOD_NAMES[change.method],
      otherSessionsEnded: others.length,
    });
    return { codes: made };
  }

  return {
    /** GET /api/Profile/TwoFactor: which methods are on, a pending setup, the recovery codes left. */
    async state(ctx: Ctx): Promise<TwoFactorState> {
      const account = await load(ctx.auth.userId);
      return stateOf(
        account.twoFactorMethod,
        account.twoFactorSecret,
        await recoveryCodesRemaining(db, ctx.auth.userId),
      );
    },

    /**
     * POST /api/Profile/Setup2FA: a new secret, sealed and stored (not yet on), or the pending one
     * again, so that reloading the page does not void a QR code already scanned.
     */
    async setup(ctx: Ctx): Promise<{ sharedKey: string; authenticatorUri: string }> {
      refuseWhileImpersonating(ctx.auth);
      const userId = ctx.auth.userId;
      const account = await load(userId);
      if (account.twoFactorMethod & TwoFactorFlags.Totp) throw appError(twoFactorErrors.ALREADY_ENABLED);
      let secret = account.twoFactorSecret
        ? deps.twoFactorSecrets.openTotp(account.twoFactorSecret, userId)
        : undefined;
      if (!secret) {
        secret = generateTotpSecret();
        // Only over what was read (TOTP still off, the same stored value): of two first calls at
        // once, one stores its secret and the other answers that one, so both show one QR code.
        const [stored] = await db
          .update(userSecurity)
          .set({ twoFactorSecret: deps.twoFactorSecrets.sealTotp(secret, userId), lastTotpStep: null })
          .where(
            and(
              eq(userSecurity.userId, userId),
              eq(userSecurity.twoFactorMethod, account.twoFactorMethod),
              account.twoFactorSecret === null
                ? isNull(userSecurity.twoFactorSecret)
                : eq(userSecurity.twoFactorSecret, account.twoFactorSecret),
            ),
          )
          .returning({ userId: userSecurity.userId });
        if (!stored) {
          const now = await load(userId);
          const winner =
            now.twoFactorSecret && !(now.twoFactorMethod & TwoFactorFlags.Totp)
              ? deps.twoFactorSecrets.openTotp(now.twoFactorSecret, userId)
              : undefined;
          if (!winner) throw appError(commonErrors.VERSION_CONFLICT);
          secret = winner;
        }
      }
      return {
        sharedKey: secret,
        authenticatorUri: totpUri({ issuer: deps.config.Saas.Auth.TotpIssuer, account: account.userName, secret }),
      };
    },

    /**
     * POST /api/Profile/Send2FASetupCode: a 6-digit code, 10 minutes, to the verified e-mail or
     * phone. One a minute per destination, 10 a day per destination and 50 a day per client
     * address; a failed send leaves no usable code.
     */
    async sendSetupCode(ctx: Ctx, method: TwoFactorMethodFlag): Promise<{ expiresInSeconds: number }> {
      refuseWhileImpersonating(ctx.auth);
      if (method === TwoFactorFlags.Totp) throw appError(twoFactorErrors.NO_CODE_NEEDED);
      const userId = ctx.auth.userId;
      const to = contactOf(await load(userId), method);
      const target = to.trim().toLowerCase();
      throwIfThrottled([await hitRateLimit(store, `two-factor-setup:${method}:${target}`, 1, 60_000)]);
      throwIfThrottled(
        await Promise.all([
          hitRateLimit(store, `two-factor-setup-day:${target}`, 10, 86_400_000),
          hitRateLimit(store, `two-factor-setup-day-ip:${ctx.ip}`, 50, 86_400_000),
        ]),
      );
      const purpose = purposeOf(method);
      const code = await codes.issue(purpose, String(userId));
      try {
        await deps.messages.send({
          channel: method === TwoFactorFlags.Email ? 'email' : 'sms',
          to,
          kind: 'two-factor-code',
          subject: translate(ctx.culture, mail.subject),
          text: translate(ctx.culture, mail.body, { code }),
        });
      } catch (error) {
        await codes.discard(purpose, String(userId));
        throw appError(commonErrors.THIRD_PARTY, { cause: error });
      }
      return { expiresInSeconds: CODE_TTL_MS / 1000 };
    },

    /** POST /api/Profile/Enable2FA: turns one method on, given a right code of that method. */
    async enable(ctx: Ctx, method: TwoFactorMethodFlag, code: string) {
      refuseWhileImpersonating(ctx.auth);
      const userId = ctx.auth.userId;
      const account = await load(userId);
      if (account.twoFactorMethod & method) throw appError(twoFactorErrors.ALREADY_ENABLED);
      let totpStep: number | undefined;
      if (method === TwoFactorFlags.Totp) {
        if (!account.twoFactorSecret) throw appError(twoFactorErrors.SETUP_REQUIRED);
        await refuseWhileBanned(userId);
        totpStep = totpStepOf(userId, account, code);
        if (totpStep === undefined) await wrongCode(userId);
      } else {
        contactOf(account, method);
        await refuseWhileBanned(userId);
        if (!(await codes.consume(purposeOf(method), String(userId), code))) await wrongCode(userId);
      }
      const flags = account.twoFactorMethod | method;
      const first = account.twoFactorMethod === 0;
      const { codes: recoveryCodes } = await writeFlags(ctx, account, {
        flags,
        wipeSecret: false,
        totpStep,
        recovery: first ? 'replace' : 'keep',
        result: 'MfaBound',
        method,
      });
      return { ...stateOf(flags, account.twoFactorSecret, await recoveryCodesRemaining(db, userId)), recoveryCodes };
    },

    /**
     * POST /api/Profile/Disable2FA: turns one method off (a no-op when it is off), given a right
     * code of any method that is on (e-mail and phone codes come from Send2FASetupCode) or the
     * password. The authenticator secret goes whenever TOTP is not left on; the recovery codes go
     * with the last method.
     */
    async disable(
      ctx: Ctx,
      method: TwoFactorMethodFlag,
      proof: { code?: string | null; password?: string | null },
    ): Promise<TwoFactorState> {
      refuseWhileImpersonating(ctx.auth);
      const userId = ctx.auth.userId;
      const account = await load(userId);
      if (!(account.twoFactorMethod & method)) {
        return stateOf(account.twoFactorMethod, account.twoFactorSecret, await recoveryCodesRemaining(db, userId));
      }
      let totpStep: number | undefined;
      let proven = false;
      if (proof.code) {
        await refuseWhileBanned(userId);
        const on = account.twoFactorMethod;
        if (on & TwoFactorFlags.Totp) totpStep = totpStepOf(userId, account, proof.code);
        proven = totpStep !== undefined;
        for (const m of [TwoFactorFlags.Email, TwoFactorFlags.Phone] as const) {
          if (!proven && on & m) proven = await codes.consume(purposeOf(m), String(userId), proof.code);
        }
        if (!proven && !proof.password) await wrongCode(userId);
      }
      if (!proven && proof.password) await checkPassword(userId, account.passwordHash, proof.password);
      const flags = account.twoFactorMethod & ~method;
      const keepsTotp = !!(flags & TwoFactorFlags.Totp);
      await writeFlags(ctx, account, {
        flags,
        wipeSecret: !keepsTotp,
        // The TOTP code used as proof is spent, unless the secret it belongs to goes anyway.
        totpStep: keepsTotp ? totpStep : undefined,
        recovery: flags === 0 ? 'delete' : 'keep',
        result: 'MfaUnbound',
        method,
      });
      return stateOf(flags, keepsTotp ? account.twoFactorSecret : null, await recoveryCodesRemaining(db, userId));
    },

    /**
     * POST /api/Profile/RegenerateRecoveryCodes: a new set of 10 (the old ones stop working),
     * shown once; the password is confirmed and a second factor must be on.
     */
    async regenerateRecoveryCodes(ctx: Ctx, password: string): Promise<{ recoveryCodes: string[] }> {
      refuseWhileImpersonating(ctx.auth);
      const userId = ctx.auth.userId;
      const account = await load(userId);
      await checkPassword(userId, account.passwordHash, password);
      if (account.twoFactorMethod === 0) throw appError(twoFactorErrors.NOT_ENABLED);
      const recoveryCodes = await db.transaction(async (tx) => {
        // Under the row lock, so a concurrent Disable2FA cannot leave codes behind for an account without a factor.
        const [locked] = await tx
          .select({ flags: userSecurity.twoFactorMethod })
          .from(userSecurity)
          .where(eq(userSecurity.userId, userId))
          .for('update');
        if (!locked || locked.flags === 0) throw appError(twoFactorErrors.NOT_ENABLED);
        const made = await replaceRecoveryCodesIn(tx, deps, userId);
        await tx.insert(auditEntries).values(
          auditRow(deps.ids, {
            action: 'RecoveryCodesGenerated',
            tenantId: ctx.auth.tenantId,
            userId,
            targetType: 'User',
            targetId: String(userId),
            detail: { count: made.length },
            ip: ctx.ip,
            traceId: ctx.traceId,
            at: clock.now(),
          }),
        );
        return made;
      });
      await notifyTwoFactor(
        deps,
        { userId, tenantId: ctx.auth.tenantId, culture: ctx.culture, request: ctx },
        { kind: 'regenerated' },
      );
      return { recoveryCodes };
    },
  };
}

export type TwoFactorEnrolment = ReturnType<typeof createTwoFactorEnrolment>;
