import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of API credential secrets. The server must compute HMACs with a secret, so
 * a hash cannot serve (unlike passwords): each secret is sealed with AES-256-GCM under a key from
 * the configuration (`Security.CredentialKeys`), with a fresh 96-bit IV, and the row's AppKey as
 * additional data, so a ciphertext copied onto another row does not open. The row keeps the key
 * id, so keys can be rotated: new secrets use the current key, old ones still open while their
 * key stays configured.
 */
export interface SecretBox {
  /** Id of the key new secrets are sealed under. */
  readonly currentKeyId: string;
  seal(secret: string, appKey: string): { ciphertext: string; keyId: string };
  /** The secret's UTF-8 bytes, or undefined when the key is gone or the text was tampered with. */
  open(ciphertext: string, keyId: string, appKey: string): Buffer | undefined;
}

const VERSION = 'v1';

/**
 * `label` names what the box seals and is bound into the additional data with the context value
 * (the AppKey for API secrets), so a ciphertext of one kind never opens as another.
 */
export function createSecretBox(
  keys: Record<string, string>,
  currentKeyId: string,
  label = 'api-credential',
): SecretBox {
  const material = new Map(Object.entries(keys).map(([id, b64]) => [id, Buffer.from(b64, 'base64')]));
  for (const [id, key] of material) if (key.length !== 32) throw new Error(`credential key ${id} is not 32 bytes`);
  const current = material.get(currentKeyId);
  if (!current) throw new Error(`credential key ${currentKeyId} is not configured`);
  const aad = (appKey: string) => Buffer.from(`${label}:${appKey}`, 'utf8');

  return {
    currentKeyId,
    seal(secret, appKey) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      cipher.setAAD(aad(appKey));
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return {
        ciphertext: `${VERSION}.${Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64')}`,
        keyId: currentKeyId,
      };
    },
    open(ciphertext, keyId, appKey) {
      const key = material.get(keyId.toLowerCase());
      if (!key || !ciphertext.startsWith(`${VERSION}.`)) return undefined;
      const bytes = Buffer.from(ciphertext.slice(VERSION.length + 1), 'base64');
      if (bytes.length < 12 + 16) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
        decipher.setAAD(aad(appKey));
        decipher.setAuthTag(bytes.subarray(bytes.length - 16));
        return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
      } catch {
        return undefined;
      }
    },
  };
}
