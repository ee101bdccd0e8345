import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoveryCodes, userSecurity } from '../../../../db/schema/index.js';
import { createTestUser } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { recoveryCodesRemaining, spendRecoveryCode } from './recovery-codes.js';
import { startSessionServer } from './session/sessions-test-kit.js';
import { generateTotpSecret, totpCode } from './two-factor/totp.js';
import { resealTotpSecrets } from './totp-reseal.js';
import { createTwoFactorSecrets } from './two-factor-secrets.js';
import { TwoFactorFlags } from './two-factor/two-factor.js';

/** Second-factor secrets across a key rotation (two keys configured, k2026 current). */
const RETIRED_KEY = randomBytes(32).toString('base64');
const CURRENT_KEY = randomBytes(32).toString('base64');
const retired = createTwoFactorSecrets({ k2025: RETIRED_KEY }, 'k2025');
let server: TestServer;
beforeAll(async () => {
  server = await startSessionServer({
    config: { Security: { CredentialKeys: { k2025: RETIRED_KEY, k2026: CURRENT_KEY }, CredentialKeyId: 'k2026' } },
  });
});
afterAll(() => server.close());
const deps = () => server.runtime.deps;
const storedOf = async (userId: bigint) =>
  (
    await deps()
      .db.select({ s: userSecurity.twoFactorSecret })
      .from(userSecurity)
      .where(eq(userSecurity.userId, userId))
  )[0]!.s!;

describe('TOTP secrets and recovery codes across a key rotation', () => {
  it('re-seals secrets of a retired key and plain ones under the current key; leaves unreadable ones; a second run does nothing', async () => {
    const secret = generateTotpSecret();
    const old = await createTestUser(deps(), { twoFactorMethod: TwoFactorFlags.Totp });
    await deps()
      .db.update(userSecurity)
      .set({ twoFactorSecret: retired.sealTotp(secret, old.id) })
      .where(eq(userSecurity.userId, old.id));
    const plain = await createTestUser(deps(), { twoFactorMethod: TwoFactorFlags.Totp, twoFactorSecret: secret });
    const lost = await createTestUser(deps(), { twoFactorMethod: TwoFactorFlags.Totp });
    const lostValue = `lost:${retired.sealTotp(secret, lost.id).split(':')[1]}`;
    await deps().db.update(userSecurity).set({ twoFactorSecret: lostValue }).where(eq(userSecurity.userId, lost.id));

    // Before: the retired key still opens its secret, so the login works.
    const first = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: { username: old.email, password: old.password },
    });
    const ok = await server.json('/api/Auth/Login', {
      method: 'POST',
      json: {
        username: old.email,
        password: old.password,
        twoFactorMethod: 'totp',
        twoFactorCode: totpCode(secret, Date.now()),
        twoFactorTicket: first.body.data.twoFactorTicket,
      },
    });
    expect(ok.status).toBe(200);

    const result = await resealTotpSecrets(deps());
    expect(result.resealed).toBeGreaterThanOrEqual(2);
    expect(result.unreadable).toBeGreaterThanOrEqual(1);
    const current = createTwoFactorSecrets({ k2026: CURRENT_KEY }, 'k2026');
    for (const user of [old, plain]) {
      const stored = await storedOf(user.id);
      expect(stored.startsWith('k2026:')).toBe(true);
      expect(current.openTotp(stored, user.id)).toBe(secret);
    }
    expect(await storedOf(lost.id)).toBe(lostValue);
    expect((await resealTotpSecrets(deps())).resealed).toBe(0);
  });

  it('accepts a recovery code stored under a retired key while that key stays configured', async () => {
    const user = await createTestUser(deps(), { twoFactorMethod: TwoFactorFlags.Email });
    await deps()
      .db.insert(recoveryCodes)
      .values({ id: deps().ids.next(), userId: user.id, codeDigest: retired.recoveryDigest(user.id, 'ABCD-EFGH') });
    expect(await recoveryCodesRemaining(deps().db, user.id)).toBe(1);
    expect(await spendRecoveryCode(deps().db, deps(), user.id, 'abcd efgh')).toBe(true);
    expect(await spendRecoveryCode(deps().db, deps(), user.id, 'ABCD-EFGH')).toBe(false);
    expect(await recoveryCodesRemaining(deps().db, user.id)).toBe(0);
  });
});
