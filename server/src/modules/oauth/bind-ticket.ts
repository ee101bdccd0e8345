import { createHash, randomBytes } from 'node:crypto';
import type { EphemeralStore } from '../../stores/store.js';

/**
 * Bind tickets (POST /api/Auth/OAuthBindTicket): a logged-in user's one-use permission, valid 5
 * minutes, to link an external identity through the browser redirect flow, which carries no
 * bearer token. Only the ticket's hash is stored; reading it deletes it.
 */

export const BIND_TICKET_TTL_MS = 5 * 60_000;
const key = (ticket: string) => `oauth:bind-ticket:${createHash('sha256').update(ticket).digest('hex')}`;

export async function issueBindTicket(store: EphemeralStore, userId: bigint): Promise<string> {
  const ticket = randomBytes(32).toString('base64url');
  await store.set(key(ticket), String(userId), BIND_TICKET_TTL_MS);
  return ticket;
}

/** The user a ticket was issued to, once; undefined for an unknown, used or expired ticket. */
export async function takeBindTicket(store: EphemeralStore, ticket: string): Promise<bigint | undefined> {
  if (!ticket || ticket.length > 128) return undefined;
  const value = await store.take(key(ticket));
  return value && /^\d+$/.test(value) ? BigInt(value) : undefined;
}
