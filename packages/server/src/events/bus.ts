import { EventEmitter } from 'node:events';
import type { LiveEvent } from '@fleetkeep/core';

/**
 * One bus, two implementations (DESIGN §6): in-process for a single instance, PostgreSQL
 * LISTEN/NOTIFY so that instances on one database deliver each other's events.
 */
export interface EventBus {
  publish(event: LiveEvent): Promise<void>;
  /** Publishes several events in order, in as few round trips as the implementation allows. */
  publishMany(events: LiveEvent[]): Promise<void>;
  /** Registers a listener for every event, local or remote; returns the unsubscribe function. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
  /**
   * A wake-up for background consumers on every instance (never sent to websockets): "there is something
   * new in `topic`" (the domain-event outbox). Carries no data; a lost one is made up by a timer.
   */
  wake(topic: string): Promise<void>;
  /** Registers a listener for wake-ups of a topic; returns the unsubscribe function. */
  onWake(topic: string, listener: () => void): () => void;
  close(): Promise<void>;
}

export class MemoryBus implements EventBus {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  async publish(event: LiveEvent): Promise<void> {
    this.emitter.emit('event', event);
  }
  async publishMany(events: LiveEvent[]): Promise<void> {
    for (const event of events) this.emitter.emit('event', event);
  }
  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
  async wake(topic: string): Promise<void> {
    this.emitter.emit(`wake:${topic}`);
  }
  onWake(topic: string, listener: () => void): () => void {
    this.emitter.on(`wake:${topic}`, listener);
    return () => this.emitter.off(`wake:${topic}`, listener);
  }
  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
