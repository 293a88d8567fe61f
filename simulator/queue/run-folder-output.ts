import { closeSync, existsSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { readRunMemory, RUN_CACHE_FILE, runCacheLine } from "../core/llm-agents.js";
import { readLines } from "../runs/journal-lines.js";
import { RUN_FILES } from "../runs/run-info.js";
import type { EpisodeResult } from "./protocol.js";
import type { LogEntry } from "./state-log.js";

const CASSETTE_FILE = "cassette.jsonl";

function writeAll(fd: number, text: string): void {
  const buf = Buffer.from(text, "utf8");
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

/**
 * What a distributed run's coordinator writes to the run folder beside what the run store writes: each episode's
 * model calls (`cassette.jsonl`) and run-cache answers (`executor-cache.jsonl`), as the episode is handed to the
 * simulation (before its journal lines), in episode order. Files are opened at the first line (a new run's folder
 * must be empty when the run store creates it).
 */
export class RunFolderOutput {
  private cassetteFd: number | undefined;
  private cacheFd: number | undefined;

  /** `writeCassette` false for `--replay` (the recording is the cassette, nothing is recorded). */
  constructor(
    private readonly dir: string,
    private readonly writeCassette: boolean,
  ) {}

  record(r: EpisodeResult): void {
    if (this.writeCassette && r.cassette && r.cassette.length > 0) {
      this.cassetteFd ??= openSync(join(this.dir, CASSETTE_FILE), "a", 0o600);
      writeAll(this.cassetteFd, `${r.cassette.join("\n")}\n`);
    }
    if (r.cache !== undefined) {
      this.cacheFd ??= openSync(join(this.dir, RUN_CACHE_FILE), "a", 0o600);
      writeAll(this.cacheFd, runCacheLine(r.index, r.cache));
    }
  }

  close(): void {
    if (this.cassetteFd !== undefined) closeSync(this.cassetteFd);
    if (this.cacheFd !== undefined) closeSync(this.cacheFd);
    this.cassetteFd = this.cacheFd = undefined;
  }
}

/** A run folder's summary: counts, and the model calls and cost so far (zeros when it has none yet). */
export function folderSummary(dir: string): { accepted: number; errors: number; calls: number; cost: number } {
  try {
    const s = JSON.parse(readFileSync(join(dir, RUN_FILES.summary), "utf8")) as { accepted?: number; errors?: number; llm?: { calls?: number; cost?: number } };
    return { accepted: s.accepted ?? 0, errors: s.errors ?? 0, calls: s.llm?.calls ?? 0, cost: s.llm?.cost ?? 0 };
  } catch {
    return { accepted: 0, errors: 0, calls: 0, cost: 0 };
  }
}

/**
 * A resumed run's cassette keeps only the calls of the episodes in its journal: the others run again, and an answer
 * they got before the interruption must not stand for the one they get now (the first entry of a call wins).
 */
export async function dropCassetteEntriesFrom(dir: string, start: number): Promise<void> {
  const path = join(dir, CASSETTE_FILE);
  if (!existsSync(path)) return;
  const tmp = `${path}.rewrite`;
  const fd = openSync(tmp, "w", 0o600);
  let dropped = 0;
  try {
    for await (const line of readLines(path)) {
      const m = /"episodeId":"ep-(\d+)"/.exec(line);
      if (m && Number(m[1]) >= start) {
        dropped++;
        continue;
      }
      if (line.trim() !== "") writeAll(fd, `${line}\n`);
    }
  } finally {
    closeSync(fd);
  }
  if (dropped > 0) renameSync(tmp, path);
  else unlinkSync(tmp);
}

/**
 * The entries a new epoch's state log starts with: what the episodes before `next` decided (the run folder's
 * journal and `executor-cache.jsonl`, as `--resume` loads them in one process), then what the `kept` results that
 * follow them decided.
 */
export async function epochLoads(dir: string, next: number, kept: readonly EpisodeResult[]): Promise<LogEntry[]> {
  const memory = await readRunMemory(dir);
  const instructions = memory.instructions.filter((i) => i.episode < next);
  const cache = memory.cache.filter((c) => c.episode < next);
  for (const r of kept) {
    for (const e of r.events) if (e.type === "user.instruction") instructions.push({ episode: r.index, request: e.request, text: e.text });
    for (const c of r.cache ?? []) cache.push({ ...c, episode: r.index });
  }
  const entries: LogEntry[] = [];
  for (let i = 0; i < instructions.length; i += 500) entries.push({ k: "load", instructions: instructions.slice(i, i + 500) });
  for (let i = 0; i < cache.length; i += 100) entries.push({ k: "load", cache: cache.slice(i, i + 100) });
  return entries;
}
