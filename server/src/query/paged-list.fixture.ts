import { and, eq, sql } from 'drizzle-orm';
import { tenants, users } from '../../../db/schema/index.js';
import type { Database, Executor } from '../infra/db/client.js';
import type { IdGenerator } from '../infra/ids.js';
import { defineEnum } from '../rpc/wire.js';
import { definePagedList, type PagedResult } from './paged-list.js';
import { pagedRequestSchema } from './paged-request.js';
import { notDeleted } from '../infra/db/predicates.js';

/*
 * Test-only: a users list over fixture rows, shared by the paged-list test files.
 */

/** Stand-ins for the modules' enums: one stored by name, one by number. */
export const TestUserStatus = defineEnum('TestUserStatus', { Enabled: 1, Disabled: 2 });
/** Stored as its number (users.gender is a smallint). */
export const TestGender = defineEnum('TestGender', { Unknown: 0, Male: 1, Female: 2 });

/** Permission codes of the fixture's guarded fields. */
export const EMAIL_PERMISSION = 'test:user:email';

/** The list under test: every field type, a guarded field, a masked one, flags off, an expression. */
export const userList = definePagedList({
  fields: {
    id: { column: users.id, type: 'id' },
    userName: { column: users.userName, type: 'string', keyword: true },
    nickName: { column: users.nickName, type: 'string', keyword: true },
    email: { column: users.email, type: 'string', keyword: true, permission: EMAIL_PERMISSION },
    phone: { column: users.phone, type: 'string', keyword: true, foldCase: false, masked: true },
    remark: { column: users.remark, type: 'string', filterable: false, sortable: false },
    status: { column: users.status, type: 'enum', enum: TestUserStatus },
    gender: { column: users.gender, type: 'enum', enum: TestGender, stored: 'number' },
    genderCode: { column: users.gender, type: 'integer' },
    genderScore: { column: users.gender, type: 'number' },
    isActive: { column: users.isActive, type: 'boolean' },
    createdTime: { column: users.createdTime, type: 'datetime' },
    lastLoginTime: { column: users.lastLoginTime, type: 'datetime' },
    nameLength: { column: sql`length(${users.userName})`, type: 'integer' },
    // An expression with an OR in it: it must be compared as a whole.
    famous: { column: sql`${users.userName} = 'BOB' or ${users.userName} = 'Alice'`, type: 'boolean' },
  },
  defaultKeywordFields: ['userName', 'nickName', 'email'],
  defaultSort: [{ field: 'createdTime', direction: 'Descending' }],
  tieBreaker: users.id,
});

/** One fixture user as inserted. */
export interface FixtureUser {
  id: bigint;
  tenantId: bigint;
  userName: string;
  nickName: string | null;
  email: string | null;
  phone: string | null;
  remark: string | null;
  status: 'Enabled' | 'Disabled';
  gender: number;
  isActive: boolean;
  createdTime: Date;
  lastLoginTime: Date | null;
  isDeleted: boolean;
}

/** The fixture's time origin; creation and login times are whole hours after it. */
export const T0 = Date.UTC(2025, 0, 1);
const HOUR = 3_600_000;

type Seed = Pick<FixtureUser, 'userName'> & Omit<Partial<FixtureUser>, 'id' | 'tenantId'>;

function regular(i: number): Seed {
  const nn = String(i).padStart(2, '0');
  return {
    userName: `member${nn}`,
    nickName: i % 5 === 0 ? null : `Nick${nn}`,
    email: i % 4 === 0 ? null : `member${nn}@${i % 2 ? 'example.com' : 'corp.test'}`,
    phone: i % 3 === 0 ? null : `1380000${nn}`,
    status: i % 3 === 0 ? 'Disabled' : 'Enabled',
    gender: i % 3,
    isActive: i % 2 === 0,
    // Pairs share a creation time, so the tie-breaker decides their order.
    createdTime: new Date(T0 + Math.floor(i / 2) * HOUR),
    lastLoginTime: i % 4 === 1 ? null : new Date(T0 + 100 * HOUR + i * HOUR),
  };
}

const SPECIAL: Seed[] = [
  { userName: 'Alice', nickName: 'Ally', email: 'alice@example.com', gender: 2 },
  { userName: 'alicia', nickName: 'Lisa', email: 'ALICIA@Example.COM', gender: 2, status: 'Disabled' },
  { userName: 'BOB', nickName: null, email: 'bob@corp.test', gender: 1 },
  { userName: '50%_off', nickName: 'percent', email: null, remark: 'secret remark' },
  { userName: '50xxoff', nickName: 'twin' },
  { userName: 'under_score', nickName: 'us' },
  { userName: 'underXscore', nickName: 'twin2' },
  { userName: 'back\\slash', nickName: 'bs' },
  { userName: "o'brien", nickName: "O'B" },
  { userName: "x' OR '1'='1", nickName: 'quote' },
];

/** The fixture: 40 live users in `tenantId`, a deleted one there, and look-alikes in `otherTenantId`. */
export async function seedUsers(
  db: Database,
  ids: IdGenerator,
): Promise<{ tenantId: bigint; otherTenantId: bigint; rows: FixtureUser[] }> {
  const tenantId = ids.next();
  const otherTenantId = ids.next();
  await db.insert(tenants).values([
    { id: tenantId, code: `q${tenantId}`, name: 'Query tenant' },
    { id: otherTenantId, code: `q${otherTenantId}`, name: 'Other tenant' },
  ]);
  const make = (p: Seed, tenant: bigint, n: number, isDeleted = false): FixtureUser => ({
    id: ids.next(),
    tenantId: tenant,
    nickName: null,
    email: null,
    phone: null,
    remark: null,
    status: 'Enabled',
    gender: 0,
    isActive: true,
    createdTime: new Date(T0 + (20 + n) * HOUR),
    lastLoginTime: null,
    isDeleted,
    ...p,
  });
  const rows = [
    ...Array.from({ length: 30 }, (_, i) => make(regular(i), tenantId, i)),
    ...SPECIAL.map((p, i) => make(p, tenantId, i)),
  ];
  const hidden = [
    make({ userName: 'deleted_alice', nickName: 'Ally', email: 'deleted@example.com', gender: 2 }, tenantId, 50, true),
    ...['Alice', 'member00', 'outsider', "o'brien"].map((userName, i) =>
      make({ userName, nickName: 'Ally', email: `${i}@other.test`, gender: 2 }, otherTenantId, 60 + i),
    ),
  ];
  await db.insert(users).values([...rows, ...hidden]);
  return { tenantId, otherTenantId, rows };
}

/** The base condition of the fixture list: one tenant, live rows. */
export function baseOf(tenantId: bigint) {
  return and(eq(users.tenantId, tenantId), notDeleted(users.isDeleted));
}

/** The columns the tests read back. */
export const selectUsers = (q: Executor) =>
  q
    .select({ id: users.id, userName: users.userName, tenantId: users.tenantId, isDeleted: users.isDeleted })
    .from(users)
    .$dynamic();

/** Parses a body as the router would, then runs the list. */
export async function runUsers(
  db: Executor,
  tenantId: bigint,
  body: unknown,
  permissions: readonly string[] = [],
): Promise<PagedResult<{ id: bigint; userName: string; tenantId: bigint; isDeleted: boolean }>> {
  const request = pagedRequestSchema.parse(body);
  return userList.run(db, {
    request,
    base: baseOf(tenantId),
    can: (p) => permissions.includes(p),
    select: selectUsers,
  });
}
