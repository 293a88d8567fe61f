import { EpisodeSequencer } from "./llm-sequencer.js";
import { jaccard, normalizedTokens, shingles } from "../language/near-duplicates.js";

/** An instruction a run's user gave: its episode, its request in the episode's plan, and its text. */
export interface RunInstruction {
  episode: number;
  request: number;
  text: string;
}

/** Options of {@link RunInstructions}. */
export interface RunInstructionsOptions {
  /** Similarity at or above which an instruction is a near-duplicate of an earlier one (default 0.8). */
  threshold?: number;
  /** How many earlier episodes an instruction is compared with (default 20000); older ones are forgotten. */
  horizon?: number;
}

interface Entry extends RunInstruction {
  tokens: Set<string>;
  shingles: Set<string>;
}

/**
 * The instructions of a run, for the LLM user's near-duplicate check and its choice among candidates, in a
 * form that does not depend on completion order: the instruction for request `r` of episode `i` is
 * compared with the instructions of earlier episodes for requests `0..r` and with the episode's own earlier
 * ones, and it is chosen only once every earlier episode has chosen its instruction for request `r` (see
 * {@link EpisodeSequencer}). The model calls themselves run concurrently; only the choice waits.
 *
 * A resumed run {@link load}s the instructions of the episodes already in its journal, so it goes on exactly
 * as the uninterrupted run would have.
 */
export class RunInstructions {
  readonly threshold: number;
  readonly horizon: number;
  private readonly sequencer = new EpisodeSequencer();
  private readonly entries = new Map<number, Entry>();
  private readonly byToken = new Map<string, Set<number>>();
  private next = 0;
  /** Episodes before this one are forgotten (raised in steps, so that forgetting costs little per episode). */
  private forgotten = -Infinity;

  constructor(options: RunInstructionsOptions = {}) {
    this.threshold = options.threshold ?? 0.8;
    this.horizon = Math.max(1, options.horizon ?? 20_000);
  }

  /** How many instructions are held. */
  get size(): number {
    return this.entries.size;
  }

  /** Registers an episode that starts (in index order; `createLlmAgents` does it). */
  enter(episode: number): void {
    this.sequencer.enter(episode);
  }

  /** Registers the end of an episode, whatever its outcome. */
  finish(episode: number): void {
    this.sequencer.finish(episode);
    this.forgetOld();
  }

  /** Holds the instructions of episodes that ran before (a resumed run: those in its journal). */
  load(instructions: Iterable<RunInstruction>): void {
    for (const i of instructions) this.hold(i);
  }

  /** Waits until every earlier episode has chosen its instruction for this request (or ended). */
  turn(episode: number, request: number): Promise<void> {
    // An episode its caller did not register (a library user driving the user by hand) is registered here.
    this.sequencer.enter(episode);
    return this.sequencer.reach(episode, request);
  }

  /** The most similar instruction this one may be compared with, and its similarity (0 and no text when none shares a word). */
  nearest(text: string, episode: number, request: number): { similarity: number; text?: string } {
    const tokens = new Set(normalizedTokens(text));
    const sh = shingles(text);
    const ids = new Set<number>();
    for (const t of tokens) for (const id of this.byToken.get(t) ?? []) ids.add(id);
    let best: { similarity: number; text?: string; at?: number } = { similarity: 0 };
    for (const id of ids) {
      const e = this.entries.get(id);
      if (!e || !this.visible(e, episode, request)) continue;
      const s = Math.max(jaccard(tokens, e.tokens), jaccard(sh, e.shingles));
      // Ties go to the earliest instruction in (episode, request) order, not in arrival order.
      if (s > best.similarity || (s === best.similarity && s > 0 && best.at !== undefined && order(e) < best.at)) best = { similarity: s, text: e.text, at: order(e) };
    }
    return best.text !== undefined ? { similarity: best.similarity, text: best.text } : { similarity: best.similarity };
  }

  /** Records the chosen instruction; `last` when the episode's plan has no later request. */
  add(episode: number, request: number, text: string, last = false): void {
    this.hold({ episode, request, text });
    this.pass(episode, request, last);
  }

  /** Lets later episodes go past this request without an instruction from this one (it failed). */
  pass(episode: number, request: number, last = false): void {
    if (last) this.sequencer.finish(episode);
    else this.sequencer.pass(episode, request);
  }

  private visible(e: Entry, episode: number, request: number): boolean {
    if (e.episode === episode) return e.request < request;
    return e.episode < episode && e.episode >= episode - this.horizon && e.request <= request;
  }

  private hold(i: RunInstruction): void {
    const id = this.next++;
    const entry: Entry = { ...i, tokens: new Set(normalizedTokens(i.text)), shingles: shingles(i.text) };
    this.entries.set(id, entry);
    for (const t of entry.tokens) {
      let ids = this.byToken.get(t);
      if (!ids) this.byToken.set(t, (ids = new Set()));
      ids.add(id);
    }
  }

  /** Drops instructions no running or later episode can see any more. */
  private forgetOld(): void {
    const low = this.sequencer.lowest;
    if (low === undefined) return;
    const limit = low - this.horizon;
    if (limit < this.forgotten + Math.max(1, Math.min(1000, this.horizon))) return;
    this.forgotten = limit;
    for (const [id, e] of this.entries) {
      if (e.episode >= limit) continue;
      this.entries.delete(id);
      for (const t of e.tokens) {
        const ids = this.byToken.get(t);
        ids?.delete(id);
        if (ids && ids.size === 0) this.byToken.delete(t);
      }
    }
  }
}

/** A sort key of an instruction: episode, then request. */
function order(e: RunInstruction): number {
  return e.episode * 1_000_000 + e.request;
}
