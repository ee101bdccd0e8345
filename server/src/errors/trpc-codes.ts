/**
 * tRPC's JSON-RPC error code and key for an HTTP status, so a /trpc error names what the
 * envelope says (a business 409 is CONFLICT, not the INTERNAL_SERVER_ERROR tRPC would infer
 * from a thrown application error). 423 has no tRPC key: PRECONDITION_REQUIRED is the closest
 * (the session must be unlocked first); the envelope in `data` carries the exact code.
 */
export const TRPC_CODES: Readonly<Record<number, readonly [number, string]>> = {
  400: [-32600, 'BAD_REQUEST'],
  401: [-32001, 'UNAUTHORIZED'],
  403: [-32003, 'FORBIDDEN'],
  404: [-32004, 'NOT_FOUND'],
  405: [-32005, 'METHOD_NOT_SUPPORTED'],
  408: [-32008, 'TIMEOUT'],
  409: [-32009, 'CONFLICT'],
  413: [-32013, 'PAYLOAD_TOO_LARGE'],
  415: [-32015, 'UNSUPPORTED_MEDIA_TYPE'],
  422: [-32022, 'UNPROCESSABLE_CONTENT'],
  423: [-32028, 'PRECONDITION_REQUIRED'],
  429: [-32029, 'TOO_MANY_REQUESTS'],
  500: [-32603, 'INTERNAL_SERVER_ERROR'],
  502: [-32603, 'BAD_GATEWAY'],
  503: [-32603, 'SERVICE_UNAVAILABLE'],
};

export function trpcCodeOf(status: number): readonly [number, string] {
  return TRPC_CODES[status] ?? [-32603, 'INTERNAL_SERVER_ERROR'];
}
