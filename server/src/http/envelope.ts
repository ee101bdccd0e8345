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

/**
 * The envelope as JSON text around `dataJson` (already serialized, or undefined to leave `data`
 * out), in the same key order as buildEnvelope: the success path writes it without building
 * and re-walking an object.
 */
export function envelopeJson(code: number, message: string, dataJson: string | undefined, traceId: string | undefined, now: Date): string {
  return `{"code":${code},"message":${JSON.stringify(message)}${dataJson === undefined ? '' : `,"data":${dataJson}`}${traceId ? `,"traceId":${JSON.stringify(traceId)}` : ''},"timestamp":"${utcTimestamp(now)}","isSuccess":${isSuccessCode(code)}}`;
}
