import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Database, Executor } from './client.js';

/**
 * Statements built once per database (drizzle's `.prepare()`), for hot paths where building
 * the query costs more CPU than running it. A transaction gets them built for it, since a
 * prepared statement runs on the session it was built from.
 */
export function preparedPerDatabase<T>(build: (db: Database) => T): (db: Executor) => T {
  const built = new WeakMap<Database, T>();
  return (db) => {
    if (is(db, PgTransaction)) return build(db as unknown as Database);
    let statements = built.get(db as Database);
    if (statements === undefined) built.set(db as Database, (statements = build(db as Database)));
    return statements;
  };
}
