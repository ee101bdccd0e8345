import { and, count, eq } from 'drizzle-orm';
import { departments } from '../../../../db/schema/department.js';
import { appError } from '../../errors/app-error.js';
import { commonErrors } from '../../errors/common.js';
import type { Transaction } from '../../infra/db/client.js';
import { updateVersioned } from '../../infra/db/versioned.js';
import { auditChange, fieldsOf, type Actor } from '../audit/change.js';
import type { AuditAction } from '../audit/write.js';
import { linkDepartment, refreshSubtreePaths, relinkSubtree, unlinkDepartment } from './closure.js';
import { departmentErrors } from './errors.js';
import { createDepartmentReads, findDepartment, isInSubtree, requireDepartment } from './reads.js';
import { lockDepartmentTree } from './tree-lock.js';
import type {
  CreateDepartmentInput,
  Department,
  DepartmentFields,
  DepartmentServiceDeps,
  DepartmentStatusInput,
  UpdateDepartmentInput,
} from './types.js';
import { notDeleted } from '../../infra/db/predicates.js';

/** The column is varchar(128); PostgreSQL counts characters, so count code points, not UTF-16 units. */
const NAME_MAX = 128;

function normalizeName(name: string): string {
  const trimmed = name.trim();
  const length = [...trimmed].length;
  if (length === 0 || length > NAME_MAX) throw appError(departmentErrors.NAME_INVALID, { params: { max: NAME_MAX } });
  return trimmed;
}

const FIELD_KEYS = [
  'departmentCode',
  'departmentType',
  'leaderId',
  'phone',
  'email',
  'address',
  'status',
  'sort',
  'remark',
] as const;

/** The plain fields the caller gave (undefined ones are left out, so they keep their value). */
function pickFields(input: DepartmentFields): DepartmentFields {
  const out: Record<string, unknown> = {};
  for (const key of FIELD_KEYS) if (input[key] !== undefined) out[key] = input[key];
  return out as DepartmentFields;
}

function checkVersion(current: Department, expectedVersion: number | undefined): void {
  if (expectedVersion !== undefined && expectedVersion !== current.version)
    throw appError(commonErrors.VERSION_CONFLICT);
}

async function requireParent(tx: Transaction, tenantId: bigint, parentId: bigint): Promise<Department> {
  const parent = await findDepartment(tx, tenantId, parentId);
  if (!parent) throw appError(departmentErrors.PARENT_NOT_FOUND, { params: { parentId: parentId.toString() } });
  return parent;
}

/** Refuses a new parent that is missing or would close a cycle (itself or one of its descendants). */
async function checkNewParent(tx: Transaction, department: Department, parentId: bigint): Promise<void> {
  if (parentId === department.id)
    throw appError(departmentErrors.PARENT_IS_SELF, { params: { name: department.departmentName } });
  const parent = await requireParent(tx, department.tenantId, parentId);
  if (await isInSubtree(tx, department.tenantId, department.id, parentId)) {
    throw appError(departmentErrors.PARENT_IS_DESCENDANT, {
      params: { name: department.departmentName, parentName: parent.departmentName },
    });
  }
}

/**
 * The department tree of each tenant with its closure table (department_hierarchy).
 *
 * Every write is one transaction that first takes the tenant's tree lock (tree-lock.ts), then
 * validates against the committed tree, writes the department row (version bumped) and brings
 * the closure up to date before committing: readers never see a row and a closure that disagree.
 * Every query is scoped by tenant, so another tenant's department is simply not found (404).
 *
 * Deleting a department that still has live sub-departments is refused (422) rather than
 * cascading or re-parenting them: both alternatives silently change who sees what through
 * "department and below" data scopes. The caller moves or deletes the children first.
 *
 * A write made for an administration request (`audit` given) records its audit entry in the same
 * transaction; system work and fixtures pass none.
 */
export function createDepartmentService(deps: DepartmentServiceDeps) {
  const { db, ids, clock } = deps;
  const reads = createDepartmentReads(db);

  const write = <T>(tenantId: bigint, work: (tx: Transaction) => Promise<T>): Promise<T> =>
    db.transaction(async (tx) => {
      await lockDepartmentTree(tx, tenantId);
      return work(tx);
    });

  /** Scopes the versioned update to the tenant's live rows. */
  const live = (tenantId: bigint) => and(eq(departments.tenantId, tenantId), notDeleted(departments.isDeleted));

  /** The entry of an administration request's change; system work (no `audit`) has none. */
  const record = async (
    tx: Transaction,
    audit: Actor | undefined,
    action: AuditAction,
    department: Pick<Department, 'id' | 'departmentName'>,
    detail: Record<string, unknown> = {},
  ) => {
    if (audit)
      await auditChange(
        tx,
        deps,
        audit,
        action,
        { type: 'Department', id: department.id },
        { departmentName: department.departmentName, ...detail },
      );
  };

  // async, so that an invalid name rejects the promise like every other refusal.
  const change = async (
    input: UpdateDepartmentInput,
    action: 'DepartmentUpdated' | 'DepartmentStatusChanged',
  ): Promise<Department> => {
    const { tenantId, id } = input;
    const name = input.departmentName === undefined ? undefined : normalizeName(input.departmentName);
    return write(tenantId, async (tx) => {
      const current = await requireDepartment(tx, tenantId, id);
      checkVersion(current, input.expectedVersion);
      const newParentId = input.parentId;
      const moving = newParentId !== undefined && newParentId !== current.parentId;
      if (moving && newParentId !== null) await checkNewParent(tx, current, newParentId);
      const renaming = name !== undefined && name !== current.departmentName;
      const values = {
        ...pickFields(input),
        ...(name !== undefined ? { departmentName: name } : {}),
        ...(moving ? { parentId: newParentId } : {}),
      };
      await updateVersioned(
        tx,
        departments,
        id,
        current.version,
        { ...values, modifiedTime: clock.now(), modifiedBy: input.actorId ?? null },
        live(tenantId),
      );
      // The row is written first: the path refresh reads the new name from it.
      if (moving) await relinkSubtree(tx, tenantId, id, newParentId);
      else if (renaming) await refreshSubtreePaths(tx, tenantId, id);
      const detail =
        action === 'DepartmentStatusChanged'
          ? { from: current.status, to: input.status }
          : {
              fields: fieldsOf(values),
              ...(moving
                ? { parentId: { from: current.parentId?.toString() ?? null, to: newParentId?.toString() ?? null } }
                : {}),
            };
      await record(tx, input.audit, action, current, detail);
      return requireDepartment(tx, tenantId, id);
    });
  };
  const update = (input: UpdateDepartmentInput) => change(input, 'DepartmentUpdated');

  return {
    ...reads,

    /** Adds a department (under `parentId`, or as a root) and its closure pairs; returns the row. */
    async create(input: CreateDepartmentInput): Promise<Department> {
      const { tenantId } = input;
      const name = normalizeName(input.departmentName);
      const parentId = input.parentId ?? null;
      return write(tenantId, async (tx) => {
        if (parentId !== null) await requireParent(tx, tenantId, parentId);
        const [row] = await tx
          .insert(departments)
          .values({
            ...pickFields(input),
            id: ids.next(),
            tenantId,
            parentId,
            departmentName: name,
            createdTime: clock.now(),
            createdBy: input.actorId ?? null,
          })
          .returning();
        await linkDepartment(tx, tenantId, row!.id, parentId);
        await record(tx, input.audit, 'DepartmentCreated', row!, { parentId: parentId?.toString() ?? null });
        return row!;
      });
    },

    /**
     * Changes the given fields. A new name rewrites the pathName of the whole subtree; a new
     * `parentId` moves the subtree (refused under itself or one of its descendants, 422).
     * Returns the row as written.
     */
    update,

    /** Enables or disables a department (its own operation: audited as a status change). */
    setStatus(input: DepartmentStatusInput): Promise<Department> {
      return change(input, 'DepartmentStatusChanged');
    },

    /** Moves a department with its subtree under `newParentId` (null: makes it a root). */
    move(
      tenantId: bigint,
      id: bigint,
      newParentId: bigint | null,
      expectedVersion?: number,
      actorId?: bigint | null,
    ): Promise<Department> {
      return update({ tenantId, id, parentId: newParentId, expectedVersion, actorId });
    },

    /**
     * Soft-deletes a department and drops its closure pairs. Refused (422) while it has live
     * sub-departments; see the note on the service.
     */
    remove(
      tenantId: bigint,
      id: bigint,
      actorId?: bigint | null,
      expectedVersion?: number,
      audit?: Actor,
    ): Promise<void> {
      return write(tenantId, async (tx) => {
        const current = await requireDepartment(tx, tenantId, id);
        checkVersion(current, expectedVersion);
        const [children] = await tx
          .select({ n: count() })
          .from(departments)
          .where(and(live(tenantId), eq(departments.parentId, id)));
        if (children && children.n > 0) {
          throw appError(departmentErrors.HAS_CHILDREN, {
            params: { name: current.departmentName, count: children.n },
          });
        }
        const now = clock.now();
        await updateVersioned(
          tx,
          departments,
          id,
          current.version,
          {
            isDeleted: true,
            deletedTime: now,
            deletedBy: actorId ?? null,
            modifiedTime: now,
            modifiedBy: actorId ?? null,
          },
          live(tenantId),
        );
        await unlinkDepartment(tx, tenantId, id);
        await record(tx, audit, 'DepartmentDeleted', current);
      });
    },
  };
}

/** The department service as a router receives it. */
export type DepartmentService = ReturnType<typeof createDepartmentService>;
