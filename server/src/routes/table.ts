import type { AnyRouter } from '@trpc/server';
import type { z } from 'zod';
import type { RouteMeta } from '../rpc/meta.js';
import { listProcedures } from '../rpc/trpc-internals.js';
import { deriveRoute, type HttpMethod, type ServiceRouteOptions } from './derive.js';

/** One derived REST operation, as the emitter, the OpenAPI generator and the SDK see it. */
export interface RouteEntry {
  /** tRPC path: `<ServiceName>.<MethodName>`. */
  key: string;
  service: string;
  procedure: string;
  method: HttpMethod;
  path: string;
  controller: string;
  action: string;
  type: 'query' | 'mutation';
  meta: RouteMeta;
  input?: z.ZodType;
  output?: z.ZodType;
  /** Where REST reads the input from. */
  binding: 'none' | 'query' | 'body';
  /** Input keys read from the query string although the rest comes from the body. */
  queryKeys: readonly string[];
  /** Lower-case spelling -> declared key, for case-insensitive query binding. */
  inputKeys: ReadonlyMap<string, string>;
}

/** The object shape of an input schema, looking through optional/default/pipe wrappers. */
export function objectShape(schema: unknown): Record<string, unknown> | undefined {
  let s = schema as { shape?: Record<string, unknown>; def?: Record<string, unknown> } | undefined;
  for (let i = 0; i < 6 && s; i++) {
    if (s.shape && typeof s.shape === 'object') return s.shape;
    const def = s.def;
    s = (def?.innerType ?? def?.in ?? def?.schema) as typeof s;
  }
  return undefined;
}

/**
 * Walks the router and derives every route. Fails loudly on a route clash or on a GET that is a
 * tRPC mutation (or the reverse), so a mistake stops the start instead of misrouting requests.
 */
export function buildRouteTable(router: AnyRouter, services: Record<string, ServiceRouteOptions>): RouteEntry[] {
  const entries: RouteEntry[] = [];
  const seen = new Map<string, string>();
  for (const def of listProcedures(router)) {
    const key = def.key;
    const dot = key.indexOf('.');
    if (dot < 0 || key.indexOf('.', dot + 1) >= 0)
      throw new Error(`Procedure ${key} must sit directly under a service`);
    const service = key.slice(0, dot);
    const name = key.slice(dot + 1);
    const meta = def.meta ?? {};
    const route = deriveRoute(service, name, services[service] ?? {}, meta);
    if (def.type === 'subscription') throw new Error(`${key}: subscriptions are not routed`);
    const expectedType = route.method === 'GET' ? 'query' : 'mutation';
    if (def.type !== expectedType) {
      throw new Error(`${key} derives ${route.method} ${route.path} and must be a ${expectedType}, not a ${def.type}`);
    }
    const routeKey = `${route.method} ${route.path.toLowerCase()}`;
    const clash = seen.get(routeKey);
    if (clash) throw new Error(`${key} and ${clash} both derive ${route.method} ${route.path}`);
    seen.set(routeKey, key);

    const input = def.inputs.length === 1 ? (def.inputs[0] as z.ZodType) : undefined;
    if (def.inputs.length > 1) throw new Error(`${key}: one input schema per procedure`);
    const shape = objectShape(input);
    const inputKeys = new Map(Object.keys(shape ?? {}).map((k) => [k.toLowerCase(), k]));
    const queryMethod = route.method === 'GET' || route.method === 'DELETE';
    const binding = !input ? 'none' : (meta.bind ?? (queryMethod ? 'query' : 'body'));
    entries.push({
      key,
      service,
      procedure: name,
      ...route,
      type: expectedType,
      meta,
      input,
      output: def.output as z.ZodType | undefined,
      binding,
      queryKeys: binding === 'body' ? (meta.query ?? []) : [],
      inputKeys,
    });
  }
  return entries.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
