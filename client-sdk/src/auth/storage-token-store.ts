import type { TokenStore } from './token-store.js';

/** The part of the Web Storage API the store needs (`localStorage`, `sessionStorage`, or a fake). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The storage keys of each token. */
export interface TokenStorageKeys {
  accessToken: string;
  refreshToken: string;
}

/**
 * The keys the original front end wrote, so a browser that was signed in before the switch to
 * this SDK stays signed in after it.
 */
export const LEGACY_TOKEN_KEYS: Readonly<TokenStorageKeys> = Object.freeze({
  accessToken: 'xihan_access_token',
  refreshToken: 'xihan_refresh_token',
});

/**
 * A store over Web Storage; each token is kept as a plain string under its own key. Half a pair
 * (one key missing or empty) counts as no tokens: neither half can be used alone.
 */
export function createStorageTokenStore(storage: StorageLike, keys: TokenStorageKeys = LEGACY_TOKEN_KEYS): TokenStore {
  return {
    get() {
      const accessToken = storage.getItem(keys.accessToken);
      const refreshToken = storage.getItem(keys.refreshToken);
      return accessToken && refreshToken ? { accessToken, refreshToken } : null;
    },
    set(tokens) {
      storage.setItem(keys.accessToken, tokens.accessToken);
      storage.setItem(keys.refreshToken, tokens.refreshToken);
    },
    clear() {
      storage.removeItem(keys.accessToken);
      storage.removeItem(keys.refreshToken);
    },
  };
}
