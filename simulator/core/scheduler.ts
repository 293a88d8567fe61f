/** Options of `schedule`. */
export interface ScheduleOptions<T> {
  /** First index to run. */
  start: number;
  /** One past the last index. */
  end: number;
  concurrency: number;
  /**
   * Runs item i. A task may call `release` before it resolves, once its item no longer needs a slot (a remote
   * runner's episode has finished elsewhere and only waits to be handed back): another item starts then, while
   * its result still commits in index order when it comes. So `concurrency` bounds the items not yet released.
   */
  task: (index: number, release: () => void) => Promise<T>;
  /** Receives results strictly in index order (a reorder buffer holds early finishers). */
  commit: (index: number, value: T) => void;
  /** Checked before each new item starts: true stops dispatching; items in flight still finish and commit. */
  stopped?: () => boolean;
  /**
   * How far past the first uncommitted item a new item may start (default `max(16, 4 * concurrency)`): bounds
   * the results held for in-order commit when one item is slow (an LLM episode retrying for minutes), so
   * memory stays flat. Does not change what is committed, nor its order.
   */
  window?: number;
}

/** Lets the event loop turn: signal handlers (Ctrl-C), timers and I/O callbacks run. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs items with bounded concurrency and commits their results in index order, so that the output does
 * not depend on concurrency and always forms a prefix (resumable at the first uncommitted index).
 *
 * The event loop turns before every item: offline episodes never wait for I/O, so without it a whole run
 * would be one chain of microtasks, and a Ctrl-C (or any timer) would only be seen after the last episode.
 * When a task or a commit throws, no new item starts and nothing more is committed; the items in flight
 * finish, then the first error is thrown (no work goes on behind the caller's back).
 */
export async function schedule<T>(options: ScheduleOptions<T>): Promise<{ committed: number; next: number; stopped: boolean }> {
  const { start, end, task, commit } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const window = Math.max(1, Math.floor(options.window ?? Math.max(16, 4 * concurrency)));
  const buffer = new Map<number, T>();
  let next = start;
  let nextCommit = start;
  let stopped = false;
  let failure: { error: unknown } | undefined;
  // Workers waiting for the first uncommitted item to commit (the window is full); woken by each commit run.
  let waiting: Array<() => void> = [];
  const wakeAll = (): void => {
    const ws = waiting;
    waiting = [];
    for (const w of ws) w();
  };
  // Items released before their result came (see `task`): awaited before the schedule returns.
  const released = new Set<Promise<void>>();
  /** Buffers a result and commits every result now in order (or records the first failure). */
  const settle = (i: number, outcome: { value: T } | { error: unknown }): void => {
    if ("error" in outcome) {
      failure ??= { error: outcome.error };
      wakeAll();
      return;
    }
    buffer.set(i, outcome.value);
    const before = nextCommit;
    try {
      while (!failure && buffer.has(nextCommit)) {
        const v = buffer.get(nextCommit) as T;
        buffer.delete(nextCommit);
        commit(nextCommit, v);
        nextCommit++;
      }
    } catch (error) {
      failure ??= { error };
      wakeAll();
      return;
    }
    if (nextCommit > before) wakeAll();
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      if (next >= end || failure) return;
      await yieldToEventLoop();
      if (next >= end || failure) return;
      if (options.stopped?.()) {
        stopped = true;
        return;
      }
      // The item at nextCommit is in flight (a finished one would have been committed): wait for it.
      if (next - nextCommit >= window) {
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      const i = next++;
      let release!: () => void;
      const freed = new Promise<"released">((resolve) => (release = () => resolve("released")));
      let done: Promise<void>;
      try {
        done = task(i, release).then(
          (value) => settle(i, { value }),
          (error: unknown) => settle(i, { error }),
        );
      } catch (error) {
        settle(i, { error });
        return;
      }
      if ((await Promise.race([done.then(() => "done" as const), freed])) === "released") {
        released.add(done);
        void done.then(() => released.delete(done));
      }
      if (failure) return;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, end - start)) }, () => worker()));
  while (released.size > 0) await Promise.all([...released]);
  if (failure) throw failure.error;
  return { committed: nextCommit - start, next: nextCommit, stopped };
}
