import { expect } from 'vitest';
import { tenants } from '../../../../db/schema/tenant.js';
import { isAppError, type ErrorDefinition } from '../../errors/app-error.js';
import type { DepartmentServiceDeps } from './types.js';

/** Test support: a tenant of its own, so test files and runs never share a tree. */
export async function createTestTenant(deps: DepartmentServiceDeps, label = 'dept'): Promise<bigint> {
  const id = deps.ids.next();
  await deps.db.insert(tenants).values({ id, code: `${label}-${id}`, name: `${label} ${id}` });
  return id;
}

/** Test support: awaits a promise that must fail with the given AppError; returns the error. */
export async function expectAppError(promise: Promise<unknown>, definition: ErrorDefinition) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isAppError(error) ? error.definition.name : error).toBe(definition.name);
  return isAppError(error) ? error : undefined;
}
