export interface TimeZoneOption {
  id: string;
  displayName: string;
  baseUtcOffsetMinutes: number;
  supportsDaylightSavingTime: boolean;
}

/** The offset of a zone at an instant, in minutes east of UTC, read from Intl ("GMT+05:30"). */
function offsetAt(zone: string, at: Date): number {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const cache = new Map<number, TimeZoneOption[]>();

/**
 * The IANA zones this runtime can resolve, like the original's catalogue: UTC first, the others by
 * base offset, then id. The base offset is the smaller of the January and July offsets of the
 * given year (daylight saving adds time in both hemispheres); a zone whose two differ observes it.
 */
export function timeZoneOptions(now: Date): TimeZoneOption[] {
  const year = now.getUTCFullYear();
  const hit = cache.get(year);
  if (hit) return hit;
  const ids = Intl.supportedValuesOf('timeZone').filter((id) => id !== 'UTC');
  const january = new Date(Date.UTC(year, 0, 1));
  const july = new Date(Date.UTC(year, 6, 1));
  const zones = ids.map((id): TimeZoneOption => {
    const a = offsetAt(id, january);
    const b = offsetAt(id, july);
    const base = Math.min(a, b);
    return {
      id,
      displayName: `(UTC${formatOffset(base)}) ${id}`,
      baseUtcOffsetMinutes: base,
      supportsDaylightSavingTime: a !== b,
    };
  });
  zones.sort((x, y) => x.baseUtcOffsetMinutes - y.baseUtcOffsetMinutes || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const result = [
    {
      id: 'UTC',
      displayName: '(UTC) Coordinated Universal Time',
      baseUtcOffsetMinutes: 0,
      supportsDaylightSavingTime: false,
    },
    ...zones,
  ];
  cache.clear();
  cache.set(year, result);
  return result;
}
