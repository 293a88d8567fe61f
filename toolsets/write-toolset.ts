import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stringify } from "yaml";
import type { ToolsetFile } from "./toolset.js";

/** The order of the fields in a written toolset file: documentation first, the spec and data last. */
const FIELD_ORDER: ReadonlyArray<keyof ToolsetFile> = ["name", "category", "introduction", "description", "link", "functions", "auth", "fixtures", "tasks", "openapi"];

/** A toolset as YAML text, fields in the documented order (values a YAML 1.1 reader would change are quoted). */
export function toolsetYaml(toolset: ToolsetFile): string {
  const ordered: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) if (toolset[key] !== undefined) ordered[key] = toolset[key];
  return stringify(ordered, { lineWidth: 100, minContentWidth: 40, blockQuote: "literal", aliasDuplicateObjects: false, compat: "yaml-1.1" });
}

/** Writes a toolset as `<dir>/<slug>.yaml` (atomically: a crash leaves the old file or none) and returns the path. */
export async function writeToolset(dir: string, slug: string, toolset: ToolsetFile): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${slug}.yaml`);
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, toolsetYaml(toolset), "utf8");
  await rename(tmp, path);
  return path;
}
