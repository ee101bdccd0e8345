import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config/load.js';
import { ManualClock } from '../../../infra/clock.js';
import { createTokenService, hashRefreshToken } from './tokens.js';

/** What the refresh-token reuse grace needs of the token service: the same pair, rebuilt. */

const clock = new ManualClock(Date.UTC(2026, 5, 1, 8, 30, 15, 789));
const jwtConfig = (secret: string) => loadConfig({}, { Jwt: { SecretKey: secret } }).Jwt;
const tokens = createTokenService(jwtConfig('Zk4mQ9vT2xW7nB1cR5yH8jL3fP6dS0aG'), clock);
const subject = { userId: 42n, userName: 'ada', email: 'ada@example.test', phone: null, avatar: null };

describe('reuse grace tokens', () => {
  it('rebuilds an access token from its claims: the same token, the same LoginToken', () => {
    const issued = tokens.issueAccess({
      subject,
      sessionId: 7n,
      tenantId: 3n,
      deviceFingerprint: 'dev',
      roles: ['admin', 'ops'],
      isSuperAdmin: false,
    });
    clock.advance(4_000);
    const again = tokens.reissueAccess(issued.claimsJson);
    expect(again.token).toBe(issued.token);
    expect(again.jti).toBe(issued.jti);
    expect(JSON.stringify(tokens.loginToken(again, 'r'))).toBe(JSON.stringify(tokens.loginToken(issued, 'r')));
  });

  it('derives a rotation refresh token from the presented one and the new JTI, under the JWT secret', () => {
    const successor = tokens.successorRefreshToken('presented-token', 'jti-1');
    expect(successor).toEqual(tokens.successorRefreshToken('presented-token', 'jti-1'));
    expect(successor.hash).toBe(hashRefreshToken(successor.token));
    expect(successor.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.successorRefreshToken('presented-token', 'jti-2').token).not.toBe(successor.token);
    expect(tokens.successorRefreshToken('presented-tokem', 'jti-1').token).not.toBe(successor.token);
    const otherService = createTokenService(jwtConfig('Xb7nR2kW9qT4mV1cZ6yJ3hL8fP5dS0aE'), clock);
    expect(otherService.successorRefreshToken('presented-token', 'jti-1').token).not.toBe(successor.token);
  });

  it('has the configured grace in milliseconds', () => {
    expect(tokens.refreshReuseGraceMs).toBe(10_000);
    expect(
      createTokenService(
        loadConfig({}, { Jwt: { SecretKey: 'Zk4mQ9vT2xW7nB1cR5yH8jL3fP6dS0aG', RefreshReuseGraceSeconds: 0 } }).Jwt,
        clock,
      ).refreshReuseGraceMs,
    ).toBe(0);
  });
});
