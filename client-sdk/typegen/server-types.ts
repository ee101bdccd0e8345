// What the generator reads: the server's router as a client sees it. Not part of the SDK's build.
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../server/src/app-router.js';

export type Router = AppRouter;
export type Inputs = inferRouterInputs<AppRouter>;
export type Outputs = inferRouterOutputs<AppRouter>;
