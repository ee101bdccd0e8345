import type { AppDeps } from '../../app-deps.js';
import { writeAudit } from '../audit/write.js';
import { writeLoginLog } from '../login-log/write.js';

/**
 * Subscribers of the authentication events: one login-log row per attempt (SPEC: failed logins
 * are written to the login log; a success's row is written with its session, by the session
 * statement itself) and the audit entries the spec names (TenantSwitched, PasswordChanged;
 * TokenRefreshed is written with the refresh).
 */
export function registerAuthHandlers(deps: Pick<AppDeps, 'db' | 'ids' | 'clock' | 'events'>): void {
  const { db, ids, clock, events } = deps;
  const at = () => clock.now();

  // AuthLoginSucceeded: its login-log row is written with the session (session-service.ts); a
  // counted failure's, with its count (failed-login.ts).
  events.on('AuthLoginFailed', async (e) => {
    if (e.recorded) return;
    await writeLoginLog(db, ids, {
      userId: e.userId,
      userName: e.userName,
      tenantId: e.tenantId,
      method: e.method,
      result: e.result,
      message: e.message,
      request: e.request,
      at: at(),
    });
  });
  events.on('AuthTwoFactorRequired', async (e) => {
    await writeLoginLog(db, ids, {
      userId: e.userId,
      userName: e.userName,
      tenantId: e.tenantId,
      method: e.method,
      result: 'RequiresTwoFactor',
      message: 'Second factor required',
      request: e.request,
      at: at(),
    });
  });
  events.on('AuthLogout', async (e) => {
    await writeLoginLog(db, ids, {
      userId: e.userId,
      userName: e.userName,
      tenantId: e.tenantId,
      sessionId: e.sessionId,
      result: 'Logout',
      message: 'Logged out',
      request: e.request,
      at: at(),
    });
  });
  // TokenRefreshed: its audit entry and login-log row are written by the refresh statement
  // itself (session-service.ts), atomically with the rotation.
  events.on('TenantSwitched', async (e) => {
    const message = e.toTenantId === 0n ? 'Entered the platform state' : `Switched to tenant ${e.toTenantId}`;
    await writeLoginLog(db, ids, {
      userId: e.userId,
      userName: e.userName,
      tenantId: e.toTenantId,
      sessionId: e.sessionId,
      result: 'TenantSwitched',
      message,
      request: e.request,
      at: at(),
    });
    await writeAudit(db, ids, {
      action: 'TenantSwitched',
      tenantId: e.toTenantId,
      userId: e.userId,
      targetType: 'Session',
      targetId: String(e.sessionId),
      detail: { from: String(e.fromTenantId), to: String(e.toTenantId) },
      ip: e.request.ip,
      traceId: e.request.traceId,
      at: at(),
    });
  });
  events.on('PasswordChanged', async (e) => {
    await writeLoginLog(db, ids, {
      userId: e.userId,
      userName: e.userName,
      tenantId: e.tenantId,
      result: 'PasswordChanged',
      message: 'Password changed',
      request: e.request,
      at: at(),
    });
    await writeAudit(db, ids, {
      action: 'PasswordChanged',
      tenantId: e.tenantId,
      userId: e.userId,
      ip: e.request.ip,
      traceId: e.request.traceId,
      at: at(),
    });
  });
}
