import { and, eq, isNotNull, lte } from 'drizzle-orm';
import { userSessions } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { writeAudit } from '../audit/write.js';
import { impersonationEnded } from '../auth/session/session-service.js';
import { SessionStatus } from '../auth/session/session-state.js';

/** How often each node looks for impersonation sessions past their end. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * An impersonation that simply runs out is an end too (SPEC: every start and end is audited).
 * Nothing happens at that moment (its access token ends with the session), so a sweep marks
 * such sessions Expired and audits each once: the update takes each row once however many
 * nodes sweep at the same time. Its audit is late by at most the sweep interval, and states
 * the session's own end time.
 */
export function createImpersonationExpiry(deps: Pick<AppDeps, 'db' | 'ids' | 'clock' | 'logger'>) {
  let timer: ReturnType<typeof setInterval> | undefined;

  async function sweep(): Promise<number> {
    const now = deps.clock.now();
    return deps.db.transaction(async (tx) => {
      const ended = await tx
        .update(userSessions)
        .set({ status: SessionStatus.Expired })
        .where(
          and(
            isNotNull(userSessions.impersonatorUserId),
            eq(userSessions.status, SessionStatus.Active),
            lte(userSessions.expirationTime, now),
          ),
        )
        .returning({
          id: userSessions.id,
          userId: userSessions.userId,
          tenantId: userSessions.tenantId,
          impersonatorUserId: userSessions.impersonatorUserId,
          loginTime: userSessions.loginTime,
          expirationTime: userSessions.expirationTime,
        });
      for (const session of ended)
        await writeAudit(tx, deps.ids, impersonationEnded(session, session.expirationTime, 'expired'));
      return ended.length;
    });
  }

  return {
    sweep,
    start() {
      timer = setInterval(() => {
        sweep().catch((error: unknown) => deps.logger.warn('impersonation expiry sweep failed', { error }));
      }, SWEEP_INTERVAL_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
