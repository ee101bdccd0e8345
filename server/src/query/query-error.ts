import { z } from 'zod';
import { TRPCError } from '@trpc/server';
// Registers the texts the issues name.
import './messages.js';
import type { QueryMessage } from './messages.js';

/** One problem with a request value found while building the query, at its path in the body. */
export interface QueryIssue {
  path: Array<string | number>;
  /** A text of messages.ts, or a shared one of errors/validation.ts (invalidId, ...). */
  i18n: QueryMessage | 'invalidId' | 'invalidDateTime' | 'invalidEnum';
  params?: Record<string, string>;
}

/**
 * The 400 for values that do not fit their field. It takes the same road as an input that fails
 * its zod schema (a BAD_REQUEST whose cause carries zod issues), so errors/to-envelope.ts renders
 * the per-field detail in the request's language, with the same envelope as any validation
 * failure. An AppError would need its detail already written in one language, and the engine
 * does not know the request's.
 */
export function queryValidationError(issues: readonly QueryIssue[]): TRPCError {
  const zodIssues = issues.map((issue) => ({
    code: 'custom' as const,
    path: issue.path,
    message: issue.i18n,
    input: undefined,
    params: { ...issue.params, i18n: issue.i18n },
  }));
  // ZodRealError, not ZodError: only the former is an Error, and tRPC keeps an Error cause as is
  // (anything else it copies field by field, losing the non-enumerable `issues`).
  return new TRPCError({
    code: 'BAD_REQUEST',
    message: 'Paged query validation failed',
    cause: new z.ZodRealError(zodIssues),
  });
}
