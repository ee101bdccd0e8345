import postgres from 'postgres';
import { postgresTarget } from './postgres-url.js';

/**
 * A postgres.js client for tests, benchmarks and scripts (the app opens its own in client.ts),
 * understanding the same URLs the app does. Kept apart from postgres-url.ts so that the types
 * the client SDK ships never name the driver.
 */
export function postgresClient(
  url: string,
  options: postgres.Options<Record<string, postgres.PostgresType>> = {},
): postgres.Sql {
  const target = postgresTarget(url);
  return postgres(target.url, target.socket ? { ...options, path: target.socket } : options);
}
