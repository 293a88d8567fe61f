import type { EpisodeToolset } from "../../agents/roles/toolbox.js";
import type { Result } from "../../specs/result.js";
import { stableStringify } from "../../specs/stable-stringify.js";
import { contentHash } from "../runs/run-info.js";
import type { LlmSettings } from "../core/run-config.js";
import { PROTOCOL_VERSION, type RunDescription } from "./protocol.js";

/**
 * The content hash of a toolset: everything an episode reads from it (documentation, auth, fixtures and the
 * spec's own hash), not its name or where it was loaded from. Two machines run the same episodes over two
 * toolsets with the same hash.
 */
export function toolsetHash(toolset: EpisodeToolset): string {
  const t = toolset as EpisodeToolset & { link?: unknown; tasks?: unknown };
  return contentHash(
    stableStringify({
      title: t.title,
      category: t.category ?? null,
      introduction: t.introduction,
      description: t.description,
      functions: t.functions,
      auth: t.auth ?? null,
      fixtures: t.fixtures ?? null,
      spec: t.catalog.spec.hash,
    }),
  );
}

/** Whether a model setting names a model (not absent, empty or `offline`). */
function isModel(text: string | undefined): boolean {
  return text !== undefined && text.trim() !== "" && text.trim().toLowerCase() !== "offline";
}

/**
 * The run-wide memories whose use depends on the order of episodes (see `agents/llm-sequencer.ts`): the LLM
 * user's earlier instructions, and the executor's run cache when the executor is a model.
 */
export function sharedMemories(llm: LlmSettings | undefined): RunDescription["shared"] {
  if (!llm) return { instructions: false, cache: false };
  return {
    instructions: isModel(llm.userModel ?? llm.model),
    cache: llm.runCache === true && isModel(llm.executorModel ?? llm.model),
  };
}

/** Builds the description of a run for its workers. */
export function describeRun(parts: {
  queue: string;
  runId: string;
  toolsim: string;
  seed: number;
  episodes: number;
  level: RunDescription["level"];
  maxSteps: number;
  config: Record<string, unknown>;
  toolsets: readonly EpisodeToolset[];
  replay: boolean;
}): RunDescription {
  const llm = parts.config["llm"] as LlmSettings | undefined;
  return {
    v: PROTOCOL_VERSION,
    queue: parts.queue,
    runId: parts.runId,
    toolsim: parts.toolsim,
    seed: parts.seed,
    episodes: parts.episodes,
    level: parts.level,
    maxSteps: parts.maxSteps,
    config: parts.config,
    toolsets: parts.toolsets.map((t) => {
      const file = (t as { file?: unknown }).file;
      return { name: t.name, hash: toolsetHash(t), ...(typeof file === "string" ? { file } : {}) };
    }),
    replay: parts.replay,
    shared: sharedMemories(llm),
  };
}

/** Reads a run description from Redis (a worker's side): the reason when it is not one this worker understands. */
export function parseRunDescription(text: string | null | undefined): Result<RunDescription, string> {
  if (text === null || text === undefined) return { ok: false, errors: ["the run has no description"] };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, errors: ["the run's description is not JSON"] };
  }
  const d = v as Partial<RunDescription>;
  if (typeof d !== "object" || d === null) return { ok: false, errors: ["the run's description is not an object"] };
  if (d.v !== PROTOCOL_VERSION) return { ok: false, errors: [`the run uses queue protocol ${String(d.v)}, this worker ${PROTOCOL_VERSION} (run the same toolsim version on the coordinator and the workers)`] };
  const fine =
    typeof d.queue === "string" &&
    typeof d.runId === "string" &&
    Number.isSafeInteger(d.seed) &&
    Number.isSafeInteger(d.episodes) &&
    Number.isSafeInteger(d.maxSteps) &&
    (d.level === "call" || d.level === "retrieve" || d.level === "plan") &&
    typeof d.config === "object" &&
    d.config !== null &&
    Array.isArray(d.toolsets) &&
    d.toolsets.every((t) => typeof t?.name === "string" && typeof t.hash === "string") &&
    typeof d.shared === "object" &&
    d.shared !== null;
  return fine ? { ok: true, value: d as RunDescription } : { ok: false, errors: ["the run's description is incomplete"] };
}
