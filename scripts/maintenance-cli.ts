/**
 * The operator's maintenance switch from a shell: `npm run maintenance -- on [--retry-after S]
 * [--reason TEXT]`, `... off`, `... status`. It calls /ops/maintenance of a running node (which
 * stores the switch where every node reads it), with the key and address of the same
 * configuration the server starts with: App__OperatorKey, or in development the key the server
 * generated under DATA_DIR; PORT/HOST, or --url.
 */
import { readFile } from 'node:fs/promises';
import { ConfigError, loadConfig } from '../server/src/config/load.js';
import { operatorKeyFile } from '../server/src/config/secrets.js';

const USAGE =
  'usage: npm run maintenance -- on [--retry-after SECONDS] [--reason TEXT] | off | status   [--url http://host:port]';

interface Parsed {
  command: 'on' | 'off' | 'status';
  url?: string;
  retryAfterSeconds?: number;
  reason?: string;
}

function parseArgs(argv: string[]): Parsed | string {
  const [command, ...rest] = argv;
  if (command !== 'on' && command !== 'off' && command !== 'status') return USAGE;
  const out: Parsed = { command };
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (value === undefined) return `${flag} needs a value\n${USAGE}`;
    if (flag === '--url') out.url = value;
    else if (flag === '--reason' && command === 'on') out.reason = value;
    else if (flag === '--retry-after' && command === 'on') {
      if (!/^\d{1,5}$/.test(value)) return `--retry-after takes whole seconds (1-86400)\n${USAGE}`;
      out.retryAfterSeconds = Number(value);
    } else return `unknown option ${flag}\n${USAGE}`;
  }
  return out;
}

async function operatorKey(env: Record<string, string | undefined>): Promise<string> {
  const config = loadConfig(env);
  if (config.App.OperatorKey) return config.App.OperatorKey;
  if (config.App.Env === 'production')
    throw new ConfigError('App__OperatorKey is not set: this deployment has no run-time maintenance switch.');
  try {
    return (await readFile(operatorKeyFile(config), 'utf8')).trim();
  } catch {
    throw new ConfigError(
      `No operator key: set App__OperatorKey, or start the server once so it generates ${operatorKeyFile(config)}.`,
    );
  }
}

function defaultUrl(env: Record<string, string | undefined>): string {
  const { Host, Port } = loadConfig(env).App;
  const host =
    Host === '0.0.0.0' || Host === '::' || Host === '' ? '127.0.0.1' : Host.includes(':') ? `[${Host}]` : Host;
  return `http://${host}:${Port}`;
}

/** Runs the command; returns the exit code. Output goes to `write` (one JSON document on success). */
export async function runMaintenanceCli(
  argv: string[],
  env: Record<string, string | undefined>,
  write: (text: string) => void,
  fetchImpl: typeof fetch = fetch,
): Promise<number> {
  const parsed = parseArgs(argv);
  if (typeof parsed === 'string') {
    write(`${parsed}\n`);
    return 2;
  }
  let key: string;
  try {
    key = await operatorKey(env);
  } catch (error) {
    write(`${(error as Error).message}\n`);
    return 2;
  }
  const url = `${(parsed.url ?? defaultUrl(env)).replace(/\/+$/, '')}/ops/maintenance`;
  const body =
    parsed.command === 'status'
      ? undefined
      : JSON.stringify({
          on: parsed.command === 'on',
          retryAfterSeconds: parsed.retryAfterSeconds,
          reason: parsed.reason,
        });
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: body ? 'PUT' : 'GET',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-language': 'en-US' },
      body,
    });
  } catch (error) {
    write(`could not reach ${url}: ${(error as Error).message}\n`);
    return 1;
  }
  const text = await response.text();
  let envelope: { isSuccess?: boolean; data?: unknown; message?: string } | undefined;
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = undefined;
  }
  if (!response.ok || !envelope?.isSuccess) {
    const reason = typeof envelope?.data === 'string' ? envelope.data : (envelope?.message ?? text.slice(0, 200));
    write(`${url} answered ${response.status}: ${reason}\n`);
    return 1;
  }
  write(`${JSON.stringify(envelope.data, null, 2)}\n`);
  return 0;
}
