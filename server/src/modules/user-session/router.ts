import { z } from 'zod';
import { authedProcedure, router } from '../../rpc/trpc.js';
import { zBool, zDateTimeOut, zId, zIdOut, zQueryId } from '../../rpc/wire.js';
import { permission } from '../authz/permission-catalogue.js';
import { zDeviceTypeOut } from './device-type.js';
import { SESSION_STATUS_NAMES } from './service.js';

/** /api/UserSessionQuery and /api/UserSession: a user's sessions, for administrators. */

const userSession = z.object({
  sessionId: zIdOut(),
  userId: zIdOut(),
  /** The session's context (0: the platform state). */
  tenantId: zIdOut(),
  /** The original's DeviceType number (an int field there, not a name). */
  deviceType: zDeviceTypeOut(),
  deviceName: z.string().nullable(),
  browser: z.string().nullable(),
  operatingSystem: z.string().nullable(),
  ipAddress: z.string().nullable(),
  location: z.string().nullable(),
  loginMethod: z.string(),
  loginTime: zDateTimeOut(),
  lastActivityTime: zDateTimeOut(),
  expirationTime: zDateTimeOut(),
  status: z.enum(SESSION_STATUS_NAMES),
  isLocked: z.boolean(),
  /** Someone else is acting as the user in this session. */
  isImpersonation: z.boolean(),
  revokedTime: zDateTimeOut().nullable(),
  revokedReason: z.string().nullable(),
  isCurrent: z.boolean(),
});

const SCOPE_NOTE =
  "Users outside the caller's context or data scope have no sessions here; for a member whose home is another tenant, only the sessions in this context count.";

export const userSessionQueryRouter = router({
  GetUserSessionsAsync: authedProcedure
    .meta({
      permission: permission('saas:user-session:read'),
      summary: "A user's sessions: active ones, or every one with includeInactive (latest activity first, at most 500)",
      description: SCOPE_NOTE,
    })
    .input(z.object({ userId: zQueryId(), includeInactive: zBool().optional() }))
    .output(z.array(userSession))
    .query(({ ctx, input }) => ctx.services.userSessions.list(ctx, input.userId, input.includeInactive ?? false)),
});

export const userSessionRouter = router({
  RevokeUserSessionAsync: authedProcedure
    .meta({
      permission: permission('saas:user-session:revoke'),
      summary: 'Ends one session of a user (its connections get a forced logout)',
      description: `${SCOPE_NOTE} The caller's own current session is refused (log out instead).`,
    })
    .input(z.object({ sessionId: zId() }))
    .mutation(({ ctx, input }) => ctx.services.userSessions.revokeOne(ctx, input.sessionId)),

  RevokeUserSessionsAsync: authedProcedure
    .meta({
      permission: permission('saas:user-session:revoke'),
      summary: "Ends every session of a user (never the caller's current one)",
      description: SCOPE_NOTE,
    })
    .input(z.object({ userId: zId() }))
    .output(z.object({ revokedCount: z.number().int() }))
    .mutation(({ ctx, input }) => ctx.services.userSessions.revokeAll(ctx, input.userId)),
});
