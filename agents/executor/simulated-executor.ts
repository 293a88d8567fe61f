import { nearestNames } from "../../specs/catalog/nearest-names.js";
import { defaultStages, simulateCall, type SimulationStages } from "../../specs/call/simulate-call.js";
import type { Responder } from "../../specs/respond/responder.js";
import type { ToolResult } from "../../specs/call/tool-result.js";
import { DEFAULT_REQUEST_BUDGET_MS, WorkBudget, type SynthesisLimits } from "../../specs/synthesize/work-budget.js";
import type { AgentContext } from "../roles/agent-context.js";
import type { AssistantToolCall } from "../roles/dialogue.js";
import type { EpisodeState } from "../roles/episode-state.js";
import type { ToolExecutor } from "../roles/roles.js";

/** The synthesis caps and per-call time budget of a simulated executor (absent: the run's, else the defaults). */
export interface ExecutorBudget {
  /** Milliseconds of synchronous work one call may take (default `DEFAULT_REQUEST_BUDGET_MS`; 0: no limit); past it, a 500 problem. */
  requestBudgetMs?: number;
  /** Caps of synthesized values (sizes, depth; defaults far above what real specs ask). */
  synthesisLimits?: Partial<SynthesisLimits>;
}

/** Options of the simulated executor. */
export interface SimulatedExecutorOptions extends ExecutorBudget {
  /** Replace stages of the pipeline (e.g. prepend an LLM or replay responder). */
  stages?: Partial<SimulationStages>;
}

/** The offline tool executor: routes a call to its toolset and answers it with the OpenAPI pipeline (state, then schema). */
export class SimulatedExecutor implements ToolExecutor {
  constructor(private readonly options: SimulatedExecutorOptions = {}) {}

  async execute(call: AssistantToolCall, state: EpisodeState, ctx: AgentContext): Promise<ToolResult> {
    state.calls++;
    const entry = ctx.toolbox.get(call.name);
    if (!entry) return unknownTool(call.name, ctx.toolbox.entries.map((e) => e.name));
    const stages = withToolsetResponders(this.options.stages, entry.toolset.responders);
    const result = await simulateCall(
      entry.toolset.catalog,
      { name: entry.tool.name, arguments: call.arguments, id: call.id },
      {
        seed: ctx.seed,
        state: state.store(entry.toolset.name),
        budget: this.budgetFor(ctx),
        ...(stages ? { stages } : {}),
      },
    );
    return { ...result, tool: call.name };
  }

  /** The budget of one call: this executor's options, else the run's (`ctx.work`), else the defaults. */
  private budgetFor(ctx: AgentContext): WorkBudget {
    const budgetMs = this.options.requestBudgetMs ?? ctx.work?.budgetMs ?? DEFAULT_REQUEST_BUDGET_MS;
    const limits = ctx.work?.limits || this.options.synthesisLimits ? { ...ctx.work?.limits, ...this.options.synthesisLimits } : undefined;
    return new WorkBudget({ budgetMs, ...(limits ? { limits } : {}) });
  }
}

/** The stages with a toolset's own responders first (its behaviour wins over state, LLM and schema). */
function withToolsetResponders(stages: Partial<SimulationStages> | undefined, own: readonly Responder[] | undefined): Partial<SimulationStages> | undefined {
  if (!own || own.length === 0) return stages;
  return { ...stages, responders: [...own, ...(stages?.responders ?? defaultStages.responders)] };
}

/** The result of a call to a tool that does not exist: a 404 problem naming the closest tools. */
export function unknownTool(name: string, names: readonly string[]): ToolResult {
  const suggestions = nearestNames(name, names);
  const detail = `No tool named "${name}".` + (suggestions.length > 0 ? ` Did you mean: ${suggestions.join(", ")}?` : "");
  const issue = { location: ["tool"], code: "unknown-tool", message: detail, severity: "Error" as const };
  return {
    tool: name,
    status: 404,
    body: { type: "https://toolsim.dev/problems/unknown-tool", status: 404, title: "Unknown tool", detail, validation: [issue], suggestions },
    contentType: "application/problem+json",
    errors: [issue],
    responseErrors: [],
    source: "route",
    notes: [],
  };
}
