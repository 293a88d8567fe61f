import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Cassette } from "../agents/cassette.js";
import { ChatModelAssistant } from "../agents/chat-model-assistant.js";
import { DfsdtAssistant } from "../agents/dfsdt-assistant.js";
import { EndpointLimits, createGateway, type GatewayChatModel, type LlmCallRecord, type LlmRole } from "../agents/llm-gateway.js";
import { LlmJudgeTester } from "../agents/llm-judge-tester.js";
import { LlmResponder } from "../agents/llm-responder.js";
import { LlmUser } from "../agents/llm-user.js";
import type { ModelSpec } from "../agents/model-spec.js";
import { NearDuplicateIndex } from "../agents/near-duplicates.js";
import { costOf, DEFAULT_PRICES } from "../agents/price-table.js";
import type { AssistantAgent } from "../agents/roles.js";
import { SimulatedExecutor } from "../agents/simulated-executor.js";
import { TextProtocolAssistant } from "../agents/text-protocol-assistant.js";
import { schemaResponder } from "../specs/schema-responder.js";
import { stateResponder } from "../specs/state-responder.js";
import type { LlmRunOptions } from "./llm-agents.js";
import type { EpisodeAgents } from "./run-episode.js";
import type { AgentFactory, EpisodeBinding } from "./simulation.js";

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

/**
 * LLM agents for some roles of a replay or a fork: every model call is answered from the cassette (the
 * recorded run's), and, with `fallback`, calls the recording does not hold (a fork's new turns) go to the
 * endpoint and are recorded. The per-episode agents are those of `createLlmAgents`.
 */
export function createRoleAgents(options: RoleAgentsOptions): { factory: AgentFactory; describe: Record<string, string> } {
  const limits = new EndpointLimits();
  const prices = options.llm.prices ?? DEFAULT_PRICES;
  const gateways = new Map<LlmRole, { gateway: GatewayChatModel; spec: ModelSpec }>();
  const describe: Record<string, string> = {};
  for (const role of options.roles) {
    const spec = options.llm.models[role];
    if (!spec || spec.provider === "offline") continue;
    gateways.set(role, {
      gateway: createGateway(spec, { role, mode: "replay", cassette: options.cassette, replayFallback: options.fallback === true, limits, seed: options.llm.seed }),
      spec,
    });
    describe[role] = `${spec.provider}:${spec.model}`;
  }
  const duplicates = new NearDuplicateIndex();
  const dfsdt = options.llm.dfsdt;
  const factory: AgentFactory = (episode: EpisodeBinding) => {
    const modelFor = (role: LlmRole): BaseChatModel | undefined => {
      const g = gateways.get(role);
      if (!g) return undefined;
      return g.gateway.scoped({
        episodeId: episode.episodeId,
        role,
        onCall: (r: LlmCallRecord) =>
          episode.reportLlmCall({
            role,
            model: r.model,
            usage: r.usage,
            cost: r.error !== undefined && r.usage.promptTokens === 0 ? 0 : costOf(r.usage, r.model, prices, g.spec.local),
            durationMs: r.durationMs,
            cached: false,
            ...(r.error !== undefined ? { error: r.error } : {}),
          }),
      });
    };
    episode.onFinish?.(() => {
      for (const { gateway } of gateways.values()) gateway.forgetEpisode(episode.episodeId);
    });
    const made: Partial<EpisodeAgents> = {};
    const user = modelFor("user");
    if (user) made.user = new LlmUser({ model: user, duplicates });
    const assistantModel = modelFor("assistant");
    if (assistantModel) {
      const format = options.llm.assistantFormat ?? "native";
      let assistant: AssistantAgent = format === "native" ? new ChatModelAssistant(assistantModel) : new TextProtocolAssistant(assistantModel, { protocol: format });
      if (dfsdt) assistant = new DfsdtAssistant(assistant, typeof dfsdt === "object" ? dfsdt : {});
      made.assistant = assistant;
    }
    const executor = modelFor("executor");
    if (executor) made.executor = new SimulatedExecutor({ stages: { responders: [stateResponder, new LlmResponder({ model: executor }), schemaResponder] } });
    const tester = modelFor("tester");
    if (tester) made.tester = new LlmJudgeTester({ model: tester, ...(options.llm.judgeVotes !== undefined ? { k: options.llm.judgeVotes } : {}) });
    return made;
  };
  return { factory, describe };
}
