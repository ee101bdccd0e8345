import { formatIsoInZone, formatPlainInZone } from './datetime.js';

/**
 * The single output serializer (SPEC "Serialization conventions"), applied to every response body
 * the service writes: property names camelCased (first character only), nulls omitted, 64-bit
 * integers as strings, date-times in the request's zone, cycles dropped.
 */

/**
 * A date-time written as `YYYY-MM-DD HH:mm:ss` (the LoginToken form) instead of ISO 8601.
 * `toJSON` keeps the type honest for clients that infer types from the router.
 */
export class PlainDateTime {
  constructor(readonly date: Date) {}
  toJSON(): string {
    return formatPlainInZone(this.date, 'UTC');
  }
}

/**
 * JSON text written verbatim, not re-serialized (the signed Echo answers the exact bytes it
 * received). The text must already be valid JSON; the facade parsed it before.
 */
export class RawJson {
  constructor(readonly json: string) {}
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

export interface SerializeOptions {
  timeZone: string;
}

function camelKey(key: string): string {
  const first = key.charCodeAt(0);
  // Only an upper-case ASCII first letter changes: OAuthProviders -> oAuthProviders.
  return first >= 65 && first <= 90 ? String.fromCharCode(first + 32) + key.slice(1) : key;
}

/** Converts a value into plain JSON data following the conventions. */
export function toWire(value: unknown, options: SerializeOptions): unknown {
  // The objects being written, outermost first. Responses are a few levels deep, where a small
  // array beats a Set; a cycle is a reference back to one of these.
  const ancestors: object[] = [];

  const visit = (v: unknown): unknown => {
    if (v === null || v === undefined) return undefined;
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        return Number.isFinite(v) ? v : undefined;
      case 'bigint':
        return v.toString();
      case 'function':
      case 'symbol':
        return undefined;
    }
    const obj = v as object;
    if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? undefined : formatIsoInZone(obj, options.timeZone);
    if (obj instanceof PlainDateTime) return formatPlainInZone(obj.date, options.timeZone);
    if (obj instanceof RawJson) return obj.toJSON();
    // A reference back to an object being written is a cycle: it is left out, not followed.
    if (ancestors.includes(obj)) return undefined;
    ancestors.push(obj);
    try {
      if (Array.isArray(obj)) return obj.map((item) => visit(item) ?? null);
      if (obj instanceof Set) return [...obj].map((item) => visit(item) ?? null);
      if (obj instanceof Uint8Array) return Buffer.from(obj).toString('base64');
      const entries: Iterable<[unknown, unknown]> = obj instanceof Map ? obj.entries() : Object.entries(obj);
      const out: Record<string, unknown> = {};
      for (const [key, item] of entries) {
        const wire = visit(item);
        if (wire !== undefined) out[camelKey(String(key))] = wire;
      }
      return out;
    } finally {
      ancestors.pop();
    }
  };

  return visit(value);
}

/**
 * The same conventions as `toWire`, written straight to JSON text in one pass: the REST facade
 * answers with this, skipping the intermediate copy and the second walk of JSON.stringify. It
 * must agree with `JSON.stringify(toWire(value))` for every value (property-tested).
 */
export function toWireJson(value: unknown, options: SerializeOptions): string | undefined {
  const ancestors: object[] = [];

  const write = (v: unknown): string | undefined => {
    if (v === null || v === undefined) return undefined;
    switch (typeof v) {
      case 'string':
        return JSON.stringify(v);
      case 'boolean':
        return v ? 'true' : 'false';
      case 'number':
        return Number.isFinite(v) ? String(v) : undefined;
      case 'bigint':
        return `"${v.toString()}"`;
      case 'function':
      case 'symbol':
        return undefined;
    }
    const obj = v as object;
    if (obj instanceof Date)
      return Number.isNaN(obj.getTime()) ? undefined : `"${formatIsoInZone(obj, options.timeZone)}"`;
    if (obj instanceof PlainDateTime) return `"${formatPlainInZone(obj.date, options.timeZone)}"`;
    if (obj instanceof RawJson) return obj.json;
    if (ancestors.includes(obj)) return undefined;
    ancestors.push(obj);
    try {
      if (Array.isArray(obj) || obj instanceof Set) {
        let out = '[';
        let first = true;
        for (const item of obj) {
          out += `${first ? '' : ','}${write(item) ?? 'null'}`;
          first = false;
        }
        return `${out}]`;
      }
      if (obj instanceof Uint8Array) return `"${Buffer.from(obj).toString('base64')}"`;
      const entries: Iterable<[unknown, unknown]> = obj instanceof Map ? obj.entries() : Object.entries(obj);
      // Keys are written in order and a later duplicate (after camel-casing) replaces an earlier
      // one in place, as JSON.stringify of the toWire copy would.
      const parts = new Map<string, string>();
      for (const [key, item] of entries) {
        const json = write(item);
        if (json !== undefined) parts.set(camelKey(String(key)), json);
      }
      let out = '{';
      let first = true;
      for (const [key, json] of parts) {
        out += `${first ? '' : ','}${JSON.stringify(key)}:${json}`;
        first = false;
      }
      return `${out}}`;
    } finally {
      ancestors.pop();
    }
  };

  return write(value);
}
