import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../infra/logger.js';

/**
 * Connection options: fail commands within seconds when Redis is away instead of queueing them
 * forever, so a request errors (and a readiness probe reports it) rather than hanging.
 */
export const REDIS_CONNECTION_OPTIONS: RedisOptions = {
  lazyConnect: false,
  maxRetriesPerRequest: 2,
  enableOfflineQueue: true,
  connectTimeout: 3_000,
  // Bounds a command sent to a server that accepted the connection and then stopped answering,
  // which maxRetriesPerRequest alone does not catch.
  commandTimeout: 5_000,
};

/** Opens a connection whose connection errors are logged (ioredis would otherwise print them). */
export function openRedis(url: string, logger: Logger | undefined, role: string): Redis {
  const connection = new Redis(url, REDIS_CONNECTION_OPTIONS);
  // The URL may hold a password: log only the role and the error.
  connection.on('error', (error: unknown) => logger?.warn('Redis connection error', { role, error }));
  return connection;
}

/** Closes a connection: QUIT when connected (pending replies arrive), else drop it at once. */
export async function closeRedis(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  if (connection.status !== 'ready') {
    // QUIT would wait in the offline queue for a server that may never come back.
    connection.disconnect();
    return;
  }
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}
