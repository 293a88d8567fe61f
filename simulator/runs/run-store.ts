import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stableStringify } from "../../specs/stable-stringify.js";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { isRejected, projectEpisode } from "./corpus-projection.js";
import type { SimEvent } from "../core/events.js";
import { SummaryBuilder, type RunSummary } from "./run-summary.js";
import { acquireRunLock, LOCK_FILE, type RunLock } from "./run-lock.js";
import { namingFile, writeAllSync } from "./file-writes.js";
import { redactJson, type SecretPolicy } from "../../specs/redact-secrets.js";
import { configDifferences, redactSecrets, RUN_FILES, type RunInfo } from "./run-info.js";
import { recoverRunFolder, type RecoveryReport } from "./run-recovery.js";

/** Options of a run store. */
export interface RunStoreOptions {
  /** `create` only: continue the run already in the folder instead of refusing it. */
  resume?: boolean;
  /** fsync the journal and the projection after every episode (survives power loss; slower). Default false. */
  fsync?: boolean;
  /** How often `summary.json` is rewritten while appending, in ms (it is always written on close). Default 1000. */
  summaryIntervalMs?: number;
  /** What the folder's lock says its holder is doing (default `generate`). */
  command?: string;
  /** What is secret besides secret names (security schemes' names, the toolsets' credentials): redacted when written. */
  secrets?: SecretPolicy;
}

/** Writes a whole file atomically (a temporary file renamed over it). */
function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  namingFile(path, () => writeFileSync(tmp, text));
  renameSync(tmp, path);
}

/** Run folders with an open store in this process (the folder lock is re-entrant for one command; two stores are not). */
const writers = new Set<string>();

function claimWriter(lock: RunLock, dir: string): void {
  if (writers.has(lock.path)) throw new ToolsimError("run.locked", `${dir} is already being written by this process (another run store is open on it): close that one first`);
  writers.add(lock.path);
}

/**
 * A run folder, written append-only and flushed per episode: `run.json`, `events.jsonl` (the journal),
 * `corpus.jsonl`, `rejected.jsonl` and `summary.json`. Episodes are handed whole and in index order, so the
 * files always hold a prefix of the run; `open` repairs a folder left by a crash and tells where to go on.
 */
export class RunStore {
  private closed = false;
  private lastSummaryWrite = Date.now();

  private constructor(
    private readonly lock: RunLock,
    /** The run folder. */
    readonly dir: string,
    /** The run's `run.json`. */
    readonly info: RunInfo,
    private readonly fds: { events: number; corpus: number; rejected: number },
    private readonly builder: SummaryBuilder,
    private next: number,
    private readonly options: RunStoreOptions,
    /** What `open` repaired; undefined for a new run. */
    readonly recovery?: RecoveryReport,
  ) {}

  /**
   * Starts a run in `dir` (created if needed). A folder that is not empty is refused unless `resume` is set,
   * in which case the run there is opened (and must have the same seed, config and spec hashes; settings
   * that do not change the content, such as the concurrency, may differ).
   */
  static async create(dir: string, info: RunInfo, options: RunStoreOptions = {}): Promise<RunStore> {
    // One writer per run folder: a second process refuses here (the lock is re-entrant for the command that holds it).
    const lock = acquireRunLock(dir, options.command ?? "generate");
    try {
      const store = await RunStore.createLocked(dir, info, options, lock);
      // A resumed run's store holds the lock that `open` took (taken before this one is let go).
      if (store.lock !== lock) lock.release();
      return store;
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  private static async createLocked(dir: string, info: RunInfo, options: RunStoreOptions, lock: RunLock): Promise<RunStore> {
    // An empty cassette opened for this run before the store is not content of an earlier run; nor is the lock.
    const entries = readdirSync(dir).filter((f) => !(f === "cassette.jsonl" && statSync(join(dir, f)).size === 0) && !f.startsWith(LOCK_FILE));
    const runInfo = { ...info, config: redactSecrets(info.config) as Record<string, unknown> };
    if (entries.length > 0) {
      if (!options.resume) {
        throw new ToolsimError(
          "run.exists",
          `the run folder ${dir} is not empty (${entries.slice(0, 5).join(", ")}${entries.length > 5 ? ", ..." : ""}): ` +
            `resume the run in it (--resume) or choose another folder (--out)`,
        );
      }
      if (!existsSync(join(dir, RUN_FILES.run))) {
        throw new ToolsimError("run.not-a-run", `cannot resume ${dir}: it is not empty but holds no ${RUN_FILES.run}`);
      }
      const store = await RunStore.open(dir, options);
      const mismatches: string[] = [];
      if (store.info.seed !== runInfo.seed) mismatches.push(`seed ${store.info.seed} vs ${runInfo.seed}`);
      const settings = configDifferences(store.info.config, runInfo.config);
      if (settings.length > 0) mismatches.push(`config (${settings.join("; ")})`);
      if (stableStringify(store.info.specHashes) !== stableStringify(runInfo.specHashes)) mismatches.push("spec hashes");
      if (mismatches.length > 0) {
        store.close();
        throw new ToolsimError(
          "run.mismatch",
          `cannot resume ${dir}: the run there was made with a different ${mismatches.join(", ")}; start a new run in another folder`,
        );
      }
      return store;
    }
    claimWriter(lock, dir);
    try {
      writeFileAtomic(join(dir, RUN_FILES.run), `${JSON.stringify(runInfo, null, 2)}\n`);
      const fds = {
        events: openSync(join(dir, RUN_FILES.events), "a"),
        corpus: openSync(join(dir, RUN_FILES.corpus), "a"),
        rejected: openSync(join(dir, RUN_FILES.rejected), "a"),
      };
      const store = new RunStore(lock, dir, runInfo, fds, new SummaryBuilder(runInfo.id, runInfo.operations), 0, options);
      store.writeSummary();
      return store;
    } catch (e) {
      writers.delete(lock.path);
      throw e;
    }
  }

  /**
   * Opens an existing run after a crash (even `kill -9` mid-write): cuts partial last lines, keeps the
   * journal's finished episodes 0..n-1 and drops the rest, makes the corpus and rejected files hold exactly
   * one line per kept episode (dropping extra lines, rebuilding missing ones from the journal), and
   * recomputes the summary by streaming the journal. Appending continues at episode n (`nextIndex`).
   */
  static async open(dir: string, options: RunStoreOptions = {}): Promise<RunStore> {
    const runPath = join(dir, RUN_FILES.run);
    if (!existsSync(runPath)) throw new ToolsimError("run.not-a-run", `${dir} is not a toolsim run: it has no ${RUN_FILES.run}`);
    const lock = acquireRunLock(dir, options.command ?? "generate");
    try {
      return RunStore.openLocked(dir, options, lock);
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  private static openLocked(dir: string, options: RunStoreOptions, lock: RunLock): RunStore {
    const runPath = join(dir, RUN_FILES.run);
    claimWriter(lock, dir);
    try {
      return RunStore.repairAndOpen(dir, options, lock, runPath);
    } catch (e) {
      writers.delete(lock.path);
      throw e;
    }
  }

  private static repairAndOpen(dir: string, options: RunStoreOptions, lock: RunLock, runPath: string): RunStore {
    let info: RunInfo;
    try {
      info = JSON.parse(readFileSync(runPath, "utf8")) as RunInfo;
    } catch (err) {
      throw new ToolsimError("run.corrupt", `${runPath} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    const { builder, next, report } = recoverRunFolder(dir, info);
    const fds = {
      events: openSync(join(dir, RUN_FILES.events), "a"),
      corpus: openSync(join(dir, RUN_FILES.corpus), "a"),
      rejected: openSync(join(dir, RUN_FILES.rejected), "a"),
    };
    const store = new RunStore(lock, dir, info, fds, builder, next, options, report);
    store.writeSummary();
    return store;
  }

  /** The index of the next episode to append (the number of finished episodes stored). */
  get nextIndex(): number {
    return this.next;
  }

  /**
   * Appends one finished episode (its events in seq order, from `episode.started` to `episode.finished`,
   * with index `nextIndex`): the journal lines first, then its corpus or rejected line, synchronously.
   */
  appendEpisode(events: readonly SimEvent[]): void {
    if (this.closed) throw new ToolsimError("run.closed", `the run store of ${this.dir} is closed`);
    const first = events[0];
    const last = events[events.length - 1];
    if (first?.type !== "episode.started" || last?.type !== "episode.finished") {
      throw new ToolsimError("run.append", "appendEpisode: expected a whole episode, from episode.started to episode.finished");
    }
    if (first.index !== this.next) {
      throw new ToolsimError("run.append", `appendEpisode: expected episode index ${this.next}, got ${first.index} (episodes are appended in index order)`);
    }
    for (const e of events) {
      if (e.episodeId !== first.episodeId) {
        throw new ToolsimError("run.append", `appendEpisode: event ${e.seq} (${e.type}) belongs to episode ${e.episodeId}, not ${first.episodeId}`);
      }
      if (e.type === "episode.finished" && e !== last) throw new ToolsimError("run.append", "appendEpisode: episode.finished must be the last event");
    }
    // Secrets are redacted when written: values of secret names (and of the names security schemes declare), and
    // wherever else they appear in the episode. The projection and the summary are made from what is written, so
    // a resumed run (which reads the journal) and a replay see the same.
    const { texts, redacted } = redactJson(events, this.options.secrets);
    const written = redacted ? texts.map((t) => JSON.parse(t) as SimEvent) : events;
    const journal = texts.length > 0 ? `${texts.join("\n")}\n` : "";
    const record = projectEpisode(written);
    const line = `${JSON.stringify(record)}\n`;
    const target = isRejected(record) ? this.fds.rejected : this.fds.corpus;
    writeAllSync(this.fds.events, journal, join(this.dir, RUN_FILES.events));
    writeAllSync(target, line, join(this.dir, target === this.fds.rejected ? RUN_FILES.rejected : RUN_FILES.corpus));
    if (this.options.fsync) {
      fsyncSync(this.fds.events);
      fsyncSync(target);
    }
    this.builder.add(written);
    this.next++;
    const now = Date.now();
    if (now - this.lastSummaryWrite >= (this.options.summaryIntervalMs ?? 1000)) this.writeSummary(now);
  }

  /** The summary of the episodes stored so far. */
  summary(): RunSummary {
    return this.builder.toJSON();
  }

  /** Rewrites `summary.json` now (atomically). */
  writeSummary(now = Date.now()): void {
    writeFileAtomic(join(this.dir, RUN_FILES.summary), `${JSON.stringify(this.builder.toJSON(), null, 2)}\n`);
    this.lastSummaryWrite = now;
  }

  /** Writes the summary and closes the files; the store cannot append afterwards. */
  close(): void {
    if (this.closed) return;
    this.writeSummary();
    this.closed = true;
    try {
      for (const fd of Object.values(this.fds)) {
        if (this.options.fsync) fsyncSync(fd);
        closeSync(fd);
      }
    } finally {
      writers.delete(this.lock.path);
      this.lock.release();
    }
  }
}
