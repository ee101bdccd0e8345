import { generateKeyPairSync } from 'node:crypto';
import { sm2 } from 'sm-crypto';
import { describe, expect, it } from 'vitest';
import { parseSm2PublicKey, verifySm2 } from './sm2.js';

/** The server's SM2 check against an independent implementation (sm-crypto, as partners use it). */

const TEXT =
  'POST\n/api/openapi/Echo\na=1&b=%C3%A9\n3a6eb0790f39ac87c94f3856b2dd2c5d110e6811602261a9a923d3bb23adc8b7\n1760000000\nnonce-é';

describe('SM2 signatures', () => {
  it('verifies what sm-crypto signs (Z_A with the default id, SM3), as raw r||s in hex or Base64 and as DER', () => {
    for (let i = 0; i < 5; i++) {
      const { publicKey, privateKey } = sm2.generateKeyPairHex();
      const key = parseSm2PublicKey(publicKey)!;
      expect(key).toBeDefined();
      const raw = sm2.doSignature(TEXT, privateKey, { hash: true });
      const der = sm2.doSignature(TEXT, privateKey, { hash: true, der: true });
      expect(verifySm2(key, TEXT, raw)).toBe(true);
      expect(verifySm2(key, TEXT, raw.toUpperCase())).toBe(true);
      expect(verifySm2(key, TEXT, Buffer.from(raw, 'hex').toString('base64'))).toBe(true);
      expect(verifySm2(key, TEXT, der)).toBe(true);
      // Another text, another key, a changed signature: refused.
      expect(verifySm2(key, `${TEXT}x`, raw)).toBe(false);
      expect(verifySm2(parseSm2PublicKey(sm2.generateKeyPairHex().publicKey)!, TEXT, raw)).toBe(false);
      expect(verifySm2(key, TEXT, `${raw.slice(0, 10)}${raw[10] === '0' ? '1' : '0'}${raw.slice(11)}`)).toBe(false);
    }
  });

  it('reads a PEM SM2 key, and refuses keys off the curve or of another kind, and malformed signatures', () => {
    // The same key as sm-crypto's hex and as PEM (SubjectPublicKeyInfo, id-ecPublicKey on the SM2 curve).
    const { publicKey: hex, privateKey } = sm2.generateKeyPairHex();
    const spki = Buffer.from(`3059301306072a8648ce3d020106082a811ccf5501822d034200${hex}`, 'hex');
    const pem = `-----BEGIN PUBLIC KEY-----\n${spki.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END PUBLIC KEY-----\n`;
    const key = parseSm2PublicKey(pem)!;
    expect(key).toEqual(parseSm2PublicKey(hex));
    expect(verifySm2(key, TEXT, sm2.doSignature(TEXT, privateKey, { hash: true }))).toBe(true);
    expect(
      parseSm2PublicKey(
        generateKeyPairSync('ec', { namedCurve: 'SM2' }).publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      ),
    ).toBeDefined();

    expect(parseSm2PublicKey(hex.slice(2))).toEqual(parseSm2PublicKey(hex)); // without the 04 prefix
    expect(parseSm2PublicKey(`04${'1'.repeat(128)}`)).toBeUndefined(); // not on the curve
    const p256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    expect(parseSm2PublicKey(p256)).toBeUndefined();
    expect(parseSm2PublicKey('not a key')).toBeUndefined();
    for (const bad of ['', 'zz', '00'.repeat(64), 'ff'.repeat(64), '30'.repeat(40)])
      expect(verifySm2(key, TEXT, bad)).toBe(false);
  });
});
