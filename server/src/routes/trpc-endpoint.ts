import type { AnyRouter } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import type { Context } from 'hono';
import type { AppDeps } from '../app-deps.js';
import type { ErrorContext } from '../errors/to-envelope.js';
import { readBodyLimited } from '../http/body.js';
import { createRequestContext, type HonoEnv } from '../http/request-context.js';
import { respondError } from '../http/respond.js';
import { signedRequestOf, type OpenApiGate } from '../modules/openapi/gate.js';
import type { SignedRequest } from '../modules/openapi/types.js';
import { answerCallError } from '../rpc/call-errors.js';
import type { RouteEntry } from './table.js';
import type { Services } from '../services.js';

/** Whether a request declares no body (HTTP/1.1 frames a body by one of these two headers). */
function declaresNoBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  return (length === null || length.trim() === '0') && !headers.has('transfer-encoding');
}

/**
 * /trpc, for the typed client: tRPC's fetch adapter serves it, and runs the calls, around two
 * steps of ours that run once the adapter has parsed which procedures a request calls and before
 * any of them runs:
 *   - the signature: a procedure whose REST path is protected (OpenApiSecurity) needs the
 *     signature on /trpc as well, whether or not /trpc itself is listed. Only calls of
 *     procedures known to be unprotected go unsigned: anything else tRPC makes of a path (an
 *     unknown procedure, an escaped slash), and any request tRPC refuses before it has read the
 *     calls, is asked for the signature first. One protected call signs the whole batch.
 *   - the body: read once, held to the limit (the signed limit when the signature check read
 *     it), and handed to tRPC as the request body.
 * A refusal of either step answers the request as a whole, like the REST facade's. A failed
 * call's envelope is worked out once (answerCallError) and read by tRPC's error formatter, by
 * the status of the answer and by the log.
 */
export function createTrpcEndpoint(
  router: AnyRouter,
  table: readonly RouteEntry[],
  deps: AppDeps,
  services: Services,
  gate: OpenApiGate | undefined,
) {
  const protectedKeys = new Set(gate ? table.filter((e) => gate.protects(e.path)).map((e) => e.key) : []);
  const unsignedKeys = new Set(table.filter((e) => !protectedKeys.has(e.key)).map((e) => e.key));
  const asksSignature = protectedKeys.size > 0 ? gate : undefined;
  const needsSignature = (paths: readonly string[]) => paths.some((path) => !unsignedKeys.has(path));

  return async (c: Context<HonoEnv>): Promise<Response> => {
    const original = c.req.raw;
    const info = c.get('info');
    const errorContext: ErrorContext = { culture: info.culture, traceId: info.traceId, timeZone: info.timeZone, deps };
    // Signed by the gate's middleware when /trpc itself is a protected prefix.
    let signed: SignedRequest | undefined = gate && signedRequestOf(original);
    let sealAnswer = false;
    let contextCreated = false;
    let refusal: { error: unknown } | undefined;

    const askSignature = async (check: OpenApiGate) => {
      signed = await check.verify(c);
      sealAnswer = !!signed.encryptResponse;
    };

    let request = original;
    let supplyBody: ((body: Uint8Array) => void) | undefined;
    if (original.method !== 'GET' && original.method !== 'HEAD') {
      const headers = new Headers(original.headers);
      // A mutation without input may come with no body and no content type; tRPC needs one.
      if (!headers.has('content-type') && declaresNoBody(headers)) headers.set('content-type', 'application/json');
      const body = new Promise<Uint8Array>((resolve) => (supplyBody = resolve));
      // tRPC reads the body only when a call asks for its input, after the context exists.
      const stream = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const bytes = await body;
            if (bytes.byteLength) controller.enqueue(bytes);
            controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      request = new Request(original.url, {
        method: original.method,
        headers,
        body: stream,
        duplex: 'half',
        signal: original.signal,
      } as RequestInit);
    }

    const response = await fetchRequestHandler({
      endpoint: '/trpc',
      req: request,
      router,
      allowBatching: true,
      maxBatchSize: 20,
      createContext: async ({ info: calls }) => {
        contextCreated = true;
        try {
          if (asksSignature && !signed && needsSignature(calls.calls.map((call) => call.path)))
            await askSignature(asksSignature);
          // A body the signature check read was held to the signed limit, which governs signed calls.
          supplyBody?.(signed?.body ?? (await readBodyLimited(original, deps.config.App.MaxRequestBodyBytes)));
        } catch (error) {
          refusal = { error };
          throw error;
        }
        const ctx = createRequestContext(c, deps, services, 'trpc');
        if (signed) ctx.signed = signed;
        return ctx;
      },
      responseMeta({ errors, info: calls }) {
        // tRPC would answer 500 for a business error; the envelope's status is the truth. A
        // batch answers one status only when every call failed with it; a batch with mixed
        // outcomes answers 207, and each call's own status is in its envelope.
        if (!errors.length || refusal) return {};
        const answers = errors.map((e) => answerCallError(e, errorContext));
        const count = calls?.calls.length ?? 1;
        const uniform = errors.length === count && answers.every((a) => a.status === answers[0]!.status);
        return { status: uniform ? answers[0]!.status : 207, headers: new Headers(uniform ? answers[0]!.headers : {}) };
      },
      onError({ error }) {
        if (refusal) return;
        const answer = answerCallError(error, errorContext);
        if (answer.unexpected)
          deps.logger.error('trpc call failed', { traceId: info.traceId, error: error.cause ?? error });
      },
    });

    if (!refusal && !contextCreated && !response.ok && asksSignature && !signed) {
      try {
        await askSignature(asksSignature);
      } catch (error) {
        refusal = { error };
      }
    }
    if (refusal) return respondError(c, deps, refusal.error);
    return sealAnswer && gate && signed ? gate.seal(signed, response) : response;
  };
}
