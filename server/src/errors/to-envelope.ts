import { TRPCError } from '@trpc/server';
import type { Culture } from '../config/schema.js';
import { buildEnvelope, statusEnvelope, type Envelope } from '../http/envelope.js';
import { codeMessage } from '../i18n/code-messages.js';
import { translate } from '../i18n/messages.js';
import { AppError } from './app-error.js';
import { commonErrors } from './common.js';
import { validationFailed } from './validation.js';
import {
  CHARACTER_NOT_IN_REPERTOIRE,
  DEADLOCK_DETECTED,
  isDatabaseUnavailable,
  postgresErrorCode,
  SERIALIZATION_FAILURE,
  UNIQUE_VIOLATION,
  UNTRANSLATABLE_CHARACTER,
} from '../infra/db/errors.js';

/**
 * Retry-After of a database that cannot be reached: a restart or a fail-over takes seconds, and
 * clients waiting longer than that would only delay the recovery they see.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export interface ErrorContext {
  culture: Culture;
  traceId: string;
  /** The zone date-times in an error's detail are written in (the request's; UTC when absent). */
  timeZone?: string;
  deps: { clock: { now(): Date } };
}

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  envelope: Envelope;
  /** True when the error was not expected: it is logged with its stack, and hidden. */
  unexpected: boolean;
}

function unwrap(error: unknown): unknown {
  // tRPC wraps whatever a procedure throws; the cause is what the service meant.
  let current = error;
  for (let i = 0; i < 4 && current instanceof TRPCError && current.cause; i++) current = current.cause;
  return current;
}

function issuesOf(error: unknown): ReadonlyArray<never> | undefined {
  const issues = (error as { issues?: unknown } | null)?.issues;
  return Array.isArray(issues) ? (issues as never[]) : undefined;
}

export function appErrorResponse(error: AppError, ctx: ErrorContext): ErrorResponse {
  const def = error.definition;
  const params = { traceId: ctx.traceId, ...error.params };
  const text = translate(ctx.culture, def.messageKey, params);
  const structured = error.detail !== undefined;
  return {
    status: def.status,
    headers: error.headers ?? {},
    envelope: buildEnvelope(
      def.code,
      structured ? text : codeMessage(ctx.culture, def.code),
      structured ? error.detail : text,
      ctx.traceId,
      ctx.deps.clock.now(),
      ctx.timeZone,
    ),
    unexpected: def.status >= 500 && def !== commonErrors.MAINTENANCE && def !== commonErrors.NOT_READY,
  };
}

/** The one place any thrown value becomes an HTTP status and an envelope. */
export function errorToEnvelope(error: unknown, ctx: ErrorContext): ErrorResponse {
  const cause = unwrap(error);
  if (cause instanceof AppError) return appErrorResponse(cause, ctx);

  // A database that cannot be reached or cannot serve now (down, restarting, out of
  // connections) is a 503 with the data-access code and Retry-After: the request may succeed in
  // a moment. Unique violations are duplicates (409); a lost serialization race is a conflict
  // too; text the database cannot hold (U+0000, which JSON and query strings carry) is the
  // client's (400). Any other database failure is a 500 with the data-access code. Either way
  // the driver's text stays out of the answer.
  if (isDatabaseUnavailable(cause)) {
    const seconds = DATABASE_RETRY_AFTER_SECONDS;
    return appErrorResponse(
      new AppError(commonErrors.DATABASE_UNAVAILABLE, {
        params: { seconds },
        headers: { 'Retry-After': String(seconds) },
      }),
      ctx,
    );
  }
  const pgCode = postgresErrorCode(cause);
  if (pgCode === UNIQUE_VIOLATION) return appErrorResponse(new AppError(commonErrors.DUPLICATE), ctx);
  if (pgCode === CHARACTER_NOT_IN_REPERTOIRE || pgCode === UNTRANSLATABLE_CHARACTER)
    return appErrorResponse(new AppError(commonErrors.UNSTORABLE_TEXT), ctx);
  if (pgCode === SERIALIZATION_FAILURE || pgCode === DEADLOCK_DETECTED)
    return appErrorResponse(new AppError(commonErrors.VERSION_CONFLICT), ctx);
  if (pgCode) return { ...appErrorResponse(new AppError(commonErrors.DATABASE), ctx), unexpected: true };

  const issues = issuesOf(cause);
  if (issues && error instanceof TRPCError && error.code === 'BAD_REQUEST') {
    return appErrorResponse(validationFailed(issues, ctx.culture), ctx);
  }

  if (error instanceof TRPCError) {
    // tRPC's own refusals (unknown procedure, wrong method at /trpc, bad batch, an `input` that
    // is not JSON, which tRPC throws with the SyntaxError as its cause) are client errors. What
    // a procedure throws reaches here as INTERNAL_SERVER_ERROR, which is not in this map.
    const map: Partial<Record<TRPCError['code'], number>> = {
      NOT_FOUND: 404,
      METHOD_NOT_SUPPORTED: 405,
      BAD_REQUEST: 400,
      PARSE_ERROR: 400,
      UNSUPPORTED_MEDIA_TYPE: 415,
      PAYLOAD_TOO_LARGE: 413,
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      TOO_MANY_REQUESTS: 429,
      CONFLICT: 409,
      UNPROCESSABLE_CONTENT: 422,
      TIMEOUT: 408,
    };
    const status = map[error.code];
    if (status) {
      return {
        status,
        headers: {},
        envelope: statusEnvelope(status, ctx.culture, ctx.traceId, ctx.deps.clock.now()),
        unexpected: false,
      };
    }
  }

  return { ...appErrorResponse(new AppError(commonErrors.INTERNAL), ctx), unexpected: true };
}
