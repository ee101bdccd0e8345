import { authedProcedure, router } from '../../rpc/trpc.js';
import {
  getSettingRequest,
  saveSettingRequest,
  SETTING_VALUE_MAX,
  SETTINGS_PER_USER_MAX,
  settingOut,
} from './schemas.js';

/** /api/UserSetting: saves a UI preference of the caller. */
export const userSettingRouter = router({
  SaveAsync: authedProcedure
    .meta({
      summary: 'Saves a UI preference per scene (Preference | Page) and key; the value is opaque text',
      description: `settingKey 1 to 128 characters; settingValue at most ${SETTING_VALUE_MAX} characters (null clears it); at most ${SETTINGS_PER_USER_MAX} settings per user (422). Pushed as UserSettingChanged {scene (number), settingKey, settingValue, sourceClientId, origin} to every hub connection of the user, on every node. Audited as UserSettingSaved (scene and key).`,
    })
    .input(saveSettingRequest)
    .output(settingOut)
    .mutation(({ ctx, input }) => ctx.services.userSettings.save(ctx, input)),
});

/** /api/UserSettingQuery: reads a UI preference of the caller. */
export const userSettingQueryRouter = router({
  GetAsync: authedProcedure
    .meta({
      method: 'GET',
      action: 'Get',
      summary: 'One UI preference (`?scene=&settingKey=`); settingValue null when never saved',
    })
    .input(getSettingRequest)
    .output(settingOut)
    .query(({ ctx, input }) => ctx.services.userSettings.get(ctx.auth.userId, input)),
});
