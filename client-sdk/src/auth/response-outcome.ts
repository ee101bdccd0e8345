import type { Envelope } from '../envelope.js';

/** What the unlock screen shows: the `data` of a 423 envelope. */
export interface LockDetail {
  reason: 'ScreenLock' | 'PasswordChangeRequired';
  displayName?: string | null;
  avatarUrl?: string | null;
}

/** The statuses of the calls one HTTP response answered, with their envelopes. */
export interface ResponseOutcome {
  calls: Array<{ status: number; envelope?: Envelope }>;
  /** True when at least one call answered this status. */
  has(status: number): boolean;
  /** True when every call answered this status: nothing ran, so the request may be sent again. */
  all(status: number): boolean;
  /** The envelope of the first call that answered this status. */
  envelopeOf(status: number): Envelope | undefined;
}

/** Only these statuses make the auth layer act, so only their bodies are read. */
const INSPECTED = new Set([207, 401, 423, 429]);

interface TrpcItem {
  result?: unknown;
  error?: { data?: { httpStatus?: number; envelope?: Envelope } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function trpcCall(item: unknown): { status: number; envelope?: Envelope } {
  const { result, error } = (isObject(item) ? item : {}) as TrpcItem;
  if (result !== undefined && !error) return { status: 200 };
  return { status: error?.data?.httpStatus ?? 500, envelope: error?.data?.envelope };
}

function outcome(calls: ResponseOutcome['calls']): ResponseOutcome {
  return {
    calls,
    has: (status) => calls.some((c) => c.status === status),
    all: (status) => calls.length > 0 && calls.every((c) => c.status === status),
    envelopeOf: (status) => calls.find((c) => c.status === status)?.envelope,
  };
}

/**
 * Reads a response the way the auth layer must judge it. A REST response is one call. A tRPC
 * batch is several, and its HTTP status cannot be trusted for each: the server answers a batch
 * with one failed call with that call's status (401 even when the other calls succeeded) and a
 * batch with several failures with 207. So for tRPC every item is read. The body is read from a
 * clone: the caller still gets the response untouched.
 */
export async function readOutcome(response: Response): Promise<ResponseOutcome> {
  if (!INSPECTED.has(response.status)) return outcome([{ status: response.status }]);
  let body: unknown;
  try {
    body = JSON.parse(await response.clone().text());
  } catch {
    return outcome([{ status: response.status }]);
  }
  if (Array.isArray(body)) return outcome(body.map(trpcCall));
  if (isObject(body) && 'error' in body) return outcome([trpcCall(body)]);
  return outcome([{ status: response.status, envelope: isObject(body) ? (body as unknown as Envelope) : undefined }]);
}

/** The lock detail of a 423 envelope; a reason the server did not name is a screen lock. */
export function lockDetailOf(envelope: Envelope | undefined): LockDetail {
  const data = isObject(envelope?.data) ? (envelope.data as Partial<LockDetail>) : {};
  return {
    reason: data.reason === 'PasswordChangeRequired' ? 'PasswordChangeRequired' : 'ScreenLock',
    displayName: data.displayName ?? null,
    avatarUrl: data.avatarUrl ?? null,
  };
}
