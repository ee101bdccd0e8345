import type { LoginResultName, RequestFacts } from '../login-log/write.js';

export type { RequestFacts };

/** Domain events of authentication and sessions (SPEC "Events"). */
export interface AuthEvents {
  /** A successful login (any method). */
  AuthLoginSucceeded: {
    userId: bigint;
    userName: string;
    tenantId: bigint;
    sessionId: bigint;
    method: string;
    request: RequestFacts;
  };
  /**
   * Any failed login or authentication attempt, including a failed second factor. `recorded`:
   * its login-log row is already written (by the statement that counted the failure).
   */
  AuthLoginFailed: {
    userId: bigint | null;
    userName: string;
    tenantId: bigint;
    method: string;
    result: LoginResultName;
    message: string;
    request: RequestFacts;
    recorded?: boolean;
  };
  /** A second factor is now required (first stage of a login). */
  AuthTwoFactorRequired: { userId: bigint; userName: string; tenantId: bigint; method: string; request: RequestFacts };
  AuthLogout: { userId: bigint; userName: string; tenantId: bigint; sessionId: bigint; request: RequestFacts };
  TokenRefreshed: { userId: bigint; userName: string; tenantId: bigint; sessionId: bigint; request: RequestFacts };
  TenantSwitched: {
    userId: bigint;
    userName: string;
    fromTenantId: bigint;
    toTenantId: bigint;
    sessionId: bigint;
    request: RequestFacts;
  };
  /**
   * Sessions ended (a logout, a revocation, a policy): the connections of those sessions are told
   * (ForceLogout) and closed; null: every session of the user (a deletion).
   */
  SessionsRevoked: { userId: bigint; sessionIds: bigint[] | null; reason: string };
  PasswordChanged: { userId: bigint; userName: string; tenantId: bigint; request: RequestFacts };
}
