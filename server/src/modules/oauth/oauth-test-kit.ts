import type { TestServer } from '../../testing/harness.js';

/** Shared by the OAuth tests: the browser's side of the redirect flow. */

export const FRONTEND_CALLBACK = 'http://localhost:7777/#/auth/oauth-callback';

/** What the front-end callback page receives: the query (must stay empty) and the fragment's parameters. */
export interface FrontendResult {
  location: string;
  query: string;
  params: Record<string, string>;
}

export function frontendResult(location: string | null): FrontendResult {
  if (!location?.startsWith(FRONTEND_CALLBACK)) throw new Error(`not a front-end callback: ${location}`);
  const url = new URL(location);
  const fragment = url.hash.slice(1);
  const q = fragment.indexOf('?');
  return {
    location,
    query: url.search,
    params: Object.fromEntries(new URLSearchParams(q >= 0 ? fragment.slice(q + 1) : '')),
  };
}

/** GET without following redirects. */
export const visit = (url: string, headers: Record<string, string> = {}) => fetch(url, { redirect: 'manual', headers });

/** Starts a flow: the provider redirect (or a front-end error), the state and the browser cookie. */
export async function startFlow(server: TestServer, query: string, headers: Record<string, string> = {}) {
  const res = await visit(`${server.url}/api/OAuth/ExternalLogin?${query}`, headers);
  if (res.status !== 302) throw new Error(`ExternalLogin answered ${res.status}`);
  const location = res.headers.get('location')!;
  const setCookie = res.headers.get('set-cookie');
  const state = location.startsWith(FRONTEND_CALLBACK)
    ? undefined
    : (new URL(location).searchParams.get('state') ?? undefined);
  return { res, location, state, setCookie, cookie: setCookie?.split(';')[0] };
}

/** Calls our callback as the provider's redirect would, with the browser's cookie. */
export async function callback(server: TestServer, params: Record<string, string>, cookie?: string) {
  const res = await visit(`${server.url}/api/OAuth/Callback?${new URLSearchParams(params)}`, cookie ? { cookie } : {});
  if (res.status !== 302) throw new Error(`Callback answered ${res.status}: ${await res.text()}`);
  return { res, result: frontendResult(res.headers.get('location')) };
}
