import type { Culture } from '../config/schema.js';
import { trpcCodeOf } from '../errors/trpc-codes.js';
import { codeMessage } from '../i18n/code-messages.js';
import { utcTimestamp } from './datetime.js';
import { toWire } from './serialize.js';

/*
 * The one envelope writer: every answer in the envelope (the REST facade's successes and errors,
 * /trpc's failed calls and refused requests, the host's own refusals, and what the HTTP server
 * answers before the app sees a request) is written by the functions of this file.
 */

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
export function buildEnvelope(
  code: number,
  message: string,
  data: unknown,
  traceId: string | undefined,
  now: Date,
  timeZone = 'UTC',
): Envelope {
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
function envelopeJson(
  code: number,
  message: string,
  dataJson: string | undefined,
  traceId: string | undefined,
  now: Date,
): string {
  return `{"code":${code},"message":${JSON.stringify(message)}${dataJson === undefined ? '' : `,"data":${dataJson}`}${traceId ? `,"traceId":${JSON.stringify(traceId)}` : ''},"timestamp":"${utcTimestamp(now)}","isSuccess":${isSuccessCode(code)}}`;
}

/** A success: the code's own message around `dataJson` (already serialized, or undefined). */
export function successEnvelopeJson(
  code: number,
  culture: Culture,
  dataJson: string | undefined,
  traceId: string | undefined,
  now: Date,
): string {
  return envelopeJson(code, codeMessage(culture, code), dataJson, traceId, now);
}

/** A refusal with nothing to add to its status: the code's own message, no data. */
export function statusEnvelope(status: number, culture: Culture, traceId: string | undefined, now: Date): Envelope {
  return buildEnvelope(status, codeMessage(culture, status), undefined, traceId, now);
}

/** statusEnvelope as JSON text, for answers written before the app (no Response to build). */
export function statusEnvelopeJson(status: number, culture: Culture, traceId: string | undefined, now: Date): string {
  return envelopeJson(status, codeMessage(culture, status), undefined, traceId, now);
}

/** The error of tRPC's wire format around an envelope, named by the envelope's status. */
export interface TrpcErrorShape {
  message: string;
  code: number;
  data: { code: string; httpStatus: number; path?: string; envelope: Envelope };
}

/**
 * How /trpc carries an envelope: tRPC's error shape, with the JSON-RPC code and key of the
 * envelope's status (not the INTERNAL_SERVER_ERROR tRPC would infer from an application error),
 * the call's path when there is one, and the envelope under `data.envelope`.
 */
export function trpcErrorShape(status: number, envelope: Envelope, path?: string): TrpcErrorShape {
  const [code, key] = trpcCodeOf(status);
  const data: TrpcErrorShape['data'] =
    path === undefined
      ? { code: key, httpStatus: status, envelope }
      : { code: key, httpStatus: status, path, envelope };
  return { message: envelope.message, code, data };
}
