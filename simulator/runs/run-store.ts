import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { open as openAsync } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stableStringify } from "../../specs/stable-stringify.js";
import { ToolsimError } from "../../specs/toolsim-error.js";
import { isRejected, projectEpisode } from "./corpus-projection.js";
import type { SimEvent } from "../core/events.js";
import { SummaryBuilder, type RunSummary } from "./run-summary.js";
import { truncatePartialLine } from "../../agents/parse/partial-line.js";
import { acquireRunLock, LOCK_FILE, type RunLock } from "./run-lock.js";
import { namingFile, writeAllSync } from "./file-writes.js";
import { redactJson, redactRecord, type SecretPolicy } from "../../specs/redact-secrets.js";

/** The files of a run folder. */
export const RUN_FILES = {
  run: "run.json",
  events: "events.jsonl",
  corpus: "corpus.jsonl",
  rejected: "rejected.jsonl",
  summary: "summary.json",
} as const;

/** The versions a run was made with. */
export interface RunVersions {
  toolsim: string;
  node: string;
  /** Key dependencies and their installed versions. */
  dependencies: Record<string, string>;
}

/** `run.json`: what a run was made from, given by the caller and written once. */
export interface RunInfo {
  id: string;
  createdAt: string;
  seed: number;
  /** The run's settings (secrets are redacted before writing). */
  config: Record<string, unknown>;
  versions: RunVersions;
  /** Toolset (or spec file) -> content hash (see {@link contentHash}). */
  specHashes: Record<string, string>;
  /** Number of operations of each toolset, for the coverage figures of the summary. */
  operations?: Record<string, number>;
  /** The files the toolsets were loaded from, in the run's toolset order (so `--resume` can reload them). */
  toolsetFiles?: string[];
}

/** Settings recorded in `run.json` that do not change a run's content: a run may be resumed with other values. */
export const NON_CONTENT_SETTINGS: readonly string[] = ["concurrency"];

/** The content settings whose values differ between two configs, as `key a vs b` (empty: compatible). */
export function configDifferences(recorded: Record<string, unknown>, requested: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(recorded), ...Object.keys(requested)])].filter((k) => !NON_CONTENT_SETTINGS.includes(k)).sort();
  const show = (v: unknown): string => {
    const text = v === undefined ? "(none)" : stableStringify(v);
    return text.length > 60 ? `${text.slice(0, 59)}…` : text;
  };
  return keys.filter((k) => stableStringify(recorded[k] ?? null) !== stableStringify(requested[k] ?? null)).map((k) => `${k} ${show(recorded[k])} vs ${show(requested[k])}`);
}

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

/** What `open` found and repaired after a crash. */
export interface RecoveryReport {
  /** Finished episodes kept: the next episode index. */
  episodes: number;
  /** Bytes of partial last lines cut from the three files. */
  truncatedBytes: number;
  /** Episodes dropped from the journal: unfinished, duplicated or out of order. */
  droppedEpisodes: number;
  droppedEvents: number;
  /** Unparseable complete lines found in the journal (their episodes are dropped). */
  corruptLines: number;
  /** The journal had to be rewritten (a dropped episode was followed by a kept one), not just truncated. */
  rewroteJournal: boolean;
  /** Projection lines removed: of unfinished episodes, duplicated, or misplaced. */
  droppedProjections: number;
  /** Projection lines rebuilt from the journal for finished episodes that had none. */
  rebuiltProjections: number;
  /** The projection files were rewritten from the journal (they were out of order), not just repaired at the end. */
  rewroteProjections: boolean;
}

const KEY_DEPENDENCIES = [
  "@langchain/core",
  "@langchain/openai",
  "langchain",
  "ajv",
  "@apidevtools/swagger-parser",
  "json-schema-faker",
  "@faker-js/faker",
  "yaml",
  "minisearch",
];

function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const p = join(dir, "package.json");
    if (existsSync(p)) {
      try {
        if ((JSON.parse(readFileSync(p, "utf8")) as { name?: string }).name === "toolsim") return dir;
      } catch {
        // keep looking
      }
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** The versions of toolsim, Node and the key dependencies installed beside it, for `run.json`. */
export function currentVersions(dependencies: readonly string[] = KEY_DEPENDENCIES): RunVersions {
  const root = packageRoot();
  const versionOf = (p: string): string | undefined => {
    try {
      return (JSON.parse(readFileSync(p, "utf8")) as { version?: string }).version;
    } catch {
      return undefined;
    }
  };
  const deps: Record<string, string> = {};
  for (const d of dependencies) {
    const v = root ? versionOf(join(root, "node_modules", d, "package.json")) : undefined;
    if (v !== undefined) deps[d] = v;
  }
  return { toolsim: (root && versionOf(join(root, "package.json"))) || "0.0.0", node: process.versions.node, dependencies: deps };
}

/** A content hash (`sha256:<hex>`) of a spec or toolset text, for `run.json`. */
export function contentHash(text: string | Uint8Array): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/** A copy of a value with the values of secret names (`apiKey`, `webhookToken`, `client_secret`...) replaced by `[redacted]`. */
export function redactSecrets(value: unknown): unknown {
  return redactRecord(value).value;
}

// ---------------------------------------------------------------------------------------------- file helpers

function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  namingFile(path, () => writeFileSync(tmp, text));
  renameSync(tmp, path);
}

const CHUNK = 1 << 20;


/** Calls `fn` for each complete line of a file from `from`, with the byte offsets of the line and of the next. */
function forEachLine(path: string, from: number, fn: (line: string, start: number, next: number) => void): void {
  if (!existsSync(path)) return;
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let carry: Buffer | undefined;
    let pos = from;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      const chunk = carry ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      const base = pos - (carry?.length ?? 0);
      let s = 0;
      for (let i = chunk.indexOf(10, s); i >= 0; i = chunk.indexOf(10, s)) {
        fn(chunk.toString("utf8", s, i), base + s, base + i + 1);
        s = i + 1;
      }
      carry = s < chunk.length ? Buffer.from(chunk.subarray(s)) : undefined;
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** The complete lines of a file, read asynchronously (the last line is skipped when it lacks its newline). */
export async function* readLines(path: string): AsyncGenerator<string> {
  const handle = await openAsync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let carry: Buffer | undefined;
    let pos = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      const chunk = carry ? Buffer.concat([carry, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
      let s = 0;
      const lines: string[] = [];
      for (let i = chunk.indexOf(10, s); i >= 0; i = chunk.indexOf(10, s)) {
        lines.push(chunk.toString("utf8", s, i));
        s = i + 1;
      }
      carry = s < chunk.length ? Buffer.from(chunk.subarray(s)) : undefined;
      pos += bytesRead;
      yield* lines;
    }
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------- journal scan

/** One episode's contiguous lines in the journal. */
interface Group {
  lines: string[];
  events: SimEvent[];
  episodeId: string | undefined;
  start: number;
  end: number;
  corrupt: number;
}

function parseEvent(line: string): SimEvent | undefined {
  try {
    const e = JSON.parse(line) as SimEvent;
    return e !== null && typeof e === "object" && typeof e.type === "string" && typeof e.episodeId === "string" ? e : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Splits the journal into groups: contiguous lines of one episode, a new group at every `episode.started` and
 * after every `episode.finished` (so a duplicated episode is a group of its own); an unparseable line is a group.
 */
function scanGroups(path: string, from: number, onGroup: (g: Group) => void): void {
  let g: Group | undefined;
  forEachLine(path, from, (line, start, next) => {
    const e = parseEvent(line);
    const id = e?.episodeId;
    const prev = g?.events[g.events.length - 1];
    if (!g || id === undefined || g.episodeId !== id || e?.type === "episode.started" || prev?.type === "episode.finished") {
      if (g) onGroup(g);
      g = { lines: [], events: [], episodeId: id, start, end: next, corrupt: 0 };
    }
    g.lines.push(line);
    if (e) g.events.push(e);
    else g.corrupt++;
    g.end = next;
  });
  if (g) onGroup(g);
}

/** A group is kept when it is the whole of the next episode: started with the expected index, then finished. */
function isNextEpisode(g: Group, expected: number): boolean {
  const first = g.events[0];
  const last = g.events[g.events.length - 1];
  return (
    g.corrupt === 0 &&
    first?.type === "episode.started" &&
    first.index === expected &&
    last?.type === "episode.finished" &&
    g.events.filter((e) => e.type === "episode.finished").length === 1
  );
}

/** One line of a projection file: a JSON record with `meta.index` and `meta.outcome`. */
function projectionMeta(line: string): { index: number; outcome: string } | undefined {
  try {
    const meta = (JSON.parse(line) as { meta?: { index?: unknown; outcome?: unknown } }).meta;
    return meta && Number.isInteger(meta.index) && typeof meta.outcome === "string" ? { index: meta.index as number, outcome: meta.outcome } : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------- the store

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
    const paths = {
      events: join(dir, RUN_FILES.events),
      corpus: join(dir, RUN_FILES.corpus),
      rejected: join(dir, RUN_FILES.rejected),
    };
    const report: RecoveryReport = {
      episodes: 0,
      truncatedBytes: 0,
      droppedEpisodes: 0,
      droppedEvents: 0,
      corruptLines: 0,
      rewroteJournal: false,
      droppedProjections: 0,
      rebuiltProjections: 0,
      rewroteProjections: false,
    };
    for (const p of Object.values(paths)) {
      if (!existsSync(p)) writeFileSync(p, "");
      report.truncatedBytes += truncatePartialLine(p);
    }

    // 1. The journal: keep the finished episodes 0..n-1 in order, drop everything else.
    const scanJournal = (onKept: (g: Group) => void, onDropped: (g: Group) => void): number => {
      let expected = 0;
      scanGroups(paths.events, 0, (g) => {
        if (isNextEpisode(g, expected)) {
          expected++;
          onKept(g);
        } else onDropped(g);
      });
      return expected;
    };
    let builder = new SummaryBuilder(info.id, info.operations);
    let starts: number[] = [];
    let keptEnd = 0;
    let dropSeen = false;
    let needsRewrite = false;
    const n = scanJournal(
      (g) => {
        builder.add(g.events);
        starts.push(g.start);
        keptEnd = g.end;
        if (dropSeen) needsRewrite = true;
      },
      (g) => {
        dropSeen = true;
        report.droppedEpisodes++;
        report.droppedEvents += g.lines.length;
        report.corruptLines += g.corrupt;
      },
    );
    if (needsRewrite) {
      const tmp = `${paths.events}.rewrite`;
      const fd = openSync(tmp, "w");
      builder = new SummaryBuilder(info.id, info.operations);
      starts = [];
      let offset = 0;
      try {
        scanJournal(
          (g) => {
            const text = `${g.lines.join("\n")}\n`;
            writeAllSync(fd, text, tmp);
            builder.add(g.events);
            starts.push(offset);
            offset += Buffer.byteLength(text);
          },
          () => undefined,
        );
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, paths.events);
      report.rewroteJournal = true;
    } else if (keptEnd < statSync(paths.events).size) {
      const fd = openSync(paths.events, "r+");
      try {
        ftruncateSync(fd, keptEnd);
      } finally {
        closeSync(fd);
      }
    }
    report.episodes = n;

    // 2. The projections: one line per kept episode, in index order, in the file its outcome names.
    const present = new Uint8Array(n);
    let anomaly = false;
    let oldLines = 0;
    const cuts: { corpus: number | undefined; rejected: number | undefined } = { corpus: undefined, rejected: undefined };
    for (const file of ["corpus", "rejected"] as const) {
      let prev = -1;
      forEachLine(paths[file], 0, (line, start) => {
        oldLines++;
        const meta = projectionMeta(line);
        if (!meta) {
          anomaly = true;
          return;
        }
        if (meta.index >= n) {
          cuts[file] ??= start;
          return;
        }
        const wrongFile = (meta.outcome === "accepted") !== (file === "corpus");
        if (cuts[file] !== undefined || meta.index <= prev || present[meta.index] || wrongFile) {
          anomaly = true;
          return;
        }
        present[meta.index] = 1;
        prev = meta.index;
      });
    }
    let firstMissing = present.indexOf(0);
    if (firstMissing < 0) firstMissing = n;
    let distinct = 0;
    for (let i = 0; i < n; i++) distinct += present[i] ?? 0;
    if (distinct !== firstMissing) anomaly = true;

    const project = (events: SimEvent[], write: (file: "corpus" | "rejected", line: string) => void): void => {
      const record = projectEpisode(events);
      write(isRejected(record) ? "rejected" : "corpus", `${JSON.stringify(record)}\n`);
    };
    if (anomaly) {
      const fds = { corpus: openSync(`${paths.corpus}.rewrite`, "w"), rejected: openSync(`${paths.rejected}.rewrite`, "w") };
      try {
        scanGroups(paths.events, 0, (g) => project(g.events, (file, line) => writeAllSync(fds[file], line, paths[file])));
      } finally {
        closeSync(fds.corpus);
        closeSync(fds.rejected);
      }
      renameSync(`${paths.corpus}.rewrite`, paths.corpus);
      renameSync(`${paths.rejected}.rewrite`, paths.rejected);
      report.rewroteProjections = true;
      report.droppedProjections = oldLines - distinct;
      report.rebuiltProjections = n - distinct;
    } else {
      for (const file of ["corpus", "rejected"] as const) {
        const cut = cuts[file];
        if (cut === undefined) continue;
        forEachLine(paths[file], cut, () => report.droppedProjections++);
        const fd = openSync(paths[file], "r+");
        try {
          ftruncateSync(fd, cut);
        } finally {
          closeSync(fd);
        }
      }
      const from = starts[firstMissing];
      if (from !== undefined) {
        const fds = { corpus: openSync(paths.corpus, "a"), rejected: openSync(paths.rejected, "a") };
        try {
          scanGroups(paths.events, from, (g) => {
            project(g.events, (file, line) => writeAllSync(fds[file], line, paths[file]));
            report.rebuiltProjections++;
          });
        } finally {
          closeSync(fds.corpus);
          closeSync(fds.rejected);
        }
      }
    }

    const fds = {
      events: openSync(paths.events, "a"),
      corpus: openSync(paths.corpus, "a"),
      rejected: openSync(paths.rejected, "a"),
    };
    const store = new RunStore(lock, dir, info, fds, builder, n, options, report);
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
