import { parseSm2PublicKey, type Sm2PublicKey } from '../openapi/sm2.js';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import { apiCredentials, users } from '../../../../db/schema/index.js';
import type { Clock } from '../../infra/clock.js';
import type { Database } from '../../infra/db/client.js';
import type { Logger } from '../../infra/logger.js';
import { createInvalidatingCache } from '../../stores/invalidating-cache.js';
import type { EphemeralStore } from '../../stores/store.js';
import { normalizeAlgorithm } from '../openapi/signature.js';
import { createSecretBox, type SecretBox } from './secret-box.js';

/** What the signature check needs to know about an AppKey, cached per node. */
export interface CredentialEntry {
  id: bigint;
  appKey: string;
  ownerUserId: bigint;
  /** Enabled, its owner enabled, active and not deleted, and its secret opened. Expiry is checked per request. */
  usable: boolean;
  /** The secret's UTF-8 bytes (the HMAC key). */
  secret: Buffer | undefined;
  expiresMs: number | null;
  /** Allowed client addresses (`*`, `a.b.*`, exact); null = any. */
  allowList: readonly string[] | null;
  /** The algorithm the credential is pinned to (normalized), or null for the configured default. */
  signatureAlgorithm: string | null;
  publicKey: KeyObject | undefined;
  /** The SM2 public key of a credential pinned to SM2. */
  sm2Key: Sm2PublicKey | undefined;
}

export interface CredentialDirectory {
  /**
   * The credential of an AppKey, or null. Synchronous on a cache hit (every signed request
   * asks). `beforeLoad` runs before a database lookup and may refuse it by throwing (the
   * signature check throttles lookups of keys it has not seen, per client address).
   */
  find(appKey: string, beforeLoad?: () => Promise<void>): CredentialEntry | null | Promise<CredentialEntry | null>;
  /** Seals a new secret for storage. */
  seal(secret: string, appKey: string): { ciphertext: string; keyId: string };
  /**
   * Seals again under the current key every secret sealed under another one (the same secret:
   * partners change nothing), so an old key can then be removed from the configuration. Rows
   * changed meanwhile are left to their writer; a secret that does not open is counted and logged.
   */
  reseal(): Promise<{ resealed: number; unreadable: number }>;
  /** After any change to a credential (rotate, status, delete): every node drops its copy. */
  changed(appKey: string): Promise<void>;
  /** Records the use of a credential, at most once a minute per node and credential, off the request path. */
  touch(entry: CredentialEntry): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const APP_KEY = /^ak_[A-Za-z0-9]{1,61}$/;
const TOUCH_INTERVAL_MS = 60_000;

/** Splits a stored allow-list (`,`, `;`, `|` or whitespace separated). */
export function parseAllowList(text: string | null): string[] | null {
  const items = (text ?? '')
    .split(/[,;|\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : null;
}

/** `*` allows any address, `10.1.*` a prefix, anything else must match exactly (case-insensitive). */
export function addressAllowed(allowList: readonly string[] | null, ip: string): boolean {
  if (!allowList) return true;
  const address = ip.toLowerCase();
  return allowList.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p === '*') return true;
    return p.endsWith('*') ? address.startsWith(p.slice(0, -1)) : address === p;
  });
}

export interface CredentialDirectoryDeps {
  db: Database;
  store: EphemeralStore;
  clock: Clock;
  logger: Logger;
  keys: Record<string, string>;
  currentKeyId: string;
}

/**
 * Credentials by AppKey, through a per-node cache. The cache joins the session cache's
 * invalidation domain (same name, so the same channel): a change to a user announced with
 * `sessionState.invalidateUser` (disabled, deleted, password changed) drops that user's
 * credentials on every node too, and a credential change drops its AppKey everywhere within
 * milliseconds. Entries also expire after 60 s, bounding staleness should a message be lost.
 */
export function createCredentialDirectory(deps: CredentialDirectoryDeps): CredentialDirectory {
  const box: SecretBox = createSecretBox(deps.keys, deps.currentKeyId);
  const cache = createInvalidatingCache<CredentialEntry | null>({
    name: 'session',
    store: deps.store,
    clock: deps.clock,
    logger: deps.logger,
    ttlMs: 60_000,
  });
  const touched = new Map<bigint, number>();

  async function load(appKey: string, tags: string[]): Promise<CredentialEntry | null> {
    const [row] = await deps.db
      .select({ c: apiCredentials, userStatus: users.status, userActive: users.isActive, userDeleted: users.isDeleted })
      .from(apiCredentials)
      .innerJoin(users, eq(users.id, apiCredentials.userId))
      .where(eq(apiCredentials.appKey, appKey));
    if (!row) return null;
    const { c } = row;
    tags.push(`user:${c.userId}`);
    const secret = box.open(c.secretCiphertext, c.secretKeyId, c.appKey);
    // Never the secret or its ciphertext: only that it did not open.
    if (!secret)
      deps.logger.error('api credential secret does not decrypt (key missing or data altered)', {
        credentialId: String(c.id),
        keyId: c.secretKeyId,
      });
    let publicKey: KeyObject | undefined;
    let sm2Key: Sm2PublicKey | undefined;
    const algorithm = c.signatureAlgorithm ? normalizeAlgorithm(c.signatureAlgorithm) : null;
    if (c.publicKey && algorithm === 'SM2') {
      sm2Key = parseSm2PublicKey(c.publicKey);
      if (!sm2Key) deps.logger.warn('api credential SM2 public key does not parse', { credentialId: String(c.id) });
    } else if (c.publicKey) {
      try {
        publicKey = createPublicKey(c.publicKey);
      } catch {
        deps.logger.warn('api credential public key does not parse', { credentialId: String(c.id) });
      }
    }
    return {
      id: c.id,
      appKey: c.appKey,
      ownerUserId: c.userId,
      usable: c.status === 'Enabled' && row.userStatus === 'Enabled' && row.userActive && !row.userDeleted && !!secret,
      secret,
      expiresMs: c.expirationTime?.getTime() ?? null,
      allowList: parseAllowList(c.ipWhitelist),
      signatureAlgorithm: algorithm,
      publicKey,
      sm2Key,
    };
  }

  return {
    find(appKey, beforeLoad) {
      if (!APP_KEY.test(appKey)) return null;
      const tags = [`apikey:${appKey}`];
      return cache.get(
        appKey,
        tags,
        async () => {
          await beforeLoad?.();
          return load(appKey, tags);
        },
        // Unknown keys are not kept: a flood of made-up keys would push real credentials out of
        // the cache. Their lookups are throttled instead (beforeLoad).
        (entry) => entry !== null,
      );
    },
    seal: (secret, appKey) => box.seal(secret, appKey),
    async reseal() {
      const rows = await deps.db
        .select({
          id: apiCredentials.id,
          appKey: apiCredentials.appKey,
          ciphertext: apiCredentials.secretCiphertext,
          keyId: apiCredentials.secretKeyId,
        })
        .from(apiCredentials)
        .where(ne(apiCredentials.secretKeyId, box.currentKeyId));
      let resealed = 0;
      let unreadable = 0;
      for (const row of rows) {
        const secret = box.open(row.ciphertext, row.keyId, row.appKey);
        if (!secret) {
          unreadable++;
          deps.logger.error('api credential secret does not decrypt; not re-sealed', {
            credentialId: String(row.id),
            keyId: row.keyId,
          });
          continue;
        }
        const sealed = box.seal(secret.toString('utf8'), row.appKey);
        // Only the ciphertext read: a rotation meanwhile has sealed its new secret already.
        const updated = await deps.db
          .update(apiCredentials)
          .set({ secretCiphertext: sealed.ciphertext, secretKeyId: sealed.keyId })
          .where(and(eq(apiCredentials.id, row.id), eq(apiCredentials.secretCiphertext, row.ciphertext)))
          .returning({ id: apiCredentials.id });
        resealed += updated.length;
      }
      return { resealed, unreadable };
    },
    changed: (appKey) => cache.invalidate(`apikey:${appKey}`),
    touch(entry) {
      const now = deps.clock.nowMs();
      if (now - (touched.get(entry.id) ?? 0) < TOUCH_INTERVAL_MS) return;
      touched.set(entry.id, now);
      if (touched.size > 10_000) touched.delete(touched.keys().next().value!);
      deps.db
        .update(apiCredentials)
        .set({ lastUsedTime: new Date(now) })
        .where(eq(apiCredentials.id, entry.id))
        .then(
          () => undefined,
          (error: unknown) =>
            deps.logger.warn('could not record api credential use', { credentialId: String(entry.id), error }),
        );
    },
    start: () => cache.start(),
    stop: () => cache.stop(),
  };
}
