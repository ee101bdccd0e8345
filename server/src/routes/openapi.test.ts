import { describe, expect, it } from 'vitest';
import { appRouter, serviceRoutes } from '../app-router.js';
import { buildOpenApiDocument } from './openapi.js';
import { buildRouteTable } from './table.js';

type Json = Record<string, any>;

const document = buildOpenApiDocument(buildRouteTable(appRouter, serviceRoutes), {
  title: 'Portcullis',
  version: 'test',
}) as Json;
const bodyOf = (path: string, method = 'post'): Json =>
  document.paths[path][method].requestBody.content['application/json'].schema;

function patterns(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) patterns(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') found.push(value);
      else patterns(value, found);
    }
  }
  return found;
}

describe('OpenAPI input schemas', () => {
  it('describe a normalized string by what its check accepts: e-mail format, enum choices', () => {
    expect(bodyOf('/api/Auth/EmailLoginCode').properties.email).toMatchObject({
      type: 'string',
      maxLength: 254,
      format: 'email',
    });
    const method = bodyOf('/api/Auth/Login').properties.twoFactorMethod;
    expect(method.anyOf[0]).toMatchObject({ type: 'string', enum: ['totp', 'email', 'phone', 'recovery'] });
  });

  it('describe a phone number as accepted, separators included', () => {
    const phone = bodyOf('/api/Auth/PhoneLoginCode').properties.phone;
    const pattern = new RegExp(phone.pattern as string, 'u');
    for (const ok of ['+86 138-0000-0000', '(010) 1234.5678', '13800000000']) expect(pattern.test(ok)).toBe(true);
    for (const bad of ['abc', '12 34', '+']) expect(pattern.test(bad)).toBe(false);
  });

  it('has only patterns a client can compile', () => {
    const all = patterns(document);
    expect(all.length).toBeGreaterThan(10);
    for (const p of all) expect(() => new RegExp(p, 'u'), p).not.toThrow();
  });
});

describe('OpenAPI output and security', () => {
  const dataOf = (path: string, method = 'post'): Json =>
    document.paths[path][method].responses['200'].content['application/json'].schema.allOf[1].properties.data;

  it('types the LoginToken dates as the plain `YYYY-MM-DD HH:mm:ss` text they are written as', () => {
    const issuedAt = dataOf('/api/Auth/RefreshToken').properties.issuedAt;
    expect(issuedAt).toMatchObject({ type: 'string' });
    expect(new RegExp(issuedAt.pattern).test('2026-11-21 18:00:00')).toBe(true);
    expect(new RegExp(issuedAt.pattern).test('2026-11-21T18:00:00Z')).toBe(false);
  });

  it('asks for the signature headers on the signed endpoints and a Bearer token on the logged-in ones', () => {
    const signed = ['SignedAccessKey', 'SignedTimestamp', 'SignedNonce', 'SignedSignature', 'SignedContent'];
    expect(Object.keys(document.paths['/api/openapi/Ping'].get.security[0]).sort()).toEqual([...signed].sort());
    expect(Object.keys(document.paths['/api/openapi/Echo'].post.security[0]).sort()).toEqual([...signed].sort());
    for (const name of signed) expect(document.components.securitySchemes[name]).toBeDefined();
    expect(document.paths['/api/Auth/UserInfo'].get.security).toEqual([{ Bearer: [] }]);
    expect(document.paths['/api/Auth/Login'].post.security).toEqual([]);
  });
});

describe('OpenAPI document structure', () => {
  const dataOf = (path: string, method: string): Json =>
    document.paths[path][method].responses['200'].content['application/json'].schema.allOf[1].properties.data;
  const text = JSON.stringify(document);

  it('keeps recursive schemas in components/schemas, referred to from there', () => {
    expect(text).not.toContain('$defs');
    expect(dataOf('/api/DepartmentQuery/DepartmentTree', 'get').items).toEqual({
      $ref: '#/components/schemas/DepartmentTreeNode',
    });
    expect(dataOf('/api/MenuQuery/MenuTree', 'get').items).toEqual({ $ref: '#/components/schemas/MenuTreeNode' });
    expect(document.components.schemas.DepartmentTreeNode.properties.children.items).toEqual({
      $ref: '#/components/schemas/DepartmentTreeNode',
    });
    expect(document.components.schemas.PermissionMenuNode).toBeDefined();
    const refs = text.match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of refs) {
      const target = JSON.parse(`{${ref}}`).$ref as string;
      const [, section, name] = target.split('/').slice(1);
      expect(document.components[section!]?.[name!], target).toBeDefined();
    }
  });

  it('does not require a property that may be null: the serializer leaves it out', () => {
    const items = dataOf('/api/UserQuery/UserPage', 'post').properties.items.items;
    for (const key of ['realName', 'avatar', 'phone']) {
      expect(items.properties[key]).toBeDefined();
      expect(items.required).not.toContain(key);
    }
    expect(items.required).toContain('userName');
    expect(dataOf('/api/UserQuery/UserPage', 'post').required).not.toContain('extendDatas');
  });

  it('gives the ended-session code 10001 in the 401 description', () => {
    expect(document.components.responses.E401.description).toMatch(/10001/);
  });
});
