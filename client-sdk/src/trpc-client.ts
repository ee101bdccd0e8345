import { createTRPCClient, httpBatchLink, httpLink, type TRPCClientError } from '@trpc/client';
import type { AppRouter } from './api-types.gen.js';
import type { Envelope } from './envelope.js';

export interface TrpcClientOptions {
  /** Base address of the service (the client talks to <baseUrl>/trpc). */
  baseUrl: string;
  fetch?: typeof fetch;
  headers?: () => Record<string, string> | Promise<Record<string, string>>;
  /** Batch calls made in the same tick into one request (default true). */
  batch?: boolean;
}

/** The typed tRPC client over the same procedures as the REST facade. */
export function createTrpcClient(options: TrpcClientOptions) {
  const link = ((options.batch ?? true) ? httpBatchLink : httpLink)({
    url: `${options.baseUrl.replace(/\/+$/, '')}/trpc`,
    fetch: options.fetch,
    headers: options.headers,
  });
  return createTRPCClient<AppRouter>({ links: [link] });
}

/** The envelope a /trpc error carries (same as the REST facade would have answered). */
export function envelopeOf(error: unknown): Envelope | undefined {
  const data = (error as TRPCClientError<AppRouter> | undefined)?.data as { envelope?: Envelope } | undefined;
  return data?.envelope;
}

export type { AppRouter };
