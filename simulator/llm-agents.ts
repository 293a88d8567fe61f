import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { Cassette } from "../agents/cassette.js";
import { ChatModelAssistant } from "../agents/chat-model-assistant.js";
import { DfsdtAssistant, type DfsdtOptions } from "../agents/dfsdt-assistant.js";
import { EndpointLimits, createGateway, type CassetteMode, type GatewayChatModel, type LlmCallRecord, type LlmRole } from "../agents/llm-gateway.js";
import { LlmJudgeTester } from "../agents/llm-judge-tester.js";
import { LlmResponder, type LlmAnswerCache } from "../agents/llm-responder.js";
import { LlmUser } from "../agents/llm-user.js";
import type { ModelSpec } from "../agents/model-spec.js";
import { NearDuplicateIndex } from "../agents/near-duplicates.js";
import { costOf, DEFAULT_PRICES, type PriceTable } from "../agents/price-table.js";
import type { AssistantAgent } from "../agents/roles.js";
import { SimulatedExecutor } from "../agents/simulated-executor.js";
import { TextProtocolAssistant } from "../agents/text-protocol-assistant.js";
import { schemaResponder } from "../specs/schema-responder.js";
import { stateResponder } from "../specs/state-responder.js";
import type { EpisodeAgents } from "./run-episode.js";
import type { AgentFactory, EpisodeBinding } from "./simulation.js";

/** The assistant's calling convention when it is an LLM. */
export type AssistantFormat = "native" | "react" | "apibank";

/** The LLM settings of a run: a model per role (absent: offline), cassettes, strategies, prices. */
export interface LlmRunOptions {
  models: Partial<Record<LlmRole, ModelSpec>>;
  /** `record` writes every call to `cassettePath`; `replay` answers from it with no endpoint. */
  cassette: { mode: CassetteMode; path?: string };
  assistantFormat?: AssistantFormat;
  /** Wrap the assistant in ToolLLM's depth-first search. */
  dfsdt?: boolean | DfsdtOptions;
  /** Votes of the LLM judge. */
  judgeVotes?: number;
  /** Share the executor's answers across the run (StableToolBench-style consistency). */
  runCache?: boolean;
  prices?: PriceTable;
  seed: number;
}

/** The LLM side of a run: a per-episode agent factory, and the resources to close at the end. */
export interface LlmAgents {
  factory: AgentFactory;
  /** Which model each role uses (no secrets), for run.json and the CLI. */
  describe: Record<string, string>;
  close(): void;
}

/** Builds gateways (one per LLM role, sharing endpoint limits and the cassette) and the per-episode agents. */
export async function createLlmAgents(options: LlmRunOptions): Promise<LlmAgents> {
  const limits = new EndpointLimits();
  const mode = options.cassette.mode;
  let cassette: Cassette | undefined;
  if (mode !== "off") {
    if (!options.cassette.path) throw new RangeError(`cassette mode ${mode} needs a cassette path`);
    cassette = mode === "record" ? await Cassette.open(options.cassette.path) : await Cassette.load(options.cassette.path);
  }
  const prices = options.prices ?? DEFAULT_PRICES;
  const gateways = new Map<LlmRole, { gateway: GatewayChatModel; spec: ModelSpec }>();
  const describe: Record<string, string> = {};
  for (const role of ["user", "assistant", "executor", "tester"] as const) {
    const spec = options.models[role];
    if (!spec || spec.provider === "offline") {
      describe[role] = "offline";
      continue;
    }
    gateways.set(role, { gateway: createGateway(spec, { role, mode, ...(cassette ? { cassette } : {}), limits, seed: options.seed }), spec });
    describe[role] = `${spec.provider}:${spec.model}${spec.baseURL ? ` @ ${spec.baseURL}` : ""}`;
  }
  const duplicates = new NearDuplicateIndex();
  const runCache: LlmAnswerCache | undefined = options.runCache ? new Map() : undefined;
  const dfsdtOptions = typeof options.dfsdt === "object" ? options.dfsdt : {};

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
      const format = options.assistantFormat ?? "native";
      let assistant: AssistantAgent =
        format === "native" ? new ChatModelAssistant(assistantModel) : new TextProtocolAssistant(assistantModel, { protocol: format });
      if (options.dfsdt) assistant = new DfsdtAssistant(assistant, dfsdtOptions);
      made.assistant = assistant;
    }
    const executor = modelFor("executor");
    if (executor) {
      const llm = new LlmResponder({ model: executor, ...(runCache ? { runCache } : {}) });
      made.executor = new SimulatedExecutor({ stages: { responders: [stateResponder, llm, schemaResponder] } });
    }
    const tester = modelFor("tester");
    if (tester) made.tester = new LlmJudgeTester({ model: tester, ...(options.judgeVotes !== undefined ? { k: options.judgeVotes } : {}) });
    return made;
  };
  return {
    factory,
    describe,
    close: () => cassette?.close(),
  };
}
