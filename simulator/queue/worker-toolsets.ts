import { existsSync, statSync } from "node:fs";
import type { EpisodeToolset } from "../../agents/roles/toolbox.js";
import type { Result } from "../../specs/result.js";
import { bundledToolsetsDir, findToolsetFiles, loadToolset } from "../../toolsets/load-toolset.js";
import type { RunDescription } from "./protocol.js";
import { toolsetHash } from "./run-description.js";

interface Loaded {
  mtimeMs: number;
  toolset?: EpisodeToolset;
  hash?: string;
}

const short = (hash: string): string => hash.replace(/^sha256:/, "").slice(0, 12);

/**
 * The toolsets a worker can serve runs from: its `--toolsets` (files or folders) or, without them, the files a
 * run names (when this machine has them) and the bundled toolsets. A run's toolset is matched by content hash,
 * whatever its file is called here; a run whose toolsets this worker does not have, with the same content, is
 * refused with what differs. Files are loaded once (again when they change).
 */
export class WorkerToolsets {
  private readonly loaded = new Map<string, Loaded>();

  constructor(private readonly paths: readonly string[] | undefined) {}

  /** Checks that the worker's own `--toolsets` exist (a mistake there is the user's, said at start). */
  check(): string | undefined {
    const missing = (this.paths ?? []).filter((p) => !existsSync(p));
    return missing.length > 0 ? `no such toolset file or folder: ${missing.join(", ")}` : undefined;
  }

  /** Loads the worker's own toolsets (its `--toolsets`, else the bundled ones) ahead of the first run. */
  async preload(): Promise<void> {
    try {
      for (const file of await findToolsetFiles(this.paths && this.paths.length > 0 ? [...this.paths] : [bundledToolsetsDir()])) await this.load(file);
    } catch {
      // a problem shows when a run needs the toolsets
    }
  }

  /** The run's toolsets in its order (named as in the run), or why this worker cannot serve it. */
  async resolve(wanted: RunDescription["toolsets"]): Promise<Result<EpisodeToolset[], string>> {
    const sources = this.paths && this.paths.length > 0 ? [...this.paths] : [...wanted.map((t) => t.file).filter((f): f is string => f !== undefined && existsSync(f)), bundledToolsetsDir()];
    let files: string[];
    try {
      files = [...new Set(await findToolsetFiles(sources))];
    } catch (e) {
      return { ok: false, errors: [`cannot read the toolsets: ${(e as Error).message}`] };
    }
    const byHash = new Map<string, EpisodeToolset>();
    const byName = new Map<string, { file: string; hash: string }>();
    for (const file of files) {
      const l = await this.load(file);
      if (!l.toolset || !l.hash) continue;
      if (!byHash.has(l.hash)) byHash.set(l.hash, l.toolset);
      byName.set(l.toolset.name, { file, hash: l.hash });
    }
    const out: EpisodeToolset[] = [];
    const problems: string[] = [];
    for (const w of wanted) {
      const found = byHash.get(w.hash);
      if (found) {
        out.push(found.name === w.name ? found : { ...found, name: w.name });
        continue;
      }
      const same = byName.get(w.name.replace(/-\d+$/, "")) ?? byName.get(w.name);
      problems.push(
        same
          ? `toolset ${w.name}: the run has ${short(w.hash)}, this worker's ${same.file} has ${short(same.hash)} (another version)`
          : `toolset ${w.name} (${short(w.hash)}${w.file ? `, ${w.file} on the coordinator` : ""}) is not among this worker's toolsets`,
      );
    }
    if (problems.length > 0) {
      const where = this.paths && this.paths.length > 0 ? `--toolsets ${this.paths.join(" ")}` : "the run's files and the bundled toolsets";
      return { ok: false, errors: [`${problems.join("; ")} (looked in ${where}; give the run's toolset files with --toolsets)`] };
    }
    return { ok: true, value: out };
  }

  private async load(file: string): Promise<Loaded> {
    let mtimeMs = 0;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return { mtimeMs };
    }
    const cached = this.loaded.get(file);
    if (cached && cached.mtimeMs === mtimeMs) return cached;
    const r = await loadToolset(file);
    const l: Loaded = r.ok ? { mtimeMs, toolset: r.value, hash: toolsetHash(r.value) } : { mtimeMs };
    this.loaded.set(file, l);
    return l;
  }
}
