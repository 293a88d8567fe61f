import type { Rng } from "../../specs/seed.js";
import type { WorkSettings } from "../../specs/synthesize/work-budget.js";
import type { Toolbox } from "./toolbox.js";

/** The API-Bank levels: tools given (`call`), found through ToolSearcher (`retrieve`), several retrieve+call steps (`plan`). */
export type Level = "call" | "retrieve" | "plan";

/** What every agent knows about the episode it acts in. */
export interface AgentContext {
  runId: string;
  episodeId: string;
  /** The episode's index in the run. */
  index: number;
  /** The episode's seed (derived from the run seed and the index only). */
  seed: number;
  /** The agent's own random stream for this episode. */
  rng: Rng;
  level: Level;
  /** The tools of the episode's toolsets. */
  toolbox: Toolbox;
  /** The run's synthesis caps and per-call time budget (absent: the defaults); an executor's own options win. */
  work?: WorkSettings;
}
