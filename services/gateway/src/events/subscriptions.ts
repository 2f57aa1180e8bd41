import type { EventBus } from '@tyres/events';

/**
 * Everything the gateway consumes: nothing. It publishes UserCreated / UserStatusChanged (./builders.ts) and
 * reads no other service's events, so it subscribes to nothing and the runtime starts no consumer for it (no
 * queue, no inbox). Kept so every service lists what it consumes in the same file; a first subscription goes here.
 */
export function subscribeGateway(bus: EventBus): void {
  void bus;
}
