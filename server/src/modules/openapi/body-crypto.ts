import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * The original's AES body encryption (the original service): AES-CBC with PKCS#7 padding. The key
 * is the UTF-8 of the credential's secret, used as is when it is 16, 24 or 32 bytes long and
 * otherwise its SHA-256 (so an `sk_` secret gives AES-256). The IV is `X-Encrypt-Iv`, else the
 * body's `iv`, else the first 16 bytes of SHA-256(X-Nonce). A request body is either
 * `{"alg":"AES-CBC","data":"<base64>","iv":"<base64>"}` or the bare Base64 ciphertext.
 */

export type EncryptAlgorithm = 'NONE' | 'AES-CBC';

/** `X-Encrypt-Algorithm` values: NONE, or AES / AES-CBC in any case and spelling. */
export function parseEncryptAlgorithm(name: string): EncryptAlgorithm | undefined {
  const n = name.replace(/[-_\s]/g, '').toUpperCase();
  if (n === 'NONE') return 'NONE';
  if (n === 'AES' || n === 'AESCBC') return 'AES-CBC';
  return undefined;
}

export function aesKey(secret: Uint8Array): Buffer {
  const bytes = Buffer.from(secret);
  return bytes.length === 16 || bytes.length === 24 || bytes.length === 32
    ? bytes
    : createHash('sha256').update(bytes).digest();
}

export function nonceIv(nonce: string): Buffer {
  return createHash('sha256').update(nonce, 'utf8').digest().subarray(0, 16);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function strictBase64(text: string): Buffer {
  if (!BASE64.test(text)) throw new Error('not Base64');
  return Buffer.from(text, 'base64');
}

/** Decrypts a request body; throws on any malformation (the caller answers 400). */
export function decryptBody(body: Uint8Array, key: Buffer, ivHeader: string | undefined, nonce: string): Buffer {
  const text = Buffer.from(body).toString('utf8').trim();
  let data: string;
  let bodyIv: string | undefined;
  if (text.startsWith('{')) {
    const parsed = JSON.parse(text) as { data?: unknown; iv?: unknown };
    if (typeof parsed.data !== 'string') throw new Error('no data');
    data = parsed.data;
    bodyIv = typeof parsed.iv === 'string' && parsed.iv ? parsed.iv : undefined;
  } else {
    data = text;
  }
  const ivText = ivHeader || bodyIv;
  const iv = ivText ? strictBase64(ivText) : nonceIv(nonce);
  if (iv.length !== 16) throw new Error('IV must be 16 bytes');
  const decipher = createDecipheriv(`aes-${key.length * 8}-cbc`, key, iv);
  return Buffer.concat([decipher.update(strictBase64(data)), decipher.final()]);
}

/** Encrypts a response body under a fresh IV. */
export function encryptBody(plain: Uint8Array, key: Buffer): { data: string; iv: string } {
  const iv = randomBytes(16);
  const cipher = createCipheriv(`aes-${key.length * 8}-cbc`, key, iv);
  return { data: Buffer.concat([cipher.update(plain), cipher.final()]).toString('base64'), iv: iv.toString('base64') };
}
