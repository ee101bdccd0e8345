import { parseSm2PublicKey } from '../openapi/sm2.js';
import { createPublicKey, randomBytes } from 'node:crypto';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { apiCredentials } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { ServiceScope } from '../../rpc/context.js';
import { appError } from '../../errors/app-error.js';
import type { Transaction } from '../../infra/db/client.js';
import { updateVersioned } from '../../infra/db/versioned.js';
import type { CallContext } from '../../rpc/call-context.js';
import { actorOf as auditActor, auditChange } from '../audit/change.js';
import type { AuditAction } from '../audit/write.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { normalizeAlgorithm } from '../openapi/signature.js';
import { parseAllowList } from './directory.js';
import { credentialErrors } from './errors.js';
import { notifyCredentialChange, type CredentialChange } from './notice.js';
import type { createCredentialRequest, credentialItem } from './schemas.js';

/**
 * API credentials of the signed-in user (SPEC ApiCredential; /api/Profile). The AppKey (`ak_` +
 * 24 letters and digits) is public and globally unique; the AppSecret (`sk_` + 43, about 256
 * bits) is shown only in the answers of create and rotate, and stored sealed (secret-box.ts).
 * At most five per user, exact under concurrent creation. Every change reaches the signature
 * check of every node at once (the directory's cache), is audited and notified to the user.
 */

export const MAX_CREDENTIALS_PER_USER = 5;

type Item = z.output<typeof credentialItem>;
type CreateInput = z.output<typeof createCredentialRequest>;
type Ctx = Pick<CallContext, 'culture' | 'ip' | 'traceId' | 'userAgent'>;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniform letters and digits (bytes of 248 and more are dropped: 248 is a multiple of 62). */
export function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length + 8)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

function toItem(row: typeof apiCredentials.$inferSelect): Item {
  return {
    basicId: String(row.id),
    credentialName: row.credentialName,
    appKey: row.appKey,
    status: row.status === 'Enabled' ? 'Enabled' : 'Disabled',
    signatureAlgorithm: row.signatureAlgorithm,
    ipWhitelist: row.ipWhitelist,
    lastUsedTime: row.lastUsedTime,
    expirationTime: row.expirationTime,
    createdTime: row.createdTime,
  };
}

/** Impersonation may not mint or rotate secrets (SPEC "Impersonation": key regeneration is refused). */
function refuseImpersonation(auth: AuthContext): void {
  if (auth.state.impersonatorUserId !== null) throw appError(credentialErrors.IMPERSONATION_FORBIDDEN);
}

function actorOf(auth: AuthContext): bigint {
  return auth.state.impersonatorUserId !== null ? BigInt(auth.state.impersonatorUserId) : auth.userId;
}

function audit(
  tx: Transaction,
  deps: AppDeps,
  ctx: Ctx,
  auth: AuthContext,
  action: AuditAction,
  row: { id: bigint; appKey: string },
  detail: Record<string, unknown> = {},
) {
  return auditChange(
    tx,
    deps,
    auditActor({ ...ctx, auth }),
    action,
    { type: 'ApiCredential', id: row.id, userId: auth.userId },
    { appKey: row.appKey, ...detail },
  );
}

async function announce(
  { deps, services }: ServiceScope,
  ctx: Ctx,
  auth: AuthContext,
  change: CredentialChange,
  appKey: string,
): Promise<void> {
  await services.credentials.changed(appKey);
  await notifyCredentialChange(deps, {
    userId: auth.userId,
    tenantId: auth.tenantId,
    culture: ctx.culture,
    change,
    appKey,
    request: ctx,
  });
}

async function ownedRow(deps: AppDeps, auth: AuthContext, id: bigint) {
  if (id <= 0n) throw appError(credentialErrors.INVALID_ID);
  const [row] = await deps.db
    .select()
    .from(apiCredentials)
    .where(and(eq(apiCredentials.id, id), eq(apiCredentials.userId, auth.userId)));
  if (!row) throw appError(credentialErrors.NOT_FOUND);
  return row;
}

/** The algorithm, public key and allow-list a new credential may be pinned to. */
function signingOptions(deps: AppDeps, input: Partial<NonNullable<CreateInput>>) {
  const allowed = [
    'HMACSHA256',
    'HMACSHA512',
    'RSASHA256',
    'SM2',
    ...(deps.config.OpenApiSecurity.AllowLegacySignatureAlgorithms ? ['HMACSHA1'] : []),
  ];
  let algorithm = input.signatureAlgorithm ? normalizeAlgorithm(input.signatureAlgorithm) : undefined;
  if (algorithm === undefined && input.publicKey?.trim()) algorithm = 'RSASHA256';
  if (algorithm !== undefined && !allowed.includes(algorithm)) {
    throw appError(credentialErrors.ALGORITHM_NOT_ALLOWED, {
      params: { algorithm: input.signatureAlgorithm, allowed: allowed.join(', ') },
    });
  }
  let publicKey: string | null = null;
  if (algorithm === 'RSASHA256') {
    try {
      const key = createPublicKey(input.publicKey ?? '');
      if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048)
        throw new Error('not RSA 2048+');
      publicKey = key.export({ type: 'spki', format: 'pem' }).toString();
    } catch {
      throw appError(credentialErrors.PUBLIC_KEY_INVALID);
    }
  } else if (algorithm === 'SM2') {
    // Kept as given (uncompressed hex or PEM); the same parser reads it back (credentials/directory.ts).
    if (!input.publicKey || !parseSm2PublicKey(input.publicKey))
      throw appError(credentialErrors.SM2_PUBLIC_KEY_INVALID);
    publicKey = input.publicKey.trim();
  } else if (input.publicKey?.trim()) {
    throw appError(credentialErrors.PUBLIC_KEY_INVALID);
  }
  const entries = parseAllowList(input.ipWhitelist ?? null);
  for (const entry of entries ?? []) {
    if (!/^(?:\*|[0-9A-Fa-f.:]+\*?)$/.test(entry) || entry.length > 64)
      throw appError(credentialErrors.ALLOW_LIST_INVALID, { params: { entry } });
  }
  return { algorithm: algorithm ?? null, publicKey, ipWhitelist: entries ? entries.join(',') : null };
}

export async function listCredentials({ deps }: ServiceScope, auth: AuthContext): Promise<Item[]> {
  const rows = await deps.db
    .select()
    .from(apiCredentials)
    .where(eq(apiCredentials.userId, auth.userId))
    .orderBy(desc(apiCredentials.createdTime), desc(apiCredentials.id));
  return rows.map(toItem);
}

export async function createCredential(
  { deps, services }: ServiceScope,
  ctx: Ctx,
  auth: AuthContext,
  input: CreateInput,
) {
  refuseImpersonation(auth);
  const options = signingOptions(deps, input ?? {});
  const now = deps.clock.now();
  if (input?.expirationTime && input.expirationTime.getTime() <= now.getTime())
    throw appError(credentialErrors.EXPIRATION_IN_PAST);
  const id = deps.ids.next();
  const appKey = `ak_${randomAlphanumeric(24)}`;
  const appSecret = `sk_${randomAlphanumeric(43)}`;
  const sealed = services.credentials.seal(appSecret, appKey);
  await deps.db.transaction(async (tx) => {
    // Serializes the creations of one user, so the count below sees every committed one:
    // without it, concurrent creations would each count four and all insert.
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext('portcullis.apicred.' || current_schema() || '.' || ${auth.userId.toString()}::text))`,
    );
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(apiCredentials)
      .where(eq(apiCredentials.userId, auth.userId));
    if (n >= MAX_CREDENTIALS_PER_USER)
      throw appError(credentialErrors.LIMIT_REACHED, { params: { max: MAX_CREDENTIALS_PER_USER } });
    await tx.insert(apiCredentials).values({
      id,
      userId: auth.userId,
      tenantId: auth.tenantId,
      credentialName: input?.credentialName || null,
      appKey,
      secretCiphertext: sealed.ciphertext,
      secretKeyId: sealed.keyId,
      signatureAlgorithm: options.algorithm,
      publicKey: options.publicKey,
      ipWhitelist: options.ipWhitelist,
      status: 'Enabled',
      expirationTime: input?.expirationTime ?? null,
      createdTime: now,
      createdBy: actorOf(auth),
    });
    await audit(
      tx,
      deps,
      ctx,
      auth,
      'ApiCredentialCreated',
      { id, appKey },
      { credentialName: input?.credentialName ?? null, signatureAlgorithm: options.algorithm },
    );
  });
  await announce({ deps, services }, ctx, auth, 'created', appKey);
  deps.logger.info('api credential created', { userId: String(auth.userId), credentialId: String(id), appKey });
  return { basicId: String(id), appKey, appSecret };
}

export async function rotateCredentialSecret(
  { deps, services }: ServiceScope,
  ctx: Ctx,
  auth: AuthContext,
  id: bigint,
) {
  refuseImpersonation(auth);
  const row = await ownedRow(deps, auth, id);
  const appSecret = `sk_${randomAlphanumeric(43)}`;
  const sealed = services.credentials.seal(appSecret, row.appKey);
  await deps.db.transaction(async (tx) => {
    // Of two rotations racing, the second answers 409: its secret would silently not be the valid one.
    await updateVersioned(
      tx,
      apiCredentials,
      row.id,
      row.version,
      {
        secretCiphertext: sealed.ciphertext,
        secretKeyId: sealed.keyId,
        modifiedTime: deps.clock.now(),
        modifiedBy: actorOf(auth),
      },
      eq(apiCredentials.userId, auth.userId),
    );
    await audit(tx, deps, ctx, auth, 'ApiCredentialRotated', row);
  });
  await announce({ deps, services }, ctx, auth, 'rotated', row.appKey);
  deps.logger.info('api credential secret rotated', {
    userId: String(auth.userId),
    credentialId: String(row.id),
    appKey: row.appKey,
  });
  return { basicId: String(row.id), appKey: row.appKey, appSecret };
}

export async function updateCredentialStatus(
  { deps, services }: ServiceScope,
  ctx: Ctx,
  auth: AuthContext,
  id: bigint,
  status: 'Enabled' | 'Disabled',
): Promise<Item> {
  const row = await ownedRow(deps, auth, id);
  const now = deps.clock.now();
  if (row.status !== status) {
    await deps.db.transaction(async (tx) => {
      await updateVersioned(
        tx,
        apiCredentials,
        row.id,
        row.version,
        { status, modifiedTime: now, modifiedBy: actorOf(auth) },
        eq(apiCredentials.userId, auth.userId),
      );
      await audit(tx, deps, ctx, auth, 'ApiCredentialStatusChanged', row, { status });
    });
    await announce({ deps, services }, ctx, auth, status === 'Enabled' ? 'enabled' : 'disabled', row.appKey);
  }
  return toItem({ ...row, status });
}

export async function deleteCredential(
  { deps, services }: ServiceScope,
  ctx: Ctx,
  auth: AuthContext,
  id: bigint,
): Promise<void> {
  if (id <= 0n) throw appError(credentialErrors.INVALID_ID);
  const appKey = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(apiCredentials)
      .where(and(eq(apiCredentials.id, id), eq(apiCredentials.userId, auth.userId)))
      .returning({ id: apiCredentials.id, appKey: apiCredentials.appKey });
    if (!row) throw appError(credentialErrors.NOT_FOUND);
    await audit(tx, deps, ctx, auth, 'ApiCredentialDeleted', row);
    return row.appKey;
  });
  await announce({ deps, services }, ctx, auth, 'deleted', appKey);
}
