/** Helpers to send one fetch request several times (retries and replays). */

/** What fetch takes as its first argument. */
export type FetchInput = Parameters<typeof fetch>[0];

function isRequest(input: FetchInput): input is Request {
  return typeof Request !== 'undefined' && input instanceof Request;
}

/**
 * The arguments for one more attempt. A Request's body can be read once, so every attempt sends
 * a clone and the original stays unread. A body given in `init` must be replayable (a string,
 * Blob, ArrayBuffer, FormData or URLSearchParams, as the REST and tRPC clients send); a stream
 * cannot be sent twice.
 */
export function attempt(
  input: FetchInput,
  init: RequestInit | undefined,
  headers?: Headers,
): [FetchInput, RequestInit | undefined] {
  const source = isRequest(input) ? input.clone() : input;
  return [source, headers ? { ...init, headers } : init];
}

/** The headers of a request, from `init` or else from the Request itself, as a fresh copy. */
export function headersOf(input: FetchInput, init: RequestInit | undefined): Headers {
  return new Headers(init?.headers ?? (isRequest(input) ? input.headers : undefined));
}

/** The abort signal of a request, from `init` or else from the Request. */
export function signalOf(input: FetchInput, init: RequestInit | undefined): AbortSignal | null | undefined {
  return init?.signal ?? (isRequest(input) ? input.signal : undefined);
}

/** The path of the request's address, lower case (routes are matched case-insensitively). */
export function pathOf(input: FetchInput): string {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return new URL(href, 'http://relative.invalid').pathname.toLowerCase();
}
