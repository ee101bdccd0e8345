import type { Context } from 'hono';
import { appError } from '../errors/app-error.js';
import { commonErrors } from '../errors/common.js';
import type { HonoEnv } from './request-context.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Node's request stream, when the host serves over node:http. */
export interface NodeBodySource extends AsyncIterable<Buffer | string> {
  headers?: Record<string, string | string[] | undefined>;
  iterator?(options: { destroyOnReturn: boolean }): AsyncIterable<Buffer | string>;
}

/**
 * Reads a request body up to `limit` bytes. A declared length over the limit is refused before
 * anything is read; a body that grows past it is cut off at the limit, never buffered whole.
 * Over node:http it reads Node's stream directly: going through the Fetch Request would build a
 * full Request and a web stream per call (the biggest cost of a small POST).
 */
export async function readBodyLimited(request: Request, limit: number, incoming?: NodeBodySource): Promise<Uint8Array> {
  if (incoming && typeof incoming[Symbol.asyncIterator] === 'function') return readNodeBody(incoming, limit);
  const declared = request.headers.get('content-length');
  if (declared && Number(declared) > limit) throw appError(commonErrors.BODY_TOO_LARGE, { params: { limit } });
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw appError(commonErrors.BODY_TOO_LARGE, { params: { limit } });
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.byteLength;
  }
  return all;
}

async function readNodeBody(incoming: NodeBodySource, limit: number): Promise<Uint8Array> {
  const declared = incoming.headers?.['content-length'];
  if (typeof declared === 'string' && Number(declared) > limit)
    throw appError(commonErrors.BODY_TOO_LARGE, { params: { limit } });
  const chunks: Buffer[] = [];
  let size = 0;
  // Stopping early must not destroy the stream (and with it the socket the 413 goes out on);
  // the host drains what is left.
  const chunksOf = incoming.iterator ? incoming.iterator({ destroyOnReturn: false }) : incoming;
  for await (const chunk of chunksOf) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.byteLength;
    if (size > limit) throw appError(commonErrors.BODY_TOO_LARGE, { params: { limit } });
    chunks.push(buffer);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export function isJsonContentType(contentType: string | null | undefined): boolean {
  return !!contentType && JSON_TYPE.test(contentType);
}

/**
 * JSON.parse, except integer literals too long for a double are kept as strings, so a 64-bit id
 * sent as a JSON number arrives intact (the id schema accepts strings).
 */
export function parseJsonKeepingBigInts(text: string): unknown {
  if (!/\d{16,}/.test(text)) return JSON.parse(text);
  let out = '';
  let i = 0;
  let start = 0;
  while (i < text.length) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 /* \ */ ? 2 : 1;
      i++;
      continue;
    }
    if ((ch >= 48 && ch <= 57) || ch === 45 /* - */) {
      let j = i + 1;
      while (j < text.length && /[0-9eE.+-]/.test(text.charAt(j))) j++;
      const literal = text.slice(i, j);
      if (/^-?\d{16,}$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
        out += `${text.slice(start, i)}"${literal}"`;
        start = j;
      }
      i = j;
      continue;
    }
    i++;
  }
  return JSON.parse(out + text.slice(start));
}

/**
 * The JSON body of a request (the REST facade's and any plain route's): undefined when empty, 415
 * for another media type, 400 for text that is not JSON, 413 past `limit`. A body the signature check already read (`preread`) was held to the signed
 * limit (OpenApiSecurity.MaxRequestBodySize, 2 MiB by SPEC "Limits"), which governs signed calls.
 */
export async function readJsonBody(
  c: Context<HonoEnv>,
  limit: number,
  preread?: Uint8Array,
): Promise<{ input: unknown; text?: string }> {
  const raw = preread ?? (await readBodyLimited(c.req.raw, limit, c.env?.incoming as NodeBodySource | undefined));
  if (raw.byteLength === 0) return { input: undefined };
  if (!isJsonContentType(c.req.header('content-type'))) throw appError(commonErrors.UNSUPPORTED_MEDIA_TYPE);
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw appError(commonErrors.MALFORMED_JSON);
  }
  if (text.trim() === '') return { input: undefined };
  try {
    return { input: parseJsonKeepingBigInts(text), text };
  } catch {
    throw appError(commonErrors.MALFORMED_JSON);
  }
}
