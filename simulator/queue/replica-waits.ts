/**
 * What a worker's replicas of a run's memories (instructions, run cache) need from the worker: writing a local
 * episode's decisions to the state log, giving up an episode attempt that cannot go on, and counting the episodes
 * that only wait for earlier ones (they do not take a slot of the worker's concurrency, so that a worker full of
 * waiting episodes still takes the earlier episode they wait for).
 */
import type { LogEntry } from "./state-log.js";

/** A log entry as a local episode writes it (the writer's token is added by the worker). */
export type LocalEntry = LogEntry extends infer E ? (E extends { w: string } ? Omit<E, "w"> : never) : never;

/** The worker's side of a replica. */
export interface ReplicaHooks {
  /** Writes a decision of a local episode to the state log (fenced by the episode's job lock). */
  write(episode: number, entry: LocalEntry): void;
  /** A promise that rejects when the episode's attempt must stop (lost lock, restarted run, worker closing). */
  abandoned(episode: number): Promise<never>;
  /** One more (+1) or one fewer (-1) episode waiting for earlier ones. */
  waiting(delta: 1 | -1): void;
}

/** Waits shorter than this are not counted as waiting (most sequencer waits resolve at once). */
const COUNT_AFTER_MS = 5;

/**
 * Awaits `promise` for an episode: rejects when the episode's attempt is abandoned, and counts the wait as
 * waiting (see {@link ReplicaHooks.waiting}) once it lasts, until it ends or `stop()` (the returned handle) says
 * the episode is working again.
 */
export function awaitTurn<T>(promise: Promise<T>, episode: number, hooks: ReplicaHooks): { done: Promise<T>; stop: () => void } {
  let counted = false;
  let stopped = false;
  const timer = setTimeout(() => {
    if (stopped) return;
    counted = true;
    hooks.waiting(1);
  }, COUNT_AFTER_MS);
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    if (counted) hooks.waiting(-1);
  };
  const done = Promise.race([promise, hooks.abandoned(episode)]).finally(stop);
  return { done, stop };
}
