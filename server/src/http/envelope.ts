import { utcTimestamp } from './datetime.js';
import { toWire } from './serialize.js';

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

/**
 * The envelope around `data`, which goes through the shared serializer here (SPEC: nulls are
 * omitted, at any depth): error details are built by every module, and a detail written as it
 * came (a lock detail with `avatarUrl: null`) would break the convention. Date-times in `data`
 * are written in `timeZone` (the request's zone).
 */
export function buildEnvelope(code: number, message: string, data: unknown, traceId: string | undefined, now: Date, timeZone = 'UTC'): Envelope {
  const envelope = { code, message } as Envelope;
  const wire = toWire(data, { timeZone });
  if (wire !== undefined) envelope.data = wire;
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
