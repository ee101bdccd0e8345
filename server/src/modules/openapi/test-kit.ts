import { randomUUID } from 'node:crypto';
import { apiCredentials } from '../../../../db/schema/index.js';
import type { AppGraph as AppDeps } from '../../services.js';
import type { Clock } from '../../infra/clock.js';
import { bearer, createTestUser, loginAs, type TestUser, type TestUserOptions } from '../../testing/auth-fixtures.js';
import { startTestServer, type TestServer } from '../../testing/harness.js';
import { randomAlphanumeric } from '../credentials/service.js';
import { referenceSign, type ReferenceCredential, type ReferenceRequest } from './reference-signer.js';

/** Helpers of the signed-call tests: servers with OpenApiSecurity on, credentials, signed calls. */

function merge(a: Record<string, any>, b: Record<string, any>): Record<string, any> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b))
    out[k] = v && typeof v === 'object' && !Array.isArray(v) && typeof a[k] === 'object' ? merge(a[k], v) : v;
  return out;
}

/**
 * Waits for the next whole second of the clock (at once when it stands on one). The record of
 * used nonces refuses requests signed before it began, and X-Timestamp counts whole seconds: a
 * request signed in the second a server started, before it started, is refused.
 */
export async function untilNextSecond(clock: Clock): Promise<void> {
  const next = Math.ceil(clock.nowMs() / 1000) * 1000;
  while (clock.nowMs() < next) await new Promise((resolve) => setTimeout(resolve, Math.max(1, next - clock.nowMs())));
}

/**
 * A server with the signature check on for /api/openapi (the deployed prefix) unless told
 * otherwise, answering once a request signed now is newer than its record of used nonces.
 */
export async function startSignedServer(
  config: Record<string, any> = {},
  options: { clock?: Clock } = {},
): Promise<TestServer> {
  const server = await startTestServer({
    config: merge(
      {
        Saas: { Auth: { CaptchaEnabled: false } },
        OpenApiSecurity: { IsEnabled: true, ProtectedPathPrefixes: ['/api/openapi'] },
      },
      config,
    ),
    ...options,
  });
  await untilNextSecond(server.runtime.deps.clock);
  return server;
}

export interface IssuedCredential extends ReferenceCredential {
  basicId: string;
  user: TestUser;
  accessToken: string;
}

/** A user who logs in and creates a credential over HTTP (the way a person would). */
export async function issueCredential(
  server: TestServer,
  body: Record<string, unknown> = {},
  userOptions: TestUserOptions = {},
  user?: TestUser,
): Promise<IssuedCredential> {
  const owner = user ?? (await createTestUser(server.runtime.deps, userOptions));
  const token = await loginAs(server, owner);
  const res = await server.json('/api/Profile/ApiCredential', {
    method: 'POST',
    headers: bearer(token.accessToken),
    json: body,
  });
  if (res.status !== 200) throw new Error(`create credential failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...res.body.data, user: owner, accessToken: token.accessToken };
}

/** A credential written straight to the database (for servers whose login itself needs a signature). */
export async function seedCredential(deps: AppDeps, userId: bigint): Promise<ReferenceCredential> {
  const appKey = `ak_${randomAlphanumeric(24)}`;
  const appSecret = `sk_${randomAlphanumeric(43)}`;
  const sealed = deps.credentials.seal(appSecret, appKey);
  await deps.db
    .insert(apiCredentials)
    .values({ id: deps.ids.next(), userId, appKey, secretCiphertext: sealed.ciphertext, secretKeyId: sealed.keyId });
  return { appKey, appSecret };
}

export interface SignedCall extends ReferenceRequest {
  /** Headers added after signing (X-Language, Authorization, ...). */
  headers?: Record<string, string>;
  /** Headers replaced or removed (undefined) after signing, to break one stage. */
  override?: Record<string, string | undefined>;
  contentType?: string;
}

/** Signs with the reference signer and sends; answers status, headers, parsed body and raw text. */
export async function signedCall(server: TestServer, credential: ReferenceCredential, call: SignedCall) {
  const signed = referenceSign(credential, call);
  const headers: Record<string, string> = { ...signed.headers, ...call.headers };
  for (const [k, v] of Object.entries(call.override ?? {})) {
    delete headers[k];
    if (v !== undefined) headers[k] = v;
  }
  if (call.body !== undefined) headers['content-type'] = call.contentType ?? 'application/json';
  const res = await server.request(signed.url, { method: call.method, headers, body: call.body });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return {
    status: res.status,
    headers: res.headers,
    body,
    text,
    nonce: signed.headers['X-Nonce']!,
    stringToSign: signed.stringToSign,
  };
}

export const nowSeconds = (deps: AppDeps) => String(Math.floor(deps.clock.nowMs() / 1000));
export const freshNonce = () => randomUUID();
