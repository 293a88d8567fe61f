import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import type { EpisodeToolset } from "../../agents/roles/toolbox.js";
import { buildCatalog } from "../../specs/catalog/catalog.js";
import { loadSpec } from "../../specs/load/load-spec.js";

// Toolsets for agent tests straight from OpenAPI documents: one from a document, and every bundled one that loads.

const BUNDLED = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "toolsets", "bundled");

/** An episode toolset made from an OpenAPI document. */
export async function toolsetFromSpec(name: string, document: object, extra: Partial<EpisodeToolset> = {}): Promise<EpisodeToolset> {
  const loaded = await loadSpec(document, { label: name });
  if (!loaded.ok) throw new Error(`${name}: ${loaded.errors.map((e) => e.message).join("; ")}`);
  return { name, title: name, introduction: "", description: "", functions: "", catalog: buildCatalog(loaded.value), ...extra };
}

/** The bundled toolsets that load (they are data written elsewhere: any that does not load is skipped). */
export async function bundledToolsets(): Promise<EpisodeToolset[]> {
  let files: string[] = [];
  try {
    files = readdirSync(BUNDLED).filter((f) => /\.ya?ml$/.test(f)).sort();
  } catch {
    return [];
  }
  const out: EpisodeToolset[] = [];
  for (const file of files) {
    try {
      const data = parseYaml(readFileSync(join(BUNDLED, file), "utf8")) as Record<string, unknown>;
      if (typeof data["openapi"] !== "object" || data["openapi"] === null) continue;
      const fixtures = data["fixtures"] as EpisodeToolset["fixtures"];
      out.push(await toolsetFromSpec(file.replace(/\.ya?ml$/, ""), data["openapi"] as object, fixtures ? { fixtures } : {}));
    } catch {
      // A toolset being edited may not load: it is not what this test is about.
    }
  }
  return out;
}
