import type { departments } from '../../../../db/schema/department.js';
import type { Clock } from '../../infra/clock.js';
import type { Database } from '../../infra/db/client.js';
import type { IdGenerator } from '../../infra/ids.js';
import type { Actor } from '../audit/change.js';

/** A department row as stored. */
export type Department = typeof departments.$inferSelect;

/** A department with its sub-departments, as `tree` returns it. */
export interface DepartmentNode extends Department {
  children: DepartmentNode[];
}

/** What the service needs; `AppDeps` satisfies it. */
export interface DepartmentServiceDeps {
  db: Database;
  ids: IdGenerator;
  clock: Clock;
}

/**
 * The editable fields besides name and parent. On update, `undefined` leaves a field as it is
 * and `null` clears a nullable one.
 */
export interface DepartmentFields {
  departmentCode?: string | null;
  /** A DepartmentType name (the column has a default and no null). */
  departmentType?: string;
  leaderId?: bigint | null;
  phone?: string | null;
  email?: string | null;
  address?: string | null;
  /** Enabled | Disabled. */
  status?: string;
  sort?: number;
  remark?: string | null;
}

/** Input of `create`. */
export interface CreateDepartmentInput extends DepartmentFields {
  tenantId: bigint;
  /** Absent or null: a root department. */
  parentId?: bigint | null;
  departmentName: string;
  /** The user who acts (created_by); null for system work. */
  actorId?: bigint | null;
  /** The caller of an administration request: the change is audited in its transaction. */
  audit?: Actor;
}

/** Input of `update`: only the fields present change. */
export interface UpdateDepartmentInput extends DepartmentFields {
  tenantId: bigint;
  id: bigint;
  /** A new name renames the department and the pathName of its whole subtree. */
  departmentName?: string;
  /** Present (null = root) moves the department with its subtree. */
  parentId?: bigint | null;
  /** The version the caller read; a stale one answers 409. Absent: last write wins. */
  expectedVersion?: number;
  actorId?: bigint | null;
  /** The caller of an administration request: the change is audited in its transaction. */
  audit?: Actor;
}

/** Input of `setStatus`. */
export type DepartmentStatusInput = Pick<
  UpdateDepartmentInput,
  'tenantId' | 'id' | 'expectedVersion' | 'actorId' | 'audit'
> & { status: string };

/** One closure pair as stored in department_hierarchy. */
export interface ClosurePair {
  ancestorId: bigint;
  descendantId: bigint;
  depth: number;
  path: string;
  pathName: string;
}
