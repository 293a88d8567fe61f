/**
 * Which toolsim the bench measures: the compiled code users run (`dist/`, what `npx toolsim` and the package's
 * imports load) when it is built and no source file is newer than it; otherwise the TypeScript sources through tsx,
 * which is slower (its transform keeps function names with a helper called as every closure is made), with a note
 * saying so. Peers such as Prism run compiled: measuring toolsim's sources against them would not be like for like.
 *
 * BENCH_DIST=1 insists on dist/ (an error when it is missing or stale), BENCH_DIST=0 on the sources
 * (BENCH_SERVE_DIST, its older name, is still read).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./paths.js";

/** The folders dist/ is built from. */
const SOURCE_DIRS = ["specs", "agents", "toolsets", "simulator"];

/** The newest modification time of the TypeScript sources under a folder. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether `dist/` holds a build at least as new as every source file. */
function freshDist(): boolean {
  const main = join(ROOT, "dist", "simulator", "cli", "main.js");
  if (!existsSync(main)) return false;
  const built = statSync(main).mtimeMs;
  return SOURCE_DIRS.every((dir) => newestSource(join(ROOT, dir)) <= built);
}

function distChoice(setting: string | undefined): boolean {
  if (setting === "0") return false;
  const fresh = freshDist();
  if (setting === "1" && !fresh) throw new Error("BENCH_DIST=1 but dist/ is missing or older than the sources: run `npm run build` first");
  return fresh;
}

let choice: boolean | undefined;

/** Whether the bench runs toolsim from dist/ (decided once, when a section first asks). */
export function useDist(): boolean {
  choice ??= distChoice(process.env["BENCH_DIST"] ?? process.env["BENCH_SERVE_DIST"]);
  return choice;
}

/**
 * How a child process runs the toolsim CLI: the compiled `bin/toolsim.js`, or the sources through tsx; after the
 * node flags of BENCH_SERVE_NODE_ARGS (to profile a server under the bench's load: "--cpu-prof --cpu-prof-dir=DIR").
 */
export function cliEntry(): string[] {
  const nodeArgs = (process.env["BENCH_SERVE_NODE_ARGS"] ?? "").split(" ").filter((a) => a !== "");
  return [...nodeArgs, ...(useDist() ? [join(ROOT, "bin", "toolsim.js")] : ["--import", "tsx", join(ROOT, "bench", "serve-child.ts")])];
}

/** Says which toolsim ran, for a section's note. */
export function toolsimBuild(): string {
  return useDist() ? "toolsim from dist (compiled, as users run it)" : "toolsim from source via tsx (dist/ missing or stale: run `npm run build` to bench the compiled code)";
}

/**
 * A toolsim module, from dist/ or the sources as `useDist()` says: `path` is the module's path from the repository
 * root with a `.js` suffix (`specs/call/simulate-call.js`); `T` is the source module's type.
 */
export async function importToolsim<T>(path: string): Promise<T> {
  const file = useDist() ? join(ROOT, "dist", path) : join(ROOT, path.replace(/\.js$/, ".ts"));
  return (await import(pathToFileURL(file).href)) as T;
}
