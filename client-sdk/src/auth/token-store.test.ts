import { describe, expect, it } from 'vitest';
import { createStorageTokenStore, LEGACY_TOKEN_KEYS, type StorageLike } from './storage-token-store.js';
import { createMemoryTokenStore } from './token-store.js';

function fakeStorage(initial: Record<string, string> = {}): StorageLike & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

describe('memory token store', () => {
  it('keeps a copy of the pair until cleared', () => {
    const store = createMemoryTokenStore();
    expect(store.get()).toBeNull();
    const tokens = { accessToken: 'a', refreshToken: 'r' };
    store.set(tokens);
    tokens.accessToken = 'changed';
    expect(store.get()).toEqual({ accessToken: 'a', refreshToken: 'r' });
    store.clear();
    expect(store.get()).toBeNull();
  });
});

describe('storage token store', () => {
  it('uses the keys of the original front end by default, so an existing browser session survives', () => {
    const storage = fakeStorage({ xihan_access_token: 'old-access', xihan_refresh_token: 'old-refresh' });
    const store = createStorageTokenStore(storage);
    expect(store.get()).toEqual({ accessToken: 'old-access', refreshToken: 'old-refresh' });
    store.set({ accessToken: 'a2', refreshToken: 'r2' });
    expect(storage.items.get(LEGACY_TOKEN_KEYS.accessToken)).toBe('a2');
    expect(storage.items.get(LEGACY_TOKEN_KEYS.refreshToken)).toBe('r2');
    store.clear();
    expect(storage.items.size).toBe(0);
  });

  it('takes other keys, and treats half a pair as no tokens', () => {
    const storage = fakeStorage({ my_access: 'a' });
    const store = createStorageTokenStore(storage, { accessToken: 'my_access', refreshToken: 'my_refresh' });
    expect(store.get()).toBeNull();
    store.set({ accessToken: 'a', refreshToken: 'r' });
    expect(store.get()).toEqual({ accessToken: 'a', refreshToken: 'r' });
    expect(storage.items.has('xihan_access_token')).toBe(false);
  });
});
