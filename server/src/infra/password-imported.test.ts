import { hash as argon2Hash } from '@node-rs/argon2';
import bcryptjs from 'bcryptjs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseImportedHash } from './password-imported.js';
import { createPasswordHasher } from './password.js';

const hasher = createPasswordHasher({ concurrency: 1 });
afterAll(() => hasher.close());
const verifyPassword = (stored: string, password: string) => hasher.verify(stored, password);

/**
 * Hashes written by other implementations than the verifier's: Python's hashlib (scrypt,
 * PBKDF2), bcryptjs and OpenBSD's published bcrypt vector, the argon2 binding in argon2i mode.
 */
const PASSWORD = 'Correct horse 1!';
const PYTHON = {
  scrypt: '$scrypt$ln=14,r=8,p=1$cG9ydGN1bGxpcy1zYWx0LTE$2UulqYQ/hds5XmY2TmKhUbCr8M0RTPATZj6bvHgSr1s',
  kratosPbkdf2: '$pbkdf2-sha256$i=100000,l=32$cG9ydGN1bGxpcy1zYWx0LTE$9rUoN44WVw2MKeYxq/MYAoVkKGXkiTHds2pMw5GLQFQ',
  passlibPbkdf2:
    '$pbkdf2-sha512$25000$cG9ydGN1bGxpcy1zYWx0LTE$YUDzh2KagHUYAsYwYwMHw7OnBlNbs2wL8v2aRey6iPZTgBx.N51r.bcRJju/nS15pHmCkxJRUNyUdbdIRRulMQ',
};

describe('imported password hashes', () => {
  for (const [format, stored] of Object.entries(PYTHON)) {
    it(`${format}: the password verifies and asks for a rehash; another does not`, async () => {
      expect(await verifyPassword(stored, PASSWORD)).toEqual({ ok: true, needsRehash: true });
      expect(await verifyPassword(stored, 'Correct horse 2!')).toEqual({ ok: false, needsRehash: false });
    });
  }

  it('bcrypt as bcryptjs writes it ($2a$, $2b$) and as PHP writes it ($2y$)', async () => {
    const written = await bcryptjs.hash(PASSWORD, 6);
    for (const stored of [written, written.replace(/^\$2[ab]\$/, '$2b$'), written.replace(/^\$2[ab]\$/, '$2y$')]) {
      expect(await verifyPassword(stored, PASSWORD)).toEqual({ ok: true, needsRehash: true });
      expect((await verifyPassword(stored, 'wrong')).ok).toBe(false);
    }
  });

  it("bcrypt: OpenBSD's published vector", async () => {
    expect((await verifyPassword('$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW', 'U*U')).ok).toBe(true);
  });

  it('argon2i verifies and is upgraded to argon2id', async () => {
    const stored = await argon2Hash(PASSWORD, { algorithm: 1, memoryCost: 4096, timeCost: 3 });
    expect(stored).toMatch(/^\$argon2i\$/);
    expect(await verifyPassword(stored, PASSWORD)).toEqual({ ok: true, needsRehash: true });
  });

  it('refuses malformed and dangerous parameters as mismatches, never errors', async () => {
    const refused = [
      '$scrypt$ln=30,r=8,p=1$cG9ydGN1bGxpcy1zYWx0LTE$2UulqYQ/hds5XmY2TmKhUbCr8M0RTPATZj6bvHgSr1s', // gigabytes of memory
      '$scrypt$ln=14,r=8,p=1$c!!$2UulqYQ/hds5XmY2TmKhUbCr8M0RTPATZj6bvHgSr1s',
      '$pbkdf2-sha256$i=999999999,l=32$cG9ydGN1bGxpcy1zYWx0LTE$9rUoN44WVw2MKeYxq/MYAoVkKGXkiTHds2pMw5GLQFQ',
      '$pbkdf2-sha256$i=100000,l=16$cG9ydGN1bGxpcy1zYWx0LTE$9rUoN44WVw2MKeYxq/MYAoVkKGXkiTHds2pMw5GLQFQ',
      '$pbkdf2-md4$1000$cG9ydGN1bGxpcy1zYWx0LTE$9rUoN44WVw2MKeYxq/MYAoVkKGXkiTHds2pMw5GLQFQ',
      '$2a$31$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW', // a cost of hours
      '$2a$05$short',
      `$scrypt$ln=14,r=8,p=1$${'A'.repeat(2000)}$x`,
    ];
    for (const stored of refused) {
      expect(parseImportedHash(stored), stored).toBeNull();
      expect(await verifyPassword(stored, PASSWORD)).toEqual({ ok: false, needsRehash: false });
    }
  });
});
