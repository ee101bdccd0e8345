import type { HttpMethod } from '../routes/derive.js';

/** Per-procedure routing and access metadata, read by the REST emitter, codegen and guards. */
export interface RouteMeta {
  /** Explicit HTTP method, overriding the verb prefix. */
  method?: HttpMethod;
  /** A paged list operation: explicitly POST with the query object as body. */
  paged?: boolean;
  /** Explicit action name (the path keeps a verb, as in POST /api/Profile/DeleteAccount). */
  action?: string;
  /**
   * Where the input comes from on REST: GET and DELETE read the query string; other methods read
   * the JSON body, except the keys listed in `query` (scalars such as an id), or everything when
   * `bind` is 'query'.
   */
  bind?: 'query' | 'body';
  query?: readonly string[];
  /** 'anonymous' opens the endpoint to everyone; otherwise a valid session is required. */
  auth?: 'anonymous' | 'user';
  /** Permission code the caller's authorization snapshot must contain. */
  permission?: string;
  /**
   * Reachable while the session is locked: `true` under any lock (unlock, lock, logout), or only
   * under the named lock (password change under PasswordChangeRequired).
   */
  allowWhileLocked?: true | 'ScreenLock' | 'PasswordChangeRequired';
  /**
   * Reachable when the session's tenant is no longer open to the user (suspended, expired,
   * membership ended), so the client can still log out, list its tenants and switch away.
   */
  allowOutsideTenant?: true;
  /** Envelope code of a success (201 for creations that say so). */
  successCode?: 200 | 201 | 202;
  summary?: string;
  description?: string;
}
