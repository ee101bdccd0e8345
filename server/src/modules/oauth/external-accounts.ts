import { randomBytes } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import { externalLogins, users } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import { isAppError } from '../../errors/app-error.js';
import type { Executor, Transaction } from '../../infra/db/client.js';
import { postgresErrorCode, UNIQUE_VIOLATION } from '../../infra/db/errors.js';
import { notDeleted } from '../../infra/db/predicates.js';
import type { RequestContext } from '../../rpc/context.js';
import { createSelfServiceAccount, emailInUse } from '../auth/self-service/accounts.js';
import { findAccountById } from '../auth/login/account-lookup.js';
import { requestFacts } from '../auth/login/login-service.js';
import type { CodeLoginChallenge } from '../auth/self-service/self-service-schemas.js';
import type { LoginToken } from '../auth/session/tokens.js';
import type { ExternalIdentity, OAuthProvider } from './providers.js';

/**
 * Linked external identities (table external_logins, unique by Provider, ProviderKey and the
 * user's home TenantId). The service never links one identity to two users, so an identity is
 * found by provider and subject alone. An unknown identity creates an account (SPEC "Callback
 * rules" 3) in the self-service tenant: user name = provider + `_` + random hex, a random strong
 * password nobody knows, no roles, active (the provider vouched for the person), and the
 * provider's e-mail only when the provider verified it and no account uses it; otherwise a
 * placeholder under `OAuth__PlaceholderEmailDomain`. Accounts are never merged by e-mail.
 */

export type LoginOutcome =
  | { kind: 'token'; token: LoginToken }
  | { kind: 'challenge'; challenge: CodeLoginChallenge }
  | { kind: 'error'; code: 'user_not_found' | 'disabled' | 'locked' | 'two_factor_unavailable' | 'too_many_requests' };

export type BindOutcome = 'success' | 'conflict' | 'already_bound' | 'user_not_found';

const ofIdentity = (provider: string, subject: string) =>
  and(eq(externalLogins.provider, provider), eq(externalLogins.providerKey, subject));

/** The live link of an identity: a soft-deleted user's link neither signs in nor blocks anyone. */
const findLink = async (db: Executor, provider: string, subject: string) =>
  (
    await db
      .select({ id: externalLogins.id, userId: externalLogins.userId })
      .from(externalLogins)
      .innerJoin(users, eq(users.id, externalLogins.userId))
      .where(and(ofIdentity(provider, subject), notDeleted(users.isDeleted)))
      .limit(1)
  )[0];

/**
 * Under the identity lock, drops the identity's links to soft-deleted users before a new link
 * is written: left in place, one in the same tenant would hit the unique index.
 */
const dropDeadLinks = (tx: Transaction, provider: string, subject: string) =>
  tx
    .delete(externalLogins)
    .where(
      and(
        ofIdentity(provider, subject),
        sql`exists (select 1 from ${users} where ${users.id} = ${externalLogins.userId} and ${users.isDeleted} = true)`,
      ),
    );

/**
 * Serializes the writers of one identity (the unique index includes the tenant, so it alone
 * would let two users in two tenants link the same identity at the same moment).
 */
const lockIdentity = (tx: Transaction, provider: string, subject: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`external-login:${provider}:${subject}`}, 0))`);

/** Thrown inside the creating transaction when a parallel login created the link first. */
class AlreadyLinked extends Error {
  constructor(readonly userId: bigint) {
    super('identity already linked');
  }
}

/** `github_3fa1c09e`: the provider's letters and digits (at most 20), an underscore, 8 random hex digits. */
function externalUserName(provider: string): string {
  const base =
    provider
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 20) || 'external';
  return `${base}_${randomBytes(4).toString('hex')}`;
}

async function createExternalAccount(
  deps: AppDeps,
  provider: OAuthProvider,
  identity: ExternalIdentity,
  adoptEmail: boolean,
): Promise<bigint> {
  const userName = externalUserName(provider.provider);
  const domain = deps.config.OAuth.PlaceholderEmailDomain;
  const email = adoptEmail && identity.email ? identity.email.toLowerCase() : `${userName}@${domain}`;
  const { userId } = await createSelfServiceAccount(
    deps,
    {
      userName,
      email,
      emailVerified: adoptEmail,
      isActive: true,
      // Random, strong, never shown: the account signs in through its provider (or a password reset).
      passwordHash: await deps.hasher.hash(`${randomBytes(24).toString('base64url')}aA1!`),
      nickName: identity.displayName?.slice(0, 64) ?? undefined,
      avatar: identity.avatar ?? undefined,
    },
    async (tx, id, tenantId) => {
      await lockIdentity(tx, provider.provider, identity.subject);
      await dropDeadLinks(tx, provider.provider, identity.subject);
      const existing = await findLink(tx, provider.provider, identity.subject);
      if (existing) throw new AlreadyLinked(existing.userId);
      await tx.insert(externalLogins).values({
        id: deps.ids.next(),
        tenantId,
        userId: id,
        provider: provider.provider,
        providerKey: identity.subject,
        providerDisplayName: provider.displayName.slice(0, 128),
        email: identity.email?.slice(0, 254),
        avatarUrl: identity.avatar,
        lastLoginTime: deps.clock.now(),
      });
    },
  );
  deps.logger.info('created an account for an external identity', {
    userId: String(userId),
    provider: provider.provider,
    emailAdopted: adoptEmail,
  });
  return userId;
}

/** The user an identity signs in as, creating the account on its first login. */
async function userOfIdentity(deps: AppDeps, provider: OAuthProvider, identity: ExternalIdentity): Promise<bigint> {
  const link = await findLink(deps.db, provider.provider, identity.subject);
  if (link) {
    await deps.db
      .update(externalLogins)
      .set({
        lastLoginTime: deps.clock.now(),
        email: identity.email?.slice(0, 254),
        avatarUrl: identity.avatar,
        modifiedTime: deps.clock.now(),
      })
      .where(eq(externalLogins.id, link.id));
    return link.userId;
  }
  const domain = deps.config.OAuth.PlaceholderEmailDomain;
  const email = identity.email?.toLowerCase();
  const adopt =
    !!email &&
    email.length <= 254 &&
    identity.emailVerified &&
    !email.endsWith(`@${domain}`) &&
    !(await emailInUse(deps, email));
  try {
    return await createExternalAccount(deps, provider, identity, adopt);
  } catch (error) {
    if (error instanceof AlreadyLinked) return error.userId;
    if (postgresErrorCode(error) !== UNIQUE_VIOLATION) throw error;
    // The address (or, by a one-in-four-billion chance, the user name) was taken meanwhile.
    return createExternalAccount(deps, provider, identity, false).catch((e: unknown) => {
      if (e instanceof AlreadyLinked) return e.userId;
      throw e;
    });
  }
}

/** A login through an external identity: tokens, a second-factor challenge, or why not. */
export async function loginWithIdentity(
  ctx: RequestContext,
  provider: OAuthProvider,
  identity: ExternalIdentity,
): Promise<LoginOutcome> {
  const { deps } = ctx;
  const userId = await userOfIdentity(deps, provider, identity);
  const account = await findAccountById(deps, userId);
  const loginName = `${provider.provider}:${identity.subject}`.toLowerCase();
  const facts = requestFacts(ctx);
  const refuse = async (
    code: 'user_not_found' | 'disabled' | 'locked',
    result: 'InvalidCredentials' | 'AccountDisabled' | 'AccountLocked',
  ): Promise<LoginOutcome> => {
    await deps.events.publish('AuthLoginFailed', {
      userId: account?.user.id ?? null,
      userName: loginName,
      tenantId: account?.user.tenantId ?? 0n,
      method: 'oauth',
      result,
      message: `External login (${provider.name}) refused: ${code}`,
      request: facts,
    });
    return { kind: 'error', code };
  };
  if (!account) return refuse('user_not_found', 'InvalidCredentials');
  const { user, security } = account;
  if (security.lockoutEndTime && security.lockoutEndTime > deps.clock.now()) return refuse('locked', 'AccountLocked');
  if (!user.isActive || user.status !== 'Enabled') return refuse('disabled', 'AccountDisabled');
  const { codeLogin } = ctx.services;
  if (security.twoFactorMethod !== 0) {
    try {
      const challenge = await codeLogin.challenge(
        account,
        { loginName, via: `oauth:${provider.name}`, method: 'oauth', excluded: null },
        undefined,
        facts,
        ctx,
      );
      return { kind: 'challenge', challenge };
    } catch (error) {
      // A code sent to this account less than a minute ago (or the day's texts used up).
      if (isAppError(error) && error.definition.status === 429) return { kind: 'error', code: 'too_many_requests' };
      if (isAppError(error) && error.definition.status < 500) return { kind: 'error', code: 'two_factor_unavailable' };
      throw error;
    }
  }
  return { kind: 'token', token: await codeLogin.finish(account, 'oauth', loginName, facts, ctx) };
}

/** Links an identity to a logged-in user (through a bind ticket). Idempotent for the same user. */
export async function bindIdentity(
  deps: AppDeps,
  provider: OAuthProvider,
  identity: ExternalIdentity,
  userId: bigint,
): Promise<BindOutcome> {
  const account = await findAccountById(deps, userId);
  if (!account) return 'user_not_found';
  const outcome = await deps.db.transaction(async (tx): Promise<BindOutcome> => {
    await lockIdentity(tx, provider.provider, identity.subject);
    await dropDeadLinks(tx, provider.provider, identity.subject);
    const link = await findLink(tx, provider.provider, identity.subject);
    if (link) return link.userId === userId ? 'success' : 'conflict';
    // One identity per provider and user (UnlinkAccount names the provider only).
    const [other] = await tx
      .select({ id: externalLogins.id })
      .from(externalLogins)
      .where(
        and(
          eq(externalLogins.userId, userId),
          eq(externalLogins.provider, provider.provider),
          ne(externalLogins.providerKey, identity.subject),
        ),
      )
      .limit(1);
    if (other) return 'already_bound';
    await tx.insert(externalLogins).values({
      id: deps.ids.next(),
      tenantId: account.user.tenantId,
      userId,
      provider: provider.provider,
      providerKey: identity.subject,
      providerDisplayName: provider.displayName.slice(0, 128),
      email: identity.email?.slice(0, 254),
      avatarUrl: identity.avatar,
      createdBy: userId,
    });
    return 'success';
  });
  if (outcome === 'success')
    deps.logger.info('linked an external identity', { userId: String(userId), provider: provider.provider });
  return outcome;
}
