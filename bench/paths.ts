/** Where the bench finds the repository and the shared corpora, and how it names figures after files. */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The shared OpenAPI corpora (`oas3/`, `swagger2/`): under TOOLSIM_CORPORA when set (as the tests read it), else next to the repository. */
export const CORPORA = process.env["TOOLSIM_CORPORA"] ? resolve(process.env["TOOLSIM_CORPORA"], "openapi") : resolve(ROOT, "..", "shared", "corpora", "openapi");

/** `drchrono.com.json` -> `drchrono_com`: a file name as part of a figure name. */
export function figureLabel(file: string): string {
  return basename(file).replace(/\.(json|ya?ml)$/i, "").replace(/[^a-zA-Z0-9]+/g, "_").replace(/^_+|_+$/g, "");
}

/** The n largest spec files of a folder, largest first (none when the folder is absent). */
export function largestSpecs(folder: string, n: number): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => /\.(json|ya?ml)$/i.test(f))
    .map((f) => ({ path: join(folder, f), size: statSync(join(folder, f)).size }))
    .sort((a, b) => b.size - a.size)
    .slice(0, n)
    .map((f) => f.path);
}

/** Rounds per figure (default 7) and the length of one timed round of calls (default 1000 ms). */
export const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 7);
export const ROUND_MS = Number(process.env["BENCH_ROUND_MS"] ?? 1000);

/** The bundled bookstore toolset's inline OpenAPI document, written to a JSON file in `dir` that toolsim and its peers load. */
export function bookstoreSpec(dir: string): string {
  const toolset = parseYaml(readFileSync(join(ROOT, "toolsets", "bundled", "bookstore.yaml"), "utf8")) as Record<string, unknown>;
  if (typeof toolset["openapi"] !== "object" || toolset["openapi"] === null) throw new Error("bookstore.yaml has no inline openapi document");
  const path = join(dir, "bookstore.openapi.json");
  writeFileSync(path, JSON.stringify(toolset["openapi"], null, 2));
  return path;
}
