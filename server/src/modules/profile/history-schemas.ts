import { z } from 'zod';
import { zDateTimeOut, zInt } from '../../rpc/wire.js';
import { LoginResult } from '../login-log/schemas.js';

/** Shapes of LoginLogs and Activity (the original service; the original front end's types). */

const ranged = (min: number, max: number, fallback: number) =>
  zInt('clamped')
    .pipe(z.number().min(min).max(max))
    .optional()
    .transform((v) => v ?? fallback);

export const loginLogsRequest = z.object({ page: ranged(1, 10_000, 1), pageSize: ranged(1, 50, 10) });

export const ownLoginLogItem = z.object({
  loginTime: zDateTimeOut(),
  loginIp: z.string().nullable(),
  loginLocation: z.string().nullable(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  loginResult: LoginResult.out(),
  message: z.string().nullable(),
});

export const ownLoginLogPage = z.object({ items: z.array(ownLoginLogItem), total: z.number().int() });

const period = z.object({
  /** Successful sign-ins. */
  loginCount: z.number().int(),
  /** Login-log events of the user: sign-ins, refreshes, sign-outs, switches, failures. */
  accessCount: z.number().int(),
  /** Audited changes the user made. */
  operationCount: z.number().int(),
  /** Seconds the user's sessions were in use (from sign-in to the last activity) within the period. */
  onlineTime: z.number().int(),
});

export const activityOut = z.object({
  today: period,
  thisWeek: period,
  thisMonth: period,
  lastLoginTime: zDateTimeOut().nullable(),
  lastAccessTime: zDateTimeOut().nullable(),
  lastOperationTime: zDateTimeOut().nullable(),
  /** Days with activity only (sparse), oldest first, over the last 371 UTC days. */
  trend: z.array(
    z.object({
      date: z.string(),
      accessCount: z.number().int(),
      operationCount: z.number().int(),
      onlineMinutes: z.number().int(),
    }),
  ),
});
