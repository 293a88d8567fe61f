import type { Cassette } from "../../agents/llm/cassette.js";
import type { LlmRole } from "../../agents/llm/llm-gateway.js";
import type { RunInstruction } from "../../agents/llm/llm-run-instructions.js";
import { createLlmRoleAgents, type LlmRunOptions } from "../core/llm-agents.js";
import type { AgentFactory } from "../core/simulation.js";

/** Options of {@link createRoleAgents}. */
export interface RoleAgentsOptions {
  /** Models and strategies, as `llmRunOptions` makes them from settings (its cassette field is ignored). */
  llm: Omit<LlmRunOptions, "cassette">;
  /** The roles to make LLM agents for (the others are left to the caller). */
  roles: readonly LlmRole[];
  /** The cassette answering recorded calls. */
  cassette: Cassette;
  /** Call the endpoint (and record the answer into the cassette) when the cassette has none; default false. */
  fallback?: boolean;
}

/** The LLM agents of a replay or a fork. */
export interface RoleAgents {
  factory: AgentFactory;
  describe: Record<string, string>;
  /**
   * Holds instructions the replay keeps as recorded (those of the episodes it does not fork, and of a forked
   * episode's prefix), so that the new user's near-duplicate check sees them as the run's user did. Call it
   * for each episode before it runs, in index order.
   */
  keep(instructions: Iterable<RunInstruction>): void;
}

/**
 * LLM agents for some roles of a replay or a fork: every model call is answered from the cassette (the
 * recorded run's), and, with `fallback`, calls the recording does not hold (a fork's new turns) go to the
 * endpoint and are recorded. The per-episode agents, their run-wide memory (the user's instructions, the
 * executor's run cache) and the calls' costs are those of a run (`createLlmRoleAgents`), so a fork that plays
 * turns anew with the recorded models makes the recorded choices.
 */
export function createRoleAgents(options: RoleAgentsOptions): RoleAgents {
  const agents = createLlmRoleAgents({
    llm: options.llm,
    roles: options.roles,
    cassette: { mode: "replay", cassette: options.cassette, fallback: options.fallback === true },
  });
  const describe: Record<string, string> = {};
  for (const [role, text] of Object.entries(agents.describe)) if (text !== "offline") describe[role] = text;
  return {
    factory: agents.factory,
    describe,
    keep: (instructions) => agents.history?.load(instructions),
  };
}
