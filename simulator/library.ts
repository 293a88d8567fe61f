/**
 * The library API of toolsim in one import: create and run a simulation from code, subscribe to its events,
 * plug in custom agents (see the README's "Library" section). Everything here is also importable from its
 * own module; this file only gathers the public names.
 */

// Simulation, events and runs.
export { createSimulation, offlineAgents, Simulation, type EpisodeRunner, type RunResult, type SimulationOptions } from "./core/simulation.js";
// Distributed generation: a coordinator runner for a simulation, and workers (see simulator/queue/README.md).
export { connectQueueCoordinator, startQueueWorker } from "./queue/entry-points.js";
export type { CoordinatorOptions, QueueCoordinator } from "./queue/coordinator.js";
export type { QueueWorker, QueueWorkerOptions } from "./queue/queue-worker.js";
export { applyHeapPolicy, HEAP_GROWING_PERCENT } from "./core/heap-policy.js";
export { EventBus, type Clock, type EventBusOptions, type Listener } from "./core/event-bus.js";
export { EVENT_TYPES, type EventPayloads, type Party, type SimEvent, type SimEventOf, type SimEventType } from "./core/events.js";
export { episodeId, episodeSeed, runEpisode, type EpisodeAgents, type EpisodeOutcome, type EpisodeSetup } from "./core/run-episode.js";
export { readJournal } from "./runs/read-journal.js";
export { RUN_FILES, type RunInfo } from "./runs/run-info.js";
export { RunStore } from "./runs/run-store.js";
export type { RunSummary } from "./runs/run-summary.js";
export { projectEpisode, type CorpusRecord, type RejectedRecord } from "./runs/corpus-projection.js";

// Toolsets.
export { bundledToolsetsDir, loadToolset, loadToolsets } from "../toolsets/load-toolset.js";
export type { LoadedToolset } from "../toolsets/toolset.js";

// The agents: the four role interfaces and the offline strategies.
export type { AgentTool, AssistantAgent, CallRecord, EpisodeEnd, EpisodeTranscript, Tester, ToolExecutor, UserAgent, UserTurn } from "../agents/roles/roles.js";
export type { AgentContext, Level } from "../agents/roles/agent-context.js";
export type { AssistantToolCall, AssistantTurn, DialogueMessage } from "../agents/roles/dialogue.js";
export type { Plan, PlanRequest, PlanStep } from "../agents/roles/plan.js";
export type { StageVerdict, TesterStage, Verdict } from "../agents/roles/verdict.js";
export type { EpisodeToolset } from "../agents/roles/toolbox.js";
export { OfflineUser } from "../agents/user/offline-user.js";
export { ChatModelAssistant } from "../agents/assistant/chat-model-assistant.js";
export { OfflineChatModel } from "../agents/assistant/offline/offline-chat-model.js";
export { OfflineAssistant, type OfflineAssistantOptions } from "../agents/assistant/offline/offline-assistant.js";
export { SimulatedExecutor } from "../agents/executor/simulated-executor.js";
export { RuleTester } from "../agents/tester/offline-tester.js";

// The LLM strategies of every role: each takes any LangChain BaseChatModel (ChatOpenAI, a fake, your own).
export type { ChatModelAssistantOptions } from "../agents/assistant/chat-model-assistant.js";
export { LlmUser, type LlmUserOptions, type LlmUserOutcome } from "../agents/user/llm-user.js";
export { LlmResponder, type LlmAnswerCache, type LlmResponderOptions } from "../agents/executor/llm-responder.js";
export { LlmJudgeTester, type JudgeVote, type LlmJudgeTesterOptions } from "../agents/tester/llm-judge-tester.js";
export { TextProtocolAssistant, type TextProtocolAssistantOptions } from "../agents/assistant/text/text-protocol-assistant.js";
export { DfsdtAssistant, type DfsdtOptions } from "../agents/assistant/text/dfsdt-assistant.js";
export { RunInstructions, type RunInstruction, type RunInstructionsOptions } from "../agents/llm/llm-run-instructions.js";
export { RunAnswerCache, type EpisodeAnswerCache, type RunCacheRecord } from "../agents/llm/llm-run-cache.js";
export { EpisodeSequencer } from "../agents/llm/llm-sequencer.js";
// Models, the gateway (cassettes, retries, endpoint limits, accounting) and prices.
export { describeModelSpec, parseModelSpec, publicModelSpec, redactUrl, type ModelSpec, type ModelSpecOptions } from "../agents/llm/model-spec.js";
export { createChatModel } from "../agents/llm/chat-model-factory.js";
export { createGateway, EndpointLimits, GatewayChatModel, type CassetteMode, type GatewayOptions, type LlmCallRecord, type LlmRole } from "../agents/llm/llm-gateway.js";
export { Cassette, type CassetteEntry } from "../agents/llm/cassette.js";
export { costOf, DEFAULT_PRICES, priceOf, type ModelPrice, type PriceTable } from "../agents/llm/price-table.js";
export { createLlmAgents, type AssistantFormat, type LlmAgents, type LlmRunOptions } from "./core/llm-agents.js";

// The OpenAPI core: load a spec, derive its tools, validate and simulate calls, validate responses.
export { loadSpec } from "../specs/load/load-spec.js";
export type { LoadedSpec, LoadOptions } from "../specs/load/loaded-spec.js";
export { buildCatalog, type Catalog } from "../specs/catalog/catalog.js";
export type { Tool } from "../specs/catalog/tool.js";
export { toOpenAIFunctions, type OpenAIFunctionTool } from "../specs/catalog/tool-schema.js";
export { validateCall, type CallValidation, type ValidatedCall } from "../specs/call/validate-call.js";
export { simulateCall, type SimulateOptions, type SimulationStages, type ToolCall } from "../specs/call/simulate-call.js";
export { validateResponse } from "../specs/call/validate-response.js";
export {
  BudgetExceeded,
  DEFAULT_REQUEST_BUDGET_MS,
  DEFAULT_SYNTHESIS_LIMITS,
  WorkBudget,
  withBudget,
  type SynthesisLimits,
  type WorkBudgetOptions,
} from "../specs/synthesize/work-budget.js";
export { compileLinear, patternTest, type LinearPattern } from "../specs/load/patterns/linear-pattern.js";
export type { ToolResult } from "../specs/call/tool-result.js";
export type { Responder, ResponderAnswer, ResponseContext } from "../specs/respond/responder.js";
export { schemaResponder } from "../specs/respond/schema-responder.js";
export { stateResponder } from "../specs/respond/state-responder.js";
export { ResourceStore } from "../specs/respond/resource-store.js";
// Recorded responses (a `serve --record` cassette) and the real API, as responders of the pipeline.
export { HttpCassette, type HttpExchange } from "../specs/respond/http-cassette.js";
export { replayResponder, type ReplayOptions } from "../specs/respond/replay-responder.js";
export { HttpResponder, httpResponder, type HttpResponderOptions, type HttpResponderStats } from "../specs/respond/http-responder.js";
export type { UpstreamCredentials } from "../specs/respond/upstream-credentials.js";

// Simulated APIs: the HTTP server of `toolsim serve` and LangChain tools.
export { toLangChainTools, type LangChainToolsOptions, type SimulatedToolOutput } from "./langchain-tools.js";
export { startServe, type RunningServe, type StartServeOptions } from "./serve/start-serve.js";
export { createServeApp, ServeApp, type ServedApi, type ServeMode, type ServeOptions } from "./serve/serve-app.js";
export { loadServedApis, servedApiOf } from "./serve/load-apis.js";
// MCP: the served APIs as MCP tools (stdio, or Streamable HTTP with `startServe({mcp: true})`), and MCP servers as toolsets.
export { McpBridge, type McpBridgeOptions, type McpCallContext } from "./serve/mcp/mcp-bridge.js";
export { createMcpServer } from "./serve/mcp/mcp-server.js";
export { startMcpStdio, type McpStdio, type McpStdioOptions } from "./serve/mcp/mcp-stdio.js";
export { mountMcp, MCP_PATH, type McpServeOptions } from "./serve/mcp/mount-mcp.js";
export { connectMcp, type McpConnection, type McpSource } from "../toolsets/import/mcp-connection.js";
export { importMcp, type McpImportOptions, type McpImportReport } from "../toolsets/import/import-mcp.js";
