import { createHash } from "node:crypto";
import type { ResponderAnswer } from "../../specs/respond/responder.js";
import { EpisodeSequencer } from "./llm-sequencer.js";

/** A model's answer to a call as the run cache keeps it (one line of a run folder's `executor-cache.jsonl`). */
export interface RunCacheRecord {
  episode: number;
  /** The episode's n-th look-up of the run cache (0 first). */
  position: number;
  /** The normalized call (see `LlmResponder`). */
  key: string;
  answer: ResponderAnswer;
}

/**
 * The key a normalized call is held by: a hash (`sha256:<hex>`), so that the records written to the run folder
 * carry no argument values (a token passed to a tool). A key already hashed is kept.
 */
export function runCacheKey(call: string): string {
  return call.startsWith("sha256:") ? call : `sha256:${createHash("sha256").update(call).digest("hex")}`;
}

/** One episode's side of a {@link RunAnswerCache}: what the executor's `LlmResponder` consults. */
export interface EpisodeAnswerCache {
  /**
   * The answer to a normalized call: another episode's model answer to the same call when the run has one
   * this episode may see, else `compute()` (the model asked). `hit` tells which.
   */
  answer(key: string, compute: () => Promise<ResponderAnswer>): Promise<{ answer: ResponderAnswer; hit: boolean }>;
}

interface Declaration {
  episode: number;
  position: number;
  key: string;
  answer: Promise<ResponderAnswer>;
  /** The answer once settled, when it is the model's own (usable by other episodes). */
  settled?: ResponderAnswer;
}

/**
 * The executor's run-wide consistency cache (StableToolBench: the same call gets the same answer across a
 * run), in a form that does not depend on completion order. An episode's `n`-th look-up (position `n`)
 * waits until every earlier episode still running has made its `n`-th look-up (or ended), then takes the
 * answer of the earliest episode, among those before it, that looked the same call up at a position up to
 * `n` and got a model answer (answers replaced by the schema responder are not shared); without one, it asks
 * the model. A look-up waits for the earlier episodes' look-ups, never for their model calls: a call being
 * answered is shared as a promise.
 *
 * Records of what finished episodes got are written to the run folder and {@link load}ed by a resumed run,
 * so it goes on as the uninterrupted run would have.
 */
export class RunAnswerCache {
  private readonly sequencer = new EpisodeSequencer();
  private readonly byKey = new Map<string, Declaration[]>();
  private readonly byEpisode = new Map<number, Declaration[]>();

  /** How many calls are held. */
  get size(): number {
    return this.byKey.size;
  }

  /** Registers an episode that starts (in index order; `createLlmAgents` does it). */
  enter(episode: number): void {
    this.sequencer.enter(episode);
  }

  /** Registers the end of an episode, whatever its outcome. */
  finish(episode: number): void {
    this.sequencer.finish(episode);
  }

  /** Holds the answers of episodes that ran before (a resumed run: those of the episodes in its journal). */
  load(records: Iterable<RunCacheRecord>): void {
    for (const r of records) {
      this.declare({ episode: r.episode, position: r.position, key: runCacheKey(r.key), answer: Promise.resolve(r.answer), settled: r.answer });
    }
  }

  /** The model answers an episode got (its own or shared), in look-up order: what a resumed run loads. */
  recordsOf(episode: number): RunCacheRecord[] {
    return (this.byEpisode.get(episode) ?? [])
      .filter((d): d is Declaration & { settled: ResponderAnswer } => d.settled !== undefined)
      .map((d) => ({ episode: d.episode, position: d.position, key: d.key, answer: d.settled }));
  }

  /** Forgets the records of an episode (once written; its answers stay shared with later episodes). */
  forgetEpisode(episode: number): void {
    this.byEpisode.delete(episode);
  }

  /**
   * The cache as one episode sees it. `onDeclare` learns of each look-up once its place in the run's order is
   * taken (what a replica of the cache on another machine must be told, see `simulator/queue`).
   */
  forEpisode(episode: number, onDeclare?: (position: number, key: string) => void): EpisodeAnswerCache {
    this.sequencer.enter(episode);
    let next = 0;
    return {
      answer: async (call, compute) => {
        const key = runCacheKey(call);
        const position = next++;
        let passed = false;
        try {
          await this.sequencer.reach(episode, position);
          const visible = (this.byKey.get(key) ?? [])
            .filter((d) => d.episode < episode && d.position <= position)
            .sort((a, b) => a.episode - b.episode || a.position - b.position);
          const outcome = (async (): Promise<{ answer: ResponderAnswer; hit: boolean }> => {
            for (const d of visible) {
              const shared = await d.answer.catch(() => undefined);
              if (shared?.source === "llm") return { answer: shared, hit: true };
            }
            return { answer: await compute(), hit: false };
          })();
          const mine: Declaration = { episode, position, key, answer: outcome.then((o) => o.answer) };
          this.declare(mine);
          onDeclare?.(position, key);
          this.sequencer.pass(episode, position);
          passed = true;
          const got = await outcome;
          if (got.answer.source === "llm") mine.settled = got.answer;
          return got;
        } finally {
          if (!passed) this.sequencer.pass(episode, position);
        }
      },
    };
  }

  private declare(d: Declaration): void {
    let list = this.byKey.get(d.key);
    if (!list) this.byKey.set(d.key, (list = []));
    list.push(d);
    let mine = this.byEpisode.get(d.episode);
    if (!mine) this.byEpisode.set(d.episode, (mine = []));
    mine.push(d);
    if (d.settled === undefined) {
      d.answer.then(
        (a) => {
          if (a.source === "llm") d.settled = a;
        },
        () => undefined,
      );
    }
  }
}
