import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../clock.js';
import type { MessageTransport, OutgoingMessage } from './transport.js';

/**
 * Development transport: every message becomes one JSON file (`to`, `subject`, `text`, `html`,
 * `kind`, `channel`, `sentAt`) under DATA_DIR/outbox/, written atomically (temporary name, then
 * rename) so a reader never sees half a message. Tests read codes and links from these files
 * the way a user reads mail.
 */
export function createOutboxTransport(options: { dir: string; clock: Clock }): MessageTransport {
  let ready: Promise<unknown> | undefined;
  return {
    async send(message) {
      ready ??= mkdir(options.dir, { recursive: true });
      await ready;
      const at = options.clock.now();
      const name = `${at.toISOString().replace(/[:.]/g, '-')}-${message.channel}-${randomBytes(4).toString('hex')}.json`;
      const body = { ...message, sentAt: at.toISOString() };
      const partial = path.join(options.dir, `.${name}.partial`);
      await writeFile(partial, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
      await rename(partial, path.join(options.dir, name));
    },
  };
}

/** Messages in an outbox directory, oldest first (for tests and a development UI). */
export async function readOutbox(dir: string): Promise<Array<OutgoingMessage & { sentAt: string; file: string }>> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    names.map(async (n) => ({
      ...(JSON.parse(await readFile(path.join(dir, n), 'utf8')) as OutgoingMessage & { sentAt: string }),
      file: n,
    })),
  );
}
