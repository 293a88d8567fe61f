import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The `toolsim` command as users run it: `node bin/toolsim.js` (the compiled CLI in dist/). */
export const TOOLSIM_BIN = join(ROOT, "bin", "toolsim.js");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith(".ts") || entry.name.endsWith(".json")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Makes sure dist/ holds the current sources compiled (`npm run build`), so that tests can spawn the CLI as it
 * ships; builds when dist/ is missing or older than a source file.
 */
export function ensureBuiltCli(): void {
  const main = join(ROOT, "dist", "simulator", "cli", "main.js");
  const built = existsSync(main) ? statSync(main).mtimeMs : 0;
  const sources = Math.max(...["agents", "simulator", "specs", "toolsets"].map((d) => newestSource(join(ROOT, d))));
  if (built >= sources) return;
  const tsc = join(ROOT, "node_modules", ".bin", "tsc");
  const result = spawnSync(tsc, ["-p", "tsconfig.build.json"], { cwd: ROOT, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`npm run build failed: ${result.stdout}${result.stderr}`);
}
