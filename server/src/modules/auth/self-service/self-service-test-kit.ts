import path from 'node:path';
import { readOutbox } from '../../../infra/messaging/outbox.js';
import type { TestServer } from '../../../testing/harness.js';

/**
 * Shared by the self-service tests (code login, registration, password reset, OAuth): each call
 * comes from an address of its own (the server trusts X-Forwarded-For), so throttles of one test
 * never hit another, and asks for en-US so texts can be read.
 */

let counter = 0;
export function client(ip?: string): Record<string, string> {
  counter += 1;
  return {
    'x-forwarded-for': ip ?? `10.${50 + (process.pid % 50)}.${Math.floor(counter / 250) % 250}.${counter % 250}`,
    'x-language': 'en-US',
  };
}

export const post = (server: TestServer, path: string, json: unknown, headers: Record<string, string> = client()) =>
  server.json(path, { method: 'POST', json, headers });

/** Messages the server wrote to its outbox for an address (oldest first), optionally of one kind. */
export async function mailsTo(server: TestServer, to: string, kind?: string) {
  const all = await readOutbox(path.join(server.runtime.deps.config.App.DataDir, 'outbox'));
  return all.filter((m) => m.to === to && (kind === undefined || m.kind === kind));
}

/** The 6-digit code in a message text, as a user would read it. */
export function codeIn(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  if (!match) throw new Error(`no code in: ${text}`);
  return match[1]!;
}

/** The `token` parameter of the first link in a message text. */
export function tokenIn(text: string): string {
  const link = /(https?:\/\/\S+)/.exec(text)?.[1];
  const token = link ? /[?&]token=([^&\s]+)/.exec(link)?.[1] : undefined;
  if (!token) throw new Error(`no token link in: ${text}`);
  return decodeURIComponent(token);
}
