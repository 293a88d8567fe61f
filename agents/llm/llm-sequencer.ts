/**
 * Orders the decisions that concurrent episodes take from run-wide memory (the LLM user's earlier
 * instructions, the executor's run cache), so that what an episode decides never depends on which episodes
 * finished first.
 *
 * Every decision of an episode has a position (the user's request index, the executor's n-th cached call).
 * The decision at position `p` of episode `i` waits until every earlier episode (`j < i`) that is still
 * running has passed position `p` (or finished); it then sees exactly what the earlier episodes decided at
 * positions up to `p`, whatever the timing. Model calls are not ordered: only the choice made from their
 * answers waits. Positions make episodes move roughly in step, so a slow episode holds back the later ones
 * at the same position, not for its whole length.
 *
 * Episodes must {@link EpisodeSequencer.enter} in index order (the scheduler starts them so), and
 * {@link EpisodeSequencer.finish} when they end, whatever the outcome: an episode that errs, gives up or is
 * never started cannot hold the others back. Episodes before a resumed run's first index are never
 * entered; what they decided is loaded from the run folder instead.
 */
export class EpisodeSequencer {
  /** Running episodes and how many positions each has passed. */
  private readonly progress = new Map<number, number>();
  private waiters: Array<{ episode: number; position: number; resolve: () => void }> = [];

  /** Registers an episode that has started (in index order). */
  enter(episode: number): void {
    if (!this.progress.has(episode)) this.progress.set(episode, 0);
  }

  /** Whether an episode is registered and running. */
  running(episode: number): boolean {
    return this.progress.has(episode);
  }

  /** The lowest running episode (undefined when none runs). */
  get lowest(): number | undefined {
    let low: number | undefined;
    for (const e of this.progress.keys()) if (low === undefined || e < low) low = e;
    return low;
  }

  /** Resolves once every running episode before `episode` has passed `position`. */
  reach(episode: number, position: number): Promise<void> {
    if (this.ready(episode, position)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ episode, position, resolve }));
  }

  /** Records that an episode has made its decision at `position` (and so every one before it). */
  pass(episode: number, position: number): void {
    const done = this.progress.get(episode);
    if (done === undefined || done > position) return;
    this.progress.set(episode, position + 1);
    this.wake();
  }

  /** Records that an episode will decide nothing more (it ended, or has no later position). */
  finish(episode: number): void {
    if (this.progress.delete(episode)) this.wake();
  }

  private ready(episode: number, position: number): boolean {
    for (const [e, done] of this.progress) if (e < episode && done <= position) return false;
    return true;
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    const go = this.waiters.filter((w) => this.ready(w.episode, w.position));
    if (go.length === 0) return;
    this.waiters = this.waiters.filter((w) => !go.includes(w));
    for (const w of go) w.resolve();
  }
}
