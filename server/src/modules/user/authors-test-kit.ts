import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { users } from '../../../../db/schema/index.js';
import type { TestUser } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { TENANT_ADMIN_CODES } from '../permission/admin-test-kit.js';
import { tenantUser, type AdminApi, type Call } from '../../testing/admin.js';

/**
 * The "created by / modified by" check shared by the tests of roles, departments, positions and
 * menus (see authors.ts): each module says how to create, update and read its records over HTTP.
 */
export interface AuthorsCase {
  server: TestServer;
  tenantId: bigint;
  /** The tenant's administrator (tenantWithAdmin's), who creates the first record. */
  creator: { user: TestUser; api: AdminApi };
  /** Creates a record; `n` keeps codes and names apart. Answers the create call. */
  create(api: AdminApi, n: number): Promise<Call>;
  update(api: AdminApi, id: string): Promise<Call>;
  detail(api: AdminApi, id: string): Promise<Call>;
  /** Every list endpoint of the module, as the flat items it answers (both records among them). */
  lists: Array<(api: AdminApi) => Promise<Array<{ basicId: string }>>>;
}

const absent = (value: Record<string, unknown>, ...keys: string[]) => {
  for (const key of keys) expect(value, key).not.toHaveProperty(key);
};

/**
 * A record created by one administrator and updated by a second names them in createdId /
 * createdBy and modifiedId / modifiedBy (ids as strings, user names as names) in the write's
 * answer, the detail and every list; a record the second one created lists with its own author,
 * so a page with two authors resolves each row to the right one. Once the second administrator
 * is deleted, the ids stay and the name is gone.
 */
export async function expectAuthors(c: AuthorsCase): Promise<void> {
  const { user: editor, api: editorApi } = await tenantUser(c.server, c.tenantId, TENANT_ADMIN_CODES);
  const byCreator = { createdId: String(c.creator.user.id), createdBy: c.creator.user.userName };

  const created = await c.create(c.creator.api, 1);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  expect(created.body.data).toMatchObject(byCreator);
  absent(created.body.data, 'modifiedId', 'modifiedBy');
  const id = created.body.data.basicId as string;
  const other = await c.create(editorApi, 2);
  expect(other.status, JSON.stringify(other.body)).toBe(200);
  const otherId = other.body.data.basicId as string;

  const updated = await c.update(editorApi, id);
  expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  const edited = { ...byCreator, modifiedId: String(editor.id), modifiedBy: editor.userName };
  expect(updated.body.data).toMatchObject(edited);
  expect((await c.detail(c.creator.api, id)).body.data).toMatchObject(edited);
  for (const list of c.lists) {
    const items = await list(c.creator.api);
    expect(items.find((i) => i.basicId === id)).toMatchObject(edited);
    expect(items.find((i) => i.basicId === otherId)).toMatchObject({
      createdId: String(editor.id),
      createdBy: editor.userName,
    });
  }

  await c.server.runtime.deps.db
    .update(users)
    .set({ isDeleted: true, deletedTime: new Date() })
    .where(eq(users.id, editor.id));
  const after = (await c.detail(c.creator.api, id)).body.data;
  expect(after).toMatchObject({ ...byCreator, modifiedId: String(editor.id) });
  absent(after, 'modifiedBy');
}
