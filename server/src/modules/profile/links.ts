import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { externalLogins, notificationPreferences, users } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { appError } from '../../errors/app-error.js';
import type { CallContext } from '../../rpc/call-context.js';
import { actorOf, auditChange } from '../audit/change.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import {
  PREFERENCE_DEFAULTS,
  PREFERENCE_KEYS,
  type linkedAccount,
  type notificationPreference,
  type updateNotificationPreference,
} from './links-schemas.js';
import { profileSelfErrors } from './self-service-errors.js';

/**
 * GET /api/Profile/LinkedAccounts, POST /api/Profile/UnlinkAccount and GET/PUT
 * /api/Profile/NotificationPreference.
 *
 * Unlinking is refused when it would leave no way to sign in (SPEC): it is allowed while another
 * external account stays linked, or the account has a real e-mail address (not the placeholder
 * of accounts an external login created, whose random password nobody knows: a real address can
 * reset the password or sign in by code), or a verified phone while phone login is on. Writers
 * of one user's links are serialized, so two unlinks racing cannot both pass the check.
 */

type Ctx = CallContext & { auth: AuthContext };
export type LinkDeps = Pick<AppDeps, 'db' | 'clock' | 'ids' | 'config'>;

export function createLinks(deps: LinkDeps) {
  const { db, clock } = deps;

  async function preference(userId: bigint): Promise<z.infer<typeof notificationPreference>> {
    const [row] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
    return Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, row ? row[k] : PREFERENCE_DEFAULTS[k]])) as z.infer<
      typeof notificationPreference
    >;
  }

  return {
    async linked(userId: bigint): Promise<Array<z.infer<typeof linkedAccount>>> {
      const rows = await db
        .select()
        .from(externalLogins)
        .where(eq(externalLogins.userId, userId))
        .orderBy(externalLogins.provider, externalLogins.id);
      return rows.map((r) => ({
        provider: r.provider,
        providerDisplayName: r.providerDisplayName,
        email: r.email,
        avatarUrl: r.avatarUrl,
        lastLoginTime: r.lastLoginTime,
      }));
    },

    async unlink(ctx: Ctx, provider: string): Promise<void> {
      const userId = ctx.auth.userId;
      const name = provider.toLowerCase();
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`profile-links:${userId}`}, 0))`);
        const links = await tx
          .select({ id: externalLogins.id, provider: externalLogins.provider })
          .from(externalLogins)
          .where(eq(externalLogins.userId, userId));
        const link = links.find((l) => l.provider.toLowerCase() === name);
        if (!link) throw appError(profileSelfErrors.LINK_NOT_FOUND);
        if (!links.some((l) => l.id !== link.id)) {
          const [user] = await tx
            .select({ email: users.email, phone: users.phone, phoneVerified: users.phoneVerified })
            .from(users)
            .where(eq(users.id, userId));
          const placeholder = `@${deps.config.OAuth.PlaceholderEmailDomain}`.toLowerCase();
          const realEmail = !!user?.email && !user.email.toLowerCase().endsWith(placeholder);
          const phone = !!user?.phone && user.phoneVerified && deps.config.Saas.Auth.PhoneCodeLoginEnabled;
          if (!realEmail && !phone) throw appError(profileSelfErrors.LAST_LOGIN_METHOD);
        }
        await tx.delete(externalLogins).where(and(eq(externalLogins.id, link.id), eq(externalLogins.userId, userId)));
        await auditChange(
          tx,
          deps,
          actorOf(ctx),
          'ExternalLoginUnlinked',
          { type: 'User', id: userId, userId },
          { provider: link.provider },
        );
      });
    },

    preference,

    async updatePreference(
      ctx: Ctx,
      input: z.infer<typeof updateNotificationPreference>,
    ): Promise<z.infer<typeof notificationPreference>> {
      const userId = ctx.auth.userId;
      const given = Object.fromEntries(
        PREFERENCE_KEYS.filter((k) => input[k] !== undefined).map((k) => [k, input[k] as boolean]),
      ) as Partial<Record<(typeof PREFERENCE_KEYS)[number], boolean>>;
      await db.transaction(async (tx) => {
        const before = await tx
          .select()
          .from(notificationPreferences)
          .where(eq(notificationPreferences.userId, userId))
          .for('update');
        const was = before[0] ?? PREFERENCE_DEFAULTS;
        const changed = PREFERENCE_KEYS.filter((k) => given[k] !== undefined && given[k] !== was[k]);
        const at = clock.now();
        await tx
          .insert(notificationPreferences)
          .values({ userId, ...given, modifiedTime: at })
          .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...given, modifiedTime: at } });
        if (changed.length > 0) {
          await auditChange(
            tx,
            deps,
            actorOf(ctx),
            'NotificationPreferenceChanged',
            { type: 'User', id: userId, userId },
            Object.fromEntries(changed.map((k) => [k, given[k]])),
          );
        }
      });
      return preference(userId);
    },
  };
}
