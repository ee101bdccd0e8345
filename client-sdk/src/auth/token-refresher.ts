import { PortcullisError, type Envelope } from '../envelope.js';
import { SessionEndedError } from './session-ended-error.js';
import type { Tokens, TokenStore } from './token-store.js';

/** What a refresh request answered (the REST client's `send` result, narrowed). */
export interface RefreshAnswer {
  status: number;
  envelope: Envelope<{ accessToken: string; refreshToken: string }>;
}

/** What the refresher reads and writes, and whom it tells when the session ends. */
export interface TokenRefresherOptions {
  store: TokenStore;
  /** Sends POST /api/Auth/RefreshToken once: no bearer, no retry, no refresh of its own. */
  send(tokens: Tokens): Promise<RefreshAnswer>;
  /** Called once per refused refresh, after the tokens were cleared. */
  onSessionEnded(error: SessionEndedError): void;
}

/**
 * Statuses that say nothing about the refresh token (throttled, timed out, server trouble): the
 * tokens are kept and the caller gets the error, so a network blip does not sign the user out.
 * Any other refusal (401 login expired, 400) ends the session.
 */
function isTransient(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Single-flight token refresh. The refresh token rotates on every use and the server ends the
 * session when a used one comes back, so two refreshes with the same token would sign the user
 * out: every caller that needs a refresh while one is running waits for that one.
 */
export function createTokenRefresher(options: TokenRefresherOptions) {
  const { store } = options;
  let inFlight: Promise<Tokens | null> | undefined;
  // The access token whose refresh was refused: a request sent with it whose 401 arrives after
  // the refusal belongs to the same ended session and gets the same error.
  let ended: { accessToken: string; error: SessionEndedError } | undefined;

  async function refreshWith(current: Tokens): Promise<Tokens> {
    const { status, envelope } = await options.send(current);
    if (envelope.isSuccess && envelope.data) {
      const tokens = { accessToken: envelope.data.accessToken, refreshToken: envelope.data.refreshToken };
      await store.set(tokens);
      return tokens;
    }
    if (isTransient(status)) throw new PortcullisError(envelope as Envelope, status);
    const error = new SessionEndedError(envelope as Envelope, status);
    ended = { accessToken: current.accessToken, error };
    // Someone may have logged in again meanwhile; only the pair that was refused is dropped.
    const now = await store.get();
    if (now && now.refreshToken === current.refreshToken) {
      await store.clear();
      options.onSessionEnded(error);
    }
    throw error;
  }

  return {
    /** Settles when no refresh is running (whatever its result), so a new request need not 401 first. */
    async settled(): Promise<void> {
      await inFlight?.catch(() => undefined);
    },

    /**
     * New tokens after `usedAccessToken` was refused. Joins a running refresh; returns the stored
     * tokens without refreshing when they already differ from the refused ones (a refresh
     * finished between sending and the 401); null when there are no tokens any more.
     * Rejects with SessionEndedError when the server refuses the refresh.
     */
    async renew(usedAccessToken: string): Promise<Tokens | null> {
      if (ended && ended.accessToken === usedAccessToken) throw ended.error;
      if (inFlight) return inFlight;
      const current = await store.get();
      // Checked again: another caller may have started a refresh while the store was read.
      if (inFlight) return inFlight;
      if (!current) return null;
      if (current.accessToken !== usedAccessToken) return current;
      const running = refreshWith(current).finally(() => {
        if (inFlight === running) inFlight = undefined;
      });
      inFlight = running;
      return running;
    },

    /**
     * Runs another call that replaces the pair (SwitchTenant spends the refresh token and issues
     * a new pair, which `work` stores) as if it were a refresh: requests started meanwhile wait
     * for it, and a 401 that arrives meanwhile takes the pair in the store once it is done
     * instead of refreshing with the spent token (which the server would take for theft and end
     * the session). `work` must not itself wait for a refresh.
     */
    async exchange<T>(work: () => Promise<T>): Promise<T> {
      await inFlight?.catch(() => undefined);
      const done = work();
      const running: Promise<Tokens | null> = done
        .then(
          () => store.get(),
          () => store.get(),
        )
        .finally(() => {
          if (inFlight === running) inFlight = undefined;
        });
      inFlight = running;
      return done;
    },
  };
}

/** The single-flight refresher an auth client shares between all its requests. */
export type TokenRefresher = ReturnType<typeof createTokenRefresher>;
