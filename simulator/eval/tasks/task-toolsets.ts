import { resolve } from "node:path";
import { SimulatedExecutor, type ExecutorBudget } from "../../../agents/executor/simulated-executor.js";
import type { ToolExecutor } from "../../../agents/roles/roles.js";
import type { EpisodeToolset } from "../../../agents/roles/toolbox.js";
import { ToolsimError } from "../../../specs/toolsim-error.js";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import type { ApiBankSet } from "../../../toolsets/apibank/apibank-api.js";
import { apiBankExecutor, apiBankToolset, readApiBank } from "../apibank/apibank-world.js";
import { toolAlpacaWorld } from "../toolalpaca/toolalpaca-tasks.js";

/** A task's world: its toolset and the executor that answers its calls. */
export interface TaskWorld {
  toolset: EpisodeToolset;
  executor: ToolExecutor;
  /** For API-Bank's worlds: which API set (calls are judged by its APIs' own checks). */
  apibank?: { set: ApiBankSet };
  /** The documentation a judge reads, when the source has its own (ToolAlpaca's `NLDocumentation`); else the toolset's functions. */
  documentation?: string;
}

/**
 * Resolves a task's toolset reference (see `Task.toolset`) into its world, once per reference:
 * `apibank:<folder>[#<api set>]`, `toolalpaca:<file>#<Name>`, or a toolset file.
 */
export class TaskWorlds {
  private readonly cache = new Map<string, Promise<TaskWorld>>();

  /** `budget`: the synthesis caps and per-call time budget of the worlds' executors (absent: the defaults). */
  constructor(private readonly budget: ExecutorBudget = {}) {}

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
      return { toolset, executor: apiBankExecutor(this.budget), apibank: { set: set === "lv3_apis" ? "lv3_apis" : "apis" } };
    }
    if (ref.startsWith("toolalpaca:")) {
      const rest = ref.slice("toolalpaca:".length);
      const hash = rest.lastIndexOf("#");
      return toolAlpacaWorld(hash >= 0 ? rest.slice(0, hash) : rest, hash >= 0 ? rest.slice(hash + 1) : "", this.budget);
    }
    const loaded = await loadToolset(resolve(ref));
    if (!loaded.ok) throw new ToolsimError("tasks.no-toolset", `the toolset ${ref} does not load: ${loaded.errors.map((e) => e.message).join("; ")}`);
    return { toolset: loaded.value, executor: new SimulatedExecutor(this.budget) };
  }
}
