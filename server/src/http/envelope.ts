import { utcTimestamp } from './datetime.js';

/** The response envelope of SPEC "Response envelope", in its key order. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T;
  traceId?: string;
  timestamp: string;
  isSuccess: boolean;
}

export const isSuccessCode = (code: number): boolean => code >= 200 && code < 300;

/** `data` must already be wire data (see toWire); null and undefined are left out. */
export function buildEnvelope<T>(code: number, message: string, data: T | undefined, traceId: string | undefined, now: Date): Envelope<T> {
  const envelope: Envelope<T> = { code, message } as Envelope<T>;
  if (data !== undefined && data !== null) envelope.data = data;
  if (traceId) envelope.traceId = traceId;
  envelope.timestamp = utcTimestamp(now);
  envelope.isSuccess = isSuccessCode(code);
  return envelope;
}
