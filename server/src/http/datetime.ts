/**
 * Date-time output in a request's time zone. Values are stored in UTC; output is converted to the
 * zone of X-Timezone (IANA), falling back to the server default when absent or unknown.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_CACHED_ZONES = 600;

function formatterFor(zone: string): Intl.DateTimeFormat | undefined {
  let f = formatters.get(zone);
  if (f) return f;
  try {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    return undefined;
  }
  // Only valid zones are cached, and the cache is bounded: a header cannot grow it without limit.
  if (formatters.size < MAX_CACHED_ZONES) formatters.set(zone, f);
  return f;
}

/** Header text -> canonical zone name (or null when unknown); bounded like the formatter cache. */
const resolved = new Map<string, string | null>();

/** The zone to use for a request: the header when it names a known IANA zone, else the fallback. */
export function resolveTimeZone(header: string | null | undefined, fallback: string): string {
  if (!header) return fallback;
  let zone = resolved.get(header);
  if (zone === undefined) {
    const text = header.trim();
    const f = text.length > 0 && text.length <= 64 ? formatterFor(text) : undefined;
    zone = f ? f.resolvedOptions().timeZone : null;
    if (resolved.size < MAX_CACHED_ZONES * 2) resolved.set(header, zone);
  }
  return zone ?? fallback;
}

export function isKnownTimeZone(zone: string): boolean {
  return formatterFor(zone) !== undefined;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Offset from UTC in minutes. */
  offset: number;
}

/** Offset (minutes) of a zone at an instant, asked of Intl. */
function intlOffset(ms: number, zone: string): number {
  const f = formatterFor(zone) ?? formatterFor('UTC')!;
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(ms))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return Math.round((asUtc - (ms - (((ms % 1000) + 1000) % 1000))) / 60000);
}

/**
 * Asking Intl per value is slow, so offsets are cached per (zone, quarter hour). A bucket is only
 * cached when the offset at its first and last millisecond agree; a bucket holding a transition
 * is computed exactly for every value, so the cache can never return a wrong offset.
 */
const QUARTER_HOUR = 15 * 60 * 1000;
const offsets = new Map<string, number | null>();

function offsetAt(ms: number, zone: string): number {
  if (zone === 'UTC' || zone === 'Etc/UTC') return 0;
  const bucket = Math.floor(ms / QUARTER_HOUR);
  const key = `${zone}|${bucket}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    const start = intlOffset(bucket * QUARTER_HOUR, zone);
    offset = start === intlOffset((bucket + 1) * QUARTER_HOUR - 1, zone) ? start : null;
    if (offsets.size > 20_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset ?? intlOffset(ms, zone);
}

function localParts(date: Date, zone: string): LocalParts {
  const offset = offsetAt(date.getTime(), zone);
  const local = new Date(date.getTime() + offset * 60000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
    offset,
  };
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** ISO 8601 with the zone's offset, seconds precision: 2026-05-01T16:30:00+08:00. */
export function formatIsoInZone(date: Date, zone: string): string {
  const p = localParts(date, zone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${formatOffset(p.offset)}`;
}

/** The LoginToken form `YYYY-MM-DD HH:mm:ss`, in the zone. */
export function formatPlainInZone(date: Date, zone: string): string {
  const p = localParts(date, zone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
}

let lastMs = NaN;
let lastStamp = '';

/** Envelope timestamp: UTC, ISO 8601 with an explicit +00:00 offset and milliseconds. */
export function utcTimestamp(date: Date): string {
  // Many responses share a millisecond under load; the text is made once per millisecond.
  const ms = date.getTime();
  if (ms !== lastMs) {
    lastMs = ms;
    lastStamp = `${date.toISOString().slice(0, -1)}+00:00`;
  }
  return lastStamp;
}
