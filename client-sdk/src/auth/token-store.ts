/** The token pair a signed-in client holds. */
export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/**
 * Where the auth client keeps its tokens. Any of the methods may be asynchronous, so a store can
 * sit on IndexedDB, a secure keychain or a server-side session of a BFF.
 */
export interface TokenStore {
  get(): Tokens | null | Promise<Tokens | null>;
  set(tokens: Tokens): void | Promise<void>;
  clear(): void | Promise<void>;
}

/** A store that lives as long as the page or process: nothing survives a reload. */
export function createMemoryTokenStore(initial: Tokens | null = null): TokenStore {
  let tokens = initial ? { ...initial } : null;
  return {
    get: () => tokens,
    set(next) {
      // A copy, so a caller mutating its object cannot change what is stored.
      tokens = { accessToken: next.accessToken, refreshToken: next.refreshToken };
    },
    clear() {
      tokens = null;
    },
  };
}
