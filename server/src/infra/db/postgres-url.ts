/**
 * Connection strings in libpq's forms, Unix sockets included. postgres.js reads host names and
 * ports from the URL but not libpq's two ways of naming a socket directory, which operators
 * copy from psql and PostgreSQL's documentation:
 * - `postgres://user@/db?host=/var/run/postgresql` (the directory as the `host` parameter; the
 *   host part may then be empty),
 * - `postgres://%2Fvar%2Frun%2Fpostgresql/db` (the directory, percent-encoded, as the host).
 * (Cloud SQL's `/cloudsql/<instance>` directories are named the same way.) Given either,
 * postgres.js sends `host` to the server as a setting (refused: "unrecognized configuration
 * parameter") or cannot parse the URL, and the service does not start.
 */
export interface PostgresTarget {
  /** The URL postgres.js is given: the socket parameters removed, a placeholder host. */
  url: string;
  /** The socket file (`<dir>/.s.PGSQL.<port>`), when the URL names a directory. */
  socket?: string;
}

// The user part runs to the last `@` before the path, as URL parsers read it: a password may hold `@`.
const URL_PARTS = /^(postgres(?:ql)?:\/\/)(?:([^/?#]*)@)?([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i;

/**
 * One socket directory is understood (libpq also takes a comma-separated list to try in turn:
 * such a URL is left as it is). A `port` parameter wins over the host part's, as in libpq; the
 * default is 5432. SSL settings are dropped with the socket: libpq ignores them there, and the
 * server refuses SSL on a socket, so postgres.js would fail on `sslmode=require`.
 */
export function postgresTarget(url: string): PostgresTarget {
  const parts = URL_PARTS.exec(url);
  if (!parts) return { url };
  const [, scheme, userInfo, hostPort = '', path = '', query = ''] = parts;
  const params = new URLSearchParams(query.slice(1));
  const [encodedHost = '', hostPortText] = splitPort(hostPort);
  const host = safeDecode(encodedHost);
  const fromParam = params.get('host') ?? '';
  const directory = host.startsWith('/') ? host : fromParam.startsWith('/') ? fromParam : undefined;
  if (!directory || directory.includes(',')) return { url };
  const port = params.get('port') || hostPortText || '5432';
  if (!/^\d{1,5}$/.test(port)) return { url };
  for (const name of ['host', 'port', 'sslmode', 'ssl', 'sslrootcert', 'sslcert', 'sslkey']) params.delete(name);
  const rest = params.toString();
  const user = userInfo === undefined ? '' : `${userInfo}@`;
  return {
    url: `${scheme}${user}localhost${path}${rest ? `?${rest}` : ''}`,
    socket: `${directory.replace(/\/+$/, '')}/.s.PGSQL.${port}`,
  };
}

/** `host:port` → [host, port]; a bracketed IPv6 host keeps its colons. */
function splitPort(hostPort: string): [string, string | undefined] {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
  return match ? [match[1]!, match[2]] : [hostPort, undefined];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The same server, another database (tests and benchmarks create databases of their own). */
export function withDatabase(url: string, database: string): string {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new Error('not a postgres:// URL');
  const [, scheme, userInfo, hostPort = '', , query = '', fragment = ''] = parts;
  return `${scheme}${userInfo === undefined ? '' : `${userInfo}@`}${hostPort}/${encodeURIComponent(database)}${query}${fragment}`;
}
