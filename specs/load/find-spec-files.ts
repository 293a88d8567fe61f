import { promises as fs } from "node:fs";
import path from "node:path";

const SPEC_EXTENSIONS = new Set([".json", ".yaml", ".yml"]);
const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

/**
 * Expands the given files and folders into the spec files to check (`toolsim spec check DIR`):
 * folders recursively to their `*.json`, `*.yaml` and `*.yml` files (skipping hidden folders and
 * `node_modules`), files as given. Absolute paths, sorted, without duplicates; a path that does not
 * exist is kept, so that loading it reports `file-not-found`.
 */
export async function findSpecFiles(paths: string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const given of paths) {
    const absolute = path.resolve(given);
    const stat = await fs.stat(absolute).catch(() => undefined);
    if (stat?.isDirectory()) await collect(absolute, found);
    else found.add(absolute);
  }
  return [...found].sort();
}

async function collect(folder: string, found: Set<string>): Promise<void> {
  const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith(".") && !SKIPPED_FOLDERS.has(entry.name)) await collect(full, found);
    } else if ((entry.isFile() || entry.isSymbolicLink()) && SPEC_EXTENSIONS.has(path.extname(entry.name).toLowerCase())) {
      found.add(full);
    }
  }
}
