import { existsSync } from "node:fs";
import { appendFile, mkdir } from "node:fs/promises";
import { join, relative } from "node:path";
import pLimit from "p-limit";
import { buildToolset, type BuildFailure, type BuildModel, type BuiltToolset } from "./build-toolset.js";
import type { PublicApi } from "./public-apis.js";
import { slugify } from "./slug.js";
import { writeToolset } from "./write-toolset.js";

/** The files of a build folder besides the toolsets. */
export const BUILD_FILES = { failures: "failures.jsonl", cassette: "cassette.jsonl" } as const;

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
  failed: BuildFailure[];
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
 * (resume), each built toolset is written as soon as it is checked, and each failure is appended to
 * `failures.jsonl` with its stage and reason. Failed APIs are tried again by the next run.
 */
export async function buildToolsets(apis: readonly PublicApi[], model: BuildModel, options: BatchOptions): Promise<BatchResult> {
  await mkdir(options.out, { recursive: true });
  const limit = pLimit(options.concurrency ?? 4);
  const slugs = slugsFor(apis);
  const outcomes: BuildEvent[] = [];
  const now = options.now ?? ((): Date => new Date());
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
          outcomes[i] = { type: "built", api: api.name, file, built: built.value };
          options.onEvent?.(outcomes[i]);
          return;
        }
        // Problems name files relative to the build folder, so failure records read the same wherever it is.
        const raw = built.errors[0] as BuildFailure;
        const failure: BuildFailure = raw.problems ? { ...raw, problems: raw.problems.map((p) => ({ ...p, file: relative(options.out, p.file) || p.file })) } : raw;
        await appendFile(join(options.out, BUILD_FILES.failures), `${JSON.stringify({ at: now().toISOString(), ...failure })}\n`, "utf8");
        outcomes[i] = { type: "failed", api: api.name, failure };
        options.onEvent?.(outcomes[i]);
      }),
    ),
  );
  // In the order of the list, whatever order they finished in.
  const result: BatchResult = { built: [], skipped: [], failed: [] };
  for (const o of outcomes) {
    if (o?.type === "built") result.built.push(o.api);
    else if (o?.type === "skipped") result.skipped.push(o.api);
    else if (o?.type === "failed") result.failed.push(o.failure);
  }
  return result;
}
