import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import pLimit from "p-limit";
import { buildToolset, type BuildFailure, type BuildModel, type BuiltToolset } from "./build-toolset.js";
import type { PublicApi } from "../import/public-apis.js";
import { slugify } from "../slug.js";
import { writeToolset } from "../write-toolset.js";
import { isObject } from "../../specs/json-object.js";

/** The files of a build folder besides the toolsets. */
export const BUILD_FILES = { failures: "failures.jsonl", cassette: "cassette.jsonl", summary: "build-summary.json" } as const;

/** One line of `failures.jsonl`: an API that is not built, why, and how many runs tried it. */
export interface FailureRecord extends BuildFailure {
  /** When the last attempt failed (ISO time). */
  at: string;
  /** Runs that tried this API and failed (the last one is what the record says). */
  attempts: number;
}

/** What happened to one API of a batch. */
export type BuildEvent =
  | { type: "skipped"; api: string; file: string }
  | { type: "built"; api: string; file: string; built: BuiltToolset }
  | { type: "failed"; api: string; failure: BuildFailure };

/** Options of {@link buildToolsets}. */
export interface BatchOptions {
  /** The folder the toolsets are written to (`<slug>.yaml`), with `failures.jsonl`. */
  out: string;
  /** APIs built at once (default 4). */
  concurrency?: number;
  /** Repair turns per stage (default 2). */
  repairs?: number;
  /** Sees every API as it is done. */
  onEvent?: (event: BuildEvent) => void;
  /** Injectable clock (the time of failure records). */
  now?: () => Date;
}

/** The outcome of a batch. */
export interface BatchResult {
  built: string[];
  skipped: string[];
  /** The APIs of this run that failed. */
  failed: BuildFailure[];
  /** What `failures.jsonl` holds after the run: every API of the folder that is still not built. */
  failures: FailureRecord[];
}

/**
 * The failure records of a build folder, one per API (the last record of a slug wins; a file written by an
 * older version, one line per attempt, counts its lines as attempts).
 */
export async function readFailures(dir: string): Promise<FailureRecord[]> {
  let text: string;
  try {
    text = await readFile(join(dir, BUILD_FILES.failures), "utf8");
  } catch {
    return [];
  }
  const bySlug = new Map<string, FailureRecord>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObject(v) || typeof v["slug"] !== "string" || typeof v["api"] !== "string") continue;
    const before = bySlug.get(v["slug"]);
    const attempts = typeof v["attempts"] === "number" ? v["attempts"] : (before?.attempts ?? 0) + 1;
    bySlug.delete(v["slug"]);
    bySlug.set(v["slug"], { ...(v as unknown as FailureRecord), attempts });
  }
  return [...bySlug.values()];
}

/** Writes the failure records (atomically: a crash leaves the old file); no file when there are none. */
async function writeFailures(dir: string, records: readonly FailureRecord[]): Promise<void> {
  const path = join(dir, BUILD_FILES.failures);
  if (records.length === 0) {
    await rm(path, { force: true });
    return;
  }
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, records.map((r) => `${JSON.stringify(r)}\n`).join(""), "utf8");
  await rename(tmp, path);
}

/** Unique slugs for a list of APIs, stable for the same list (a resumed build finds its files again). */
export function slugsFor(apis: readonly PublicApi[]): string[] {
  const taken = new Set<string>();
  return apis.map((api) => {
    const base = slugify(api.name);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  });
}

/**
 * Builds toolsets for many APIs, some at once: APIs whose `<slug>.yaml` is already in the folder are skipped
 * (resume), each built toolset is written as soon as it is checked. `failures.jsonl` is the current truth of
 * the folder, rewritten atomically after every API: one record per API that is not built (its last stage,
 * reason and number of attempts); an API that is built, now or by an earlier run, leaves it. Failed APIs are
 * tried again by the next run.
 */
export async function buildToolsets(apis: readonly PublicApi[], model: BuildModel, options: BatchOptions): Promise<BatchResult> {
  await mkdir(options.out, { recursive: true });
  const limit = pLimit(options.concurrency ?? 4);
  const slugs = slugsFor(apis);
  const outcomes: BuildEvent[] = [];
  const now = options.now ?? ((): Date => new Date());
  // Failures of earlier runs, minus APIs whose toolset is there now.
  const failures = new Map((await readFailures(options.out)).filter((r) => !existsSync(join(options.out, `${r.slug}.yaml`))).map((r) => [r.slug, r]));
  const order = new Map(slugs.map((slug, i) => [slug, i]));
  const ordered = (): FailureRecord[] => {
    const known = [...failures.values()].filter((r) => order.has(r.slug)).sort((a, b) => (order.get(a.slug) as number) - (order.get(b.slug) as number));
    return [...[...failures.values()].filter((r) => !order.has(r.slug)), ...known];
  };
  // One write at a time, each of the whole current truth.
  let writing: Promise<void> = writeFailures(options.out, ordered());
  const save = (): Promise<void> => (writing = writing.then(() => writeFailures(options.out, ordered())));
  await writing;
  await Promise.all(
    apis.map((api, i) =>
      limit(async () => {
        const slug = slugs[i] as string;
        const file = join(options.out, `${slug}.yaml`);
        if (existsSync(file)) {
          outcomes[i] = { type: "skipped", api: api.name, file };
          options.onEvent?.(outcomes[i]);
          return;
        }
        const built = await buildToolset(api, slug, model, { ...(options.repairs !== undefined ? { repairs: options.repairs } : {}), file });
        if (built.ok) {
          await writeToolset(options.out, slug, built.value.toolset);
          if (failures.delete(slug)) await save();
          outcomes[i] = { type: "built", api: api.name, file, built: built.value };
          options.onEvent?.(outcomes[i]);
          return;
        }
        // Problems name files relative to the build folder, so failure records read the same wherever it is.
        const raw = built.errors[0] as BuildFailure;
        const failure: BuildFailure = raw.problems ? { ...raw, problems: raw.problems.map((p) => ({ ...p, file: relative(options.out, p.file) || p.file })) } : raw;
        failures.set(slug, { at: now().toISOString(), ...failure, attempts: (failures.get(slug)?.attempts ?? 0) + 1 });
        await save();
        outcomes[i] = { type: "failed", api: api.name, failure };
        options.onEvent?.(outcomes[i]);
      }),
    ),
  );
  await writing;
  // In the order of the list, whatever order they finished in.
  const result: BatchResult = { built: [], skipped: [], failed: [], failures: ordered() };
  for (const o of outcomes) {
    if (o?.type === "built") result.built.push(o.api);
    else if (o?.type === "skipped") result.skipped.push(o.api);
    else if (o?.type === "failed") result.failed.push(o.failure);
  }
  return result;
}
