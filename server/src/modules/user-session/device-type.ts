import { z } from 'zod';
import { docOverrides } from '../../rpc/wire.js';

/**
 * The original's DeviceType numbering (XiHan.BasicApp, Domain/Entities/Enums/DeviceType.cs and
 * SysUserSession.Enum.cs, identical in both). Session lists write `deviceType` as this number,
 * not as a name: the original's session DTO declares the field `int` (the original service),
 * and its Vue pages compare it with these numbers.
 */
export const DEVICE_TYPE_CODES = {
  Unknown: 0,
  Web: 1,
  iOS: 2,
  Android: 3,
  Windows: 4,
  macOS: 5,
  Linux: 6,
  Tablet: 7,
  MiniProgram: 8,
  Api: 9,
} as const;
type OriginalName = keyof typeof DEVICE_TYPE_CODES;

const ORIGINAL_NAMES = new Map(Object.keys(DEVICE_TYPE_CODES).map((n) => [n.toLowerCase(), n as OriginalName]));

/** The first word of an operating-system text such as "iOS 17.4" or "Windows 11". */
function osFamily(operatingSystem: string | null): string {
  return (operatingSystem ?? '').split(' ')[0]!.toLowerCase();
}

/**
 * The original's number for a stored device type (auth/session/user-agent.ts names: Web, Mobile, Tablet,
 * Desktop, Bot, Unknown). The original splits phones and desktop applications by platform where
 * we store one kind, so the session's operating system picks the member; what has no counterpart
 * (a HarmonyOS phone, a ChromeOS app, a crawler, an HTTP tool) is Unknown. A stored name that is
 * already one of the original's (rows imported from it) maps to itself.
 */
export function deviceTypeCode(stored: string | null, operatingSystem: string | null): number {
  const kind = (stored ?? '').trim();
  const os = osFamily(operatingSystem);
  switch (kind) {
    case 'Mobile':
      return os === 'ios'
        ? DEVICE_TYPE_CODES.iOS
        : os === 'android'
          ? DEVICE_TYPE_CODES.Android
          : DEVICE_TYPE_CODES.Unknown;
    case 'Desktop':
      return os === 'windows'
        ? DEVICE_TYPE_CODES.Windows
        : os === 'macos'
          ? DEVICE_TYPE_CODES.macOS
          : os === 'linux'
            ? DEVICE_TYPE_CODES.Linux
            : DEVICE_TYPE_CODES.Unknown;
    default: {
      const original = ORIGINAL_NAMES.get(kind.toLowerCase());
      return original ? DEVICE_TYPE_CODES[original] : DEVICE_TYPE_CODES.Unknown;
    }
  }
}

const description = `DeviceType of the original, as a number: ${Object.entries(DEVICE_TYPE_CODES)
  .map(([n, v]) => `${v} = ${n}`)
  .join(', ')}`;

/** The output schema of `deviceType`: an integer of the numbering above. */
export function zDeviceTypeOut() {
  const schema = z.number().int();
  docOverrides.set(schema, { type: 'integer', enum: Object.values(DEVICE_TYPE_CODES), description });
  return schema;
}
