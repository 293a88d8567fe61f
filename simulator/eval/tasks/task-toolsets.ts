import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { SimulatedExecutor } from "../../../agents/executor/simulated-executor.js";
import type { ToolExecutor } from "../../../agents/roles/roles.js";
import type { EpisodeToolset } from "../../../agents/roles/toolbox.js";
import { buildCatalog } from "../../../specs/catalog/catalog.js";
import { loadSpec } from "../../../specs/load/load-spec.js";
import { ToolsimError } from "../../../specs/toolsim-error.js";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import type { ApiBankSet } from "../../../toolsets/apibank/apibank-api.js";
import { apiBankExecutor, apiBankToolset, readApiBank } from "../apibank/apibank-world.js";

/** A task's world: its toolset and the executor that answers its calls. */
export interface TaskWorld {
  toolset: EpisodeToolset;
  executor: ToolExecutor;
  /** For API-Bank's worlds: which API set (calls are judged by its APIs' own checks). */
  apibank?: { set: ApiBankSet };
}

type Json = Record<string, unknown>;

/** A ToolAlpaca toolset entry (Name, Introduction, Description, NLDocumentation, Documentation) as a toolset. */
export async function toolAlpacaToolset(entry: Json, label: string): Promise<EpisodeToolset> {
  const name = String(entry["Name"]);
  let doc: unknown = entry["Documentation"];
  if (typeof doc === "string") {
    try {
      doc = JSON.parse(doc);
    } catch (e) {
      throw new ToolsimError("toolalpaca.bad-documentation", `${label}: Documentation is not JSON: ${(e as Error).message}`);
    }
  }
  if (doc === null || typeof doc !== "object") throw new ToolsimError("toolalpaca.bad-documentation", `${label}: no OpenAPI Documentation`);
  const spec = await loadSpec(doc as object, { label, root: dirname(label.split("#")[0] as string) });
  if (!spec.ok) throw new ToolsimError("toolalpaca.bad-documentation", `${label}: ${spec.errors.map((e) => `${e.pointer} ${e.message}`).join("; ")}`);
  return {
    name: name.toLowerCase().replace(/[^a-z0-9_-]+/g, "-"),
    title: name,
    ...(typeof entry["Category"] === "string" ? { category: entry["Category"] } : {}),
    introduction: String(entry["Introduction"] ?? entry["Description"] ?? name),
    description: String(entry["Description"] ?? ""),
    functions: String(entry["NLDocumentation"] ?? entry["Functions"] ?? ""),
    catalog: buildCatalog(spec.value),
  };
}

/**
 * Resolves a task's toolset reference (see `Task.toolset`) into its world, once per reference:
 * `apibank:<folder>[#<api set>]`, `toolalpaca:<file>#<Name>`, or a toolset file.
 */
export class TaskWorlds {
  private readonly cache = new Map<string, Promise<TaskWorld>>();

  /** The world of a toolset reference. */
  get(ref: string): Promise<TaskWorld> {
    let w = this.cache.get(ref);
    if (!w) {
      w = this.load(ref);
      this.cache.set(ref, w);
    }
    return w;
  }

  private async load(ref: string): Promise<TaskWorld> {
    if (ref.startsWith("apibank:")) {
      const [root, set] = ref.slice("apibank:".length).split("#");
      const toolset = await apiBankToolset(readApiBank(root as string), set ? { apiSet: set } : {});
      return { toolset, executor: apiBankExecutor(), apibank: { set: set === "lv3_apis" ? "lv3_apis" : "apis" } };
    }
    if (ref.startsWith("toolalpaca:")) {
      const rest = ref.slice("toolalpaca:".length);
      const hash = rest.lastIndexOf("#");
      const file = hash >= 0 ? rest.slice(0, hash) : rest;
      const name = hash >= 0 ? rest.slice(hash + 1) : "";
      if (!existsSync(file)) throw new ToolsimError("tasks.no-toolset", `the ToolAlpaca file ${file} of the task set is gone`);
      const data = JSON.parse(readFileSync(file, "utf8")) as unknown;
      const entries = (Array.isArray(data) ? data : Object.values(data as Json)) as Json[];
      const entry = entries.find((e) => e["Name"] === name);
      if (!entry) throw new ToolsimError("tasks.no-toolset", `no toolset named ${name} in ${file}`);
      return { toolset: await toolAlpacaToolset(entry, `${file}#${name}`), executor: new SimulatedExecutor() };
    }
    const loaded = await loadToolset(resolve(ref));
    if (!loaded.ok) throw new ToolsimError("tasks.no-toolset", `the toolset ${ref} does not load: ${loaded.errors.map((e) => e.message).join("; ")}`);
    return { toolset: loaded.value, executor: new SimulatedExecutor() };
  }
}
