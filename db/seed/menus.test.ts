import { describe, expect, it } from 'vitest';
import { PERMISSION_CATALOGUE } from '../../server/src/modules/authz/permission-catalogue.js';
import { SEED_MENUS, type SeedMenu } from './menus.js';

describe('seed menus', () => {
  it('name only permission codes of the catalogue (an unknown one would leave a menu ungated)', () => {
    const codes = new Set(PERMISSION_CATALOGUE.map((p) => p.code));
    const walk = (menus: SeedMenu[]): string[] =>
      menus.flatMap((m) => [...(m.permission ? [m.permission] : []), ...walk(m.children ?? [])]);
    const unknown = walk(SEED_MENUS).filter((code) => !codes.has(code));
    expect(unknown).toEqual([]);
  });

  it('gate every button', () => {
    const walk = (menus: SeedMenu[]): SeedMenu[] => menus.flatMap((m) => [m, ...walk(m.children ?? [])]);
    expect(walk(SEED_MENUS).filter((m) => m.type === 'Button' && !m.permission)).toEqual([]);
  });
});
