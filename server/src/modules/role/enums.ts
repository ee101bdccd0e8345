import { defineEnum } from '../../rpc/wire.js';
import { DATA_SCOPES } from '../authz/snapshot.js';

/** What a role is: seeded by the system (read-only) or made by administrators. */
export const RoleType = defineEnum('RoleType', { System: 0, Custom: 1 });

/**
 * How much data a role's holders see in lists, widest first (the snapshot's order):
 * every record, the departments chosen for the role, own department and below, own department,
 * own records only.
 */
export const DataScope = defineEnum('DataScope', { All: 0, Custom: 1, DeptAndBelow: 2, Dept: 3, Self: 4 });

// The enum and the snapshot must agree on the names.
if (DataScope.names.join() !== DATA_SCOPES.join()) throw new Error('DataScope names differ from the snapshot');
