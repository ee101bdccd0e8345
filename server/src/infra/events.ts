import type { Logger } from './logger.js';

/**
 * In-process domain events. Handlers run in registration order and are awaited, so a request
 * that publishes "login failed" has its login-log row written before it answers. A handler that
 * throws is logged and does not stop the others or fail the request that published.
 */
export interface EventBus<M extends object> {
  on<K extends keyof M>(type: K, handler: (payload: M[K]) => Promise<void> | void): () => void;
  publish<K extends keyof M>(type: K, payload: M[K]): Promise<void>;
}

export function createEventBus<M extends object>(logger: Logger): EventBus<M> {
  const handlers = new Map<keyof M, Array<(payload: never) => Promise<void> | void>>();
  return {
    on(type, handler) {
      const list = handlers.get(type) ?? [];
      list.push(handler as (payload: never) => void);
      handlers.set(type, list);
      return () => {
        const current = handlers.get(type) ?? [];
        handlers.set(
          type,
          current.filter((h) => h !== handler),
        );
      };
    },
    async publish(type, payload) {
      // Events raised by a request carry its facts: their log lines name its trace id.
      const traceId = (payload as { request?: { traceId?: string } }).request?.traceId;
      const fields = traceId ? { event: String(type), traceId } : { event: String(type) };
      if (logger.isEnabled('debug')) logger.debug('event', fields);
      for (const handler of handlers.get(type) ?? []) {
        try {
          await handler(payload as never);
        } catch (error) {
          logger.error('event handler failed', { ...fields, error });
        }
      }
    },
  };
}
