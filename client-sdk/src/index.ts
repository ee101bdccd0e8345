/** Portcullis client SDK: a typed REST client over the envelope, and the typed tRPC client. */
export { PortcullisError, errorText, unwrap, type Envelope, type FieldError } from './envelope.js';
export { createRestClient, toJson, type CallResult, type InputOf, type OutputOf, type RestClient, type RestClientOptions } from './rest-client.js';
export { routes, type RouteKey } from './routes.gen.js';
export { createTrpcClient, envelopeOf, type AppRouter, type TrpcClientOptions } from './trpc-client.js';
