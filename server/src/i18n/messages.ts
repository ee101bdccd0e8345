import { SUPPORTED_CULTURES, type Culture } from '../config/schema.js';

/** One text in every supported culture: the type makes a missing language a compile error. */
export type LocalizedText = Readonly<Record<Culture, string>>;

const catalog = new Map<string, LocalizedText>();

/**
 * Registers message keys. Each module declares its texts once, next to its errors; the key is
 * namespaced by the module so two modules never collide.
 */
export function defineMessages<K extends string>(
  namespace: string,
  texts: Record<K, LocalizedText>,
): Record<K, string> {
  const keys = {} as Record<K, string>;
  for (const [name, text] of Object.entries(texts) as Array<[K, LocalizedText]>) {
    const key = `${namespace}.${name}`;
    if (catalog.has(key) && catalog.get(key) !== text) throw new Error(`Duplicate message key ${key}`);
    catalog.set(key, text);
    keys[name] = key;
  }
  return keys;
}

/** Fills `{name}` placeholders; unknown placeholders stay visible rather than vanish. */
function interpolate(text: string, params?: Record<string, unknown>): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

export function translate(culture: Culture, key: string, params?: Record<string, unknown>): string {
  const text = catalog.get(key);
  if (!text) return key;
  return interpolate(text[culture] ?? text['en-US'], params);
}

/** Every registered key with its texts, for the completeness test and the docs. */
export function allMessages(): ReadonlyMap<string, LocalizedText> {
  return catalog;
}

export { SUPPORTED_CULTURES, type Culture };
