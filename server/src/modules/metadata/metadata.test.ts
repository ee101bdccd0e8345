import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORTED_CULTURES } from '../../i18n/messages.js';
import { createTestTenant, createTestUser, loginAs } from '../../testing/auth-fixtures.js';
import type { TestServer } from '../../testing/harness.js';
import { startAdminServer } from '../../testing/admin.js';
import { ENUM_CATALOGUE } from './enum-catalogue.js';
import { labelIn } from './enum-labels.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startAdminServer();
  const tenantId = await createTestTenant(server.runtime.deps);
  const user = await createTestUser(server.runtime.deps, { tenantId });
  token = (await loginAs(server, user)).accessToken;
});
afterAll(() => server.close());

const get = (path: string, language = 'en-US', auth = true) =>
  server.json(path, { headers: { 'x-language': language, ...(auth ? { authorization: `Bearer ${token}` } : {}) } });

type Meta = {
  enumTypeName: string;
  fullName: string;
  displayName: string;
  items: Array<{ name: string; value: number; displayName: string; description: string | null }>;
};

/** The names of the enums the API writes, read from the generated document's output schemas. */
function writtenEnums(): Set<string> {
  const doc = JSON.parse(readFileSync(new URL('../../../../openapi/openapi.json', import.meta.url), 'utf8'));
  const found = new Set<string>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) {
      for (const item of x) walk(item);
      return;
    }
    if (!x || typeof x !== 'object') return;
    const o = x as Record<string, unknown>;
    const m =
      o.type === 'string' && Array.isArray(o.enum) && typeof o.description === 'string'
        ? /^(\w+): \w+ = -?\d+/.exec(o.description)
        : null;
    if (m) found.add(m[1]!);
    Object.values(o).forEach(walk);
  };
  walk(doc);
  return found;
}

describe('enum catalogue', () => {
  it('covers every enum the API writes, each member labelled in the seven cultures', () => {
    const written = writtenEnums();
    expect(written.size).toBeGreaterThan(10);
    const covered = new Set(ENUM_CATALOGUE.map((e) => e.fullName.replace(/^Portcullis\./, '')));
    expect([...written].filter((n) => !covered.has(n))).toEqual([]);
    for (const entry of ENUM_CATALOGUE) {
      expect(Object.keys(entry.items).sort(), entry.typeName).toEqual(Object.keys(entry.values).sort());
      for (const labels of [entry.displayName, ...Object.values(entry.items)]) {
        expect(labels).toHaveLength(SUPPORTED_CULTURES.length);
        for (const text of labels) expect(text.trim(), entry.typeName).not.toBe('');
      }
    }
    expect(new Set(ENUM_CATALOGUE.map((e) => e.typeName)).size).toBe(ENUM_CATALOGUE.length);
  });
});

describe('EnumMetadata', () => {
  it('AllEnums lists names, values and labels in the request culture', async () => {
    const en = await get('/api/EnumMetadata/AllEnums');
    expect(en.status).toBe(200);
    const list = en.body.data as Meta[];
    expect(list.map((m) => m.enumTypeName)).toEqual(ENUM_CATALOGUE.map((e) => e.typeName));
    const gender = list.find((m) => m.enumTypeName === 'UserGender')!;
    expect(gender).toEqual({
      enumTypeName: 'UserGender',
      fullName: 'Portcullis.Gender',
      displayName: 'User Gender',
      items: [
        { name: 'Unknown', value: 0, displayName: 'Unknown' },
        { name: 'Male', value: 1, displayName: 'Male' },
        { name: 'Female', value: 2, displayName: 'Female' },
      ],
    });
    const login = list.find((m) => m.enumTypeName === 'LoginResult')!;
    expect(login.items.find((i) => i.name === 'Failed')).toMatchObject({ value: 99, displayName: 'Other Failure' });

    for (const culture of SUPPORTED_CULTURES) {
      const res = await get('/api/EnumMetadata/AllEnums', culture);
      const status = (res.body.data as Meta[]).find((m) => m.enumTypeName === 'TenantStatus')!;
      const entry = ENUM_CATALOGUE.find((e) => e.typeName === 'TenantStatus')!;
      expect(status.displayName).toBe(labelIn(entry.displayName, culture));
      expect(status.items.map((i) => i.displayName)).toEqual(
        Object.keys(entry.values).map((n) => labelIn(entry.items[n]!, culture)),
      );
    }
    const zh = (await get('/api/EnumMetadata/AllEnums', 'zh-CN')).body.data as Meta[];
    expect(zh.find((m) => m.enumTypeName === 'UserGender')!.items.map((i) => i.displayName)).toEqual([
      '未知',
      '男',
      '女',
    ]);
  });

  it('Enum answers one enum by short or full name; unknown names are 404, bad input 400', async () => {
    const byShort = await get('/api/EnumMetadata/Enum?enumTypeName=DepartmentType');
    expect(byShort.status).toBe(200);
    expect(byShort.body.data.items.find((i: { name: string }) => i.name === 'Other')).toMatchObject({ value: 99 });
    const byFull = await get('/api/EnumMetadata/Enum?enumTypeName=Portcullis.Gender', 'de-DE');
    expect(byFull.body.data).toMatchObject({ enumTypeName: 'UserGender', displayName: 'Geschlecht' });

    const unknown = await get('/api/EnumMetadata/Enum?enumTypeName=NoSuchEnum');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ isSuccess: false });
    expect(String(unknown.body.data ?? unknown.body.message)).toContain('NoSuchEnum');
    for (const q of ['', '?enumTypeName=', `?enumTypeName=${'x'.repeat(200)}`]) {
      const bad = await get(`/api/EnumMetadata/Enum${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.isSuccess).toBe(false);
    }
  });

  it('needs a login', async () => {
    for (const path of [
      '/api/EnumMetadata/AllEnums',
      '/api/EnumMetadata/Enum?enumTypeName=MenuType',
      '/api/TimeZoneMetadata/TimeZoneOptions',
    ]) {
      const res = await get(path, 'en-US', false);
      expect(res.status, path).toBe(401);
      expect(res.body.isSuccess).toBe(false);
    }
  });
});

describe('TimeZoneMetadata/TimeZoneOptions', () => {
  it('lists IANA zones, UTC first, then by base offset, with daylight saving flags', async () => {
    const res = await get('/api/TimeZoneMetadata/TimeZoneOptions');
    expect(res.status).toBe(200);
    const zones = res.body.data as Array<{
      id: string;
      displayName: string;
      baseUtcOffsetMinutes: number;
      supportsDaylightSavingTime: boolean;
    }>;
    expect(zones.length).toBeGreaterThan(300);
    expect(zones[0]).toMatchObject({ id: 'UTC', baseUtcOffsetMinutes: 0, supportsDaylightSavingTime: false });
    for (const z of zones)
      expect(Object.keys(z).sort()).toEqual([
        'baseUtcOffsetMinutes',
        'displayName',
        'id',
        'supportsDaylightSavingTime',
      ]);
    const rest = zones.slice(1).map((z) => z.baseUtcOffsetMinutes);
    expect(rest).toEqual([...rest].sort((a, b) => a - b));
    const byId = new Map(zones.map((z) => [z.id, z]));
    expect(byId.get('Asia/Shanghai')).toEqual({
      id: 'Asia/Shanghai',
      displayName: '(UTC+08:00) Asia/Shanghai',
      baseUtcOffsetMinutes: 480,
      supportsDaylightSavingTime: false,
    });
    expect(byId.get('Asia/Tokyo')).toMatchObject({ baseUtcOffsetMinutes: 540, supportsDaylightSavingTime: false });
    expect(byId.get('America/New_York')).toMatchObject({
      baseUtcOffsetMinutes: -300,
      supportsDaylightSavingTime: true,
      displayName: '(UTC-05:00) America/New_York',
    });
    expect(byId.get('Australia/Sydney')).toMatchObject({ baseUtcOffsetMinutes: 600, supportsDaylightSavingTime: true });
    expect(new Set(zones.map((z) => z.id)).size).toBe(zones.length);
  });
});
