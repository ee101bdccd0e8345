import { and, eq, or } from 'drizzle-orm';
import { userSessions } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { SessionService } from '../auth/session/session-service.js';
import type { Executor } from '../../infra/db/client.js';
import { SessionStatus } from '../auth/session/session-state.js';
import { notDeleted } from '../../infra/db/predicates.js';

/** Sessions ended inside a transaction, by owner, to announce once it has committed. */
export type EndedSessions = Map<bigint, bigint[]>;

/**
 * Ends, inside the caller's transaction, every active session of a user and every impersonation
 * session the user started (an account that is disabled, deleted or reset must not keep acting
 * as someone else). Call `announceEnded` with the result after the commit.
 */
export async function endAllSessionsIn(
  tx: Executor,
  deps: { sessions: SessionService },
  userId: bigint,
  reason: string,
): Promise<EndedSessions> {
  const rows = await tx
    .select({ id: userSessions.id, owner: userSessions.userId })
    .from(userSessions)
    .where(
      and(
        eq(userSessions.status, SessionStatus.Active),
        notDeleted(userSessions.isDeleted),
        or(eq(userSessions.userId, userId), eq(userSessions.impersonatorUserId, userId)),
      ),
    );
  await deps.sessions.revokeIn(
    tx,
    rows.map((r) => r.id),
    reason,
  );
  const byOwner: EndedSessions = new Map();
  for (const r of rows) byOwner.set(r.owner, [...(byOwner.get(r.owner) ?? []), r.id]);
  return byOwner;
}

/**
 * After the commit: every node drops the sessions and connected clients are told (SessionsRevoked,
 * pushed by the notification hub as ForceLogout). With `allConnections`, the user's own event
 * names no sessions (null: every connection of the user, as a deletion wants).
 */
export async function announceEnded(
  deps: Pick<AppDeps, 'events'> & { sessions: SessionService },
  userId: bigint,
  ended: EndedSessions,
  reason: string,
  allConnections = false,
): Promise<void> {
  for (const [owner, ids] of ended) {
    const ownEvent = owner === userId && allConnections;
    await deps.sessions.announceRevoked(owner, ids, reason, !ownEvent);
  }
  if (allConnections) await deps.events.publish('SessionsRevoked', { userId, sessionIds: null, reason });
}
