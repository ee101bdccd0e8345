/**
 * Target: a signed `GET /api/openapi/Ping` (the whole signature check: headers, timestamp
 * window, credential lookup, content sign, HMAC-SHA256, nonce recorded in the store, then the
 * procedure and the envelope) reaches at least 50% of a bare Hono route answering the same bytes
 * to the same requests. Every request carries a fresh timestamp and nonce, signed in the load
 * generator; the bare route receives exactly the same headers.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import { alternate, load, percentOf, startBenchServer } from './load.js';

const PATH = '/api/openapi/Ping';
const EMPTY_SHA256 = createHash('sha256').digest('hex');

function signer(appKey: string, appSecret: string): () => Record<string, string> {
  const prefix = randomBytes(6).toString('hex');
  let counter = 0;
  return () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = `${prefix}${(counter++).toString(36)}`;
    const text = `GET\n${PATH}\n\n${EMPTY_SHA256}\n${timestamp}\n${nonce}`;
    return {
      'x-access-key': appKey,
      'x-timestamp': timestamp,
      'x-nonce': nonce,
      'x-content-sign': EMPTY_SHA256,
      'x-signature': createHmac('sha256', appSecret).update(text).digest('hex'),
      'x-encrypt-algorithm': 'NONE',
    };
  };
}

export async function run(): Promise<void> {
  const { ports, users, password, child } = await startBenchServer([], {
    BENCH_USERS: '1',
    OpenApiSecurity__IsEnabled: 'true',
    OpenApiSecurity__ProtectedPathPrefixes: '/api/openapi',
  });
  try {
    const app = `http://127.0.0.1:${ports.app}`;
    // A credential made the way a partner gets one: log in, create it under /api/Profile.
    const login = await fetch(`${app}/api/Auth/Login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: users[0], password }),
    });
    const token = ((await login.json()) as { data: { token: { accessToken: string } } }).data.token.accessToken;
    const created = await fetch(`${app}/api/Profile/ApiCredential`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const { appKey, appSecret } = ((await created.json()) as { data: { appKey: string; appSecret: string } }).data;
    const sign = signer(appKey, appSecret);
    // X-Timestamp counts whole seconds, and the record of used nonces refuses requests signed
    // before it began (the server's start): sign from the next second on.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));

    const sample = await fetch(`${app}${PATH}`, { headers: sign() });
    if (sample.status !== 200) throw new Error(`signed Ping failed: ${sample.status} ${await sample.text()}`);
    child.send({ type: 'echo-body', body: await sample.json() });

    const requests: autocannon.Request[] = [{ method: 'GET', setupRequest: (req) => ({ ...req, headers: sign() }) }];
    const signed = `${app}${PATH}`;
    const bare = (port: number) => `http://127.0.0.1:${port}/bare-echo`;
    await load('warm-up', { url: signed, requests, duration: 3 });
    await load('warm-up', { url: bare(ports.bare), requests, duration: 3 });
    await load('warm-up', { url: bare(ports.bareCoalesced), requests, duration: 3 });
    const rows = await alternate([
      { label: 'bare Hono JSON, same body', options: { url: bare(ports.bare), requests } },
      { label: 'bare Hono, coalesced as the app', options: { url: bare(ports.bareCoalesced), requests } },
      { label: `signed GET ${PATH}`, options: { url: signed, requests } },
    ]);
    process.stdout.write(
      `\nsigned Ping / bare = ${percentOf(rows, `signed GET ${PATH}`, 'bare Hono JSON, same body')} (target >= 50%)\n`,
    );
    process.stdout.write(
      `signed Ping / bare with the same coalescing = ${percentOf(rows, `signed GET ${PATH}`, 'bare Hono, coalesced as the app')} (for comparison)\n`,
    );
  } finally {
    child.disconnect();
  }
}
