import { randomInt } from 'node:crypto';
import { MAX_NODE_ID } from '../ids.js';
import type { DatabaseHandle } from './client.js';

/**
 * Claims a node number (0-1023) for id generation with a session-level advisory lock held on a
 * dedicated connection for the life of the process: two live nodes can never hold the same
 * number, and a crashed node's number frees itself when its connection drops.
 */
export async function claimNodeId(
  handle: DatabaseHandle,
  configured?: number,
): Promise<{ nodeId: number; release(): Promise<void> }> {
  if (configured !== undefined) return { nodeId: configured, release: async () => {} };
  // The embedded database serves one process: any number is free.
  if (handle.kind === 'pglite') return { nodeId: randomInt(MAX_NODE_ID + 1), release: async () => {} };
  const session = await handle.session();
  const start = randomInt(MAX_NODE_ID + 1);
  for (let i = 0; i <= MAX_NODE_ID; i++) {
    const candidate = (start + i) % (MAX_NODE_ID + 1);
    const [row] = await session.query<{ ok: boolean }>(
      `SELECT pg_try_advisory_lock(hashtext('portcullis.node.' || current_schema()), $1) AS ok`,
      [candidate],
    );
    if (row?.ok) {
      return {
        nodeId: candidate,
        release: async () => {
          await session
            .query(`SELECT pg_advisory_unlock(hashtext('portcullis.node.' || current_schema()), $1)`, [candidate])
            .catch(() => undefined);
          await session.release();
        },
      };
    }
  }
  await session.release();
  throw new Error('No free node number: 1024 nodes already hold one');
}

/** The deployment's id permutation key: generated once, stored, never changed. */
export async function loadIdKey(handle: DatabaseHandle, generate: () => string): Promise<string> {
  const session = await handle.session();
  try {
    await session.query(
      `INSERT INTO system_settings (setting_key, setting_value) VALUES ('system.idKey', $1) ON CONFLICT (setting_key) DO NOTHING`,
      [JSON.stringify(generate())],
    );
    const [row] = await session.query<{ setting_value: string }>(
      `SELECT setting_value FROM system_settings WHERE setting_key = 'system.idKey'`,
    );
    return JSON.parse(row!.setting_value) as string;
  } finally {
    await session.release();
  }
}
