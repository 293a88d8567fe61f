import type { Party, SimEvent, SimEventOf, SimEventType, EventPayloads } from "./events.js";

/** A subscriber to one event type (or `*` for all). */
export type Listener<K extends SimEventType> = (event: SimEventOf<K>) => void;

/** An injectable clock: real time by default, fixed in tests. */
export type Clock = () => Date;

/** Options of an event bus. */
export interface EventBusOptions {
  /**
   * Receives the error of a subscriber that threw. Subscribers are observers: one that throws neither stops
   * the others (the run's own journal writer among them) nor the episode. Default: a process warning, once
   * per event type and message.
   */
  onListenerError?: (error: unknown, event: SimEvent) => void;
}

/** The default report of a subscriber's error: a process warning, once per event type and message (no flood). */
function warnListenerError(): (error: unknown, event: SimEvent) => void {
  const seen = new Set<string>();
  return (error, event) => {
    const message = error instanceof Error ? error.message : String(error);
    const key = `${event.type}\n${message}`;
    if (seen.has(key) || seen.size >= 100) return;
    seen.add(key);
    process.emitWarning(`a subscriber to ${event.type} threw (episode ${event.episodeId}, seq ${event.seq}): ${message}`, "ToolsimListenerWarning");
  };
}

/**
 * The typed publish/subscribe bus the agents talk over. Events are numbered per episode (seq) and delivered
 * synchronously in publication order, so every subscriber sees an episode's events in order. A subscriber
 * that throws is reported (see {@link EventBusOptions}) and does not affect the others.
 */
export class EventBus {
  private readonly listeners = new Map<SimEventType | "*", Set<(e: SimEvent) => void>>();
  /** A snapshot of each set of listeners, delivered to (rebuilt after a subscribe or unsubscribe). */
  private readonly snapshots = new Map<SimEventType | "*", ReadonlyArray<(e: SimEvent) => void>>();
  private readonly seqs = new Map<string, number>();

  private readonly onListenerError: (error: unknown, event: SimEvent) => void;

  constructor(
    private readonly clock: Clock = () => new Date(),
    options: EventBusOptions = {},
  ) {
    this.onListenerError = options.onListenerError ?? warnListenerError();
  }

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
    this.snapshots.delete(type);
    return () => {
      const removed = set.delete(fn);
      if (removed) this.snapshots.delete(type);
      return removed;
    };
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
    this.deliverTo(event.type, event);
    this.deliverTo("*", event);
  }

  /** Calls the listeners subscribed when delivery starts (a listener that (un)subscribes affects later events). */
  private deliverTo(key: SimEventType | "*", event: SimEvent): void {
    let list = this.snapshots.get(key);
    if (!list) {
      const set = this.listeners.get(key);
      if (!set) return;
      list = [...set];
      this.snapshots.set(key, list);
    }
    for (const fn of list) {
      try {
        fn(event);
      } catch (error) {
        this.onListenerError(error, event);
      }
    }
  }
}
