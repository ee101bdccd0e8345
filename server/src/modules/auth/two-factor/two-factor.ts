import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { userSecurity } from '../../../../../db/schema/index.js';
import type { AppDeps } from '../../../app-deps.js';
import type { Culture } from '../../../config/schema.js';
import { appError } from '../../../errors/app-error.js';
import { commonErrors } from '../../../errors/common.js';
import { defineMessages, translate } from '../../../i18n/messages.js';
import type { MessageTransport } from '../../../infra/messaging/transport.js';
import type { CodeService } from '../../verification/codes.js';
import { authErrors } from '../errors.js';
import { checkSendLimits } from '../self-service/send-limits.js';
import { verifyTotp } from './totp.js';

/** Two-factor method flags (SPEC "Two-factor method flags"). */
export const TwoFactorFlags = { None: 0, Totp: 1, Email: 2, Phone: 4 } as const;
export type TwoFactorMethodName = 'totp' | 'email' | 'phone';

export interface TwoFactorAccount {
  userId: bigint;
  twoFactorMethod: number;
  twoFactorSecret: string | null;
  lastTotpStep: number | null;
  email: string | null;
  emailVerified: boolean;
  phone: string | null;
  phoneVerified: boolean;
}

/**
 * The methods an account may use: TOTP once set up; e-mail and phone only when verified and
 * when the service can send on that channel (production without SMTP or an SMS provider: a code
 * that can never arrive would only lock the user out, so the method is not offered, and an
 * account left with none fails closed).
 */
export function availableMethods(a: TwoFactorAccount, messages?: MessageTransport): TwoFactorMethodName[] {
  const can = (channel: 'email' | 'sms') => messages?.available?.(channel) ?? true;
  const methods: TwoFactorMethodName[] = [];
  if (a.twoFactorMethod & TwoFactorFlags.Totp && a.twoFactorSecret) methods.push('totp');
  if (a.twoFactorMethod & TwoFactorFlags.Email && a.email && a.emailVerified && can('email')) methods.push('email');
  if (a.twoFactorMethod & TwoFactorFlags.Phone && a.phone && a.phoneVerified && can('sms')) methods.push('phone');
  return methods;
}

/** The normalized first-stage login name a ticket is bound to (trimmed, case-insensitive). */
export const normalizeLoginName = (name: string) => name.trim().toLowerCase();

const TICKET_TTL_MS = 10 * 60_000;
const ticketKey = (ticket: string) => `2fa:ticket:${createHash('sha256').update(ticket).digest('hex')}`;

interface TicketData {
  userId: string;
  loginName: string;
}

const mail = defineMessages('twoFactorMail', {
  subject: {
    'zh-CN': '登录验证码',
    'zh-TW': '登入驗證碼',
    'en-US': 'Your sign-in code',
    'ja-JP': 'サインイン用の確認コード',
    'ko-KR': '로그인 인증 코드',
    'de-DE': 'Ihr Anmeldecode',
    'hi-IN': 'आपका साइन-इन कोड',
  },
  body: {
    'zh-CN': '您的登录验证码是 {code}，10 分钟内有效。如非本人操作，请立即修改密码。',
    'zh-TW': '您的登入驗證碼是 {code}，10 分鐘內有效。如非本人操作，請立即修改密碼。',
    'en-US': 'Your sign-in code is {code}. It is valid for 10 minutes. If this was not you, change your password now.',
    'ja-JP':
      'サインイン用の確認コードは {code} です。有効期間は 10 分です。心当たりがない場合は、すぐにパスワードを変更してください。',
    'ko-KR': '로그인 인증 코드는 {code}입니다. 10분 동안 유효합니다. 본인이 아니라면 즉시 비밀번호를 변경하세요.',
    'de-DE':
      'Ihr Anmeldecode lautet {code}. Er ist 10 Minuten gültig. Falls Sie das nicht waren, ändern Sie sofort Ihr Passwort.',
    'hi-IN': 'आपका साइन-इन कोड {code} है। यह 10 मिनट के लिए मान्य है। यदि यह आप नहीं थे, तो तुरंत अपना पासवर्ड बदलें।',
  },
});

type TwoFactorDeps = Pick<AppDeps, 'db' | 'store' | 'clock' | 'messages' | 'twoFactorSecrets'> & { codes: CodeService };

/** Second-factor tickets, challenges and checks for password login (and its later stages). */
export function createTwoFactor(deps: TwoFactorDeps) {
  const { store, codes } = deps;

  return {
    /** Issues a ticket valid 10 minutes, bound to the user and the normalized login name. */
    async issueTicket(userId: bigint, loginName: string): Promise<string> {
      const ticket = randomBytes(32).toString('base64url');
      const data: TicketData = { userId: String(userId), loginName: normalizeLoginName(loginName) };
      await store.set(ticketKey(ticket), JSON.stringify(data), TICKET_TTL_MS);
      return ticket;
    },

    /**
     * Checks a presented ticket against the login name of this stage and, once the account is
     * known, its user (`userId` undefined checks the name only). A ticket of another user or
     * name is voided (SPEC "Second-factor ticket"); any failure answers two-factor-expired.
     */
    async checkTicket(ticket: string, userId: bigint | undefined, loginName: string): Promise<void> {
      const key = ticketKey(ticket);
      const raw = await store.get(key);
      if (!raw) throw appError(authErrors.TWO_FACTOR_EXPIRED);
      const data = JSON.parse(raw) as TicketData;
      if (
        (userId !== undefined && data.userId !== String(userId)) ||
        data.loginName !== normalizeLoginName(loginName)
      ) {
        await store.delete(key);
        throw appError(authErrors.TWO_FACTOR_EXPIRED);
      }
    },

    /** Consumed when tokens are issued: the ticket cannot be presented again. */
    async consumeTicket(ticket: string): Promise<void> {
      await store.delete(ticketKey(ticket));
    },

    /**
     * Sends an e-mail or SMS code for the second factor, within the limits of sign-in codes
     * (a stage without a code re-sends, so unlimited it would mail or text at anyone's request;
     * 429 beyond). A failed send discards the code, so no usable code exists that the user
     * never received.
     */
    async sendCode(
      account: TwoFactorAccount,
      method: 'email' | 'phone',
      request: { culture: Culture; ip: string },
    ): Promise<void> {
      const { culture } = request;
      const to = method === 'email' ? account.email! : account.phone!;
      await checkSendLimits(store, 'two-factor', method, to.toLowerCase(), request.ip);
      const purpose = method === 'email' ? 'two-factor-email' : 'two-factor-phone';
      const target = String(account.userId);
      const code = await codes.issue(purpose, target);
      try {
        await deps.messages.send({
          channel: method === 'email' ? 'email' : 'sms',
          to,
          kind: 'two-factor-code',
          subject: translate(culture, mail.subject),
          text: translate(culture, mail.body, { code }),
        });
      } catch (error) {
        await codes.discard(purpose, target);
        throw appError(commonErrors.THIRD_PARTY, { cause: error });
      }
    },

    /**
     * Verifies a code by method. TOTP codes are single use: the matched time step is stored
     * with a conditional update, so a code accepted once (even by a concurrent request) is
     * refused the second time. E-mail and phone codes are consumed on read.
     */
    async verify(account: TwoFactorAccount, method: TwoFactorMethodName, code: string): Promise<boolean> {
      if (method === 'totp') {
        if (!account.twoFactorSecret) return false;
        // Sealed at rest (two-factor-secrets.ts); a secret that no longer opens matches nothing.
        const secret = deps.twoFactorSecrets.openTotp(account.twoFactorSecret, account.userId);
        if (!secret) return false;
        const check = verifyTotp(secret, code, deps.clock.nowMs(), account.lastTotpStep);
        if (!check.ok) return false;
        const updated = await deps.db
          .update(userSecurity)
          .set({ lastTotpStep: check.step })
          .where(
            and(
              eq(userSecurity.userId, account.userId),
              or(isNull(userSecurity.lastTotpStep), lt(userSecurity.lastTotpStep, check.step)),
            ),
          )
          .returning({ id: userSecurity.userId });
        return updated.length === 1;
      }
      return codes.consume(method === 'email' ? 'two-factor-email' : 'two-factor-phone', String(account.userId), code);
    },
  };
}

export type TwoFactor = ReturnType<typeof createTwoFactor>;
