import { and, eq, ne, sql } from 'drizzle-orm';
import { users } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors/app-error.js';
import { commonErrors } from '../../errors/common.js';
import { postgresErrorCode, UNIQUE_VIOLATION } from '../../infra/db/errors.js';
import { notDeleted } from '../../infra/db/predicates.js';
import type { CallContext } from '../../rpc/call-context.js';
import { actorOf, auditChange } from '../audit/change.js';
import { sendOrUndo } from '../auth/self-service/self-service-mail.js';
import { checkSendLimits } from '../auth/self-service/send-limits.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { refuseWhileImpersonating } from '../impersonation/guard.js';
import { notifySecurity } from '../notifications/notify.js';
import { CODE_TTL_MS, type CodePurpose, type CodeService } from '../verification/codes.js';
import { contactCodeMessage } from './contact-mail.js';
import { confirmOwnPassword } from './own-password.js';
import { profileSelfErrors } from './self-service-errors.js';
import type { SessionStateService } from '../auth/session/session-state.js';

/**
 * The caller's e-mail and phone, in two steps each (SPEC "Profile endpoints": purposes
 * ChangeEmail, ChangePhone, VerifyEmail, VerifyPhone; the original service).
 *
 * - SendChangeEmailCode / SendChangePhoneCode `{newEmail|newPhone, password}` check the password
 *   and send a code to the NEW address; ConfirmChangeEmail / ConfirmChangePhone `{code}` set it,
 *   marked verified. Whether another account uses the address is checked only at confirmation,
 *   so the first step answers the same, in the same time, for a free and a taken address.
 * - SendEmailVerifyCode / SendPhoneVerifyCode send a code to the CURRENT address; VerifyEmail /
 *   VerifyPhone `{code}` mark it verified (a verified phone is what phone login and the phone
 *   second factor need).
 *
 * Codes: 6 digits, 10 minutes, one use (modules/verification: consumed on read, right or wrong,
 * atomically, so of parallel confirmations with one code at most one succeeds). A code is bound
 * to the user and the address it went to: an address changed in between voids it. Sends: one a
 * minute per address and client address, 10 a day per address, 50 a day per client address
 * (auth/send-limits.ts). Five wrong codes in ten minutes bar the purpose for ten minutes (429).
 * A failed send removes its code and leaves any earlier pending change as it was. Every change
 * is audited; all of them are refused while impersonating (403).
 */

type Ctx = CallContext & { auth: AuthContext };
export type ContactDeps = Pick<
  AppDeps,
  'db' | 'clock' | 'ids' | 'store' | 'messages' | 'logger' | 'hasher' | 'events'
> & { codes: CodeService; sessionState: SessionStateService };

type Kind = 'email' | 'phone';
type Step = 'change' | 'verify';

const PURPOSE: Record<Step, Record<Kind, CodePurpose>> = {
  change: { email: 'change-email', phone: 'change-phone' },
  verify: { email: 'verify-email', phone: 'verify-phone' },
};

const WRONG_LIMIT = 5;
const BAN_MS = 10 * 60_000;

const codeTarget = (userId: bigint, address: string) => `${userId}:${address.trim().toLowerCase()}`;
const pendingKey = (purpose: CodePurpose, userId: bigint) => `profile:pending:${purpose}:${userId}`;
const wrongKey = (purpose: CodePurpose, userId: bigint) => `profile:code-wrong:${purpose}:${userId}`;
const banKey = (purpose: CodePurpose, userId: bigint) => `profile:code-ban:${purpose}:${userId}`;

export function createContacts(deps: ContactDeps) {
  const { db, store, codes, clock } = deps;

  /** Refuses (429) while the purpose is barred after too many wrong codes. */
  async function assertNotBanned(purpose: CodePurpose, userId: bigint): Promise<void> {
    // The end of the bar is kept in the value, read by the injected clock like every other limit.
    const until = Number((await store.get(banKey(purpose, userId))) ?? 0);
    const left = until - clock.nowMs();
    if (left > 0) {
      const seconds = Math.max(1, Math.ceil(left / 1000));
      throw appError(profileSelfErrors.CODE_BANNED, {
        params: { seconds },
        headers: { 'Retry-After': String(seconds) },
      });
    }
  }

  /** Counts a wrong code; the fifth in ten minutes bars the purpose for ten minutes. */
  async function wrongCode(purpose: CodePurpose, userId: bigint): Promise<never> {
    const { count } = await store.increment(wrongKey(purpose, userId), BAN_MS);
    if (count >= WRONG_LIMIT) {
      await store.set(banKey(purpose, userId), String(clock.nowMs() + BAN_MS), BAN_MS);
      await store.delete(wrongKey(purpose, userId));
    }
    throw appError(profileSelfErrors.CODE_INVALID);
  }

  async function currentContact(userId: bigint) {
    const [row] = await db
      .select({ email: users.email, phone: users.phone, tenantId: users.tenantId })
      .from(users)
      .where(and(eq(users.id, userId), notDeleted(users.isDeleted)));
    if (!row) throw appError(commonErrors.NOT_FOUND);
    return row;
  }

  /** Issues a code for `address`, sends it (undoing the code if the send fails), then records the pending step. */
  async function send(
    ctx: Ctx,
    purpose: CodePurpose,
    kind: Kind,
    address: string,
  ): Promise<{ expiresInSeconds: number }> {
    const userId = ctx.auth.userId;
    await assertNotBanned(purpose, userId);
    await checkSendLimits(store, 'profile', kind, address, ctx.ip);
    const target = codeTarget(userId, address);
    const code = await codes.issue(purpose, target);
    await sendOrUndo(deps, contactCodeMessage(kind === 'email' ? 'email' : 'sms', address, code, ctx.culture), () =>
      codes.discard(purpose, target),
    );
    await store.set(pendingKey(purpose, userId), address, CODE_TTL_MS);
    return { expiresInSeconds: CODE_TTL_MS / 1000 };
  }

  /** Consumes the code of the pending step; answers the address it was sent to. */
  async function consume(ctx: Ctx, purpose: CodePurpose, code: string): Promise<string> {
    const userId = ctx.auth.userId;
    await assertNotBanned(purpose, userId);
    const address = await store.get(pendingKey(purpose, userId));
    const ok =
      address !== undefined &&
      /^\d{6}$/.test(code) &&
      (await codes.consume(purpose, codeTarget(userId, address), code));
    if (!ok || address === undefined) {
      // A malformed code still spends the pending one: each step allows one guess.
      if (address !== undefined) await codes.discard(purpose, codeTarget(userId, address));
      return wrongCode(purpose, userId);
    }
    await store.delete(pendingKey(purpose, userId));
    return address;
  }

  /** Serializes the writers of one phone number (phones have no unique index: verified ones are unique by this check). */
  const lockPhone = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], phone: string) =>
    tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`profile-phone:${phone}`}, 0))`);

  async function phoneTakenIn(
    tx: Parameters<Parameters<typeof db.transaction>[0]>[0],
    phone: string,
    userId: bigint,
  ): Promise<boolean> {
    const [other] = await tx
      .select({ id: users.id })
      .from(users)
      .where(
        and(eq(users.phone, phone), eq(users.phoneVerified, true), ne(users.id, userId), notDeleted(users.isDeleted)),
      )
      .limit(1);
    return !!other;
  }

  return {
    async sendChangeCode(ctx: Ctx, kind: Kind, address: string, password: string) {
      refuseWhileImpersonating(ctx.auth);
      await confirmOwnPassword(deps, ctx.auth.userId, password);
      const current = await currentContact(ctx.auth.userId);
      const now = kind === 'email' ? current.email : current.phone;
      if (now && now.toLowerCase() === address.toLowerCase()) throw appError(profileSelfErrors.CONTACT_UNCHANGED);
      return send(ctx, PURPOSE.change[kind], kind, address);
    },

    async confirmChange(ctx: Ctx, kind: Kind, code: string): Promise<void> {
      refuseWhileImpersonating(ctx.auth);
      const userId = ctx.auth.userId;
      const address = await consume(ctx, PURPOSE.change[kind], code);
      const before = await currentContact(userId);
      const at = clock.now();
      try {
        await db.transaction(async (tx) => {
          if (kind === 'email') {
            const [other] = await tx
              .select({ id: users.id })
              .from(users)
              .where(
                and(
                  sql`lower(${users.email}) = ${address.toLowerCase()}`,
                  ne(users.id, userId),
                  notDeleted(users.isDeleted),
                ),
              )
              .limit(1);
            if (other) throw appError(profileSelfErrors.EMAIL_TAKEN);
            await tx
              .update(users)
              .set({
                email: address,
                emailVerified: true,
                modifiedTime: at,
                modifiedBy: userId,
                version: sql`${users.version} + 1`,
              })
              .where(eq(users.id, userId));
          } else {
            await lockPhone(tx, address);
            if (await phoneTakenIn(tx, address, userId)) throw appError(profileSelfErrors.PHONE_TAKEN);
            await tx
              .update(users)
              .set({
                phone: address,
                phoneVerified: true,
                modifiedTime: at,
                modifiedBy: userId,
                version: sql`${users.version} + 1`,
              })
              .where(eq(users.id, userId));
          }
          await auditChange(
            tx,
            deps,
            actorOf(ctx),
            kind === 'email' ? 'EmailChanged' : 'PhoneChanged',
            { type: 'User', id: userId, userId },
            { from: kind === 'email' ? before.email : before.phone, to: address },
          );
        });
      } catch (error) {
        // The e-mail index decides between two accounts confirming one address at once.
        if (postgresErrorCode(error) === UNIQUE_VIOLATION) throw appError(profileSelfErrors.EMAIL_TAKEN);
        throw error;
      }
      // Sessions cache the contacts (the user info): drop them once committed.
      await deps.sessionState.invalidateUser(userId);
      // The former address hears of the change too: it is where a takeover would show.
      await notifySecurity(deps, {
        userId,
        tenantId: ctx.auth.tenantId,
        culture: ctx.culture,
        kind: kind === 'email' ? 'emailChanged' : 'phoneChanged',
        alsoTo: kind === 'email' ? before.email : null,
        request: ctx,
      });
      deps.logger.info(`${kind} changed`, { userId: String(userId) });
    },

    async sendVerifyCode(ctx: Ctx, kind: Kind) {
      refuseWhileImpersonating(ctx.auth);
      const current = await currentContact(ctx.auth.userId);
      const address = kind === 'email' ? current.email : current.phone;
      if (!address) throw appError(kind === 'email' ? profileSelfErrors.NO_EMAIL : profileSelfErrors.NO_PHONE);
      return send(ctx, PURPOSE.verify[kind], kind, address);
    },

    async verify(ctx: Ctx, kind: Kind, code: string): Promise<void> {
      refuseWhileImpersonating(ctx.auth);
      const userId = ctx.auth.userId;
      const address = await consume(ctx, PURPOSE.verify[kind], code);
      await db.transaction(async (tx) => {
        const column = kind === 'email' ? users.email : users.phone;
        if (kind === 'phone') {
          await lockPhone(tx, address);
          if (await phoneTakenIn(tx, address, userId)) throw appError(profileSelfErrors.PHONE_TAKEN);
        }
        // Only while the address is still the one the code went to.
        const [done] = await tx
          .update(users)
          .set(kind === 'email' ? { emailVerified: true } : { phoneVerified: true })
          .where(and(eq(users.id, userId), eq(column, address)))
          .returning({ id: users.id });
        if (!done) throw appError(profileSelfErrors.CODE_INVALID);
        await auditChange(
          tx,
          deps,
          actorOf(ctx),
          kind === 'email' ? 'EmailVerified' : 'PhoneVerified',
          { type: 'User', id: userId, userId },
          { address },
        );
      });
    },
  };
}
