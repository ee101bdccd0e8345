import { authRouter } from './modules/auth/router.js';
import { profileRouter } from './modules/profile/router.js';
import { systemRouter } from './modules/system/router.js';
import { tenantQueryRouter } from './modules/tenant/query-router.js';
import type { ServiceRouteOptions } from './routes/derive.js';
import { router } from './rpc/trpc.js';

/**
 * The whole API. Each key is a service class name as the spec would write it; its procedures are
 * the service methods. REST routes are derived from these names (routes/derive.ts).
 */
export const appRouter = router({
  AuthAppService: authRouter,
  ProfileAppService: profileRouter,
  SystemAppService: systemRouter,
  TenantQueryService: tenantQueryRouter,
});

export type AppRouter = typeof appRouter;

/** Class-level route templates (the spec fixes the authentication service to "Auth"). */
export const serviceRoutes: Record<string, ServiceRouteOptions> = {
  AuthAppService: { route: 'Auth' },
};
