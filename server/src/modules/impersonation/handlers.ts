import { eq } from 'drizzle-orm';
import { userSessions } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { writeAudit } from '../audit/write.js';

/**
 * Audits an impersonation that ends by Logout (POST /api/Auth/Logout from the impersonation
 * session) like one ended by EndImpersonation. To be registered once at start-up, next to
 * registerAuthHandlers (bootstrap.ts).
 */
export function registerImpersonationHandlers(deps: Pick<AppDeps, 'db' | 'ids' | 'clock' | 'events'>): void {
  deps.events.on('AuthLogout', async (e) => {
    const [session] = await deps.db
      .select({ impersonatorUserId: userSessions.impersonatorUserId, loginTime: userSessions.loginTime })
      .from(userSessions)
      .where(eq(userSessions.id, e.sessionId));
    if (!session || session.impersonatorUserId === null) return;
    await writeAudit(deps.db, deps.ids, {
      action: 'ImpersonationEnded', tenantId: e.tenantId, userId: e.userId, actorUserId: session.impersonatorUserId, targetType: 'Session', targetId: String(e.sessionId),
      detail: { endedBy: String(e.userId), reason: 'logout', durationSeconds: Math.round((deps.clock.nowMs() - session.loginTime.getTime()) / 1000) },
      ip: e.request.ip, traceId: e.request.traceId, at: deps.clock.now(),
    });
  });
}
