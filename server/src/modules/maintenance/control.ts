import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { systemSettings } from '../../../../db/schema/index.js';
import { appError } from '../../errors/app-error.js';
import { commonErrors } from '../../errors/common.js';
import type { MaintenanceSwitch } from '../../http/maintenance.js';
import type { Clock } from '../../infra/clock.js';
import type { Database } from '../../infra/db/client.js';
import type { Logger } from '../../infra/logger.js';
import type { EphemeralStore } from '../../stores/store.js';

/** The setting that holds the operator's switch: one row every node reads. */
export const MAINTENANCE_SETTING = 'app.maintenance';
/** Cross-node nudge: "the switch changed, read it again" (the row is the truth). */
const CHANNEL = 'maintenance:changed';

/** What the operator asks for. */
export const operatorRequest = z.strictObject({
  on: z.boolean(),
  /** Seconds announced in Retry-After while the operator holds maintenance (default: the configured value). */
  retryAfterSeconds: z.number().int().min(1).max(86_400).optional(),
  /** Free text kept with the switch for other operators (never shown to API clients). */
  reason: z.string().max(200).optional(),
});
export type OperatorRequest = z.infer<typeof operatorRequest>;

const storedState = operatorRequest.extend({
  changedAt: z.string(),
  changedBy: z.string().max(200),
  revision: z.string(),
  /** Numbered by the database at each change (not by any node's clock): the higher one is newer. */
  seq: z.number().int().optional(),
});
export type OperatorState = z.infer<typeof storedState>;

export interface MaintenanceStatus {
  /** Whether this node answers 503 now. */
  on: boolean;
  /** Who holds it on this node: config, upgrade, operator. */
  reasons: string[];
  retryAfterSeconds: number;
  /** The operator's last change, as stored (absent when never switched). */
  operator?: OperatorState;
}

export interface MaintenanceControl {
  /** Reads the stored switch, listens for changes from other nodes and polls as a safety net. */
  start(): Promise<void>;
  /** Stores the operator's switch, applies it here and tells the other nodes. */
  set(request: OperatorRequest, changedBy: string): Promise<MaintenanceStatus>;
  status(): MaintenanceStatus;
  stop(): Promise<void>;
}

export interface MaintenanceControlDeps {
  db: Database;
  store: EphemeralStore;
  clock: Clock;
  logger: Logger;
  maintenance: MaintenanceSwitch;
  pollMs: number;
}

/**
 * The operator's run-time maintenance switch, shared by every node: the row in system_settings
 * is the truth (it survives restarts and needs nothing but the database every node has), a
 * store message makes the other nodes read it at once, and a poll every few seconds covers a
 * message that was lost (pub/sub delivers at most once) or a deployment without a shared store.
 */
export function createMaintenanceControl(deps: MaintenanceControlDeps): MaintenanceControl {
  const { db, store, clock, logger, maintenance } = deps;
  let current: OperatorState | undefined;
  let started = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let unsubscribe: (() => Promise<void>) | undefined;

  async function read(): Promise<OperatorState | undefined> {
    const [row] = await db
      .select({ value: systemSettings.settingValue })
      .from(systemSettings)
      .where(eq(systemSettings.settingKey, MAINTENANCE_SETTING));
    if (!row) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.value);
    } catch {
      parsed = undefined;
    }
    const state = storedState.safeParse(parsed);
    if (!state.success) {
      logger.warn(`the setting ${MAINTENANCE_SETTING} is not a maintenance switch; it is ignored`);
      return undefined;
    }
    return state.data;
  }

  /**
   * Applies a state newer than the one applied (a slow read finishing after this node's own
   * change must not undo it). At start-up an "off" leaves the configuration's maintenance alone:
   * App__MaintenanceMode means "start in maintenance" until an operator turns it off.
   */
  function apply(state: OperatorState | undefined, atStart: boolean): void {
    if (!state || state.revision === current?.revision) return;
    // The database numbers the changes, so every node orders them alike whatever its clock says.
    if (current && (state.seq ?? 0) <= (current.seq ?? 0)) return;
    current = state;
    if (atStart && !state.on) return;
    const was = maintenance.on;
    maintenance.setByOperator(state.on, state.retryAfterSeconds);
    if (was !== maintenance.on || atStart) {
      logger.warn(state.on ? 'maintenance mode on (operator)' : 'maintenance mode off (operator)', {
        changedBy: state.changedBy,
        changedAt: state.changedAt,
        reasons: maintenance.activeReasons,
      });
    }
  }

  async function refresh(): Promise<void> {
    try {
      apply(await read(), false);
    } catch (error) {
      logger.warn('could not read the maintenance switch', { error });
    }
  }

  function status(): MaintenanceStatus {
    const out: MaintenanceStatus = {
      on: maintenance.on,
      reasons: maintenance.activeReasons,
      retryAfterSeconds: maintenance.retryAfterSeconds,
    };
    if (current) out.operator = current;
    return out;
  }

  return {
    async start() {
      apply(await read(), true);
      unsubscribe = await store.subscribe(CHANNEL, () => void refresh());
      timer = setInterval(() => void refresh(), deps.pollMs);
      timer.unref();
      started = true;
    },

    async set(request, changedBy) {
      // Before the upgrade has finished the table may not exist yet.
      if (!started) throw appError(commonErrors.NOT_READY, { params: { reason: 'upgrade' } });
      const fresh: OperatorState = {
        ...request,
        changedAt: clock.now().toISOString(),
        changedBy: changedBy.slice(0, 200),
        revision: randomUUID(),
        seq: 1,
      };
      const value = JSON.stringify(fresh);
      // The stored number goes up by one under the row's lock: the row always holds the newest.
      const [row] = await db
        .insert(systemSettings)
        .values({ settingKey: MAINTENANCE_SETTING, settingValue: value, modifiedTime: clock.now() })
        .onConflictDoUpdate({
          target: systemSettings.settingKey,
          set: {
            settingValue: sql`jsonb_set(${value}::jsonb, '{seq}', to_jsonb(coalesce((${systemSettings.settingValue}::jsonb->>'seq')::bigint, 0) + 1))::text`,
            modifiedTime: clock.now(),
          },
        })
        .returning({ value: systemSettings.settingValue });
      const stored = storedState.safeParse(JSON.parse(row!.value));
      const state = stored.success ? stored.data : fresh;
      apply(state, false);
      try {
        await store.publish(CHANNEL, state.revision);
      } catch (error) {
        // Stored: the other nodes see it at their next poll.
        logger.warn(
          'could not tell the other nodes about the maintenance switch; they read it within the poll interval',
          { error },
        );
      }
      return status();
    },

    status,

    async stop() {
      started = false;
      if (timer) clearInterval(timer);
      await unsubscribe?.();
    },
  };
}
