import { errorToEnvelope, type ErrorContext, type ErrorResponse } from '../errors/to-envelope.js';

const ANSWER = Symbol('error-answer');

type Answered = object & { [ANSWER]?: ErrorResponse };

/**
 * The answer to a failed /trpc call, worked out once and kept on the error: tRPC hands the same
 * error object to the error hook, the error formatter and the response status hook, and each
 * needs the envelope (the hook to log, the formatter to write it, the status hook for the
 * status and headers).
 */
export function answerCallError(error: object, ctx: ErrorContext): ErrorResponse {
  const held = (error as Answered)[ANSWER];
  if (held) return held;
  const answer = errorToEnvelope(error, ctx);
  Object.defineProperty(error, ANSWER, { value: answer });
  return answer;
}

/** The answer answerCallError worked out for this error, if it did. */
export function answerOf(error: unknown): ErrorResponse | undefined {
  return typeof error === 'object' && error !== null ? (error as Answered)[ANSWER] : undefined;
}
