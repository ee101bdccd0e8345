import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import type { AuditAction } from '../audit/write.js';
import { expectAuthors } from '../user/authors-test-kit.js';
import {
  auditEntry,
  startAdminServer,
  tenantUser,
  tenantWithAdmin,
  watchAudit,
  type AdminApi,
  type Call,
} from '../../testing/admin.js';
import { TENANT_ADMIN } from '../permission/admin-test-kit.js';

let server: TestServer;
let api: AdminApi;
let tenantId: bigint;
let creator: TestUser;
beforeAll(async () => {
  server = await startAdminServer();
  ({ api, tenantId, user: creator } = await tenantWithAdmin(server, TENANT_ADMIN));
});
afterAll(() => server.close());

const ids = (items: Array<{ basicId: string }>) => items.map((i) => i.basicId);

describe('positions', () => {
  it('create, read, list, update with versions, switch status, delete; codes unique per tenant', async () => {
    const created = await api.post('/api/Position/Position', {
      positionCode: 'eng',
      positionName: 'Engineer',
      sort: 2,
      remark: 'builds',
    });
    expect(created.body.data).toMatchObject({
      positionCode: 'eng',
      positionName: 'Engineer',
      status: 'Enabled',
      sort: 2,
      version: 0,
    });
    const id = created.body.data.basicId;
    const other = (await api.post('/api/Position/Position', { positionCode: 'mgr', positionName: 'Manager', sort: 1 }))
      .body.data.basicId;
    expect((await api.post('/api/Position/Position', { positionCode: 'ENG', positionName: 'Twin' })).status).toBe(409);
    expect((await api.post('/api/Position/Position', { positionCode: '', positionName: 'x' })).status).toBe(400);

    expect((await api.get('/api/PositionQuery/PositionDetail', { id })).body.data.remark).toBe('builds');
    expect(ids((await api.post('/api/PositionQuery/PositionPage', {})).body.data.items)).toEqual([other, id]);
    expect(ids((await api.post('/api/PositionQuery/PositionPage', { keyword: 'engin' })).body.data.items)).toEqual([
      id,
    ]);
    const sorted = await api.post('/api/PositionQuery/PositionPage', {
      conditions: { sorts: [{ field: 'positionName', direction: 'Descending' }] },
    });
    expect(ids(sorted.body.data.items)).toEqual([other, id]);

    // The status is not part of an update: it has its own operation and permission code.
    expect(
      (
        await api.put('/api/Position/Position', {
          basicId: id,
          version: 0,
          positionName: 'Senior engineer',
          status: 'Disabled',
        })
      ).body.data,
    ).toMatchObject({ positionName: 'Senior engineer', status: 'Enabled', version: 1 });
    expect((await api.put('/api/Position/Position', { basicId: id, version: 0, positionName: 'Stale' })).status).toBe(
      409,
    );
    expect((await api.put('/api/Position/PositionStatus', { basicId: id, status: 'Disabled' })).body.data.status).toBe(
      'Disabled',
    );
    expect(ids((await api.get('/api/PositionQuery/EnabledPositions')).body.data)).toEqual([other]);
    expect(ids((await api.post('/api/PositionQuery/PositionPage', { status: 'Disabled' })).body.data.items)).toEqual([
      id,
    ]);

    expect((await api.del('/api/Position/Position', { id })).body.data).toBe(true);
    expect((await api.get('/api/PositionQuery/PositionDetail', { id })).status).toBe(404);
    expect((await api.del('/api/Position/Position', { id })).status).toBe(404);
    // An id in the body instead of the query string binds 0 (SPEC Errors rule 7): nothing is found.
    expect((await api.del('/api/Position/Position')).status).toBe(404);
  });
});

describe('position audit', () => {
  const entry = (call: Call, action: AuditAction, id: string, detail: Record<string, unknown>) =>
    auditEntry(call, { action, actor: creator.id, tenantId, targetType: 'Position', targetId: id, detail });

  it('records one entry per position write; refused writes record none', async () => {
    const audit = await watchAudit(server);
    const created = await api.post('/api/Position/Position', { positionCode: 'aud', positionName: 'Auditor' });
    const id = created.body.data.basicId as string;
    expect(await audit()).toEqual([
      entry(created, 'PositionCreated', id, { positionCode: 'aud', positionName: 'Auditor' }),
    ]);
    const updated = await api.put('/api/Position/Position', { basicId: id, positionName: 'Lead auditor', sort: 3 });
    expect(await audit()).toEqual([
      entry(updated, 'PositionUpdated', id, { positionCode: 'aud', fields: ['positionName', 'sort'] }),
    ]);
    const disabled = await api.put('/api/Position/PositionStatus', { basicId: id, status: 'Disabled' });
    expect(await audit()).toEqual([
      entry(disabled, 'PositionStatusChanged', id, { positionCode: 'aud', from: 'Enabled', to: 'Disabled' }),
    ]);

    // A duplicate code fails at the insert, inside the transaction that would write the entry.
    expect((await api.post('/api/Position/Position', { positionCode: 'AUD', positionName: 'Twin' })).status).toBe(409);
    expect((await api.put('/api/Position/Position', { basicId: id, version: 0, positionName: 'Stale' })).status).toBe(
      409,
    );
    const { api: reader } = await tenantUser(server, tenantId, ['saas:position:read']);
    expect((await reader.del('/api/Position/Position', { id })).status).toBe(403);
    expect(await audit()).toEqual([]);

    const deleted = await api.del('/api/Position/Position', { id });
    expect(await audit()).toEqual([
      entry(deleted, 'PositionDeleted', id, { positionCode: 'aud', positionName: 'Lead auditor' }),
    ]);
    expect((await api.del('/api/Position/Position', { id })).status).toBe(404);
    expect(await audit()).toEqual([]);
  });
});

describe('position authors', () => {
  it('names who created and who last changed a position (id and user name), in the detail and the page', () =>
    expectAuthors({
      server,
      tenantId,
      creator: { user: creator, api },
      create: (as, n) =>
        as.post('/api/Position/Position', { positionCode: `authored-${n}`, positionName: `Authored ${n}` }),
      update: (as, id) => as.put('/api/Position/Position', { basicId: id, remark: 'edited' }),
      detail: (as, id) => as.get('/api/PositionQuery/PositionDetail', { id }),
      lists: [
        async (as) => (await as.post('/api/PositionQuery/PositionPage', { keyword: 'authored' })).body.data.items,
      ],
    }));
});
