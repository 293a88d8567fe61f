import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The file of a run folder that says the run is distributed: its queue and Redis (no password). */
export const QUEUE_FILE = "queue.json";

/** What `queue.json` holds. */
export interface QueueFile {
  queue: string;
  /** The Redis URL without credentials. */
  redis: string;
  runId: string;
}

/** Reads a run folder's `queue.json`; undefined when there is none (a run in one process) or it is unreadable. */
export function readQueueFile(dir: string): QueueFile | undefined {
  const path = join(dir, QUEUE_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const v = JSON.parse(readFileSync(path, "utf8")) as Partial<QueueFile>;
    return typeof v.queue === "string" && typeof v.redis === "string" && typeof v.runId === "string" ? { queue: v.queue, redis: v.redis, runId: v.runId } : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `queue.json` (atomically). */
export function writeQueueFile(dir: string, file: QueueFile): void {
  const path = join(dir, QUEUE_FILE);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(file, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}
