/**
 * Route derivation (SPEC "Route derivation rules"): a pure function from a service name and a
 * method name to an HTTP method and a path under /api. Every REST route, the OpenAPI document
 * and the SDK route table come from here, so the rules live in exactly one place.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** Verb prefixes in matching order: longer prefixes first where one extends another. */
const VERB_PREFIXES: ReadonlyArray<readonly [prefix: string, method: HttpMethod]> = [
  ['PartialUpdate', 'PATCH'],
  ['Retrieve', 'GET'],
  ['Search', 'GET'],
  ['Fetch', 'GET'],
  ['Query', 'GET'],
  ['Find', 'GET'],
  ['List', 'GET'],
  ['Get', 'GET'],
  ['Create', 'POST'],
  ['Insert', 'POST'],
  ['Add', 'POST'],
  ['Update', 'PUT'],
  ['Modify', 'PUT'],
  ['Edit', 'PUT'],
  ['Destroy', 'DELETE'],
  ['Delete', 'DELETE'],
  ['Remove', 'DELETE'],
  ['Patch', 'PATCH'],
];

export interface ServiceRouteOptions {
  /** Class-level fixed route template (the authentication service is fixed to "Auth"). */
  route?: string;
}

export interface MethodRouteOptions {
  /** An explicit method attribute overrides the prefix rule. */
  method?: HttpMethod;
  /** Paged list operations are explicitly POST (SPEC rule 5). */
  paged?: boolean;
  /**
   * Explicit action name, like an action-name attribute: used where the spec keeps the verb in
   * the path (POST /api/Profile/DeleteAccount is an explicit POST named DeleteAccount).
   */
  action?: string;
}

export interface DerivedRoute {
  method: HttpMethod;
  controller: string;
  action: string;
  path: string;
}

/**
 * Controller name: the fixed route template when given; otherwise the service name without the
 * suffix `AppService`, or without `Service` for a `QueryService`, which keeps the spec's own
 * examples true (UserQueryService -> /api/UserQuery/...). A name with neither suffix is used as is.
 */
export function deriveController(serviceName: string, options: ServiceRouteOptions = {}): string {
  if (options.route) return options.route;
  if (serviceName.endsWith('AppService') && serviceName.length > 'AppService'.length) {
    return serviceName.slice(0, -'AppService'.length);
  }
  if (serviceName.endsWith('QueryService') && serviceName.length > 'QueryService'.length) {
    return serviceName.slice(0, -'Service'.length);
  }
  return serviceName;
}

/** A prefix matches only at a word boundary: the next character is upper case or `_`. */
function matchesAtBoundary(name: string, prefix: string): boolean {
  if (!name.startsWith(prefix) || name.length === prefix.length) return false;
  const next = name.charAt(prefix.length);
  return next === '_' || (next >= 'A' && next <= 'Z');
}

export function splitVerb(methodName: string): { verb: HttpMethod | undefined; action: string } {
  const name = methodName.endsWith('Async') && methodName.length > 5 ? methodName.slice(0, -5) : methodName;
  for (const [prefix, method] of VERB_PREFIXES) {
    if (matchesAtBoundary(name, prefix)) {
      // `Get_User` becomes `User`: the separator belongs to the verb, not to the action name.
      let action = name.slice(prefix.length);
      if (action.startsWith('_')) action = action.replace(/^_+/, '');
      return { verb: method, action: action || name };
    }
  }
  return { verb: undefined, action: name };
}

export function deriveRoute(
  serviceName: string,
  methodName: string,
  serviceOptions: ServiceRouteOptions = {},
  methodOptions: MethodRouteOptions = {},
): DerivedRoute {
  const controller = deriveController(serviceName, serviceOptions);
  const { verb, action: derivedAction } = splitVerb(methodName);
  const action = methodOptions.action ?? derivedAction;
  const method = methodOptions.method ?? (methodOptions.paged ? 'POST' : (verb ?? 'POST'));
  return { method, controller, action, path: `/api/${controller}/${action}` };
}
