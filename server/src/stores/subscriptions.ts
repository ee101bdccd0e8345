import type { Logger } from '../infra/logger.js';
import type { MessageHandler } from './store.js';

/** One subscribe call; an object of its own so the same function subscribed twice is two entries. */
export interface Subscription {
  readonly handler: MessageHandler;
}

/**
 * Handlers per channel, shared by the memory and Redis stores. Delivery isolates handlers: one
 * that throws is logged and the others still receive the message.
 */
export class SubscriptionRegistry {
  private readonly channels = new Map<string, Set<Subscription>>();

  constructor(private readonly logger?: Logger) {}

  /** Registers a handler; `first` when the channel had none (the caller must then subscribe upstream). */
  add(channel: string, handler: MessageHandler): { subscription: Subscription; first: boolean } {
    let set = this.channels.get(channel);
    const first = set === undefined;
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
    }
    const subscription: Subscription = { handler };
    set.add(subscription);
    return { subscription, first };
  }

  /** Removes one subscription; `last` when the channel has none left (unsubscribe upstream). */
  remove(channel: string, subscription: Subscription): { removed: boolean; last: boolean } {
    const set = this.channels.get(channel);
    if (!set?.delete(subscription)) return { removed: false, last: false };
    if (set.size > 0) return { removed: true, last: false };
    this.channels.delete(channel);
    return { removed: true, last: true };
  }

  /** The subscriptions of a channel now, so a message reaches only those present when it was sent. */
  snapshot(channel: string): Subscription[] {
    const set = this.channels.get(channel);
    return set ? [...set] : [];
  }

  /** Calls each of `subscriptions` that is still registered (unsubscribing stops delivery at once). */
  deliver(channel: string, subscriptions: readonly Subscription[], message: string): void {
    const live = this.channels.get(channel);
    if (!live) return;
    for (const subscription of subscriptions) {
      if (!live.has(subscription)) continue;
      try {
        subscription.handler(message);
      } catch (error) {
        this.logger?.error('Store subscription handler failed', { channel, error });
      }
    }
  }

  /** Drops every subscription (on close). */
  clear(): void {
    this.channels.clear();
  }
}
