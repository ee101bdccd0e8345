import { expect } from 'vitest';
import { isAppError, type ErrorDefinition } from '../../errors/app-error.js';

/** Test support: awaits a promise that must fail with the given AppError; returns the error. */
export async function expectAppError(promise: Promise<unknown>, definition: ErrorDefinition) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isAppError(error) ? error.definition.name : error).toBe(definition.name);
  return isAppError(error) ? error : undefined;
}
