import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { auditColumns, id, instant, pk, versionColumn } from './columns.js';
import { users } from './user.js';

/**
 * A server-to-server credential. The server must compute HMACs with the secret, so it is stored
 * encrypted at rest (AES-256-GCM under a configured key, `secretKeyId` naming the key so keys can
 * be rotated), never in plain text and never returned after create or rotate. At most 5 per user.
 */
export const apiCredentials = pgTable(
  'api_credentials',
  {
    id: pk(),
    userId: id()
      .notNull()
      .references(() => users.id),
    tenantId: id().notNull().default(sql`0`),
    credentialName: varchar({ length: 100 }),
    appKey: varchar({ length: 64 }).notNull(),
    secretCiphertext: text().notNull(),
    secretKeyId: varchar({ length: 32 }).notNull(),
    signatureAlgorithm: varchar({ length: 16 }),
    /** PEM public key for RSASHA256 signatures. */
    publicKey: text(),
    /** Allowed client addresses (`*`, `a.b.*`, exact), empty = any. */
    ipWhitelist: text(),
    status: varchar({ length: 16 }).notNull().default('Enabled'),
    expirationTime: instant(),
    lastUsedTime: instant(),
    ...auditColumns(),
    ...versionColumn(),
  },
  (t) => [uniqueIndex('api_credentials_app_key_uq').on(t.appKey), index('api_credentials_user_idx').on(t.userId)],
);
