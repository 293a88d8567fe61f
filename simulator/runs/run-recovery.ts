import { closeSync, existsSync, ftruncateSync, openSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isRejected, projectEpisode } from "./corpus-projection.js";
import type { SimEvent } from "../core/events.js";
import { SummaryBuilder } from "./run-summary.js";
import { truncatePartialLine } from "../../agents/parse/partial-line.js";
import { writeAllSync } from "./file-writes.js";
import { forEachLine } from "./journal-lines.js";
import { parseEvent } from "./read-journal.js";
import { RUN_FILES, type RunInfo } from "./run-info.js";

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

/** One episode's contiguous lines in the journal. */
interface Group {
  lines: string[];
  events: SimEvent[];
  episodeId: string | undefined;
  start: number;
  end: number;
  corrupt: number;
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

/** A run folder after recovery: the summary of its kept episodes, the next episode index, what was repaired. */
export interface Recovered {
  builder: SummaryBuilder;
  next: number;
  report: RecoveryReport;
}

/**
 * Repairs a run folder left by a crash (even `kill -9` mid-write): cuts partial last lines, keeps the
 * journal's finished episodes 0..n-1 and drops the rest, makes the corpus and rejected files hold exactly
 * one line per kept episode (dropping extra lines, rebuilding missing ones from the journal), and
 * recomputes the summary by streaming the journal.
 */
export function recoverRunFolder(dir: string, info: RunInfo): Recovered {
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
  return { builder, next: n, report };
}
