import type { AppDeps } from '../app-deps.js';
import type { AuthContext } from '../modules/auth/session/session-gate.js';
import type { Services } from '../services.js';
import type { CallContext } from './call-context.js';

/** What every procedure sees: the request, the infrastructure and the services built at boot. */
export interface RequestContext extends CallContext {
  deps: AppDeps;
  services: Services;
}

/** The infrastructure and services of a request, for helpers that need both. */
export type ServiceScope = Pick<RequestContext, 'deps' | 'services'>;

/** The context of a procedure behind the authentication guard. */
export type AuthedContext = RequestContext & { auth: AuthContext };
