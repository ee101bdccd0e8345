import { and, count, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { userSettings } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors/app-error.js';
import type { CallContext } from '../../rpc/call-context.js';
import { actorOf, auditChange } from '../audit/change.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { profileSelfErrors } from '../profile/self-service-errors.js';
import {
  SETTINGS_PER_USER_MAX,
  UserSettingScene,
  type getSettingRequest,
  type saveSettingRequest,
  type settingOut,
} from './schemas.js';
import type { NotificationHub } from '../hubs/notification-hub.js';

/**
 * UI preferences per scene and key (SPEC "Profile endpoints": the service does not interpret the
 * value and broadcasts a change to the user's other devices). A save is pushed on the
 * notification hub as UserSettingChanged `{scene, settingKey, settingValue, sourceClientId,
 * origin}` (scene as its number, like the original) to every connection of the user on every
 * node; the saving tab recognises its own change by `sourceClientId`, as the original front end
 * does. A failed push is logged, never an error: the value is saved. Saves are audited as
 * UserSettingSaved with the scene and key (not the value).
 */

type Ctx = CallContext & { auth: AuthContext };
export type UserSettingDeps = Pick<AppDeps, 'db' | 'clock' | 'ids' | 'logger'> & { notificationHub: NotificationHub };

export function createUserSettings(deps: UserSettingDeps) {
  const { db, clock, logger } = deps;

  return {
    async get(userId: bigint, input: z.infer<typeof getSettingRequest>): Promise<z.infer<typeof settingOut>> {
      const [row] = await db
        .select({ value: userSettings.settingValue })
        .from(userSettings)
        .where(
          and(
            eq(userSettings.userId, userId),
            eq(userSettings.scene, input.scene),
            eq(userSettings.settingKey, input.settingKey),
          ),
        );
      return { scene: input.scene, settingKey: input.settingKey, settingValue: row?.value ?? null };
    },

    async save(ctx: Ctx, input: z.infer<typeof saveSettingRequest>): Promise<z.infer<typeof settingOut>> {
      const userId = ctx.auth.userId;
      const { scene, settingKey, settingValue } = input;
      await db.transaction(async (tx) => {
        // One user's saves in turn, so that the cap on the number of settings holds under concurrency.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`user-settings:${userId}`}, 0))`);
        const at = clock.now();
        const [updated] = await tx
          .update(userSettings)
          .set({ settingValue, modifiedTime: at })
          .where(
            and(
              eq(userSettings.userId, userId),
              eq(userSettings.scene, scene),
              eq(userSettings.settingKey, settingKey),
            ),
          )
          .returning({ key: userSettings.settingKey });
        if (!updated) {
          const [{ n } = { n: 0 }] = await tx
            .select({ n: count() })
            .from(userSettings)
            .where(eq(userSettings.userId, userId));
          if (Number(n) >= SETTINGS_PER_USER_MAX)
            throw appError(profileSelfErrors.TOO_MANY_SETTINGS, { params: { limit: SETTINGS_PER_USER_MAX } });
          await tx.insert(userSettings).values({ userId, scene, settingKey, settingValue, modifiedTime: at });
        }
        await auditChange(
          tx,
          deps,
          actorOf(ctx),
          'UserSettingSaved',
          { type: 'User', id: userId, userId },
          { scene, settingKey },
        );
      });
      try {
        await deps.notificationHub.pushToUser(userId, 'UserSettingChanged', [
          {
            scene: UserSettingScene.valueOf(scene),
            settingKey,
            settingValue,
            sourceClientId: input.clientId ?? null,
            origin: input.origin ?? null,
          },
        ]);
      } catch (error) {
        logger.warn('user setting push failed', { userId: String(userId), error });
      }
      return { scene, settingKey, settingValue };
    },
  };
}
