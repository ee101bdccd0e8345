import type { Culture } from '../config/schema.js';
import type { AuthContext } from '../modules/auth/session/session-gate.js';
import type { SignedRequest } from '../modules/openapi/types.js';

/**
 * What a procedure knows about the request it serves, apart from the services it can call:
 * services take this (or a part of it), so that none of them depends on the request context
 * that carries the services.
 */
export interface CallContext {
  traceId: string;
  culture: Culture;
  timeZone: string;
  ip: string;
  userAgent: string;
  /** The Authorization header of the request, if any. */
  authorization: string | undefined;
  headers: Headers;
  /** 'rest' for the derived routes, 'trpc' for the typed client at /trpc. */
  transport: 'rest' | 'trpc';
  /** Headers a procedure wants on its response (Token-Expired, Retry-After, ...); lower-case names. */
  responseHeaders: Record<string, string>;
  /** Set by the gate on authenticated procedures. */
  auth?: AuthContext;
  /** The request's access-log fields: the gate records whom the request acted for. */
  accessLog?: { userId?: string; tenantId?: string };
  /** Set on protected paths by the signature check (OpenApiSecurity): the signer and the body it covered. */
  signed?: SignedRequest;
  /** The JSON body as received, on REST calls that have one (for procedures that answer it verbatim). */
  rawBody?: string;
}
