import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import { parseImportedHash } from '../infra/password-imported.js';
import { parseLegacyHash } from '../infra/password-legacy.js';

/**
 * One user of an import file, as other identity systems export them: the password as its hash
 * in the source system's format (never in clear), the home tenant and further memberships by
 * tenant code, roles by code in the home tenant or as `tenantCode:roleCode`.
 */
const list = z.union([
  z.array(z.string().trim().min(1).max(64)).max(100),
  z.string().transform((s) =>
    s
      .split(/[;|]/)
      .map((v) => v.trim())
      .filter(Boolean),
  ),
]);
const flag = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1'),
]);
const blank = (v: unknown) => (v === '' ? undefined : v);
const opt = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());

export const importRow = z.object({
  userName: z
    .string()
    .trim()
    .regex(/^[\p{L}\p{N}_.-]{2,50}$/u, 'letters, digits, _ . - (2 to 50)'),
  email: opt(z.string().trim().max(100).pipe(z.email('not an e-mail address'))),
  phone: opt(
    z
      .string()
      .trim()
      .regex(/^\+?[0-9][0-9 ().-]{2,24}$/, 'not a phone number')
      .transform((v) => v.replace(/[\s().-]/g, '')),
  ),
  realName: opt(z.string().trim().max(64)),
  nickName: opt(z.string().trim().max(64)),
  passwordHash: opt(
    z
      .string()
      .max(1024)
      .refine(
        (h) => h.startsWith('$argon2') || parseLegacyHash(h) !== null || parseImportedHash(h) !== null,
        'a password hash in no format we accept',
      ),
  ),
  status: opt(z.enum(['Enabled', 'Disabled'])),
  emailVerified: opt(flag),
  phoneVerified: opt(flag),
  mustChangePassword: opt(flag),
  tenant: opt(z.string().trim().min(1).max(64)),
  tenants: opt(list),
  roles: opt(list),
});
export type ImportRow = z.output<typeof importRow>;

/** JSON (an array, or one object per line) or CSV with a header row, by name or by content. */
export function readImportFile(text: string, format: 'json' | 'csv' | undefined, fileName: string): unknown[] {
  const kind = format ?? (/\.csv$/i.test(fileName) ? 'csv' : /^\s*[[{]/.test(text) ? 'json' : 'csv');
  if (kind === 'csv')
    return parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, bom: true }) as unknown[];
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) return JSON.parse(trimmed) as unknown[];
  return trimmed
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as unknown);
}
