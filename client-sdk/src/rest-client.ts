import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './api-types.gen.js';
import { unwrap, type Envelope } from './envelope.js';
import { routes, type RouteKey } from './routes.gen.js';

type Inputs = inferRouterInputs<AppRouter>;
type Outputs = inferRouterOutputs<AppRouter>;
type Split<K> = K extends `${infer S}.${infer M}` ? [S, M] : never;

/** Input type of a procedure, by its key (`Service.Method`). */
export type InputOf<K extends RouteKey> =
  Split<K> extends [infer S extends keyof Inputs, infer M] ? (M extends keyof Inputs[S] ? Inputs[S][M] : never) : never;
/** Output type (as written on the wire) of a procedure, by its key. */
export type OutputOf<K extends RouteKey> =
  Split<K> extends [infer S extends keyof Outputs, infer M]
    ? M extends keyof Outputs[S]
      ? Outputs[S][M]
      : never
    : never;

export interface RestClientOptions {
  /** Base address of the service, e.g. https://id.example.com (no /api). */
  baseUrl: string;
  /** A fetch implementation; defaults to the global one. Tests pass one that calls the app. */
  fetch?: typeof fetch;
  /** X-Language for every call. */
  language?: string;
  /** X-Timezone for every call; defaults to the runtime's zone. */
  timeZone?: string;
  /** Extra headers for every call (Authorization is added by the auth layer). */
  headers?: () => Record<string, string> | Promise<Record<string, string>>;
}

export interface CallResult<T> {
  status: number;
  headers: Headers;
  envelope: Envelope<T>;
}

function appendQuery(params: URLSearchParams, key: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) for (const item of value) appendQuery(params, key, item);
  else if (value instanceof Date) params.append(key, value.toISOString());
  else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) appendQuery(params, `${key}.${k}`, v);
  else params.append(key, String(value));
}

/** JSON with bigint written as a string (ids are 64-bit). */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}

/** The REST client: every derived route, typed by procedure key, answering the typed envelope. */
export function createRestClient(options: RestClientOptions) {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeZone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

  /** Sends one call and returns status, headers and envelope; never throws for an error envelope. */
  async function send<K extends RouteKey>(
    key: K,
    input?: InputOf<K>,
    init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<CallResult<OutputOf<K>>> {
    const route = routes[key] as { method: string; path: string; binding: string; queryKeys?: readonly string[] };
    const params = new URLSearchParams();
    let body: string | undefined;
    if (route.binding === 'query' && input && typeof input === 'object') {
      for (const [k, v] of Object.entries(input)) appendQuery(params, k, v);
    } else if (route.binding === 'body' && input !== undefined) {
      const payload = { ...(input as Record<string, unknown>) };
      for (const k of route.queryKeys ?? []) {
        appendQuery(params, k, payload[k]);
        delete payload[k];
      }
      body = toJson(payload);
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'x-timezone': timeZone,
      ...(await options.headers?.()),
      ...init.headers,
    };
    if (options.language) headers['x-language'] = options.language;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const query = params.toString();
    const res = await doFetch(`${base}${route.path}${query ? `?${query}` : ''}`, {
      method: route.method,
      headers,
      body,
      signal: init.signal,
    });
    const text = await res.text();
    let envelope: Envelope<OutputOf<K>>;
    try {
      envelope = JSON.parse(text) as Envelope<OutputOf<K>>;
    } catch {
      envelope = {
        code: res.status,
        message: text.slice(0, 200) || res.statusText,
        timestamp: new Date().toISOString(),
        isSuccess: false,
      };
    }
    return { status: res.status, headers: res.headers, envelope };
  }

  return {
    send,
    /** Calls and unwraps: resolves with data, or throws PortcullisError (text: data, then message). */
    async call<K extends RouteKey>(
      key: K,
      input?: InputOf<K>,
      init?: { headers?: Record<string, string>; signal?: AbortSignal },
    ): Promise<OutputOf<K>> {
      const { status, envelope } = await send(key, input, init);
      return unwrap(envelope, status);
    },
  };
}

export type RestClient = ReturnType<typeof createRestClient>;
