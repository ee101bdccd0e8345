import { createHmac } from 'node:crypto';
import { createSecretBox } from '../credentials/secret-box.js';

/**
 * Second-factor secrets at rest, under the keys that seal API credential secrets
 * (`Security.CredentialKeys`).
 *
 * TOTP secrets must be readable by the server (it computes the codes), so they are sealed like
 * API secrets: AES-256-GCM, the user id bound as additional data, stored as `<keyId>:<sealed>`.
 * A stored value without that form is a plain Base32 secret (accounts imported from the
 * original, which kept them in plain text); it still verifies and is sealed at the next
 * enrolment.
 *
 * Recovery codes are only ever compared, so only a keyed digest is kept: HMAC-SHA256 under a
 * subkey of a credential key, over the user id and the code. A code has 40 random bits, too few
 * to survive an offline search of a plain hash; without the key the digests are worthless.
 * Every configured key is tried when checking, so codes issued before a key rotation keep
 * working while their key stays configured.
 */
export interface TwoFactorSecrets {
  sealTotp(secret: string, userId: bigint): string;
  /** The Base32 secret, or undefined when the key is gone or the value was altered. */
  openTotp(stored: string, userId: bigint): string | undefined;
  /** Whether a stored value is sealed under the current key (false for a plain one). */
  sealedUnderCurrentKey(stored: string): boolean;
  /** The digest a new recovery code is stored as (current key). */
  recoveryDigest(userId: bigint, code: string): string;
  /** The digests a presented code may be stored as (one per configured key). */
  recoveryCandidates(userId: bigint, code: string): string[];
}

const LABEL = 'totp-secret';

export function createTwoFactorSecrets(keys: Record<string, string>, currentKeyId: string): TwoFactorSecrets {
  const box = createSecretBox(keys, currentKeyId, LABEL);
  const subkeys = new Map(
    Object.entries(keys).map(([id, b64]) => [
      id,
      createHmac('sha256', Buffer.from(b64, 'base64')).update('portcullis:recovery-code').digest(),
    ]),
  );
  const digest = (subkey: Buffer, userId: bigint, code: string) =>
    createHmac('sha256', subkey).update(`${userId}\u0000${code}`).digest('base64url');

  return {
    sealTotp(secret, userId) {
      const { ciphertext, keyId } = box.seal(secret, String(userId));
      return `${keyId}:${ciphertext}`;
    },
    openTotp(stored, userId) {
      const colon = stored.lastIndexOf(':');
      // Base32 has no colon: a plain secret from an import.
      if (colon < 0) return stored;
      return box.open(stored.slice(colon + 1), stored.slice(0, colon), String(userId))?.toString('utf8');
    },
    sealedUnderCurrentKey(stored) {
      const colon = stored.lastIndexOf(':');
      return colon >= 0 && stored.slice(0, colon) === currentKeyId;
    },
    recoveryDigest(userId, code) {
      return digest(subkeys.get(currentKeyId)!, userId, code);
    },
    recoveryCandidates(userId, code) {
      return [...subkeys.values()].map((k) => digest(k, userId, code));
    },
  };
}
