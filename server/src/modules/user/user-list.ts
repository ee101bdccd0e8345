import { sql } from 'drizzle-orm';
import { users } from '../../../../db/schema/index.js';
import { definePagedList } from '../../query/index.js';
import { Gender, UserStatus } from './enums.js';

/**
 * The users list of UserQuery/UserPage in a context (built per request: a few field objects): the fields a caller may filter and sort on, and which
 * of them need a permission. Contact data (e-mail, phone) takes part only for holders of
 * `saas:user:read-contact`. A keyword without fields searches the user name, the nick name, the
 * e-mail and the phone (the last two for holders of that code only); the real name is searched
 * when asked for by name.
 */
export function userListIn(tenantId: bigint) {
  // Facts of the account's home (its logins, its last change) are not shown for members from
  // elsewhere (queries.ts, atHome): filtering or sorting on them must not reveal them either,
  // so for such members they read as empty. The platform state sees them all.
  const atHome = <C>(column: C) =>
    tenantId === 0n ? column : sql`(case when ${users.tenantId} = ${tenantId} then ${column} end)`;
  return definePagedList({
    fields: {
      basicId: { column: users.id, type: 'id' },
      userName: { column: users.userName, type: 'string', keyword: true },
      nickName: { column: users.nickName, type: 'string', keyword: true },
      realName: { column: users.realName, type: 'string', keyword: true },
      email: { column: users.email, type: 'string', keyword: true, permission: 'saas:user:read-contact' },
      phone: {
        column: users.phone,
        type: 'string',
        foldCase: false,
        keyword: true,
        permission: 'saas:user:read-contact',
      },
      gender: { column: users.gender, type: 'enum', enum: Gender, stored: 'number' },
      status: { column: users.status, type: 'enum', enum: UserStatus },
      country: { column: users.country, type: 'string' },
      isSystemAccount: { column: users.isSystemAccount, type: 'boolean' },
      lastLoginTime: { column: atHome(users.lastLoginTime), type: 'datetime' },
      createdTime: { column: users.createdTime, type: 'datetime' },
      modifiedTime: { column: atHome(users.modifiedTime), type: 'datetime' },
    },
    defaultSort: [{ field: 'createdTime', direction: 'Descending' }],
    tieBreaker: users.id,
    defaultKeywordFields: ['userName', 'nickName', 'email', 'phone'],
  });
}
