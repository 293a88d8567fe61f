/**
 * The queue's entry points for the library, loading BullMQ and ioredis only when they are used (they cost a
 * second of start-up and tens of MB, for nothing in a run in one process).
 */
import type { CoordinatorOptions, QueueCoordinator } from "./coordinator.js";
import type { QueueWorker, QueueWorkerOptions } from "./queue-worker.js";

/** Connects a distributed run's coordinator: give it to `createSimulation({ runner })` (see README.md here). */
export async function connectQueueCoordinator(options: CoordinatorOptions): Promise<QueueCoordinator> {
  const { QueueCoordinator: Coordinator } = await import("./coordinator.js");
  return Coordinator.connect(options);
}

/** Starts a worker of distributed runs (what `toolsim worker` runs). */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  const { startQueueWorker: start } = await import("./queue-worker.js");
  return start(options);
}
