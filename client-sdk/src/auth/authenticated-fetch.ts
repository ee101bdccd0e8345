import { routes } from '../routes.gen.js';
import { attempt, headersOf, pathOf, type FetchInput } from './request-parts.js';
import { lockDetailOf, readOutcome, type LockDetail } from './response-outcome.js';
import type { TokenRefresher } from './token-refresher.js';
import type { Tokens, TokenStore } from './token-store.js';

/** The parts the authenticated fetch is built from (all shared with the rest of the auth client). */
export interface AuthenticatedFetchOptions {
  /** The transport below (with the 429 retry already in it). */
  fetch: typeof fetch;
  store: TokenStore;
  refresher: TokenRefresher;
  onLocked(detail: LockDetail): void;
}

/**
 * Calls that obtain tokens. They are sent without a bearer and a 401 from them is an answer, not
 * a reason to refresh: refreshing to log in, or to refresh, makes no sense and could loop.
 */
const TOKEN_PROCEDURES = [
  'AuthAppService.LoginAsync',
  'AuthAppService.RefreshTokenAsync',
  'AuthAppService.EmailLoginAsync',
  'AuthAppService.PhoneLoginAsync',
];
const TOKEN_PATHS = new Set(
  [
    routes['AuthAppService.LoginAsync'].path,
    routes['AuthAppService.RefreshTokenAsync'].path,
    '/api/Auth/EmailLogin',
    '/api/Auth/PhoneLogin',
  ].map((p) => p.toLowerCase()),
);
const TOKEN_PROCEDURE_NAMES = new Set(TOKEN_PROCEDURES.map((p) => p.toLowerCase()));

/** Whether the request is a REST call to one of `paths` or a tRPC call (or batch) naming one of `procedures`. */
function calls(input: FetchInput, paths: ReadonlySet<string>, procedures: ReadonlySet<string>): boolean {
  const path = pathOf(input);
  if ([...paths].some((p) => path.endsWith(p))) return true;
  // tRPC puts the procedure (or a comma-separated batch of them) after /trpc/.
  const at = path.lastIndexOf('/trpc/');
  return (
    at >= 0 &&
    path
      .slice(at + 6)
      .split(',')
      .some((name) => procedures.has(decodeURIComponent(name)))
  );
}

const obtainsTokens = (input: FetchInput) => calls(input, TOKEN_PATHS, TOKEN_PROCEDURE_NAMES);

/**
 * SwitchTenant answers a new pair and spends the old refresh token: the pair must be stored, or
 * the next refresh would present a spent token and the server would end the session.
 */
const SWITCH_PATHS = new Set([routes['AuthAppService.SwitchTenantAsync'].path.toLowerCase()]);
const SWITCH_PROCEDURES = new Set(['AuthAppService.SwitchTenantAsync'.toLowerCase()]);
const switchesTenant = (input: FetchInput) => calls(input, SWITCH_PATHS, SWITCH_PROCEDURES);

/** The token pair in a successful answer: a REST envelope's data, or a tRPC result (single or batch). */
async function tokenPairIn(response: Response): Promise<Tokens | undefined> {
  if (!response.ok) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(await response.clone().text());
  } catch {
    return undefined;
  }
  const candidates = (Array.isArray(body) ? body : [body]).map((item) => {
    const value = item as { data?: unknown; result?: { data?: unknown } } | null;
    return value?.result?.data ?? value?.data;
  });
  for (const candidate of candidates) {
    const pair = candidate as Partial<Tokens> | undefined;
    if (typeof pair?.accessToken === 'string' && typeof pair.refreshToken === 'string')
      return { accessToken: pair.accessToken, refreshToken: pair.refreshToken };
  }
  return undefined;
}

/**
 * The fetch every authenticated call goes through (REST client and tRPC links alike): adds the
 * bearer token; on 401 refreshes once (single-flight) and replays once; on 423 reports the lock
 * and hands the response back untouched (the session is still valid, tokens stay).
 */
export function createAuthenticatedFetch(options: AuthenticatedFetchOptions): typeof fetch {
  const { store, refresher } = options;

  async function sendOnce(input: FetchInput, init: RequestInit | undefined, accessToken: string | undefined) {
    const headers = headersOf(input, init);
    if (accessToken) headers.set('authorization', `Bearer ${accessToken}`);
    const response = await options.fetch(...attempt(input, init, headers));
    const outcome = await readOutcome(response);
    if (outcome.has(423)) options.onLocked(lockDetailOf(outcome.envelopeOf(423)));
    return { response, outcome };
  }

  function send(input: FetchInput, init: RequestInit | undefined, accessToken: string | undefined) {
    if (!switchesTenant(input)) return sendOnce(input, init, accessToken);
    return refresher.exchange(async () => {
      const sent = await sendOnce(input, init, accessToken);
      const pair = await tokenPairIn(sent.response);
      if (pair) await store.set(pair);
      return sent;
    });
  }

  return async (input: FetchInput, init?: RequestInit) => {
    // A caller that set its own Authorization speaks for itself (e.g. acting with another token).
    if (obtainsTokens(input) || headersOf(input, init).has('authorization'))
      return options.fetch(...attempt(input, init));
    // A request started while a refresh runs would only 401 with the old token: wait for the new one.
    await refresher.settled();
    const used = (await store.get())?.accessToken;
    const first = await send(input, init, used);
    if (!used || !first.outcome.has(401)) return first.response;
    // Rejects with SessionEndedError (tokens cleared, logged-out signalled) when refused.
    const renewed = await refresher.renew(used);
    // Replay only when no call of the request ran: in a tRPC batch where another call succeeded,
    // replaying would run that call twice. The token is renewed all the same for the next calls.
    if (!renewed || !first.outcome.all(401)) return first.response;
    await first.response.body?.cancel().catch(() => undefined);
    return (await send(input, init, renewed.accessToken)).response;
  };
}
