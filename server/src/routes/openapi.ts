import { z } from 'zod';
import { docOverrides } from '../rpc/wire.js';
import type { RouteEntry } from './table.js';

/**
 * Builds the OpenAPI 3.1 document from the route table. Schemas come from zod's own JSON Schema
 * conversion; every response is described as the envelope around the operation's output.
 * (trpc-to-openapi is not used: it would need a second copy of every route in procedure meta,
 * and the envelope, our binding rules and our wire types are ours to describe.)
 */

type Json = Record<string, unknown>;

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

/**
 * A pipe is documented by its input side. When that side is a plain string (only trimmed or
 * lower-cased) and the output side is what constrains it (`z.email()`, an enum), its format,
 * pattern and choices are the input's too: without them the document would say "any string".
 */
function inheritConstraints(pipe: z.ZodType, target: Json): void {
  const def = (pipe as unknown as { _zod: { def: { in: z.ZodType; out: z.ZodType } } })._zod.def;
  if ((def.in as unknown as { _zod: { def: { type: string } } })._zod.def.type !== 'string') return;
  const out = z.toJSONSchema(def.out, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
  for (const key of ['format', 'pattern', 'enum'] as const) if (key in out) target[key] = out[key];
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    reused: 'inline',
    override(ctx) {
      const custom = docOverrides.get(ctx.zodSchema as unknown as z.ZodType);
      const type = (ctx.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def?.type;
      if (!custom && io === 'input' && type === 'pipe') {
        inheritConstraints(ctx.zodSchema as unknown as z.ZodType, ctx.jsonSchema as Json);
        return;
      }
      const replacement =
        custom ??
        (type === 'date'
          ? { type: 'string', format: 'date-time' }
          : type === 'bigint'
            ? { type: 'string', pattern: '^-?\\d+$' }
            : undefined);
      if (!replacement) return;
      const description = (ctx.jsonSchema as Json).description;
      for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Json)[key];
      Object.assign(ctx.jsonSchema, replacement, description && !('description' in replacement) ? { description } : {});
    },
  }) as Json;
  delete out.$schema;
  if (io === 'output') allowOmittedNulls(out);
  return out;
}

/** Whether a schema admits null (an unconstrained one does). */
function acceptsNull(schema: Json): boolean {
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema.const === null || (Array.isArray(schema.enum) && schema.enum.includes(null))) return true;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.some((b) => acceptsNull(b as Json))) return true;
  }
  return !['type', 'const', 'enum', 'anyOf', 'oneOf', 'allOf', '$ref', 'not'].some((key) => key in schema);
}

/**
 * The serializer leaves out every property whose value is null, so a property that may be null
 * may also be absent: it is not `required`, whatever the zod shape says.
 */
function allowOmittedNulls(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) allowOmittedNulls(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  const props = schema.properties as Record<string, Json> | undefined;
  if (props && Array.isArray(schema.required)) {
    const required = (schema.required as string[]).filter((key) => !props[key] || !acceptsNull(props[key]));
    if (required.length) schema.required = required;
    else delete schema.required;
  }
  for (const value of Object.values(schema)) allowOmittedNulls(value);
}

/**
 * zod writes a recursive schema (a tree node) into the converted schema's own `$defs`, referred to
 * as `#/$defs/<id>`; inside an OpenAPI document such a ref would resolve against the document
 * root. The definitions move to `components/schemas` under their zod `id` and the refs follow.
 */
function hoistDefinitions(schema: Json, components: Record<string, Json>, fallbackName: string): Json {
  const defs = schema.$defs as Record<string, Json> | undefined;
  if (!defs) return schema;
  delete schema.$defs;
  const names = new Map<string, string>();
  let n = 0;
  for (const [key, def] of Object.entries(defs)) {
    let name = key.startsWith('__schema') ? `${fallbackName}${n++ ? n : ''}` : key;
    const text = JSON.stringify(def);
    for (let i = 2; components[name] && JSON.stringify(components[name]) !== text; i++)
      name = `${name.replace(/_\d+$/, '')}_${i}`;
    names.set(`#/$defs/${key}`, `#/components/schemas/${name}`);
  }
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' && names.has(v) ? names.get(v) : rewrite(v),
      ]),
    );
  };
  for (const [key, def] of Object.entries(defs)) {
    components[names.get(`#/$defs/${key}`)!.slice('#/components/schemas/'.length)] = rewrite(def) as Json;
  }
  return rewrite(schema) as Json;
}

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Bad request: validation detail in `data` (per-field list) or a business text',
  '401':
    'Not authenticated: no token; a token that is malformed, badly signed or superseded by a refresh (code 10002); an expired token (code 10003, header Token-Expired: true); or a session that has ended: revoked, logged out, past its lifetime, or its user disabled or re-stamped (code 10001)',
  '403': 'Authenticated but the permission code is missing (code 10004) or the edition forbids it',
  '404': 'Unknown endpoint or resource',
  '405': 'Known endpoint, other method; see the Allow header',
  '409': 'Duplicate, stale version, or replayed nonce',
  '413': 'Body over the size limit',
  '415': 'Body is not application/json',
  '422': 'Well-formed but refused by a business rule',
  '423': 'Session locked; `data` holds the lock detail',
  '429': 'Throttled; see Retry-After',
  '500': 'Unexpected error; `traceId` identifies it in the logs',
  '503': 'Maintenance or not ready; see Retry-After',
};

function operation(entry: RouteEntry, components: Record<string, Json>): Json {
  const anonymous = entry.meta.auth === 'anonymous';
  const parameters: Json[] = [
    { $ref: '#/components/parameters/XLanguage' },
    { $ref: '#/components/parameters/XTimezone' },
    { $ref: '#/components/parameters/XTraceId' },
  ];
  const op: Json = {
    operationId: `${entry.service}_${entry.procedure}`,
    tags: [entry.controller],
    summary: entry.meta.summary ?? entry.procedure,
    'x-trpc-path': entry.key,
  };
  const notes: string[] = [];
  if (entry.meta.description) notes.push(entry.meta.description);
  if (entry.meta.permission) {
    op['x-permission'] = entry.meta.permission;
    notes.push(`Requires permission \`${entry.meta.permission}\`.`);
  }
  if (anonymous) notes.push('Anonymous.');
  if (entry.meta.allowWhileLocked) notes.push('Allowed while the session is locked.');
  if (entry.meta.allowOutsideTenant)
    notes.push("Allowed after the session's tenant stopped being available to the user.");
  if (notes.length) op.description = notes.join('\n\n');

  if (entry.input) {
    const schema = hoistDefinitions(jsonSchema(entry.input, 'input'), components, `${entry.procedure}Input`);
    const props = (schema.properties ?? {}) as Record<string, Json>;
    const required = new Set((schema.required ?? []) as string[]);
    const queryKeys = entry.binding === 'query' ? Object.keys(props) : [...entry.queryKeys];
    for (const key of queryKeys) {
      parameters.push({ name: key, in: 'query', required: required.has(key), schema: props[key] ?? {} });
    }
    if (entry.binding === 'body') {
      const bodySchema: Json = { ...schema };
      if (queryKeys.length && bodySchema.properties) {
        bodySchema.properties = Object.fromEntries(Object.entries(props).filter(([k]) => !queryKeys.includes(k)));
        bodySchema.required = [...required].filter((k) => !queryKeys.includes(k));
      }
      const optional = entry.input.safeParse(undefined).success;
      op.requestBody = { required: !optional, content: { 'application/json': { schema: bodySchema } } };
    }
  }
  op.parameters = parameters;

  const data = entry.output
    ? hoistDefinitions(jsonSchema(entry.output, 'output'), components, `${entry.procedure}Output`)
    : undefined;
  const success = String(entry.meta.successCode ?? 200);
  const responses: Json = {
    [success]: {
      description: 'Success envelope',
      headers: { 'X-Trace-Id': { $ref: '#/components/headers/XTraceId' } },
      content: {
        'application/json': {
          schema: data
            ? { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { data } }] }
            : { $ref: '#/components/schemas/Envelope' },
        },
      },
    },
  };
  // 422: a business rule may refuse any call (a tenant's state, an edition); 409: a duplicate or
  // a stale version on a write, a replayed nonce on a signed call.
  const statuses = ['400', '404', '405', '422', '429', '500', '503'];
  if (entry.binding === 'body') statuses.push('413', '415');
  if (entry.type === 'mutation' || entry.path.toLowerCase().startsWith('/api/openapi/')) statuses.push('409');
  if (!anonymous) statuses.push('401', '403', '423');
  for (const status of statuses.sort()) responses[status] = { $ref: `#/components/responses/E${status}` };
  op.responses = responses;
  // The signed self-test endpoints are always called signed (the deployed ProtectedPathPrefixes
  // is /api/openapi); under the default [/api] every operation also needs the signature headers.
  op.security = entry.path.toLowerCase().startsWith('/api/openapi/') ? [SIGNED] : anonymous ? [] : [{ Bearer: [] }];
  return op;
}

const SIGNED = { SignedAccessKey: [], SignedTimestamp: [], SignedNonce: [], SignedSignature: [], SignedContent: [] };

export function buildOpenApiDocument(table: RouteEntry[], info: OpenApiInfo): Json {
  const paths: Record<string, Json> = {};
  const shared: Record<string, Json> = {};
  for (const entry of table) {
    (paths[entry.path] ??= {})[entry.method.toLowerCase()] = operation(entry, shared);
  }
  const controllers = [...new Set(table.map((e) => e.controller))].sort();
  const errorEnvelope = {
    allOf: [
      { $ref: '#/components/schemas/Envelope' },
      {
        type: 'object',
        properties: {
          isSuccess: { const: false },
          data: {
            anyOf: [
              { type: 'string' },
              { type: 'array', items: { $ref: '#/components/schemas/FieldError' } },
              { type: 'object' },
            ],
          },
        },
      },
    ],
  };
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description: info.description ?? '',
    },
    servers: [{ url: '/' }],
    tags: controllers.map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        Envelope: {
          type: 'object',
          description: 'Every response. Decide success by isSuccess; show an error from data first, then message.',
          required: ['code', 'message', 'timestamp', 'isSuccess'],
          properties: {
            code: { type: 'integer', description: 'Business code; always a number' },
            message: { type: 'string', description: 'Localized by X-Language; defaults to the code description' },
            data: { description: 'Business data on success; error detail on failure; omitted when null' },
            traceId: { type: 'string' },
            timestamp: { type: 'string', format: 'date-time', description: 'Server time, UTC, ISO 8601 with offset' },
            isSuccess: { type: 'boolean', description: 'True when 200 <= code < 300' },
          },
        },
        ...Object.fromEntries(Object.entries(shared).sort(([a], [b]) => (a < b ? -1 : 1))),
        FieldError: {
          type: 'object',
          required: ['field', 'message'],
          properties: { field: { type: 'string' }, message: { type: 'string' } },
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_STATUSES).map(([status, description]) => [
          `E${status}`,
          {
            description,
            headers: { 'X-Trace-Id': { $ref: '#/components/headers/XTraceId' } },
            content: { 'application/json': { schema: errorEnvelope } },
          },
        ]),
      ),
      parameters: {
        XLanguage: {
          name: 'X-Language',
          in: 'header',
          required: false,
          schema: { type: 'string', enum: ['zh-CN', 'zh-TW', 'en-US', 'ja-JP', 'ko-KR', 'de-DE', 'hi-IN'] },
          description: 'Culture of messages; an unlisted one falls back to the default (zh-CN)',
        },
        XTimezone: {
          name: 'X-Timezone',
          in: 'header',
          required: false,
          schema: { type: 'string', examples: ['Asia/Shanghai'] },
          description: 'IANA zone for date-times in the output',
        },
        XTraceId: {
          name: 'X-Trace-Id',
          in: 'header',
          required: false,
          schema: { type: 'string' },
          description: 'Inbound trace id; echoed back',
        },
      },
      headers: {
        XTraceId: { schema: { type: 'string' }, description: 'The trace id of this request' },
      },
      securitySchemes: {
        Bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Access token from /api/Auth/Login; also accepted as ?access_token= on /hubs',
        },
        SignedAccessKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Access-Key',
          description: 'Signed calls: the AppKey (ak_...)',
        },
        SignedTimestamp: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Timestamp',
          description: 'Signed calls: Unix seconds',
        },
        SignedNonce: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Nonce',
          description: 'Signed calls: one-time random string',
        },
        SignedSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Signature',
          description: 'Signed calls: HMAC of METHOD\\nPATH\\nQUERY\\nCONTENTSIGN\\nTIMESTAMP\\nNONCE, hex or Base64',
        },
        SignedContent: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Content-Sign',
          description: 'Signed calls: lowercase hex SHA-256 of the raw body',
        },
      },
    },
  };
}
