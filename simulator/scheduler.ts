/** Options of `schedule`. */
export interface ScheduleOptions<T> {
  /** First index to run. */
  start: number;
  /** One past the last index. */
  end: number;
  concurrency: number;
  /** Runs item i. */
  task: (index: number) => Promise<T>;
  /** Receives results strictly in index order (a reorder buffer holds early finishers). */
  commit: (index: number, value: T) => void;
  /** Checked before each new item starts: true stops dispatching; items in flight still finish and commit. */
  stopped?: () => boolean;
}

/**
 * Runs items with bounded concurrency and commits their results in index order, so that the output does
 * not depend on concurrency and always forms a prefix (resumable at the first uncommitted index).
 */
export async function schedule<T>(options: ScheduleOptions<T>): Promise<{ committed: number; next: number; stopped: boolean }> {
  const { start, end, task, commit } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const buffer = new Map<number, T>();
  let next = start;
  let nextCommit = start;
  let stopped = false;
  const worker = async (): Promise<void> => {
    for (;;) {
      if (next >= end) return;
      if (options.stopped?.()) {
        stopped = true;
        return;
      }
      const i = next++;
      const value = await task(i);
      buffer.set(i, value);
      while (buffer.has(nextCommit)) {
        const v = buffer.get(nextCommit) as T;
        buffer.delete(nextCommit);
        commit(nextCommit, v);
        nextCommit++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, end - start)) }, () => worker()));
  return { committed: nextCommit - start, next: nextCommit, stopped };
}
