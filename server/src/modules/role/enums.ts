import { z } from 'zod';
import { defineEnum, docOverrides, type EnumDefinition } from '../../rpc/wire.js';
import { DATA_SCOPES } from '../authz/snapshot.js';

/*
 * Names and numbers are the original's (XiHan.BasicApp, Saas/Domain/Enums): its admin front end
 * sends and reads them, so a number must mean here what it means there.
 */

/** What a role is: seeded by the system, a business role, or one made by administrators. */
export const RoleType = defineEnum('RoleType', { System: 0, Business: 1, Custom: 2 });

const dataScope = defineEnum('DataPermissionScope', {
  SelfOnly: 0,
  DepartmentOnly: 1,
  DepartmentAndChildren: 2,
  All: 3,
  Custom: 99,
});

/**
 * The names this service wrote before it took the original's. Still read (same meaning), never
 * written. The old numbers cannot be kept: the original gives them other members.
 */
const FORMER_NAMES: Record<string, (typeof dataScope.names)[number]> = {
  self: 'SelfOnly',
  dept: 'DepartmentOnly',
  deptandbelow: 'DepartmentAndChildren',
};

/**
 * How much data a role's holders see in lists: own records only, own department, own department
 * and below, everything, or the departments chosen for the role (Custom). The numbers say nothing
 * about width (Custom is 99); the snapshot orders the scopes itself (DATA_SCOPES, widest first).
 */
export const DataScope: EnumDefinition<(typeof dataScope.names)[number]> = {
  ...dataScope,
  schema: () => {
    const strict = dataScope.schema();
    const lenient = z.preprocess(
      (v) => (typeof v === 'string' ? (FORMER_NAMES[v.trim().toLowerCase()] ?? v) : v),
      strict,
    );
    // Documented as the strict schema: the former names are not advertised.
    docOverrides.set(lenient, docOverrides.get(strict)!);
    return lenient as unknown as ReturnType<typeof dataScope.schema>;
  },
};

// The enum and the snapshot must know the same scopes.
if ([...DataScope.names].sort().join() !== [...DATA_SCOPES].sort().join())
  throw new Error('DataScope names differ from the snapshot');
