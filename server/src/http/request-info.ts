import type { Culture } from '../config/schema.js';
import { randomBytes } from 'node:crypto';

/** Inbound X-Trace-Id is honoured when it is a sane token; otherwise a fresh 32-hex id. */
const TRACE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Random hex drawn in blocks: 4 KiB of random bytes are hex-encoded once, and each trace id is a
 * 32-character slice of that text (slicing is constant time), so a request costs neither a
 * system call nor an encoding.
 */
let pool = '';
let offset = 0;

export function randomHex16(): string {
  if (offset + 32 > pool.length) {
    pool = randomBytes(4096).toString('hex');
    offset = 0;
  }
  const hex = pool.slice(offset, offset + 32);
  offset += 32;
  return hex;
}

export function resolveTraceId(inbound: string | null | undefined): string {
  if (inbound && TRACE_ID.test(inbound)) return inbound;
  return randomHex16();
}

/**
 * X-Language first (case-insensitive, must be supported), then Accept-Language by quality,
 * then the default culture. An unlisted language silently falls back.
 */
export function resolveCulture(
  xLanguage: string | null | undefined,
  acceptLanguage: string | null | undefined,
  supported: readonly Culture[],
  fallback: Culture,
): Culture {
  const find = (tag: string): Culture | undefined => {
    const t = tag.trim().toLowerCase();
    return supported.find((c) => c.toLowerCase() === t);
  };
  if (xLanguage) {
    const hit = find(xLanguage);
    if (hit) return hit;
  }
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(',')
      .slice(0, 20)
      .map((part) => {
        const [tag = '', ...params] = part.split(';');
        const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
        return { tag: tag.trim(), q: q ? Number(q.slice(2)) || 0 : 1 };
      })
      .filter((r) => r.tag && r.q > 0)
      .sort((a, b) => b.q - a.q);
    for (const { tag } of ranked) {
      const hit = find(tag) ?? supported.find((c) => c.toLowerCase().startsWith(`${tag.toLowerCase()}-`));
      if (hit) return hit;
    }
  }
  return fallback;
}
