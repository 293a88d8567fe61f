import type { Party, SimEvent, SimEventOf, SimEventType, EventPayloads } from "./events.js";

/** A subscriber to one event type (or `*` for all). */
export type Listener<K extends SimEventType> = (event: SimEventOf<K>) => void;

/** An injectable clock: real time by default, fixed in tests. */
export type Clock = () => Date;

/**
 * The typed publish/subscribe bus the agents talk over. Events are numbered per episode (seq) and delivered
 * synchronously in publication order, so every subscriber sees an episode's events in order.
 */
export class EventBus {
  private readonly listeners = new Map<SimEventType | "*", Set<(e: SimEvent) => void>>();
  private readonly seqs = new Map<string, number>();

  constructor(private readonly clock: Clock = () => new Date()) {}

  /** Subscribes to one type of event; returns the unsubscribe function. */
  on<K extends SimEventType>(type: K, listener: Listener<K>): () => void;
  on(type: "*", listener: (event: SimEvent) => void): () => void;
  on(type: SimEventType | "*", listener: (event: never) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    const fn = listener as (e: SimEvent) => void;
    set.add(fn);
    return () => set.delete(fn);
  }

  /** Publishes an event: stamps seq and time, then delivers it to the type's subscribers and to `*`. */
  publish<K extends SimEventType>(
    type: K,
    header: { runId: string; episodeId: string; from: Party; to: Party },
    payload: EventPayloads[K],
  ): SimEventOf<K> {
    const seq = this.seqs.get(header.episodeId) ?? 0;
    this.seqs.set(header.episodeId, seq + 1);
    const event = { type, ...header, seq, at: this.clock().toISOString(), ...payload } as unknown as SimEventOf<K>;
    this.deliver(event);
    return event;
  }

  /** Re-publishes a recorded event as it is (replay): seq and time are kept. */
  republish(event: SimEvent): void {
    this.seqs.set(event.episodeId, Math.max(this.seqs.get(event.episodeId) ?? 0, event.seq + 1));
    this.deliver(event);
  }

  /** Forgets an episode's counter once it is over (memory stays flat over long runs). */
  endEpisode(episodeId: string): void {
    this.seqs.delete(episodeId);
  }

  private deliver(event: SimEvent): void {
    for (const fn of this.listeners.get(event.type) ?? []) fn(event);
    for (const fn of this.listeners.get("*") ?? []) fn(event);
  }
}
