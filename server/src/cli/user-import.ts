import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  auditEntries,
  roles,
  tenantMemberships,
  tenants,
  userRoles,
  users,
  userSecurity,
} from '../../../db/schema/index.js';
import type { AppDeps } from '../app-deps.js';
import { notDeleted } from '../infra/db/predicates.js';
import { importRow, type ImportRow } from './import-rows.js';

export interface ImportReport {
  dryRun: boolean;
  total: number;
  imported: number;
  rejected: Array<{ row: number; userName?: string; reasons: string[] }>;
}

type Deps = Pick<AppDeps, 'db' | 'ids' | 'clock'>;

/**
 * Imports users row by row: every row is checked against the file and the database first (the
 * same checks in a dry run), then written in a transaction of its own, so one bad row is reported
 * and skipped without losing the others. Rows without a hash get none that verifies: they must
 * reset their password before they can log in.
 */
export async function importUsers(
  deps: Deps,
  rows: unknown[],
  options: { dryRun: boolean; defaultTenant: string; progress?: (done: number, total: number) => void },
): Promise<ImportReport> {
  const report: ImportReport = { dryRun: options.dryRun, total: rows.length, imported: 0, rejected: [] };
  const seenNames = new Set<string>();
  const seenEmails = new Set<string>();
  const tenantIds = new Map<string, bigint | null>();
  const tenantId = async (code: string): Promise<bigint | null> => {
    const key = code.toLowerCase();
    if (!tenantIds.has(key)) {
      const [row] = await deps.db
        .select({ id: tenants.id })
        .from(tenants)
        .where(and(sql`lower(${tenants.code}) = ${key}`, notDeleted(tenants.isDeleted)));
      tenantIds.set(key, row?.id ?? null);
    }
    return tenantIds.get(key)!;
  };

  for (const [index, raw] of rows.entries()) {
    const rowNumber = index + 1;
    const parsed = importRow.safeParse(raw);
    if (!parsed.success) {
      const userName =
        typeof (raw as { userName?: unknown })?.userName === 'string'
          ? (raw as { userName: string }).userName
          : undefined;
      report.rejected.push({
        row: rowNumber,
        userName,
        reasons: parsed.error.issues.map((i) => `${i.path.join('.') || 'row'}: ${i.message}`),
      });
      continue;
    }
    const row = parsed.data;
    const reasons: string[] = [];
    const home = await tenantId(row.tenant ?? options.defaultTenant);
    if (home === null) reasons.push(`tenant: no tenant with the code ${row.tenant ?? options.defaultTenant}`);
    const memberships: bigint[] = [];
    for (const code of row.tenants ?? []) {
      const id = await tenantId(code);
      if (id === null) reasons.push(`tenants: no tenant with the code ${code}`);
      else if (id !== home && !memberships.includes(id)) memberships.push(id);
    }
    const nameKey = `${home}:${row.userName.toLowerCase()}`;
    if (seenNames.has(nameKey)) reasons.push('userName: appears twice in the file for this tenant');
    if (row.email && seenEmails.has(row.email.toLowerCase())) reasons.push('email: appears twice in the file');
    const roleIds: Array<{ tenantId: bigint; roleId: bigint }> = [];
    if (home !== null) {
      const [taken] = await deps.db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            eq(users.tenantId, home),
            sql`lower(${users.userName}) = ${row.userName.toLowerCase()}`,
            notDeleted(users.isDeleted),
          ),
        );
      if (taken) reasons.push('userName: already taken in the tenant');
      for (const spec of row.roles ?? []) {
        const [tenantCode, roleCode] = spec.includes(':')
          ? (spec.split(':', 2) as [string, string])
          : [undefined, spec];
        const roleTenant: bigint | null = tenantCode === undefined ? home : await tenantId(tenantCode);
        if (roleTenant === null || (roleTenant !== home && !memberships.includes(roleTenant))) {
          reasons.push(`roles: ${spec} is not in a tenant the user belongs to`);
          continue;
        }
        const [role] = await deps.db
          .select({ id: roles.id })
          .from(roles)
          .where(and(eq(roles.tenantId, roleTenant), eq(roles.roleCode, roleCode), notDeleted(roles.isDeleted)));
        if (role) roleIds.push({ tenantId: roleTenant, roleId: role.id });
        else reasons.push(`roles: no role ${roleCode} in that tenant`);
      }
    }
    if (row.email) {
      const [taken] = await deps.db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${row.email.toLowerCase()}`, notDeleted(users.isDeleted)));
      if (taken) reasons.push('email: already used by another account');
    }
    seenNames.add(nameKey);
    if (row.email) seenEmails.add(row.email.toLowerCase());
    if (reasons.length > 0 || home === null) {
      report.rejected.push({ row: rowNumber, userName: row.userName, reasons });
    } else {
      if (!options.dryRun) await writeUser(deps, row, home, memberships, roleIds);
      report.imported++;
    }
    options.progress?.(rowNumber, rows.length);
  }
  return report;
}

async function writeUser(
  deps: Deps,
  row: ImportRow,
  home: bigint,
  memberships: bigint[],
  roleIds: Array<{ tenantId: bigint; roleId: bigint }>,
): Promise<void> {
  const id = deps.ids.next();
  await deps.db.transaction(async (tx) => {
    await tx.insert(users).values({
      id,
      tenantId: home,
      userName: row.userName,
      email: row.email ?? null,
      phone: row.phone ?? null,
      emailVerified: row.emailVerified ?? false,
      phoneVerified: row.phoneVerified ?? false,
      realName: row.realName ?? null,
      nickName: row.nickName ?? null,
      status: row.status ?? 'Enabled',
      isActive: true,
    });
    await tx.insert(userSecurity).values({
      userId: id,
      // Without an imported hash nothing verifies: "!" is in no format we accept.
      passwordHash: row.passwordHash ?? '!',
      securityStamp: randomUUID(),
      mustChangePassword: row.mustChangePassword ?? false,
    });
    for (const tenantId of [home, ...memberships])
      await tx.insert(tenantMemberships).values({ id: deps.ids.next(), tenantId, userId: id });
    for (const role of roleIds)
      await tx
        .insert(userRoles)
        .values({ id: deps.ids.next(), tenantId: role.tenantId, userId: id, roleId: role.roleId });
    await tx.insert(auditEntries).values({
      id: deps.ids.next(),
      tenantId: home,
      userId: id,
      action: 'UserImported',
      targetType: 'User',
      targetId: String(id),
      detail: { via: 'cli', hashFormat: hashFormat(row.passwordHash) },
      createdTime: deps.clock.now(),
    });
  });
}

function hashFormat(hash: string | undefined): string {
  if (!hash) return 'none';
  if (hash.startsWith('$')) return hash.split('$')[1] ?? 'unknown';
  return hash.includes(':') ? 'original-pbkdf2' : 'aspnet-identity';
}

/** Every user of a tenant (or all), without any secret, as one JSON object per line. */
export async function exportUsers(
  deps: Pick<AppDeps, 'db'>,
  tenantCode: string | undefined,
  write: (line: string) => void,
): Promise<number> {
  const filter = tenantCode ? sql`lower(${tenants.code}) = ${tenantCode.toLowerCase()}` : undefined;
  const rows = await deps.db
    .select({
      id: users.id,
      tenant: tenants.code,
      userName: users.userName,
      email: users.email,
      phone: users.phone,
      realName: users.realName,
      nickName: users.nickName,
      status: users.status,
      emailVerified: users.emailVerified,
      phoneVerified: users.phoneVerified,
      createdTime: users.createdTime,
    })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(notDeleted(users.isDeleted), filter))
    .orderBy(users.createdTime, users.id);
  const ids = rows.map((r) => r.id);
  const memberships = ids.length
    ? await deps.db
        .select({ userId: tenantMemberships.userId, code: tenants.code })
        .from(tenantMemberships)
        .innerJoin(tenants, eq(tenants.id, tenantMemberships.tenantId))
        .where(inArray(tenantMemberships.userId, ids))
    : [];
  const assigned = ids.length
    ? await deps.db
        .select({ userId: userRoles.userId, tenant: tenants.code, role: roles.roleCode })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .innerJoin(tenants, eq(tenants.id, userRoles.tenantId))
        .where(inArray(userRoles.userId, ids))
    : [];
  for (const r of rows) {
    const tenantsOf = memberships.filter((m) => m.userId === r.id && m.code !== r.tenant).map((m) => m.code);
    const rolesOf = assigned
      .filter((a) => a.userId === r.id)
      .map((a) => (a.tenant === r.tenant ? a.role : `${a.tenant}:${a.role}`));
    write(
      JSON.stringify({
        ...r,
        id: String(r.id),
        tenants: tenantsOf,
        roles: rolesOf,
        createdTime: r.createdTime?.toISOString(),
      }),
    );
  }
  return rows.length;
}
