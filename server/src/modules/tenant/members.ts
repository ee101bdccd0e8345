import { and, eq } from 'drizzle-orm';
import { tenantMemberships, userDepartments, userRoles, users, userSessions } from '../../../../db/schema/index.js';
import type { AppDeps } from '../../app-deps.js';
import type { AuthorizationService } from '../authz/service.js';
import type { SessionService } from '../auth/session/session-service.js';
import { appError } from '../../errors/app-error.js';
import type { Executor, Transaction } from '../../infra/db/client.js';
import { updateVersioned } from '../../infra/db/versioned.js';
import { definePagedList, type PagedRequest } from '../../query/index.js';
import { auditChange, fieldsOf, type Actor } from '../audit/change.js';
import type { AuditAction } from '../audit/write.js';
import { SessionStatus } from '../auth/session/session-state.js';
import { adminErrors } from '../permission/errors.js';
import { checkVersion, idOut, nameIn } from '../permission/admin-scope.js';
import { InviteStatus, MemberType, MembershipStatus, RESERVED_MEMBER_TYPES } from './enums.js';
import { tenantErrors } from './errors.js';
import { invitationErrors } from '../tenant-invitation/errors.js';
import type { AddMemberInput, UpdateMemberInput } from './schemas.js';
import { assertSeatAvailable, takesSeat } from './seats.js';
import { notDeleted } from '../../infra/db/predicates.js';

type Deps = Pick<AppDeps, 'db' | 'ids' | 'clock'> & { authz: AuthorizationService; sessions: SessionService };
type Membership = typeof tenantMemberships.$inferSelect;

/** The memberships list of TenantMemberQuery/TenantMemberPage (always one tenant's). */
export const memberList = definePagedList({
  fields: {
    basicId: { column: tenantMemberships.id, type: 'id' },
    userId: { column: tenantMemberships.userId, type: 'id' },
    userName: { column: users.userName, type: 'string', keyword: true },
    nickName: { column: users.nickName, type: 'string', keyword: true },
    realName: { column: users.realName, type: 'string', keyword: true },
    displayName: { column: tenantMemberships.displayName, type: 'string', keyword: true },
    memberType: { column: tenantMemberships.memberType, type: 'enum', enum: MemberType },
    status: { column: tenantMemberships.status, type: 'enum', enum: MembershipStatus },
    inviteStatus: { column: tenantMemberships.inviteStatus, type: 'enum', enum: InviteStatus },
    effectiveTime: { column: tenantMemberships.effectiveTime, type: 'datetime' },
    expirationTime: { column: tenantMemberships.expirationTime, type: 'datetime' },
    joinedTime: { column: tenantMemberships.joinedTime, type: 'datetime' },
    createdTime: { column: tenantMemberships.createdTime, type: 'datetime' },
  },
  defaultSort: [{ field: 'joinedTime', direction: 'Descending' }],
  tieBreaker: tenantMemberships.id,
  defaultKeywordFields: ['userName', 'nickName', 'realName', 'displayName'],
});

const select = (q: Executor) =>
  q
    .select({ m: tenantMemberships, userName: users.userName, nickName: users.nickName, realName: users.realName })
    .from(tenantMemberships)
    .innerJoin(users, eq(users.id, tenantMemberships.userId))
    .$dynamic();
type Row = { m: Membership; userName: string; nickName: string | null; realName: string | null };

function toDetail({ m, userName, nickName, realName }: Row) {
  return {
    basicId: idOut(m.id),
    userId: idOut(m.userId),
    userName,
    nickName,
    realName,
    displayName: m.displayName,
    memberType: nameIn(MemberType, m.memberType, 'Member'),
    status: nameIn(MembershipStatus, m.status, 'Disabled'),
    inviteStatus: nameIn(InviteStatus, m.inviteStatus, 'Pending'),
    effectiveTime: m.effectiveTime,
    expirationTime: m.expirationTime,
    joinedTime: m.joinedTime,
    remark: m.remark,
    version: m.version,
    createdTime: m.createdTime,
  };
}

async function requireMembership(db: Executor, tenantId: bigint, id: bigint): Promise<Membership> {
  const [row] = await db
    .select()
    .from(tenantMemberships)
    .where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.id, id)));
  if (!row) throw appError(tenantErrors.MEMBER_NOT_FOUND, { params: { id: String(id) } });
  return row;
}

function checkValidity(effective: Date | null | undefined, expiration: Date | null | undefined): void {
  if (effective && expiration && expiration <= effective) throw appError(tenantErrors.VALIDITY_INVALID);
}

/** Whether a membership lets its user into the tenant at `now` (as landing and switching read it). */
function admits(
  m: Pick<Membership, 'status' | 'inviteStatus' | 'effectiveTime' | 'expirationTime'>,
  now: Date,
): boolean {
  return (
    m.status === 'Active' &&
    m.inviteStatus === 'Accepted' &&
    (!m.effectiveTime || m.effectiveTime <= now) &&
    (!m.expirationTime || m.expirationTime > now)
  );
}

/**
 * Memberships of the current tenant: who may enter it, as what, and for how long. Adding one
 * takes a seat (refused at the seat limit). Removing one, or changing it so it no longer admits
 * its user, ends that user's sessions in the tenant and, on removal, the user's roles and
 * department links there, so nothing the user was granted in the tenant outlives the membership.
 */
export function createMemberService(deps: Deps) {
  const { db, ids, clock } = deps;

  async function detail(tenantId: bigint, id: bigint) {
    const [row] = await select(db).where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.id, id)));
    if (!row) throw appError(tenantErrors.MEMBER_NOT_FOUND, { params: { id: String(id) } });
    return toDetail(row);
  }

  /** Revokes the user's sessions that are in the tenant, inside the transaction; announce after commit. */
  async function revokeTenantSessions(
    tx: Transaction,
    tenantId: bigint,
    userId: bigint,
    reason: string,
  ): Promise<bigint[]> {
    const rows = await tx
      .select({ id: userSessions.id })
      .from(userSessions)
      .where(
        and(
          eq(userSessions.userId, userId),
          eq(userSessions.tenantId, tenantId),
          eq(userSessions.status, SessionStatus.Active),
        ),
      );
    const sessionIds = rows.map((r) => r.id);
    await deps.sessions.revokeIn(tx, sessionIds, reason);
    return sessionIds;
  }

  async function afterCommit(userId: bigint, sessionIds: bigint[], reason: string): Promise<void> {
    await deps.sessions.announceRevoked(userId, sessionIds, reason);
    await deps.authz.invalidateUser(userId);
  }

  /** One entry per write, on the membership, naming its user. */
  const audit = (
    tx: Transaction,
    actor: Actor,
    action: AuditAction,
    m: { id: bigint; userId: bigint },
    detail: Record<string, unknown>,
  ) => auditChange(tx, deps, actor, action, { type: 'TenantMember', id: m.id, userId: m.userId }, detail);

  return {
    detail,

    /** In the actor's context (a tenant: the router refuses the platform state). */
    async add(actor: Actor, input: AddMemberInput) {
      const { tenantId, actorId } = actor;
      if (input.memberType && RESERVED_MEMBER_TYPES.has(input.memberType)) throw appError(tenantErrors.OWNER_PROTECTED);
      checkValidity(input.effectiveTime, input.expirationTime);
      const id = ids.next();
      const now = clock.now();
      // Only the tenant's own (home) users, by id: ids are not secrets, and a tenant must not learn
      // who another tenant's users are by trying ids or addresses, nor add them unasked. Anyone
      // else is invited (tenant-invitation), and becomes a member by accepting.
      if (input.userId === undefined) throw appError(invitationErrors.INVITE_BY_EMAIL);
      const [user] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, input.userId), eq(users.tenantId, tenantId), notDeleted(users.isDeleted)));
      if (!user) throw appError(adminErrors.USER_NOT_FOUND, { params: { id: String(input.userId) } });
      await db.transaction(async (tx) => {
        await assertSeatAvailable(tx, tenantId, now);
        await tx.insert(tenantMemberships).values({
          id,
          tenantId,
          userId: user.id,
          memberType: input.memberType ?? 'Member',
          displayName: input.displayName ?? null,
          effectiveTime: input.effectiveTime ?? null,
          expirationTime: input.expirationTime ?? null,
          remark: input.remark ?? null,
          joinedTime: now,
          createdTime: now,
          createdBy: actorId,
        });
        await audit(
          tx,
          actor,
          'TenantMemberAdded',
          { id, userId: user.id },
          {
            memberType: input.memberType ?? 'Member',
            effectiveTime: input.effectiveTime ?? null,
            expirationTime: input.expirationTime ?? null,
          },
        );
      });
      await deps.authz.invalidateUser(user.id);
      return detail(tenantId, id);
    },

    /**
     * `guardStanding` runs when the type or status would change (before anything is written):
     * the router refuses such changes from an impersonation session there.
     */
    async update(actor: Actor, input: UpdateMemberInput, guardStanding: () => void = () => {}) {
      const { tenantId, actorId } = actor;
      const now = clock.now();
      const result = await db.transaction(async (tx) => {
        const current = await requireMembership(tx, tenantId, input.basicId);
        checkVersion(current, input.version);
        const next = {
          memberType: input.memberType ?? current.memberType,
          status: input.status ?? current.status,
          inviteStatus: current.inviteStatus,
          effectiveTime: input.effectiveTime === undefined ? current.effectiveTime : input.effectiveTime,
          expirationTime: input.expirationTime === undefined ? current.expirationTime : input.expirationTime,
        };
        if (next.memberType !== current.memberType || next.status !== current.status) guardStanding();
        // Nobody becomes or stops being an Owner (or PlatformAdmin) here, nor loses such a membership.
        const reserved = RESERVED_MEMBER_TYPES.has(current.memberType);
        const reservedTouched =
          current.memberType !== next.memberType && (reserved || RESERVED_MEMBER_TYPES.has(next.memberType));
        if (reservedTouched || (reserved && !admits(next, now))) throw appError(tenantErrors.OWNER_PROTECTED);
        if (current.userId === actorId && !admits(next, now)) throw appError(tenantErrors.SELF_MEMBERSHIP);
        checkValidity(next.effectiveTime, next.expirationTime);
        // Coming back from Disabled, or from expiry (a new expiration time), takes a seat again.
        if (!takesSeat(current, now) && takesSeat(next, now)) await assertSeatAvailable(tx, tenantId, now);
        const values: Record<string, unknown> = { ...next, displayName: input.displayName, remark: input.remark };
        for (const key of Object.keys(values)) if (values[key] === undefined) delete values[key];
        await updateVersioned(
          tx,
          tenantMemberships,
          current.id,
          current.version,
          { ...values, modifiedTime: now, modifiedBy: actorId },
          eq(tenantMemberships.tenantId, tenantId),
        );
        const sessionIds = admits(next, now)
          ? []
          : await revokeTenantSessions(tx, tenantId, current.userId, 'Membership no longer valid');
        // Who may enter, as what and until when: the old and new value of each that changed.
        const changes: Record<string, unknown> = {};
        for (const key of ['memberType', 'status', 'effectiveTime', 'expirationTime'] as const) {
          if (JSON.stringify(current[key]) !== JSON.stringify(next[key]))
            changes[key] = { from: current[key], to: next[key] };
        }
        const { basicId: _id, version: _version, ...asked } = input;
        await audit(tx, actor, 'TenantMemberUpdated', current, {
          fields: fieldsOf(asked),
          ...changes,
          sessionsRevoked: sessionIds.length,
        });
        return { userId: current.userId, sessionIds };
      });
      await afterCommit(result.userId, result.sessionIds, 'Membership no longer valid');
      return detail(tenantId, input.basicId);
    },

    async remove(actor: Actor, id: bigint): Promise<void> {
      const { tenantId, actorId } = actor;
      const result = await db.transaction(async (tx) => {
        const current = await requireMembership(tx, tenantId, id);
        if (RESERVED_MEMBER_TYPES.has(current.memberType)) throw appError(tenantErrors.OWNER_PROTECTED);
        if (current.userId === actorId) throw appError(tenantErrors.SELF_MEMBERSHIP);
        await tx
          .delete(tenantMemberships)
          .where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.id, id)));
        await tx.delete(userRoles).where(and(eq(userRoles.tenantId, tenantId), eq(userRoles.userId, current.userId)));
        await tx
          .delete(userDepartments)
          .where(and(eq(userDepartments.tenantId, tenantId), eq(userDepartments.userId, current.userId)));
        const sessionIds = await revokeTenantSessions(tx, tenantId, current.userId, 'Membership removed');
        await audit(tx, actor, 'TenantMemberRemoved', current, {
          memberType: current.memberType,
          sessionsRevoked: sessionIds.length,
        });
        return { userId: current.userId, sessionIds };
      });
      await afterCommit(result.userId, result.sessionIds, 'Membership removed');
    },

    async page(
      tenantId: bigint,
      request: PagedRequest,
      filters: { memberType?: string | null; status?: string | null },
      can: (code: string) => boolean,
    ) {
      const result = await memberList.run(db, {
        request,
        base: and(
          eq(tenantMemberships.tenantId, tenantId),
          filters.memberType ? eq(tenantMemberships.memberType, filters.memberType) : undefined,
          filters.status ? eq(tenantMemberships.status, filters.status) : undefined,
        ),
        can,
        select,
      });
      return { ...result, items: result.items.map(toDetail) };
    },
  };
}
