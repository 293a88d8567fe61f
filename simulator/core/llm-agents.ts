import { redactJson, secretValues, type SecretPolicy } from "../../specs/redact-secrets.js";
import type { SimEvent } from "./events.js";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { closeSync, createReadStream, existsSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { Cassette } from "../../agents/llm/cassette.js";
import { ChatModelAssistant } from "../../agents/assistant/chat-model-assistant.js";
import { DfsdtAssistant, type DfsdtOptions } from "../../agents/assistant/text/dfsdt-assistant.js";
import { EndpointLimits, createGateway, type CassetteMode, type GatewayChatModel, type LlmCallRecord, type LlmRole } from "../../agents/llm/llm-gateway.js";
import { LlmJudgeTester } from "../../agents/tester/llm-judge-tester.js";
import { LlmResponder } from "../../agents/executor/llm-responder.js";
import { RunAnswerCache, type RunCacheRecord } from "../../agents/llm/llm-run-cache.js";
import { RunInstructions, type RunInstruction } from "../../agents/llm/llm-run-instructions.js";
import { LlmUser } from "../../agents/user/llm-user.js";
import { redactUrl, type ModelSpec } from "../../agents/llm/model-spec.js";
import { truncatePartialLine } from "../../agents/parse/partial-line.js";
import { costOf, DEFAULT_PRICES, type PriceTable } from "../../agents/llm/price-table.js";
import type { AssistantAgent } from "../../agents/roles/roles.js";
import { SimulatedExecutor } from "../../agents/executor/simulated-executor.js";
import { TextProtocolAssistant } from "../../agents/assistant/text/text-protocol-assistant.js";
import { schemaResponder } from "../../specs/respond/schema-responder.js";
import { stateResponder } from "../../specs/respond/state-responder.js";
import type { EpisodeAgents } from "./run-episode.js";
import { readJournal } from "../runs/read-journal.js";
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
  /** Share the executor's answers across the run (StableToolBench-style consistency; see {@link RunAnswerCache}). */
  runCache?: boolean;
  /** Prices of models (the defaults with the configured ones over them). */
  prices?: PriceTable;
  /** The prices the user configured: they apply to local endpoints too (which otherwise cost 0). */
  configuredPrices?: PriceTable;
  /**
   * The run folder: the executor's run cache is written there per finished episode and, when `resume`,
   * what the episodes already in the journal decided (instructions, shared answers) is read back, so the
   * resumed run goes on as the uninterrupted one would have.
   */
  runFolder?: { dir: string; resume: boolean };
  /** What is secret in the run's toolsets (redacted from what is written to the run folder). */
  secrets?: SecretPolicy;
  seed: number;
}

/** The file of a run folder holding the executor's run-cache answers, one line per finished episode. */
export const RUN_CACHE_FILE = "executor-cache.jsonl";

/** One line of {@link RUN_CACHE_FILE}: the run-cache answers an episode got. */
export function runCacheLine(episode: number, records: readonly RunCacheRecord[], secrets: SecretPolicy = {}): string {
  const answers = records.map(({ position, key, answer }) => ({ position, key, answer }));
  const [line] = redactJson([{ episode, answers }], secrets).texts;
  return `${line ?? ""}\n`;
}

/** What the episodes already in a run's journal decided, for a resumed run. */
export interface RunMemory {
  /** Indexes of the episodes in the journal. */
  episodes: Set<number>;
  instructions: RunInstruction[];
  cache: RunCacheRecord[];
}

/** Reads what a resumed run needs from its folder: the journal's episodes and instructions, and the run cache's records of those episodes. */
export async function readRunMemory(dir: string): Promise<RunMemory> {
  const memory: RunMemory = { episodes: new Set(), instructions: [], cache: [] };
  if (!existsSync(join(dir, "events.jsonl"))) return memory;
  for await (const events of readJournal(dir)) {
    const start = events[0];
    if (start?.type !== "episode.started") continue;
    memory.episodes.add(start.index);
    for (const e of events) if (e.type === "user.instruction") memory.instructions.push({ episode: start.index, request: e.request, text: e.text });
  }
  const path = join(dir, RUN_CACHE_FILE);
  if (!existsSync(path)) return memory;
  // The last line of each episode in the journal: an episode run again after a crash wrote a line each time.
  const last = new Map<number, RunCacheRecord[]>();
  let rest = "";
  const take = (line: string): void => {
    if (line.trim() === "") return;
    try {
      const v = JSON.parse(line) as { episode?: unknown; answers?: unknown };
      if (typeof v.episode === "number" && Array.isArray(v.answers) && memory.episodes.has(v.episode)) last.set(v.episode, v.answers as RunCacheRecord[]);
    } catch {
      // a damaged line: that episode's answers are not shared
    }
  };
  for await (const chunk of createReadStream(path, { encoding: "utf8" })) {
    const lines = (rest + (chunk as string)).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) take(line);
  }
  for (const [episode, records] of [...last].sort((a, b) => a[0] - b[0])) for (const r of records) memory.cache.push({ ...r, episode });
  return memory;
}

/** The LLM side of a run: a per-episode agent factory, and the resources to close at the end. */
export interface LlmAgents {
  factory: AgentFactory;
  /** Which model each role uses (no secrets), for run.json and the CLI. */
  describe: Record<string, string>;
  /** Model calls so far, and how many of them the cassette answered (a replay: all). */
  stats(): { calls: number; replayed: number };
  /**
   * Sees every event of the run as it is published: the secret values it holds (a token in the user's plan) are
   * scrubbed from the episode's cassette entries, even where a prompt or an answer only quotes them.
   */
  watch(event: SimEvent): void;
  close(): void;
}

/** Options of {@link createLlmRoleAgents}. */
export interface LlmRoleAgentsOptions {
  /** Models, strategies, prices and the seed (the cassette file and the run folder are the caller's). */
  llm: Omit<LlmRunOptions, "cassette" | "runFolder">;
  /** The roles to make LLM agents for; a role without a model (or with the offline one) is left to the caller. */
  roles: readonly LlmRole[];
  /** What the gateways do with the cassette; `fallback` (replay mode): calls it has no answer for go to the endpoint and are recorded. */
  cassette: { mode: CassetteMode; cassette?: Cassette; fallback?: boolean };
  /** Sees the run-cache answers of each finished episode (a run writes them to its folder for a resume). */
  onEpisodeAnswers?: (episode: number, records: RunCacheRecord[]) => void;
  /** The run's instructions to use instead of new ones (a worker's replica of a distributed run's, see `simulator/queue`). */
  history?: RunInstructions;
  /** The run cache to use instead of a new one (a worker's replica, see `simulator/queue`). */
  runCache?: RunAnswerCache;
}

/** The LLM agents of some roles, and the run-wide memory they share. */
export interface LlmRoleAgents {
  /** The per-episode agents (only the roles with a model). */
  factory: AgentFactory;
  /** Which model each role uses (no secrets; `offline` for a role without a model). */
  describe: Record<string, string>;
  /** The gateway of each LLM role. */
  gateways: ReadonlyMap<LlmRole, GatewayChatModel>;
  /** The run's instructions when the user is an LLM: load what earlier episodes decided before the first episode starts. */
  history?: RunInstructions;
  /** The executor's run cache, when the run shares answers across episodes. */
  runCache?: RunAnswerCache;
}

/**
 * The LLM side shared by a run ({@link createLlmAgents}) and a replay or fork (`createRoleAgents`): one gateway
 * per LLM role (sharing endpoint limits and the cassette), calls reported with their cost from the prices
 * (the configured ones also on local endpoints), and the per-episode agents with the run-wide memory whose
 * use does not depend on completion order ({@link RunInstructions}, {@link RunAnswerCache}). Episodes must
 * be made in index order (the scheduler and the replay start them so).
 */
export function createLlmRoleAgents(options: LlmRoleAgentsOptions): LlmRoleAgents {
  const llm = options.llm;
  const limits = new EndpointLimits();
  const prices = llm.prices ?? DEFAULT_PRICES;
  const { mode, cassette, fallback } = options.cassette;
  const gateways = new Map<LlmRole, { gateway: GatewayChatModel; spec: ModelSpec }>();
  const describe: Record<string, string> = {};
  for (const role of options.roles) {
    const spec = llm.models[role];
    if (!spec || spec.provider === "offline") {
      describe[role] = "offline";
      continue;
    }
    const gateway = createGateway(spec, { role, mode, ...(cassette ? { cassette } : {}), ...(fallback ? { replayFallback: true } : {}), limits, seed: llm.seed });
    gateways.set(role, { gateway, spec });
    describe[role] = `${spec.provider}:${spec.model}${spec.baseURL ? ` @ ${redactUrl(spec.baseURL)}` : ""}`;
  }
  // Run-wide memory whose use does not depend on completion order (see RunInstructions, RunAnswerCache).
  const history = gateways.has("user") ? (options.history ?? new RunInstructions()) : undefined;
  const runCache = llm.runCache && gateways.has("executor") ? (options.runCache ?? new RunAnswerCache()) : undefined;
  const dfsdtOptions = typeof llm.dfsdt === "object" ? llm.dfsdt : {};

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
            cost: r.error !== undefined && r.usage.promptTokens === 0 ? 0 : costOf(r.usage, r.model, prices, g.spec.local, llm.configuredPrices),
            durationMs: r.durationMs,
            // `cached` means a consistency cache answered instead of the model (a run-cache hit makes no call at
            // all); an answer from the cassette stands for the recorded call, so a replay's journal equals the run's.
            cached: false,
            ...(r.error !== undefined ? { error: r.error } : {}),
          }),
      });
    };
    // Registered in index order, released whatever the outcome.
    history?.enter(episode.index);
    runCache?.enter(episode.index);
    episode.onFinish?.(() => {
      for (const { gateway } of gateways.values()) gateway.forgetEpisode(episode.episodeId);
      history?.finish(episode.index);
      if (runCache) {
        options.onEpisodeAnswers?.(episode.index, runCache.recordsOf(episode.index));
        runCache.finish(episode.index);
        runCache.forgetEpisode(episode.index);
      }
    });
    const made: Partial<EpisodeAgents> = {};
    const user = modelFor("user");
    if (user) made.user = new LlmUser({ model: user, ...(history ? { history } : {}) });
    const assistantModel = modelFor("assistant");
    if (assistantModel) {
      const format = llm.assistantFormat ?? "native";
      let assistant: AssistantAgent =
        format === "native" ? new ChatModelAssistant(assistantModel) : new TextProtocolAssistant(assistantModel, { protocol: format });
      if (llm.dfsdt) assistant = new DfsdtAssistant(assistant, dfsdtOptions);
      made.assistant = assistant;
    }
    const executor = modelFor("executor");
    if (executor) {
      const responder = new LlmResponder({ model: executor, ...(runCache ? { runCache: runCache.forEpisode(episode.index) } : {}) });
      made.executor = new SimulatedExecutor({ stages: { responders: [stateResponder, responder, schemaResponder] } });
    }
    const tester = modelFor("tester");
    if (tester) made.tester = new LlmJudgeTester({ model: tester, ...(llm.judgeVotes !== undefined ? { k: llm.judgeVotes } : {}) });
    return made;
  };
  const plain = new Map([...gateways].map(([role, g]) => [role, g.gateway] as const));
  return { factory, describe, gateways: plain, ...(history ? { history } : {}), ...(runCache ? { runCache } : {}) };
}

/** Builds the run's LLM agents ({@link createLlmRoleAgents} for every role) with its cassette file and, for a resume, what its folder remembers. */
export async function createLlmAgents(options: LlmRunOptions): Promise<LlmAgents> {
  const mode = options.cassette.mode;
  let cassette: Cassette | undefined;
  if (mode !== "off") {
    if (!options.cassette.path) throw new RangeError(`cassette mode ${mode} needs a cassette path`);
    cassette = mode === "record" ? await Cassette.open(options.cassette.path) : await Cassette.load(options.cassette.path);
    // The toolsets' credentials and the values of the names their security schemes declare never reach the cassette.
    for (const k of options.secrets?.known ?? []) cassette.addSecret(k);
    if (options.secrets?.names) cassette.addSecretNames(options.secrets.names);
  }
  const folder = options.runFolder;
  // Opened at the first finished episode: the run store, created after the agents, wants a new run's folder empty.
  let cacheFd: number | undefined;
  const writeCacheLine = (episode: number, records: RunCacheRecord[]): void => {
    if (!folder) return;
    if (cacheFd === undefined) {
      const path = join(folder.dir, RUN_CACHE_FILE);
      truncatePartialLine(path);
      cacheFd = openSync(path, "a", 0o600);
    }
    // Keys are hashes (see runCacheKey); answers are written with secrets redacted, as the journal is.
    const buf = Buffer.from(runCacheLine(episode, records, options.secrets), "utf8");
    let off = 0;
    while (off < buf.length) off += writeSync(cacheFd, buf, off, buf.length - off);
  };
  const agents = createLlmRoleAgents({
    llm: options,
    roles: ["user", "assistant", "executor", "tester"],
    cassette: { mode, ...(cassette ? { cassette } : {}) },
    onEpisodeAnswers: writeCacheLine,
  });
  if (folder?.resume && (agents.history || agents.runCache)) {
    const memory = await readRunMemory(folder.dir);
    agents.history?.load(memory.instructions);
    agents.runCache?.load(memory.cache);
  }
  return {
    factory: agents.factory,
    describe: agents.describe,
    stats: () => {
      let calls = 0;
      let replayed = 0;
      for (const gateway of agents.gateways.values()) {
        calls += gateway.stats.calls;
        replayed += gateway.stats.cached;
      }
      return { calls, replayed };
    },
    watch: (event) => {
      if (!cassette) return;
      if (event.type === "episode.finished") cassette.endEpisode(event.episodeId);
      else cassette.noteEpisodeSecrets(event.episodeId, secretValues(event, new Set(), options.secrets?.names));
    },
    close: () => {
      cassette?.close();
      if (cacheFd !== undefined) closeSync(cacheFd);
      cacheFd = undefined;
    },
  };
}
