import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ToolsimError } from "../../specs/toolsim-error.js";
import type { SimEvent } from "../core/events.js";
import { readJournal } from "../runs/read-journal.js";
import { RUN_FILES, type RunInfo } from "../runs/run-info.js";

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

/**
 * Streams a run's journal one whole episode at a time, as `readJournal` does, but an episode with a damaged line
 * is skipped with a warning instead of refusing the run (for stats, report, export and eval).
 */
export function readEpisodesSkippingCorrupt(dir: string, options: LenientReadOptions = {}): AsyncGenerator<SimEvent[]> {
  return readJournal(dir, { onCorrupt: options.warn ?? (() => {}) });
}
