import { createRestClient, type OutputOf, type RestClient, type RestClientOptions } from '../rest-client.js';
import { createAuthenticatedFetch } from './authenticated-fetch.js';
import { createCodeLoginFlow, type EmailCodeLoginInput, type PhoneCodeLoginInput } from './code-login-flow.js';
import { createLoginFlow, type LoginInput, type LoginResult } from './login-flow.js';
import { createProfileApi } from './profile-api.js';
import type { LockDetail } from './response-outcome.js';
import type { LoggedOutEvent } from './session-ended-error.js';
import { withThrottleRetry, type Sleep } from './throttle-retry.js';
import { createTokenRefresher } from './token-refresher.js';
import { createMemoryTokenStore, type Tokens, type TokenStore } from './token-store.js';

/** Options of `createAuthClient`: those of the REST client, plus where tokens live and what to signal. */
export interface AuthClientOptions extends RestClientOptions {
  /** Where tokens live; defaults to memory (nothing survives a reload). */
  tokenStore?: TokenStore;
  /** The session ended: the user logged out, or a refresh was refused. Show the login page. */
  onLoggedOut?: (event: LoggedOutEvent) => void;
  /** A call answered 423: show the unlock prompt (or the password change); the user stays signed in. */
  onLocked?: (detail: LockDetail) => void;
  /** Retries after a 429 before the error reaches the caller (default 2). */
  maxRetriesOn429?: number;
  /** Longest wait before one retry, whatever Retry-After says (default 30 s). */
  maxBackoffMs?: number;
  /** Replaces the timer-based wait between retries (tests, or a scheduler of the host). */
  sleep?: Sleep;
}

/** The result of `logout`: local sign-out always happens; `revoked` says whether the server confirmed. */
export interface LogoutResult {
  revoked: boolean;
  error?: unknown;
}

/**
 * Runs a callback of the host application without letting it change what the SDK's caller sees:
 * an exception in it is rethrown on its own, like one in a DOM event listener.
 */
function safely<T>(callback: ((value: T) => void) | undefined): (value: T) => void {
  return (value) => {
    try {
      callback?.(value);
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  };
}

function nonNegative(name: string, value: number, integer: boolean): number {
  if (!(value >= 0) || (integer && !Number.isInteger(value)))
    throw new RangeError(`${name} must be a non-negative ${integer ? 'integer' : 'number'}, got ${value}`);
  return value;
}

/**
 * The signed-in client: login (with the second factor), an authenticated fetch and REST client
 * (bearer, one single-flight refresh and replay on 401, lock signal on 423, bounded backoff on
 * 429), logout, lock and unlock. Give `auth.fetch` to the tRPC client for the same behaviour.
 */
export function createAuthClient(options: AuthClientOptions) {
  const maxRetries = nonNegative('maxRetriesOn429', options.maxRetriesOn429 ?? 2, true);
  const maxBackoffMs = nonNegative('maxBackoffMs', options.maxBackoffMs ?? 30_000, false);
  const store = options.tokenStore ?? createMemoryTokenStore();
  const onLoggedOut = safely(options.onLoggedOut);
  const transport = options.fetch ?? globalThis.fetch.bind(globalThis);
  const throttled = withThrottleRetry(transport, { maxRetries, maxBackoffMs, sleep: options.sleep });

  // The refresh goes straight to the transport: a rotated refresh token must never be sent twice.
  const refreshRest = createRestClient({ ...options, fetch: transport });
  const refresher = createTokenRefresher({
    store,
    send: (tokens) => refreshRest.send('AuthAppService.RefreshTokenAsync', tokens),
    onSessionEnded: (error) => onLoggedOut({ reason: 'refresh-failed', error }),
  });
  const authFetch = createAuthenticatedFetch({
    fetch: throttled,
    store,
    refresher,
    onLocked: safely(options.onLocked),
  });
  const rest: RestClient = createRestClient({ ...options, fetch: authFetch });
  const loginFlow = createLoginFlow(createRestClient({ ...options, fetch: throttled }), store);
  const codeLogin = createCodeLoginFlow(createRestClient({ ...options, fetch: throttled }), store);

  /**
   * Deactivation and deletion end this session on the server too: once the server confirms,
   * the tokens are useless, so they are cleared and the host told, as after a logout. A refusal
   * (wrong password, owner, impersonation) throws and keeps the user signed in.
   */
  async function endAccount(
    key: 'ProfileAppService.DeactivateAccountAsync' | 'ProfileAppService.DeleteAccountAsync',
    password: string,
  ): Promise<void> {
    await rest.call(key, { password });
    await store.clear();
    onLoggedOut({ reason: 'account-ended' });
  }

  return {
    /** The REST client over the authenticated fetch: every call carries the bearer token. */
    rest,
    /** The authenticated fetch, for the tRPC client (`createTrpcClient({ baseUrl, fetch: auth.fetch })`) or any other call. */
    fetch: authFetch,
    /** The token store in use. */
    tokenStore: store,

    /** Password login; a second factor answers a challenge to `continue`. Tokens are stored on success. */
    login: (input: LoginInput): Promise<LoginResult> => loginFlow.login(input),

    /** Sends an e-mail sign-in code; then `emailLogin` with it. */
    sendEmailLoginCode: (email: string): Promise<void> => codeLogin.sendEmailCode(email),
    /** Signs in with an e-mail code; a second factor answers a challenge to `continue`. Tokens are stored on success. */
    emailLogin: (input: EmailCodeLoginInput): Promise<LoginResult> => codeLogin.emailLogin(input),
    /** Sends a sign-in code by text; then `phoneLogin` with it. */
    sendPhoneLoginCode: (phone: string): Promise<void> => codeLogin.sendPhoneCode(phone),
    /** Signs in with a phone code; a second factor answers a challenge to `continue`. Tokens are stored on success. */
    phoneLogin: (input: PhoneCodeLoginInput): Promise<LoginResult> => codeLogin.phoneLogin(input),

    /**
     * Ends the session on the server, then clears the tokens even if that call failed (the user
     * asked to leave; a server that cannot be reached must not keep them signed in here).
     */
    async logout(): Promise<LogoutResult> {
      let result: LogoutResult = { revoked: false };
      if (await store.get()) {
        try {
          await rest.call('AuthAppService.LogoutAsync');
          result = { revoked: true };
        } catch (error) {
          result = { revoked: false, error };
        }
      }
      // A refused refresh during the call has already cleared and signalled; do not signal twice.
      const still = await store.get();
      await store.clear();
      if (still) onLoggedOut({ reason: 'logout' });
      return result;
    },

    /** Locks the session with a lock password (4 to 64 characters); later calls answer 423. */
    lock: async (password: string): Promise<void> => {
      await rest.call('AuthAppService.LockSessionAsync', { password });
    },

    /** Unlocks with the lock password or the account password. */
    unlock: async (password: string): Promise<void> => {
      await rest.call('AuthAppService.UnlockSessionAsync', { password });
    },

    /**
     * Moves the session to a tenant, or to the platform state (null). The new pair is stored (by
     * the authenticated fetch, which does so for any SwitchTenant call, tRPC included).
     */
    switchTenant: (tenantId: string | null): Promise<OutputOf<'AuthAppService.SwitchTenantAsync'>> =>
      rest.call('AuthAppService.SwitchTenantAsync', { tenantId }),

    /** The current user, context, roles and permissions. */
    getUserInfo: (): Promise<OutputOf<'AuthAppService.GetUserInfoAsync'>> =>
      rest.call('AuthAppService.GetUserInfoAsync'),

    /** The user's live sessions, the current one first (`isCurrent`), then by latest activity. */
    getSessions: (): Promise<OutputOf<'ProfileAppService.GetSessionsAsync'>> =>
      rest.call('ProfileAppService.GetSessionsAsync'),

    /** Ends one of the user's other sessions at once (the current one is refused: use `logout`). */
    revokeSession: async (sessionId: string): Promise<void> => {
      await rest.call('ProfileAppService.RevokeSessionAsync', { sessionId });
    },

    /** Ends every other session of the user; resolves with how many ended. */
    revokeOtherSessions: async (): Promise<number> =>
      (await rest.call('ProfileAppService.RevokeOtherSessionsAsync')).revokedCount,

    /** Disables the account (password confirmed). Every session ends, so the tokens are cleared. */
    deactivateAccount: (password: string): Promise<void> =>
      endAccount('ProfileAppService.DeactivateAccountAsync', password),

    /** Deletes the account (password confirmed). Every session ends, so the tokens are cleared. */
    deleteAccount: (password: string): Promise<void> => endAccount('ProfileAppService.DeleteAccountAsync', password),

    /** The second factor: methods on (flags 1 TOTP, 2 e-mail, 4 phone), a pending setup, recovery codes left. */
    getTwoFactor: (): Promise<OutputOf<'ProfileAppService.GetTwoFactorAsync'>> =>
      rest.call('ProfileAppService.GetTwoFactorAsync'),

    /** An authenticator secret (`sharedKey`) and its otpauth URI for a QR code; the same until TOTP is on. */
    setupTwoFactor: (): Promise<OutputOf<'ProfileAppService.Setup2FAAsync'>> =>
      rest.call('ProfileAppService.Setup2FAAsync'),

    /** Sends a code to the verified e-mail (2) or phone (4), for enabling or disabling that method. */
    sendTwoFactorSetupCode: (method: 2 | 4): Promise<OutputOf<'ProfileAppService.Send2FASetupCodeAsync'>> =>
      rest.call('ProfileAppService.Send2FASetupCodeAsync', { method }),

    /**
     * Turns one method on with a code of it. The first method on answers `recoveryCodes`, shown
     * only then. The user's other sessions end; this one carries on with its tokens.
     */
    enableTwoFactor: (method: 1 | 2 | 4, code: string): Promise<OutputOf<'ProfileAppService.Enable2FAAsync'>> =>
      rest.call('ProfileAppService.Enable2FAAsync', { method, code }),

    /** Turns one method off with a code of a method that is on, or the password. The other sessions end. */
    disableTwoFactor: (
      method: 1 | 2 | 4,
      proof: { code?: string; password?: string },
    ): Promise<OutputOf<'ProfileAppService.Disable2FAAsync'>> =>
      rest.call('ProfileAppService.Disable2FAAsync', { method, ...proof }),

    /** Replaces the recovery codes with 10 new ones (password confirmed); resolves with them. */
    regenerateRecoveryCodes: async (password: string): Promise<string[]> =>
      (await rest.call('ProfileAppService.RegenerateRecoveryCodesAsync', { password })).recoveryCodes,
    /** Profile, contacts, history, linked accounts, notification switches and UI settings (profile-api.ts). */
    profile: createProfileApi(rest),

    /**
     * Refreshes now (joining a refresh already running). Null when signed out; rejects with
     * SessionEndedError when the server refuses.
     */
    async refresh(): Promise<Tokens | null> {
      const current = await store.get();
      return current ? refresher.renew(current.accessToken) : null;
    },
  };
}

/** A client made by `createAuthClient`. */
export type AuthClient = ReturnType<typeof createAuthClient>;
