import { existsSync } from "node:fs";
import { join } from "node:path";
import { ToolsimError } from "../../specs/toolsim-error.js";
import type { SimEvent } from "../core/events.js";
import { readLines } from "./journal-lines.js";
import { RUN_FILES } from "./run-info.js";

/** One line of the journal as an event; undefined when it is not one (damaged, or not an event with an episode). */
export function parseEvent(line: string): SimEvent | undefined {
  try {
    const e = JSON.parse(line) as SimEvent;
    return e !== null && typeof e === "object" && typeof e.type === "string" && typeof e.episodeId === "string" ? e : undefined;
  } catch {
    return undefined;
  }
}

/** Options of {@link readJournal}. */
export interface ReadJournalOptions {
  /** Also yield episodes without `episode.finished` (a run being written, or not yet repaired). Default false. */
  includeUnfinished?: boolean;
  /**
   * Skip an episode with a damaged line and tell this function (with the file and lines) instead of refusing the
   * run: for reading what can be read (stats, report, export, eval); replay and diff refuse, as exactness matters.
   * A damaged line between two episodes spoils the one after it (it may have been its `episode.started`).
   */
  onCorrupt?: (message: string) => void;
}

/**
 * Streams a run's journal, one episode (its events in order) at a time, reading line by line: memory holds
 * one episode, whatever the run's size. A last line without its newline (a write in progress) is skipped.
 * A damaged line refuses the run (`run.corrupt`) unless `onCorrupt` is given.
 */
export async function* readJournal(dir: string, options: ReadJournalOptions = {}): AsyncGenerator<SimEvent[]> {
  const path = join(dir, RUN_FILES.events);
  if (!existsSync(path)) throw new ToolsimError("run.not-a-run", `${dir} has no ${RUN_FILES.events}`);
  const { onCorrupt } = options;
  let group: SimEvent[] = [];
  let damaged: number[] = [];
  let pending: number[] = [];
  let lineNo = 0;
  const complete = (g: SimEvent[]): boolean => g[0]?.type === "episode.started" && g[g.length - 1]?.type === "episode.finished";
  const flush = function* (): Generator<SimEvent[]> {
    if (damaged.length > 0) {
      const id = group[0]?.episodeId;
      onCorrupt?.(`${path}:${damaged.join(", ")}: not a journal event; ${id !== undefined ? `episode ${id}` : "the episode there"} skipped`);
    } else if (group.length > 0 && (options.includeUnfinished || complete(group))) yield group;
    group = [];
    damaged = [];
  };
  for await (const line of readLines(path)) {
    lineNo++;
    if (line === "") continue;
    const e = parseEvent(line);
    if (!e) {
      if (!onCorrupt) throw new ToolsimError("run.corrupt", `${path}:${lineNo}: not a journal event`);
      const open = group.length > 0 && group[group.length - 1]?.type !== "episode.finished";
      (open ? damaged : pending).push(lineNo);
      continue;
    }
    const head = group[0];
    const prev = group[group.length - 1];
    if (head && (head.episodeId !== e.episodeId || e.type === "episode.started" || prev?.type === "episode.finished")) yield* flush();
    if (group.length === 0 && pending.length > 0) {
      damaged = pending;
      pending = [];
    }
    group.push(e);
  }
  yield* flush();
  if (pending.length > 0) onCorrupt?.(`${path}:${pending.join(", ")}: not a journal event (after the last episode); skipped`);
}
