/**
 * The library API of toolsim in one import: create and run a simulation from code, subscribe to its events,
 * plug in custom agents (see the README's "Library" section). Everything here is also importable from its
 * own module; this file only gathers the public names.
 */

// Simulation, events and runs.
export { createSimulation, offlineAgents, Simulation, type RunResult, type SimulationOptions } from "./simulation.js";
export { applyHeapPolicy, HEAP_GROWING_PERCENT } from "./heap-policy.js";
export { EventBus, type Clock, type EventBusOptions, type Listener } from "./event-bus.js";
export { EVENT_TYPES, type EventPayloads, type Party, type SimEvent, type SimEventOf, type SimEventType } from "./events.js";
export { episodeId, episodeSeed, runEpisode, type EpisodeAgents, type EpisodeOutcome, type EpisodeSetup } from "./run-episode.js";
export { readJournal, RUN_FILES, RunStore, type RunInfo } from "./run-store.js";
export type { RunSummary } from "./run-summary.js";
export { projectEpisode, type CorpusRecord, type RejectedRecord } from "./corpus-projection.js";

// Toolsets.
export { bundledToolsetsDir, loadToolset, loadToolsets } from "../toolsets/load-toolset.js";
export type { LoadedToolset } from "../toolsets/toolset.js";

// The agents: the four role interfaces and the offline strategies.
export type { AgentTool, AssistantAgent, CallRecord, EpisodeEnd, EpisodeTranscript, Tester, ToolExecutor, UserAgent, UserTurn } from "../agents/roles.js";
export type { AgentContext, Level } from "../agents/agent-context.js";
export type { AssistantToolCall, AssistantTurn, DialogueMessage } from "../agents/dialogue.js";
export type { Plan, PlanRequest, PlanStep } from "../agents/plan.js";
export type { StageVerdict, TesterStage, Verdict } from "../agents/verdict.js";
export type { EpisodeToolset } from "../agents/toolbox.js";
export { OfflineUser } from "../agents/offline-user.js";
export { ChatModelAssistant } from "../agents/chat-model-assistant.js";
export { OfflineChatModel } from "../agents/offline-chat-model.js";
export { OfflineAssistant, type OfflineAssistantOptions } from "../agents/offline-assistant.js";
export { SimulatedExecutor } from "../agents/simulated-executor.js";
export { RuleTester } from "../agents/offline-tester.js";

// The LLM strategies of every role: each takes any LangChain BaseChatModel (ChatOpenAI, a fake, your own).
export type { ChatModelAssistantOptions } from "../agents/chat-model-assistant.js";
export { LlmUser, type LlmUserOptions, type LlmUserOutcome } from "../agents/llm-user.js";
export { LlmResponder, type LlmAnswerCache, type LlmResponderOptions } from "../agents/llm-responder.js";
export { LlmJudgeTester, type JudgeVote, type LlmJudgeTesterOptions } from "../agents/llm-judge-tester.js";
export { TextProtocolAssistant, type TextProtocolAssistantOptions } from "../agents/text-protocol-assistant.js";
export { DfsdtAssistant, type DfsdtOptions } from "../agents/dfsdt-assistant.js";
export { RunInstructions, type RunInstruction, type RunInstructionsOptions } from "../agents/llm-run-instructions.js";
export { RunAnswerCache, type EpisodeAnswerCache, type RunCacheRecord } from "../agents/llm-run-cache.js";
export { EpisodeSequencer } from "../agents/llm-sequencer.js";
// Models, the gateway (cassettes, retries, endpoint limits, accounting) and prices.
export { describeModelSpec, parseModelSpec, publicModelSpec, redactUrl, type ModelSpec, type ModelSpecOptions } from "../agents/model-spec.js";
export { createChatModel } from "../agents/chat-model-factory.js";
export { createGateway, EndpointLimits, GatewayChatModel, type CassetteMode, type GatewayOptions, type LlmCallRecord, type LlmRole } from "../agents/llm-gateway.js";
export { Cassette, type CassetteEntry } from "../agents/cassette.js";
export { costOf, DEFAULT_PRICES, priceOf, type ModelPrice, type PriceTable } from "../agents/price-table.js";
export { createLlmAgents, type AssistantFormat, type LlmAgents, type LlmRunOptions } from "./llm-agents.js";

// The OpenAPI core: load a spec, derive its tools, validate and simulate calls, validate responses.
export { loadSpec } from "../specs/load-spec.js";
export type { LoadedSpec, LoadOptions } from "../specs/loaded-spec.js";
export { buildCatalog, type Catalog } from "../specs/catalog.js";
export type { Tool } from "../specs/tool.js";
export { toOpenAIFunctions, type OpenAIFunctionTool } from "../specs/tool-schema.js";
export { validateCall, type CallValidation, type ValidatedCall } from "../specs/validate-call.js";
export { simulateCall, type SimulateOptions, type SimulationStages, type ToolCall } from "../specs/simulate-call.js";
export { validateResponse } from "../specs/validate-response.js";
export type { ToolResult } from "../specs/tool-result.js";
export type { Responder, ResponderAnswer, ResponseContext } from "../specs/responder.js";
export { schemaResponder } from "../specs/schema-responder.js";
export { stateResponder } from "../specs/state-responder.js";
export { ResourceStore } from "../specs/resource-store.js";

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
