import type { ContentAlgorithm } from './signature.js';

/** Who signed a request that passed the signature check (the identity of an anonymous signed call). */
export interface SignedCaller {
  credentialId: bigint;
  accessKey: string;
  ownerUserId: bigint;
}

/** What the signature check hands to the API for a request on a protected path. */
export interface SignedRequest {
  /** Undefined when an unsigned request was let through (AllowUnsignedRequests). */
  caller?: SignedCaller;
  /** The body, already read (and decrypted): exactly the bytes the content sign covers. */
  body?: Uint8Array;
  /** Set when the answer must be encrypted (X-Encrypt-Response, or an encrypted request by default). */
  encryptResponse?: { key: Buffer; contentAlgorithm: ContentAlgorithm };
}
