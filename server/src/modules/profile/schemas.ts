import { z } from 'zod';
import { zDateTimeOut, zId, zIdOut } from '../../rpc/wire.js';
import { zDeviceTypeOut } from '../user-session/device-type.js';

/** Shapes of the profile's session and account operations (the original service names). */

export const ownSession = z.object({
  sessionId: zIdOut(),
  deviceName: z.string().nullable(),
  /** The original's DeviceType number (an int field there, not a name). */
  deviceType: zDeviceTypeOut(),
  browser: z.string().nullable(),
  operatingSystem: z.string().nullable(),
  ipAddress: z.string().nullable(),
  location: z.string().nullable(),
  loginTime: zDateTimeOut(),
  lastActivityTime: zDateTimeOut(),
  /** The session this request was made with. */
  isCurrent: z.boolean(),
});

export const revokeSessionRequest = z.object({ sessionId: zId() });

export const revokedCount = z.object({ revokedCount: z.number().int() });

// Bounded like ChangePassword's: argon2 would hash a megabyte as readily, at the pool's expense.
export const passwordConfirmation = z.object({ password: z.string().min(1).max(1024) });
