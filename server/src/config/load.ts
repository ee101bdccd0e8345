import { configSchema, type AppConfig } from './schema.js';

/**
 * Builds the configuration from an environment map. This module and main.ts are the only places
 * that see `process.env`; everything else receives the parsed object.
 */

/** Plain variables the set-up instructions name, mapped onto their sections. */
const FLAT_VARIABLES: Record<string, string[]> = {
  PORT: ['App', 'Port'],
  HOST: ['App', 'Host'],
  APP_ENV: ['App', 'Env'],
  DATA_DIR: ['App', 'DataDir'],
  DATABASE_URL: ['Database', 'Url'],
  REDIS_URL: ['Redis', 'Url'],
  SEED_ADMIN_EMAIL: ['Saas', 'Seed', 'AdminEmail'],
  SEED_ADMIN_PASSWORD: ['Saas', 'Seed', 'AdminPassword'],
};

type Tree = { [key: string]: Tree | string };

/** Schema key spellings, so `JWT__ACCESSTOKENMINUTES` finds `Jwt.AccessTokenMinutes` like ASP.NET. */
function canonicalKeys(): Map<string, string> {
  const names = new Map<string, string>();
  const walk = (schema: unknown) => {
    const shape = shapeOf(schema);
    if (!shape) return;
    for (const [key, child] of Object.entries(shape)) {
      names.set(key.toLowerCase(), key);
      walk(child);
    }
  };
  walk(configSchema);
  return names;
}

function shapeOf(schema: unknown): Record<string, unknown> | undefined {
  let s = schema as { shape?: Record<string, unknown>; def?: { innerType?: unknown; in?: unknown } } | undefined;
  for (let i = 0; i < 5 && s; i++) {
    if (s.shape) return s.shape;
    s = (s.def?.innerType ?? s.def?.in) as typeof s;
  }
  return undefined;
}

function setPath(tree: Tree, path: string[], value: string): void {
  let node = tree;
  path.forEach((key, i) => {
    if (i === path.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    if (typeof next !== 'object') node[key] = {};
    node = node[key] as Tree;
  });
}

export function envToTree(env: Record<string, string | undefined>): Tree {
  const names = canonicalKeys();
  const tree: Tree = {};
  const topLevel = new Set(Object.keys(configSchema.shape).map((k) => k.toLowerCase()));
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const flat = FLAT_VARIABLES[name];
    if (flat) {
      setPath(tree, flat, value);
      continue;
    }
    if (!name.includes('__')) continue;
    const parts = name.split('__');
    if (!topLevel.has(parts[0]!.toLowerCase())) continue;
    setPath(
      tree,
      parts.map((p) => names.get(p.toLowerCase()) ?? p),
      value,
    );
  }
  return tree;
}

export class ConfigError extends Error {}

function merge(base: Tree, over: unknown): Tree {
  if (!over || typeof over !== 'object') return base;
  const out: Tree = { ...base };
  for (const [k, v] of Object.entries(over as Record<string, unknown>)) {
    const current = out[k];
    out[k] = (
      v && typeof v === 'object' && !Array.isArray(v) && typeof current === 'object' ? merge(current, v) : v
    ) as Tree;
  }
  return out;
}

/** Parses and validates; throws a ConfigError listing every bad key. `overrides` win over env. */
export function loadConfig(env: Record<string, string | undefined>, overrides: unknown = {}): AppConfig {
  const parsed = configSchema.safeParse(merge(envToTree(env), overrides));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('__')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
