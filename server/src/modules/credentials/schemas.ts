import { z } from 'zod';
import { defineEnum, zDateTime, zDateTimeOut, zId, zIdOut, zQueryId } from '../../rpc/wire.js';

/** Credential status, written by name, read by name or number (like the user status). */
export const CredentialStatus = defineEnum('ApiCredentialStatus', { Enabled: 1, Disabled: 0 });

/** One credential as listed: never its secret. */
export const credentialItem = z.object({
  basicId: zIdOut(),
  credentialName: z.string().nullable().optional(),
  appKey: z.string(),
  status: CredentialStatus.out(),
  /** The algorithm the credential is pinned to; absent: the configured default (or X-Sign-Algorithm). */
  signatureAlgorithm: z.string().nullable().optional(),
  ipWhitelist: z.string().nullable().optional(),
  lastUsedTime: zDateTimeOut().nullable().optional(),
  expirationTime: zDateTimeOut().nullable().optional(),
  createdTime: zDateTimeOut(),
});

// Every field may also come as null (the original's form sends null for what it leaves empty).
const absentAsUndefined = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

export const createCredentialRequest = z
  .object({
    credentialName: absentAsUndefined(z.string().trim().max(100)),
    /** HMACSHA256 (default), HMACSHA512, RSASHA256 (needs publicKey), HMACSHA1 when legacy algorithms are allowed. */
    signatureAlgorithm: absentAsUndefined(z.string().trim().max(16)),
    /** PEM RSA public key (2048 bits or more) for RSASHA256. */
    publicKey: absentAsUndefined(z.string().max(8192)),
    /** Allowed client addresses: `*`, `a.b.*` or exact, separated by `,` `;` `|` or spaces. */
    ipWhitelist: absentAsUndefined(z.string().max(1000)),
    expirationTime: absentAsUndefined(zDateTime()),
  })
  .optional();

/** The answer of create and rotate: the only time the secret is shown. */
export const issuedCredential = z.object({ basicId: zIdOut(), appKey: z.string(), appSecret: z.string() });

export const credentialIdRequest = z.object({ basicId: zId() });
export const credentialStatusRequest = z.object({ basicId: zId(), status: CredentialStatus.schema() });
export const credentialQueryId = z.object({ id: zQueryId() });
