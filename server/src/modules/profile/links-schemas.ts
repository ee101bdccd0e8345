import { z } from 'zod';
import { zBool, zDateTimeOut } from '../../rpc/wire.js';

/** Shapes of LinkedAccounts, UnlinkAccount and NotificationPreference (the original service). */

export const linkedAccount = z.object({
  provider: z.string(),
  providerDisplayName: z.string().nullable(),
  email: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  lastLoginTime: zDateTimeOut().nullable(),
});

export const unlinkRequest = z.object({ provider: z.string().trim().min(1).max(64) });

/** The switches and the original's defaults: in-app, e-mail, push on; SMS, bot off; every type on but marketing. */
export const PREFERENCE_DEFAULTS = {
  channelInApp: true,
  channelEmail: true,
  channelSms: false,
  channelPush: true,
  channelBot: false,
  typeAnnouncement: true,
  typeTask: true,
  typeApproval: true,
  typeSecurity: true,
  typeMarketing: false,
} as const;

export type PreferenceKey = keyof typeof PREFERENCE_DEFAULTS;
export const PREFERENCE_KEYS = Object.keys(PREFERENCE_DEFAULTS) as PreferenceKey[];

export const notificationPreference = z.object(
  Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, z.boolean()])) as Record<PreferenceKey, z.ZodBoolean>,
);

/** Every switch optional: an absent one keeps its value. */
export const updateNotificationPreference = z.object(
  Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, zBool().optional()])) as Record<
    PreferenceKey,
    z.ZodOptional<ReturnType<typeof zBool>>
  >,
);
