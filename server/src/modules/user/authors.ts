import { and, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { users } from '../../../../db/schema/index.js';
import type { Executor } from '../../infra/db/client.js';
import { zIdOut } from '../../rpc/wire.js';
import { notDeleted } from '../../infra/db/predicates.js';

/**
 * "Created by / modified by" of the records people edit (roles, departments, positions, menus).
 * The original's details carry the author twice (its BasicApp detail DTOs): `createdId` /
 * `modifiedId` (the user's id) and `createdBy` / `modifiedBy` (the user's name), and the admin
 * front end shows the name. The tables keep only the ids, so the names are looked up here.
 */

/** The output fields (null, hence omitted, for a row the system wrote or whose author is gone). */
export const authorShape = {
  createdId: zIdOut().nullable().optional(),
  createdBy: z.string().nullable().optional(),
  modifiedId: zIdOut().nullable().optional(),
  modifiedBy: z.string().nullable().optional(),
};

/** The bookkeeping columns every such table has (`auditColumns`). */
export interface Authored {
  createdBy: bigint | null;
  modifiedBy: bigint | null;
}

export interface AuthorFields {
  createdId: string | null;
  createdBy: string | null;
  modifiedId: string | null;
  modifiedBy: string | null;
}

export type Authors = (row: Authored) => AuthorFields;

/**
 * Resolves the authors of every row given with one query, whatever their number (a page, a
 * tree, one detail): never a query per row. A deleted user has no name here, like a missing
 * one: deletion frees the user name, which may belong to someone else by now.
 */
export async function authorsOf(db: Executor, rows: readonly Authored[]): Promise<Authors> {
  const ids = new Set<bigint>();
  for (const row of rows) {
    if (row.createdBy !== null) ids.add(row.createdBy);
    if (row.modifiedBy !== null) ids.add(row.modifiedBy);
  }
  const names = new Map<bigint, string>();
  if (ids.size) {
    const found = await db
      .select({ id: users.id, userName: users.userName })
      .from(users)
      .where(and(inArray(users.id, [...ids]), notDeleted(users.isDeleted)));
    for (const user of found) names.set(user.id, user.userName);
  }
  const name = (id: bigint | null) => (id === null ? null : (names.get(id) ?? null));
  const id = (value: bigint | null) => (value === null ? null : String(value));
  return (row) => ({
    createdId: id(row.createdBy),
    createdBy: name(row.createdBy),
    modifiedId: id(row.modifiedBy),
    modifiedBy: name(row.modifiedBy),
  });
}
