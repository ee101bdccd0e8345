import { z } from 'zod';
import { defineEnum } from '../../rpc/wire.js';

/**
 * Shapes of UserSetting/Save and UserSettingQuery/Get (the original's UserSettingSaveDto and
 * UserSettingDto). The value is opaque text (the front end stores JSON in it), size-limited.
 */

export const UserSettingScene = defineEnum('UserSettingScene', { Preference: 0, Page: 1 });

/** Longest value kept for one scene and key (characters). */
export const SETTING_VALUE_MAX = 65_536;
/** Most settings one user may keep (every scene together). */
export const SETTINGS_PER_USER_MAX = 500;

const settingKey = z.string().trim().min(1).max(128);

export const saveSettingRequest = z.object({
  /** Preference when absent (the original's default). */
  scene: UserSettingScene.schema()
    .optional()
    .transform((v) => v ?? 'Preference'),
  settingKey,
  settingValue: z
    .string()
    .max(SETTING_VALUE_MAX)
    .nullish()
    .transform((v) => v ?? null),
  /** The saving client's id, handed back in the push so that it can ignore its own change. */
  clientId: z.string().max(128).nullish(),
  /** Where the change was made (a page or component name), handed back in the push. */
  origin: z.string().max(256).nullish(),
});

export const getSettingRequest = z.object({
  scene: UserSettingScene.schema()
    .optional()
    .transform((v) => v ?? 'Preference'),
  settingKey,
});

export const settingOut = z.object({
  scene: UserSettingScene.out(),
  settingKey: z.string(),
  settingValue: z.string().nullable(),
});
