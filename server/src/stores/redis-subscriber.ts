import type { Redis } from 'ioredis';
import type { Logger } from '../infra/logger.js';
import type { MessageHandler } from './store.js';
import { SubscriptionRegistry } from './subscriptions.js';
import { closeRedis } from './redis-connection.js';

/** The subscribing half of the Redis store: one lazily opened connection for every channel. */
export interface RedisSubscriber {
  /** Resolves once Redis acknowledged SUBSCRIBE; the returned function unsubscribes. */
  subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * A connection in subscriber mode can run no other command (ioredis refuses them), hence a
 * connection of its own, opened on the first subscribe. Channels are full (prefixed) names.
 */
export function createRedisSubscriber(open: () => Redis, logger?: Logger): RedisSubscriber {
  const registry = new SubscriptionRegistry(logger);
  // The SUBSCRIBE of each channel with handlers; later subscribers of the channel await the same one.
  const active = new Map<string, Promise<unknown>>();
  let connection: Redis | undefined;
  let closed = false;

  const connect = (): Redis => {
    if (connection) return connection;
    const opened = open();
    opened.on('message', (channel: string, message: string) => {
      registry.deliver(channel, registry.snapshot(channel), message);
    });
    connection = opened;
    return opened;
  };

  const release = async (conn: Redis, channel: string): Promise<void> => {
    active.delete(channel);
    try {
      await conn.unsubscribe(channel);
    } catch (error) {
      // Delivery to the handler has stopped already (it left the registry); a stale
      // subscription upstream only brings messages nobody receives.
      logger?.warn('Redis UNSUBSCRIBE failed', { channel, error });
    }
  };

  return {
    async subscribe(channel, handler) {
      if (closed) throw new Error('Store is closed');
      const conn = connect();
      const { subscription, first } = registry.add(channel, handler);
      // Commands on one connection run in order, so an UNSUBSCRIBE still in flight for this
      // channel is processed before this SUBSCRIBE.
      if (first) active.set(channel, conn.subscribe(channel));
      try {
        await active.get(channel);
      } catch (error) {
        if (registry.remove(channel, subscription).last) active.delete(channel);
        throw error;
      }
      return async () => {
        const { removed, last } = registry.remove(channel, subscription);
        if (removed && last && !closed) await release(conn, channel);
      };
    },
    async close() {
      closed = true;
      registry.clear();
      active.clear();
      if (connection) await closeRedis(connection);
    },
  };
}
