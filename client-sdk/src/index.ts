/** Portcullis client SDK: a typed REST client over the envelope, the typed tRPC client, and the auth layer. */
export { PortcullisError, errorText, unwrap, type Envelope, type FieldError } from './envelope.js';
export {
  createRestClient,
  toJson,
  type CallResult,
  type InputOf,
  type OutputOf,
  type RestClient,
  type RestClientOptions,
} from './rest-client.js';
export { routes, type RouteKey } from './routes.gen.js';
export { createTrpcClient, envelopeOf, type AppRouter, type TrpcClientOptions } from './trpc-client.js';
export { createAuthClient, type AuthClient, type AuthClientOptions, type LogoutResult } from './auth/auth-client.js';
export type {
  LoginInput,
  LoginResult,
  LoginToken,
  SecondFactorAnswer,
  SignedIn,
  TwoFactorChallenge,
  TwoFactorMethod,
} from './auth/login-flow.js';
export type { EmailCodeLoginInput, PhoneCodeLoginInput } from './auth/code-login-flow.js';
export type { LockDetail } from './auth/response-outcome.js';
export type { ProfileApi } from './auth/profile-api.js';
export { SessionEndedError, type LoggedOutEvent } from './auth/session-ended-error.js';
export {
  createStorageTokenStore,
  LEGACY_TOKEN_KEYS,
  type StorageLike,
  type TokenStorageKeys,
} from './auth/storage-token-store.js';
export { defaultSleep, retryAfterMs, type Sleep } from './auth/throttle-retry.js';
export { createMemoryTokenStore, type Tokens, type TokenStore } from './auth/token-store.js';
export {
  canonicalQuery,
  createRequestSigner,
  escapeDataString,
  stringToSign,
  type ContentSignAlgorithm,
  type RequestSigner,
  type RequestSignerOptions,
  type SignatureAlgorithm,
  type SignInput,
} from './signing/request-signer.js';
