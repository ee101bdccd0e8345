/**
 * Structured JSON logs. Secrets never reach a sink: any field whose name looks sensitive is
 * replaced before writing, at any depth, and so are credentials inside URLs' query strings.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
  /** Whether a level is written, so hot paths can skip building fields. */
  isEnabled(level: LogLevel): boolean;
}

export type LogSink = (line: string) => void;

const ORDER: Record<LogLevel | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Field names whose values are never written. */
const SENSITIVE =
  /pass(word)?|pwd|secret|token|authorization|cookie|captcha|code$|^code|otp|ticket|signature|nonce|api[-_]?key|access[-_]?key|private/i;
const SENSITIVE_QUERY = /([?&](?:access_token|token|code|ticket|password|refresh_token|bindTicket|state)=)[^&#]*/gi;
export const REDACTED = '[redacted]';

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[depth]';
  if (typeof value === 'string') return value.replace(SENSITIVE_QUERY, `$1${REDACTED}`);
  if (value instanceof Error) return redactError(value, depth);
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SENSITIVE.test(k) && k !== 'statusCode' && k !== 'errorCode' ? REDACTED : redact(v, depth + 1);
    }
    return out;
  }
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** Where a driver error (postgres.js, PGlite) says what went wrong, without the row's values. */
const DB_FIELDS = [
  'code',
  'severity',
  'constraint_name',
  'constraint',
  'table_name',
  'table',
  'column_name',
  'column',
  'routine',
] as const;

/**
 * An error with its cause chain. A failed query's message carries its parameters (password
 * hashes, token hashes, security stamps, e-mail addresses), so only the statement is kept; the
 * driver's cause says why it failed (SQLSTATE, constraint) without the values.
 */
function redactError(error: Error, depth: number): Record<string, unknown> {
  if (depth > 6) return { name: error.name };
  const params = error.message.indexOf('\nparams: ');
  const message =
    error.message.startsWith('Failed query: ') && params >= 0 ? error.message.slice(0, params) : error.message;
  const out: Record<string, unknown> = {
    name: error.name,
    message,
    stack: error.stack?.replace(error.message, message),
  };
  const fields = error as unknown as Record<string, unknown>;
  for (const key of DB_FIELDS) if (typeof fields[key] === 'string') out[key] = fields[key];
  if (error.cause !== undefined)
    out.cause = error.cause instanceof Error ? redactError(error.cause, depth + 1) : redact(error.cause, depth + 1);
  return out;
}

export function createLogger(
  options: { level?: LogLevel | 'silent'; sink?: LogSink; now?: () => Date; fields?: LogFields } = {},
): Logger {
  const threshold = ORDER[options.level ?? 'info'];
  const sink = options.sink ?? ((line) => process.stdout.write(`${line}\n`));
  const now = options.now ?? (() => new Date());
  const base = options.fields ?? {};

  const write = (level: LogLevel, message: string, fields?: LogFields) => {
    if (ORDER[level] < threshold) return;
    const record = redact({ ...base, ...fields }) as LogFields;
    sink(JSON.stringify({ time: now().toISOString(), level, msg: redact(message), ...record }));
  };

  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger({ ...options, fields: { ...base, ...fields } }),
    isEnabled: (level) => ORDER[level] >= threshold,
  };
}
