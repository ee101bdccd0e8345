import { and, eq, gt, lte, or, sql } from 'drizzle-orm';
import { postgresErrorCode, UNIQUE_VIOLATION } from '../../infra/db/errors.js';
import { tenantInvitations, tenantMemberships, tenants, users } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import type { Culture } from '../../config/schema.js';
import { appError } from '../../errors/app-error.js';
import { commonErrors } from '../../errors/common.js';
import { notDeleted } from '../../infra/db/predicates.js';
import { definePagedList, type PagedRequest } from '../../query/index.js';
import { hitRateLimit } from '../../stores/rate-limit.js';
import { auditChange, type Actor } from '../audit/change.js';
import { nameIn } from '../permission/admin-scope.js';
import { InviteStatus, MemberType, RESERVED_MEMBER_TYPES } from '../tenant/enums.js';
import { tenantErrors } from '../tenant/errors.js';
import { assertSeatAvailable } from '../tenant/seats.js';
import { invitationErrors } from './errors.js';
import { invitationMessage } from './mail.js';
import type { CreateInvitationInput } from './schemas.js';

/** How long an invitation stays open. */
export const INVITATION_DAYS = 7;
/** Invitations one tenant may send a day (each is a mail to an address of its choosing). */
export const INVITATIONS_PER_DAY = 200;
const DAY = 86_400_000;

type Deps = Pick<AppDeps, 'db' | 'ids' | 'clock' | 'store' | 'messages' | 'config' | 'logger'> & {
  authz: AuthorizationService;
};
type Invitation = typeof tenantInvitations.$inferSelect;

const invitationList = definePagedList({
  fields: {
    basicId: { column: tenantInvitations.id, type: 'id' },
    email: { column: tenantInvitations.email, type: 'string', keyword: true },
    displayName: { column: tenantInvitations.displayName, type: 'string', keyword: true },
    status: { column: tenantInvitations.status, type: 'enum', enum: InviteStatus },
    invitationExpirationTime: { column: tenantInvitations.expiresTime, type: 'datetime' },
    createdTime: { column: tenantInvitations.createdTime, type: 'datetime' },
  },
  defaultSort: [{ field: 'createdTime', direction: 'Descending' }],
  tieBreaker: tenantInvitations.id,
  defaultKeywordFields: ['email', 'displayName'],
});

/** An open invitation past its end reads Expired (it is stored so when someone answers it). */
function statusOf(i: Pick<Invitation, 'status' | 'expiresTime'>, now: Date): string {
  return i.status === 'Pending' && i.expiresTime <= now ? 'Expired' : i.status;
}

/** The rows whose shown status (statusOf) is `status`. */
function statusCondition(status: string | null | undefined, now: Date) {
  if (!status) return undefined;
  if (status === 'Pending') return and(eq(tenantInvitations.status, 'Pending'), gt(tenantInvitations.expiresTime, now));
  if (status === 'Expired')
    return or(
      eq(tenantInvitations.status, 'Expired'),
      and(eq(tenantInvitations.status, 'Pending'), lte(tenantInvitations.expiresTime, now)),
    );
  return eq(tenantInvitations.status, status);
}

function toDetail(i: Invitation, now: Date) {
  return {
    basicId: String(i.id),
    email: i.email,
    memberType: nameIn(MemberType, i.memberType, 'Member'),
    displayName: i.displayName,
    status: nameIn(InviteStatus, statusOf(i, now), 'Pending'),
    invitationExpirationTime: i.expiresTime,
    effectiveTime: i.effectiveTime,
    expirationTime: i.expirationTime,
    remark: i.remark,
    respondedTime: i.respondedTime,
    createdTime: i.createdTime,
  };
}

/**
 * Invitations: how users whose home is another tenant (or who have no account yet) join a tenant.
 * The tenant learns nothing about the address: the answer and the mail are the same whether an
 * account has it or not. The user sees the invitations of its verified address and accepts
 * (the membership is made then, taking a seat) or declines; the tenant may revoke an open one.
 */
export function createInvitationService(deps: Deps) {
  const { db, ids, clock } = deps;

  async function requireOwn(tenantId: bigint, id: bigint): Promise<Invitation> {
    const [row] = await db
      .select()
      .from(tenantInvitations)
      .where(and(eq(tenantInvitations.id, id), eq(tenantInvitations.tenantId, tenantId)));
    if (!row) throw appError(invitationErrors.NOT_FOUND, { params: { id: String(id) } });
    return row;
  }

  /** The caller's verified address, or a refusal: an unverified address could be anyone's. */
  async function verifiedEmail(userId: bigint): Promise<string> {
    const [user] = await db
      .select({ email: users.email, verified: users.emailVerified })
      .from(users)
      .where(eq(users.id, userId));
    if (!user?.email || !user.verified) throw appError(invitationErrors.EMAIL_NOT_VERIFIED);
    return user.email.trim().toLowerCase();
  }

  /** An open invitation addressed to the caller, for answering (404 for anything else). */
  async function requireAddressed(userId: bigint, id: bigint): Promise<Invitation> {
    const email = await verifiedEmail(userId);
    const [row] = await db
      .select()
      .from(tenantInvitations)
      .where(and(eq(tenantInvitations.id, id), eq(tenantInvitations.email, email)));
    if (!row) throw appError(invitationErrors.NOT_FOUND, { params: { id: String(id) } });
    const status = statusOf(row, clock.now());
    if (status !== 'Pending') throw appError(invitationErrors.NOT_PENDING, { params: { status } });
    return row;
  }

  /** Closes an open invitation; false when someone else answered or revoked it first. */
  async function close(
    tx: Parameters<Parameters<typeof db.transaction>[0]>[0],
    id: bigint,
    values: Partial<Invitation>,
  ): Promise<boolean> {
    const done = await tx
      .update(tenantInvitations)
      .set(values)
      .where(and(eq(tenantInvitations.id, id), eq(tenantInvitations.status, 'Pending')))
      .returning({ id: tenantInvitations.id });
    return done.length === 1;
  }

  return {
    async create(actor: Actor, input: CreateInvitationInput, culture: Culture) {
      const { tenantId, actorId } = actor;
      const memberType = input.memberType ?? 'Member';
      if (RESERVED_MEMBER_TYPES.has(memberType)) throw appError(tenantErrors.OWNER_PROTECTED);
      if (input.effectiveTime && input.expirationTime && input.expirationTime <= input.effectiveTime)
        throw appError(tenantErrors.VALIDITY_INVALID);
      const email = input.email.trim().toLowerCase();
      const now = clock.now();
      // What the tenant knows already: its own members.
      const [member] = await db
        .select({ id: tenantMemberships.id })
        .from(tenantMemberships)
        .innerJoin(users, eq(users.id, tenantMemberships.userId))
        .where(
          and(
            eq(tenantMemberships.tenantId, tenantId),
            sql`lower(${users.email}) = ${email}`,
            notDeleted(users.isDeleted),
          ),
        );
      if (member) throw appError(invitationErrors.ALREADY_MEMBER);
      const [open] = await db
        .select({ id: tenantInvitations.id })
        .from(tenantInvitations)
        .where(
          and(
            eq(tenantInvitations.tenantId, tenantId),
            eq(tenantInvitations.email, email),
            eq(tenantInvitations.status, 'Pending'),
            gt(tenantInvitations.expiresTime, now),
          ),
        );
      if (open) throw appError(invitationErrors.ALREADY_INVITED);
      const limit = await hitRateLimit(deps.store, `invitations:${tenantId}`, INVITATIONS_PER_DAY, DAY);
      if (!limit.allowed)
        throw appError(invitationErrors.TOO_MANY, {
          params: { seconds: limit.retryAfterSeconds },
          headers: { 'Retry-After': String(limit.retryAfterSeconds) },
        });
      const [tenant] = await db
        .select({ name: tenants.name })
        .from(tenants)
        .where(and(eq(tenants.id, tenantId), notDeleted(tenants.isDeleted)));
      if (!tenant) throw appError(tenantErrors.NOT_FOUND, { params: { id: String(tenantId) } });

      const id = ids.next();
      const expiresTime = new Date(now.getTime() + INVITATION_DAYS * DAY);
      await db
        .transaction(async (tx) => {
          // An expired open invitation of the same address gives way to the new one; one still open
          // stays, and the unique index then refuses the second (two invitations at once).
          await tx
            .update(tenantInvitations)
            .set({ status: 'Expired', modifiedTime: now })
            .where(
              and(
                eq(tenantInvitations.tenantId, tenantId),
                eq(tenantInvitations.email, email),
                eq(tenantInvitations.status, 'Pending'),
                lte(tenantInvitations.expiresTime, now),
              ),
            );
          await tx.insert(tenantInvitations).values({
            id,
            tenantId,
            email,
            memberType,
            displayName: input.displayName ?? null,
            effectiveTime: input.effectiveTime ?? null,
            expirationTime: input.expirationTime ?? null,
            remark: input.remark ?? null,
            status: 'Pending',
            expiresTime,
            createdTime: now,
            createdBy: actorId,
          });
          await auditChange(
            tx,
            deps,
            actor,
            'TenantInvitationCreated',
            { type: 'TenantInvitation', id },
            { email, memberType, expiresTime: expiresTime.toISOString() },
          );
        })
        .catch((error: unknown) => {
          if (postgresErrorCode(error) === UNIQUE_VIOLATION) throw appError(invitationErrors.ALREADY_INVITED);
          throw error;
        });
      if (deps.messages.available?.('email') !== false) {
        try {
          await deps.messages.send(invitationMessage(email, tenant.name, deps.config.App.Name, expiresTime, culture));
        } catch (error) {
          // An invitation nobody was told of is taken back, as a revocation (audited), and only
          // while still open: if the invitee answered it meanwhile, it did its work.
          deps.logger.warn('invitation mail failed; the invitation is withdrawn', { error });
          const withdrawn = await db.transaction(async (tx) => {
            if (!(await close(tx, id, { status: 'Revoked', modifiedTime: clock.now(), modifiedBy: actorId })))
              return false;
            await auditChange(
              tx,
              deps,
              actor,
              'TenantInvitationRevoked',
              { type: 'TenantInvitation', id },
              { email, reason: 'mail failed' },
            );
            return true;
          });
          if (withdrawn) throw appError(commonErrors.THIRD_PARTY);
        }
      }
      return toDetail(await requireOwn(tenantId, id), now);
    },

    async page(
      tenantId: bigint,
      request: PagedRequest,
      status: string | null | undefined,
      can: (code: string) => boolean,
    ) {
      const now = clock.now();
      const result = await invitationList.run(db, {
        request,
        // Filtered by the status shown: an open invitation past its end is Expired, not Pending.
        base: and(eq(tenantInvitations.tenantId, tenantId), statusCondition(status, now)),
        can,
        select: (q) => q.select().from(tenantInvitations).$dynamic(),
      });
      return { ...result, items: result.items.map((i) => toDetail(i, now)) };
    },

    async revoke(actor: Actor, id: bigint): Promise<void> {
      const now = clock.now();
      const row = await requireOwn(actor.tenantId, id);
      const status = statusOf(row, now);
      if (status !== 'Pending') throw appError(invitationErrors.NOT_PENDING, { params: { status } });
      await db.transaction(async (tx) => {
        if (!(await close(tx, id, { status: 'Revoked', modifiedTime: now, modifiedBy: actor.actorId })))
          throw appError(invitationErrors.NOT_PENDING, { params: { status: 'answered' } });
        await auditChange(
          tx,
          deps,
          actor,
          'TenantInvitationRevoked',
          { type: 'TenantInvitation', id },
          { email: row.email },
        );
      });
    },

    /** The open invitations of the caller's verified address (none for an unverified one). */
    async mine(userId: bigint) {
      const [user] = await db
        .select({ email: users.email, verified: users.emailVerified })
        .from(users)
        .where(eq(users.id, userId));
      if (!user?.email || !user.verified) return [];
      const now = clock.now();
      const rows = await db
        .select({ i: tenantInvitations, code: tenants.code, name: tenants.name })
        .from(tenantInvitations)
        .innerJoin(tenants, eq(tenants.id, tenantInvitations.tenantId))
        .where(
          and(
            eq(tenantInvitations.email, user.email.trim().toLowerCase()),
            eq(tenantInvitations.status, 'Pending'),
            gt(tenantInvitations.expiresTime, now),
            notDeleted(tenants.isDeleted),
          ),
        )
        .orderBy(tenantInvitations.createdTime);
      return rows.map(({ i, code, name }) => ({
        basicId: String(i.id),
        tenantId: String(i.tenantId),
        tenantCode: code,
        tenantName: name,
        memberType: nameIn(MemberType, i.memberType, 'Member'),
        invitationExpirationTime: i.expiresTime,
        effectiveTime: i.effectiveTime,
        expirationTime: i.expirationTime,
        createdTime: i.createdTime,
      }));
    },

    /** Accepts: the membership is made now (taking a seat), with the invitation's terms. */
    async accept(actor: Actor, id: bigint) {
      const invitation = await requireAddressed(actor.actorId, id);
      const now = clock.now();
      const membershipId = ids.next();
      const { tenantId } = invitation;
      await db.transaction(async (tx) => {
        await assertSeatAvailable(tx, tenantId, now);
        const [existing] = await tx
          .select({ id: tenantMemberships.id })
          .from(tenantMemberships)
          .where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.userId, actor.actorId)));
        if (existing) throw appError(invitationErrors.ALREADY_MEMBER);
        // Whoever closes it first wins: of two accepts at once, one makes the membership.
        if (
          !(await close(tx, id, { status: 'Accepted', respondedTime: now, respondedBy: actor.actorId, membershipId }))
        )
          throw appError(invitationErrors.NOT_PENDING, { params: { status: 'answered' } });
        await tx.insert(tenantMemberships).values({
          id: membershipId,
          tenantId,
          userId: actor.actorId,
          memberType: invitation.memberType,
          displayName: invitation.displayName,
          effectiveTime: invitation.effectiveTime,
          expirationTime: invitation.expirationTime,
          remark: invitation.remark,
          status: 'Active',
          inviteStatus: 'Accepted',
          joinedTime: now,
          createdTime: now,
          createdBy: invitation.createdBy,
        });
        const target = { type: 'TenantMember', id: membershipId, userId: actor.actorId, tenantId };
        await auditChange(tx, deps, actor, 'TenantMemberAdded', target, {
          memberType: invitation.memberType,
          invitationId: String(id),
          effectiveTime: invitation.effectiveTime,
          expirationTime: invitation.expirationTime,
        });
      });
      await deps.authz.invalidateUser(actor.actorId);
      return { tenantId: String(tenantId), membershipId: String(membershipId) };
    },

    async reject(actor: Actor, id: bigint): Promise<void> {
      await requireAddressed(actor.actorId, id);
      const now = clock.now();
      await db.transaction(async (tx) => {
        if (!(await close(tx, id, { status: 'Rejected', respondedTime: now, respondedBy: actor.actorId })))
          throw appError(invitationErrors.NOT_PENDING, { params: { status: 'answered' } });
        const [row] = await tx
          .select({ tenantId: tenantInvitations.tenantId })
          .from(tenantInvitations)
          .where(eq(tenantInvitations.id, id));
        await auditChange(tx, deps, actor, 'TenantInvitationRejected', {
          type: 'TenantInvitation',
          id,
          tenantId: row!.tenantId,
          userId: actor.actorId,
        });
      });
    },
  };
}
