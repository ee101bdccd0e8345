import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { auditEntries, passwordHistory, users, userSecurity } from '../../../../../db/schema/index.js';
import type { AppDeps } from '../../../app-deps.js';
import type { CodeService } from '../../verification/codes.js';
import type { SessionStateService } from '../session/session-state.js';
import type { SessionService } from '../session/session-service.js';
import { appError } from '../../../errors/app-error.js';
import type { CallContext } from '../../../rpc/call-context.js';
import { hitRateLimit } from '../../../stores/rate-limit.js';
import { auditRow } from '../../audit/write.js';
import { notifySecurity } from '../../notifications/notify.js';
import { claimSilentWindow, throwIfThrottled } from './send-limits.js';
import { findAccount, findAccountById } from '../login/account-lookup.js';
import { authErrors } from '../errors.js';
import { writeLoginLog } from '../../login-log/write.js';
import { requestFacts } from '../login/login-service.js';
import { assertPasswordPolicy } from '../password-policy.js';
import { linkWithToken, resetMessage, sendOrUndo } from './self-service-mail.js';
import { selfServiceErrors } from './self-service-errors.js';
import type { SendKind, SendTiming } from './send-timing.js';
import { formerPasswordHashes } from '../password-history.js';

/**
 * Password recovery (SPEC "Password recovery"). PasswordResetRequest always answers the same
 * accepted result in about the same time (send-timing.ts), whether or not the address belongs to
 * an account, and however often it is asked; for an enabled account it mails a link to
 * `Saas__Auth__PasswordResetUrl` carrying a random token, at most one a minute per address.
 * Only the token's SHA-256 is stored, linked to the user and the security stamp of that moment,
 * for 30 minutes.
 *
 * ConsumePasswordResetToken checks the new password (8 to 128 characters and the policy) before
 * it spends the token, so a refused password does not cost the link; then the token is taken
 * atomically (of parallel consumptions exactly one proceeds). The password is set, the security
 * stamp rotates (every token signed before stops working, and any other outstanding reset link
 * too), every session is revoked, the lockout is cleared, the e-mail counts as verified (the link
 * proved the mailbox), and PasswordReset is audited and written to the login log.
 */

const RESET_TTL_MS = 30 * 60_000;
/** One mail per address in this window, whoever asks: later requests are answered, not mailed. */
const RESET_WINDOW_MS = 60_000;
const RESET_SEND: SendKind = { kind: 'password-reset', channel: 'email' };
const resetKey = (token: string) => `pwd-reset:${createHash('sha256').update(token).digest('hex')}`;

interface ResetData {
  userId: string;
  stamp: string;
}

type PasswordResetDeps = Pick<
  AppDeps,
  'db' | 'database' | 'ids' | 'clock' | 'config' | 'logger' | 'messages' | 'events' | 'store' | 'hasher'
> & {
  codes: CodeService;
  sessionState: SessionStateService;
  sessions: SessionService;
  sendTiming: SendTiming;
};

export function createPasswordReset(deps: PasswordResetDeps) {
  const { config, store, db, clock } = deps;
  const auth = config.Saas.Auth;
  const timing = deps.sendTiming;

  return {
    async request(email: string, ctx: CallContext): Promise<{ accepted: true }> {
      if (!auth.PasswordResetEnabled) throw appError(selfServiceErrors.PASSWORD_RESET_DISABLED);
      // Both limits are silent: SPEC has this endpoint always answer accepted, and a 429 that only
      // a repeated address draws tells a caller about that address's recent requests. The window
      // is per address alone, not per address and client address: what it protects is the
      // mailbox, and with nothing to tell the caller there is no reason to let a second client
      // address mail it again. The per-client-address cap (ThrottlePerIp a minute) bounds how many
      // mailboxes one client can have mailed; it is silent too, which costs a real user nothing
      // (no person asks for that many resets a minute from one address) and keeps the answer
      // the same for everyone. Above either, nothing is looked up or sent, and the answer takes
      // as long as a mail would, for known and unknown addresses alike.
      const perClient = await hitRateLimit(store, `pwd-reset:ip:${ctx.ip}`, auth.ThrottlePerIp, 60_000);
      const release = perClient.allowed
        ? await claimSilentWindow(store, `pwd-reset:${email}`, RESET_WINDOW_MS)
        : undefined;
      if (!release) {
        await timing.imitate(RESET_SEND);
        return { accepted: true };
      }
      const account = await findAccount(deps, email);
      if (account && account.user.status === 'Enabled' && account.user.email) {
        const to = account.user.email;
        try {
          await timing.timed(RESET_SEND, async () => {
            const token = randomBytes(32).toString('base64url');
            const data: ResetData = { userId: String(account.user.id), stamp: account.security.securityStamp };
            await store.set(resetKey(token), JSON.stringify(data), RESET_TTL_MS);
            await sendOrUndo(deps, resetMessage(to, linkWithToken(auth.PasswordResetUrl, token), ctx.culture), () =>
              store.delete(resetKey(token)),
            );
          });
        } catch (error) {
          // Nothing usable was sent (the link was deleted): the next request may try again.
          await release();
          throw error;
        }
      } else {
        // Nothing is mailed, but the answer takes as long as a mail would: timing must not tell.
        await timing.imitate(RESET_SEND);
      }
      return { accepted: true };
    },

    async consume(token: string, newPassword: string, ctx: CallContext): Promise<{ success: true }> {
      if (!auth.PasswordResetEnabled) throw appError(selfServiceErrors.PASSWORD_RESET_DISABLED);
      throwIfThrottled(
        [await hitRateLimit(store, `pwd-reset:consume:${ctx.ip}`, auth.ThrottlePerIp, 60_000)],
        authErrors.TOO_MANY_ATTEMPTS,
      );
      const key = resetKey(token);
      const raw = await store.get(key);
      const data = raw ? (JSON.parse(raw) as ResetData) : undefined;
      const account = data ? await findAccountById(deps, BigInt(data.userId)) : undefined;
      if (!data || !account || account.security.securityStamp !== data.stamp) {
        if (data) await store.delete(key);
        throw appError(selfServiceErrors.RESET_TOKEN_INVALID);
      }
      const { user, security } = account;
      const history = await formerPasswordHashes(db, user.id);
      await assertPasswordPolicy(
        newPassword,
        {
          userName: user.userName,
          email: user.email,
          hasher: deps.hasher,
          recentHashes: [security.passwordHash, ...history],
        },
        ctx.culture,
      );
      const newHash = await deps.hasher.hash(newPassword);
      // One use: of any number of parallel consumptions, one takes the token.
      if (!(await store.take(key))) throw appError(selfServiceErrors.RESET_TOKEN_INVALID);

      const now = clock.now();
      const stamp = randomUUID();
      const facts = requestFacts(ctx);
      const revoked = await db.transaction(async (tx) => {
        // Only over the stamp the link was issued with: a password changed meanwhile voids it.
        const [changed] = await tx
          .update(userSecurity)
          .set({
            passwordHash: newHash,
            passwordChangedTime: now,
            mustChangePassword: false,
            securityStamp: stamp,
            failedLoginAttempts: 0,
            // Lifts a lockout that failed logins caused (count at the threshold: the owner of the
            // mailbox forgot the password), never one an administrator set (count below it).
            lockoutEndTime: sql`case when ${userSecurity.failedLoginAttempts} >= ${auth.LockoutThreshold} then null else ${userSecurity.lockoutEndTime} end`,
            passwordExpiresTime: auth.PasswordExpiryDays
              ? new Date(now.getTime() + auth.PasswordExpiryDays * 86_400_000)
              : null,
          })
          .where(and(eq(userSecurity.userId, user.id), eq(userSecurity.securityStamp, data.stamp)))
          .returning({ userId: userSecurity.userId });
        if (!changed) throw appError(selfServiceErrors.RESET_TOKEN_INVALID);
        await tx
          .insert(passwordHistory)
          .values({ id: deps.ids.next(), userId: user.id, passwordHash: security.passwordHash, createdTime: now });
        if (user.email && (!user.emailVerified || !user.isActive)) {
          await tx
            .update(users)
            .set({ emailVerified: true, isActive: true, modifiedTime: now })
            .where(eq(users.id, user.id));
        }
        const active = await deps.sessions.activeSessions(tx, user.id);
        const ids = active.map((s) => s.id);
        await deps.sessions.revokeIn(tx, ids, 'Password reset');
        await tx.insert(auditEntries).values(
          auditRow(deps.ids, {
            action: 'PasswordReset',
            tenantId: user.tenantId,
            userId: user.id,
            targetType: 'User',
            targetId: String(user.id),
            detail: { sessionsRevoked: ids.length },
            ip: ctx.ip,
            traceId: ctx.traceId,
            at: now,
          }),
        );
        await writeLoginLog(tx, deps.ids, {
          userId: user.id,
          userName: user.email ?? user.userName,
          tenantId: user.tenantId,
          result: 'PasswordReset',
          message: 'Password reset by e-mail link',
          request: facts,
          at: now,
        });
        return ids;
      });
      // After the commit: caches would otherwise reload the old stamp.
      await deps.sessionState.invalidateUser(user.id);
      await deps.sessions.announceRevoked(user.id, revoked, 'Password reset');
      await notifySecurity(deps, {
        userId: user.id,
        tenantId: user.tenantId,
        culture: ctx.culture,
        kind: 'passwordChanged',
        request: ctx,
      });
      deps.logger.info('password reset', { userId: String(user.id), sessionsRevoked: revoked.length });
      return { success: true };
    },
  };
}
