import { pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { id, instant, pk } from './columns.js';
import { users } from './user.js';

/**
 * Second-factor recovery codes: one-use codes a user keeps for the day no other factor is at
 * hand. Only a keyed digest is stored (server/src/modules/auth/two-factor-secrets.ts); a used
 * code keeps its row with `usedTime` set, so the count of codes left is a count of unused rows.
 * A new set replaces the whole old one.
 */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: pk(),
    userId: id()
      .notNull()
      .references(() => users.id),
    codeDigest: varchar({ length: 64 }).notNull(),
    createdTime: instant().notNull().defaultNow(),
    usedTime: instant(),
  },
  (t) => [uniqueIndex('recovery_codes_user_digest_uq').on(t.userId, t.codeDigest)],
);
