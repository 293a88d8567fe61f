import { existsSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ToolsimError } from "../../specs/toolsim-error.js";
import type { SimEvent } from "../events.js";
import { RUN_FILES, type RunInfo } from "../run-store.js";

/** Reads a run folder's `run.json`, after checking the folder holds a journal. */
export async function readRunInfo(dir: string): Promise<RunInfo> {
  if (!existsSync(join(dir, RUN_FILES.events))) throw new ToolsimError("run.not-a-run", `${dir} is not a run folder (no ${RUN_FILES.events})`);
  const path = join(dir, RUN_FILES.run);
  if (!existsSync(path)) throw new ToolsimError("run.not-a-run", `${dir} is not a run folder (no ${RUN_FILES.run})`);
  try {
    return JSON.parse(await readFile(path, "utf8")) as RunInfo;
  } catch (e) {
    throw new ToolsimError("run.corrupt", `${path} is not valid JSON: ${(e as Error).message}`);
  }
}

/** Options of {@link readEpisodesSkippingCorrupt}. */
export interface LenientReadOptions {
  /** Told about every episode skipped, with the file and line of the damage. */
  warn?: (message: string) => void;
}

function parseEvent(line: string): SimEvent | undefined {
  try {
    const e = JSON.parse(line) as SimEvent;
    return e !== null && typeof e === "object" && typeof e.type === "string" && typeof e.episodeId === "string" ? e : undefined;
  } catch {
    return undefined;
  }
}

/** The complete lines of a file (a last line without its newline, a write in progress, is left out). */
async function* completeLines(path: string): AsyncGenerator<string> {
  const handle = await open(path, "r");
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let carry: Buffer | undefined;
    let pos = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const chunk = carry ? Buffer.concat([carry, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
      let s = 0;
      for (let i = chunk.indexOf(10, s); i >= 0; i = chunk.indexOf(10, s)) {
        yield chunk.toString("utf8", s, i);
        s = i + 1;
      }
      carry = s < chunk.length ? Buffer.from(chunk.subarray(s)) : undefined;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Streams a run's journal one whole episode at a time, as `readJournal` does, but an episode with a line that is
 * not a journal event is skipped with a warning naming the file and line, and reading goes on (for statistics,
 * reports, exports and scores, where one damaged episode should not hide the others; replay and diff keep
 * `readJournal`, which refuses the run). A damaged line between two episodes spoils the one after it (it may have
 * been its `episode.started`).
 */
export async function* readEpisodesSkippingCorrupt(dir: string, options: LenientReadOptions = {}): AsyncGenerator<SimEvent[]> {
  const path = join(dir, RUN_FILES.events);
  if (!existsSync(path)) throw new ToolsimError("run.not-a-run", `${dir} has no ${RUN_FILES.events}`);
  let group: SimEvent[] = [];
  let damaged: number[] = [];
  let pending: number[] = [];
  let lineNo = 0;
  const complete = (g: SimEvent[]): boolean => g[0]?.type === "episode.started" && g[g.length - 1]?.type === "episode.finished";
  const flush = function* (): Generator<SimEvent[]> {
    if (group.length === 0 && damaged.length === 0) return;
    if (damaged.length > 0) {
      const id = group[0]?.episodeId;
      const lines = damaged.join(", ");
      options.warn?.(`${path}:${lines}: not a journal event; ${id !== undefined ? `episode ${id}` : "the episode there"} skipped`);
    } else if (complete(group)) yield group;
    group = [];
    damaged = [];
  };
  for await (const line of completeLines(path)) {
    lineNo++;
    if (line === "") continue;
    const e = parseEvent(line);
    if (!e) {
      const open = group.length > 0 && group[group.length - 1]?.type !== "episode.finished";
      if (open) damaged.push(lineNo);
      else pending.push(lineNo);
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
  if (pending.length > 0) options.warn?.(`${path}:${pending.join(", ")}: not a journal event (after the last episode); skipped`);
}
