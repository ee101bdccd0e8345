import type { AppDeps } from '../../app-deps.js';
import type { Executor } from '../../infra/db/client.js';
import type { CallContext } from '../../rpc/call-context.js';
import type { AuthContext } from '../auth/session/session-gate.js';
import { writeAudit, type AuditAction } from './write.js';

/**
 * Audit entries of administration changes (roles, tenants, editions, memberships, departments,
 * positions, menus). A router hands its service the caller as an `Actor`; the service writes the
 * entry with `auditChange` inside the transaction of the change itself, so a refused or failed
 * change leaves no entry and a committed one cannot lack it.
 */

/** Who changes something, in which context, and from where (what every entry of a change repeats). */
export interface Actor {
  /** The session's context: the tenant whose data changes (0: the platform's own). */
  tenantId: bigint;
  /** The session's user (whose rights apply; self-checks compare with it). */
  actorId: bigint;
  /** The administrator behind an impersonation session: the person who really acts. */
  impersonatorId?: bigint;
  ip?: string;
  traceId?: string;
}

export function actorOf(ctx: Pick<CallContext, 'ip' | 'traceId'> & { auth: AuthContext }): Actor {
  const impersonator = ctx.auth.state.impersonatorUserId;
  return {
    tenantId: ctx.auth.tenantId,
    actorId: ctx.auth.userId,
    impersonatorId: impersonator === null ? undefined : BigInt(impersonator),
    ip: ctx.ip,
    traceId: ctx.traceId,
  };
}

export interface AuditTarget {
  type: string;
  id: bigint;
  /**
   * The tenant the entry belongs to, when it is not the actor's context: a tenant changed from
   * the platform state is recorded in that tenant's trail, where its administrators look.
   */
  tenantId?: bigint;
  /** The user the change is about (a membership's user), for per-user audit queries. */
  userId?: bigint;
}

/** Writes the entry of a change; call it with the change's transaction. Every module's audit rows go through here. */
export function auditChange(
  tx: Executor,
  deps: Pick<AppDeps, 'ids' | 'clock'>,
  actor: Actor,
  action: AuditAction,
  target: AuditTarget,
  detail?: Record<string, unknown>,
): Promise<void> {
  return writeAudit(tx, deps.ids, {
    action,
    tenantId: target.tenantId ?? actor.tenantId,
    userId: target.userId ?? null,
    // Under impersonation the trail names the impersonator, and whom they acted as.
    actorUserId: actor.impersonatorId ?? actor.actorId,
    targetType: target.type,
    targetId: String(target.id),
    detail: actor.impersonatorId === undefined ? detail : { ...detail, onBehalfOf: String(actor.actorId) },
    ip: actor.ip,
    traceId: actor.traceId,
    at: deps.clock.now(),
  });
}

/** The names of the fields an update writes, for the entry's detail (bookkeeping columns left out). */
export function fieldsOf(values: Record<string, unknown>): string[] {
  return Object.keys(values)
    .filter((key) => values[key] !== undefined && key !== 'modifiedTime' && key !== 'modifiedBy')
    .sort();
}

/** The added and removed members of a set of codes (grants, whitelists), sorted. */
export function codeChanges(
  before: readonly string[],
  after: readonly string[],
): { added: string[]; removed: string[] } {
  const was = new Set(before);
  const now = new Set(after);
  return { added: [...now].filter((c) => !was.has(c)).sort(), removed: [...was].filter((c) => !now.has(c)).sort() };
}
