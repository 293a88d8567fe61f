import { RunAnswerCache, type EpisodeAnswerCache } from "../../agents/llm/llm-run-cache.js";
import type { ResponderAnswer } from "../../specs/respond/responder.js";
import { awaitTurn, type ReplicaHooks } from "./replica-waits.js";
import type { LogEntry } from "./state-log.js";

interface Settle {
  promise: Promise<ResponderAnswer>;
  resolve: (answer: ResponderAnswer) => void;
  reject: (error: Error) => void;
}

/**
 * A worker's replica of a distributed run's executor cache (see {@link RunAnswerCache}). A look-up of a local
 * episode is made here and written to the state log when it takes its place in the run's order (`decl`), and its
 * model answer once it has one (`settle`). Another worker's look-up is replayed from the log through the same
 * cache, its answer being the `settle` entry that arrives later: so an episode on any worker shares the answer
 * of the earliest earlier episode that asked the same call, as in one process, even while that answer is still
 * being computed on another machine.
 */
export class ReplicaAnswerCache extends RunAnswerCache {
  /** Replays of other attempts' look-ups, by episode and writer (positions count per attempt). */
  private readonly appliers = new Map<string, EpisodeAnswerCache>();
  /** The answers of look-ups that asked the model, by episode and position (shared by every attempt of the episode). */
  private readonly settles = new Map<string, Settle>();

  constructor(private readonly hooks: ReplicaHooks) {
    super();
  }

  /** The cache as a local episode sees it: its look-ups and answers go to the state log. */
  override forEpisode(episode: number, onDeclare?: (position: number, key: string) => void): EpisodeAnswerCache {
    const inner = super.forEpisode(episode, (position, key) => {
      onDeclare?.(position, key);
      this.hooks.write(episode, { k: "decl", i: episode, n: position, key });
    });
    let next = 0;
    return {
      answer: (key, compute) => {
        const position = next++;
        let stop = (): void => undefined;
        const turn = awaitTurn(
          inner.answer(key, async () => {
            // Asking the model is work, not waiting.
            stop();
            try {
              const answer = await compute();
              this.hooks.write(episode, { k: "settle", i: episode, n: position, answer });
              return answer;
            } catch (e) {
              this.hooks.write(episode, { k: "settle", i: episode, n: position, error: e instanceof Error ? e.message : String(e) });
              throw e;
            }
          }),
          episode,
          this.hooks,
        );
        stop = turn.stop;
        return turn.done;
      },
    };
  }

  /** Applies an entry of the state log written by the coordinator or another episode attempt. */
  apply(entry: LogEntry): void {
    switch (entry.k) {
      case "enter":
        this.enter(entry.i);
        break;
      case "load":
        if (entry.cache) this.load(entry.cache);
        break;
      case "decl": {
        const id = `${entry.i}|${entry.w}`;
        let applier = this.appliers.get(id);
        if (!applier) this.appliers.set(id, (applier = this.replay(entry.i)));
        const settle = this.settleOf(entry.i, entry.n);
        applier.answer(entry.key, () => settle.promise).catch(() => undefined);
        break;
      }
      case "settle": {
        const settle = this.settleOf(entry.i, entry.n);
        if (entry.answer !== undefined) settle.resolve(entry.answer);
        else settle.reject(new Error(entry.error ?? "the model call failed"));
        break;
      }
      case "finish":
        this.finish(entry.i);
        this.forgetEpisode(entry.i);
        this.dropAttempts(entry.i);
        break;
      default:
        break;
    }
  }

  /** Forgets the replayed look-ups of an episode that is over (a local one ends without its own entries coming back). */
  dropAttempts(episode: number): void {
    for (const id of [...this.appliers.keys()]) if (id.startsWith(`${episode}|`)) this.appliers.delete(id);
    for (const id of [...this.settles.keys()]) if (id.startsWith(`${episode}|`)) this.settles.delete(id);
  }

  /** The cache as another worker's episode saw it (no log writes). */
  private replay(episode: number): EpisodeAnswerCache {
    return super.forEpisode(episode);
  }

  private settleOf(episode: number, position: number): Settle {
    const id = `${episode}|${position}`;
    let s = this.settles.get(id);
    if (!s) {
      let resolve!: (a: ResponderAnswer) => void;
      let reject!: (e: Error) => void;
      const promise = new Promise<ResponderAnswer>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      promise.catch(() => undefined);
      s = { promise, resolve, reject };
      this.settles.set(id, s);
    }
    return s;
  }
}
