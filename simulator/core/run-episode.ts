import type { AgentContext, Level } from "../../agents/roles/agent-context.js";
import type { AssistantToolCall, DialogueMessage } from "../../agents/roles/dialogue.js";
import { EpisodeState } from "../../agents/roles/episode-state.js";
import type { Plan } from "../../agents/roles/plan.js";
import type { AgentTool, AssistantAgent, CallRecord, EpisodeEnd, Tester, ToolExecutor, UserAgent } from "../../agents/roles/roles.js";
import { TOOL_SEARCHER, ToolIndex, toolSearcherTool } from "../../agents/assistant/tool-searcher.js";
import { Toolbox, withoutArguments, type EpisodeToolset } from "../../agents/roles/toolbox.js";
import type { Verdict } from "../../agents/roles/verdict.js";
import { toHttpRequest } from "../../specs/call/http-request.js";
import { createRng, deriveSeed } from "../../specs/seed.js";
import type { ToolResult } from "../../specs/call/tool-result.js";
import { parseArguments } from "../../specs/call/validate-call.js";
import type { EventBus } from "./event-bus.js";
import type { CallTarget, Party, SimEvent } from "./events.js";
import { redactJson, type SecretPolicy } from "../../specs/redact-secrets.js";
import { secretPolicyOf } from "../runs/secret-policy.js";
import { observationText } from "./observation-text.js";
import type { WorkSettings } from "../../specs/synthesize/work-budget.js";

/** The four agents of an episode. */
export interface EpisodeAgents {
  user: UserAgent;
  assistant: AssistantAgent;
  executor: ToolExecutor;
  tester: Tester;
}

/** What defines one episode: its index in the run, the run seed, the level and the toolsets in play. */
export interface EpisodeSetup {
  runId: string;
  index: number;
  runSeed: number;
  level: Level;
  toolsets: EpisodeToolset[];
  /** Assistant steps allowed per request (default 8). */
  maxSteps?: number;
  /** Questions the assistant may ask per request (default 3). */
  maxQuestions?: number;
  /** What is secret besides secret names (default: from the toolsets' security schemes and credentials). */
  secrets?: SecretPolicy;
  /** The synthesis caps and per-call time budget of the executor (absent: the defaults). */
  work?: WorkSettings;
}

/** How an episode ended, for the scheduler's counters. */
export interface EpisodeOutcome {
  episodeId: string;
  outcome: "accepted" | "rejected" | "error";
  verdict?: Verdict;
  reason?: string;
}

/** The id of episode i: `ep-000042`. */
export function episodeId(index: number): string {
  return `ep-${String(index).padStart(6, "0")}`;
}

/** The seed of episode i: depends only on the run seed and i, so the corpus does not depend on concurrency. */
export function episodeSeed(runSeed: number, index: number): number {
  return deriveSeed(runSeed, "episode", index);
}

/**
 * Runs one episode over the bus: the user plans and instructs, the assistant calls tools, asks or answers
 * within a step budget, the executor answers calls, the tester judges. Agent failures end the episode
 * with outcome `error` and a reason; they never escape.
 */
export async function runEpisode(setup: EpisodeSetup, agents: EpisodeAgents, bus: EventBus): Promise<EpisodeOutcome> {
  const id = episodeId(setup.index);
  const seed = episodeSeed(setup.runSeed, setup.index);
  const send = <K extends Parameters<EventBus["publish"]>[0]>(type: K, from: Party, to: Party, payload: Parameters<EventBus["publish"]>[2] & object): void => {
    bus.publish(type, { runId: setup.runId, episodeId: id, from, to }, payload as never);
  };
  const maxSteps = setup.maxSteps ?? 8;
  const maxQuestions = setup.maxQuestions ?? 3;
  const dialogue: DialogueMessage[] = [];
  const calls: CallRecord[] = [];
  const ends: EpisodeEnd[] = [];
  let steps = 0;
  let plan: Plan = { requests: [] };

  // The episode as it is written (secrets redacted), for the tester's view of it (see `judged`).
  const written: SimEvent[] = [];
  const unsubscribe = bus.on("*", (e) => void (e.episodeId === id && written.push(e)));
  send("episode.started", "simulator", "simulator", { index: setup.index, seed, level: setup.level, toolsets: setup.toolsets.map((t) => t.name) });
  try {
    // The episode's world is built inside the try: a toolset whose tools or fixtures cannot be set up ends
    // this episode with a reason instead of the run.
    // Shared by every episode over the same toolsets (built once per run, read-only).
    const toolbox = Toolbox.for(setup.toolsets);
    const state = new EpisodeState(setup.toolsets);
    const ctxFor = (role: Party): AgentContext => ({
      runId: setup.runId,
      episodeId: id,
      index: setup.index,
      seed,
      rng: createRng(deriveSeed(seed, role)),
      level: setup.level,
      toolbox,
      ...(setup.work ? { work: setup.work } : {}),
    });
    const ctx = { user: ctxFor("user"), assistant: ctxFor("assistant"), executor: ctxFor("executor"), tester: ctxFor("tester") };
    plan = await agents.user.plan(ctx.user);
    send("user.plan", "user", "simulator", { plan });
    const index = setup.level === "call" ? undefined : ToolIndex.for(toolbox);
    const allTools = toolbox.tools();
    const found = new Map<string, AgentTool>();
    requests: for (let r = 0; r < plan.requests.length; r++) {
      const text = await agents.user.instruct({ plan, request: r, dialogue }, ctx.user);
      send("user.instruction", "user", "assistant", { request: r, text });
      dialogue.push({ role: "user", content: text });
      let questions = 0;
      for (let step = 0; ; step++) {
        if (step >= maxSteps) {
          ends.push({ kind: "budget", reason: `no final answer within ${maxSteps} steps` });
          break requests;
        }
        steps++;
        const tools = index ? [toolSearcherTool, ...found.values()] : allTools;
        const decided = await agents.assistant.step(dialogue, tools, ctx.assistant);
        // Credential arguments (a toolset's API key declared as a parameter) are the harness's to give, as the
        // original agents are given them: filled into the calls the assistant decided, never asked of the user.
        // Only the executor receives them in clear: every event, the dialogue and the tester see placeholders.
        const mask = toolbox.mask;
        const filled = decided.kind === "calls" && (toolbox.hasCredentials || !mask.empty) ? decided.calls.map((c) => toolbox.fillCredentials(c)) : undefined;
        const turn = mask.empty ? decided : mask.value(decided);
        if (turn.thought) send("assistant.thought", "assistant", "simulator", { text: turn.thought, ...(turn.debug !== undefined ? { debug: turn.debug } : {}) });
        if (turn.kind === "calls") {
          const made = filled ?? turn.calls.map((call) => ({ call, published: call, supplied: [] as string[] }));
          // The dialogue holds the calls as the assistant made them: without what the harness filled in.
          dialogue.push({ role: "assistant", content: "", ...(turn.thought ? { thought: turn.thought } : {}), toolCalls: made.map((m) => withoutArguments(m.published, m.supplied)) });
          for (const { call: sent, published: call, supplied } of made) {
            const given = supplied.length > 0 ? { supplied } : {};
            send("tool.call", "assistant", "executor", { call, ...given, ...describeCall(toolbox, call) });
            const answered = call.name === TOOL_SEARCHER && index ? searchTools(index, call, found) : await agents.executor.execute(sent, state, ctx.executor);
            const result = mask.value(answered);
            send("tool.result", "executor", "assistant", { callId: call.id, name: call.name, result });
            const toolset = toolbox.get(call.name)?.toolset.name;
            calls.push({ call, result, request: r, ...(toolset !== undefined ? { toolset } : {}), ...given });
            dialogue.push({ role: "tool", toolCallId: call.id, name: call.name, content: observationText(result), result });
          }
          continue;
        }
        if (turn.kind === "question") {
          send("assistant.question", "assistant", "user", { text: turn.text });
          dialogue.push({ role: "assistant", content: turn.text, ...(turn.thought ? { thought: turn.thought } : {}) });
          if (++questions > maxQuestions) {
            ends.push({ kind: "budget", reason: `more than ${maxQuestions} questions for one request` });
            break requests;
          }
          const reply = await agents.user.reply(turn.text, { plan, request: r, dialogue, ...(turn.asks ? { asks: turn.asks } : {}) }, ctx.user);
          send("user.reply", "user", "assistant", { text: reply });
          dialogue.push({ role: "user", content: reply });
          continue;
        }
        if (turn.kind === "final") {
          send("assistant.final", "assistant", "user", { request: r, text: turn.text });
          dialogue.push({ role: "assistant", content: turn.text, ...(turn.thought ? { thought: turn.thought } : {}) });
          ends.push({ kind: "final", text: turn.text });
          break;
        }
        send("assistant.gave-up", "assistant", "user", { request: r, reason: turn.reason });
        dialogue.push({ role: "assistant", content: turn.reason, ...(turn.thought ? { thought: turn.thought } : {}) });
        ends.push({ kind: "give-up", reason: turn.reason });
        break requests;
      }
    }
    const verdict = await agents.tester.judge(judged({ plan, dialogue, calls, ends }, written, setup), ctx.tester);
    send("tester.verdict", "tester", "simulator", { verdict });
    const outcome = verdict.accepted ? "accepted" : "rejected";
    send("episode.finished", "simulator", "simulator", {
      outcome,
      ...(verdict.failedStage ? { reason: verdict.failedStage } : {}),
      steps,
      calls: calls.length,
    });
    return { episodeId: id, outcome, verdict };
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    send("episode.finished", "simulator", "simulator", { outcome: "error", reason, steps, calls: calls.length });
    return { episodeId: id, outcome: "error", reason };
  } finally {
    unsubscribe();
    bus.endEpisode(id);
  }
}

/** What the tester judges. */
type Judged = Parameters<Tester["judge"]>[0];

/**
 * The episode as the tester judges it: as it is written, with secrets redacted (numbered as the journal numbers
 * them, from the events so far), so that a replay of the redacted journal, which mixes recorded placeholders with
 * values computed again, gets the same verdict; a model judge never sees a secret. Unchanged without secrets.
 */
function judged(episode: Judged, events: readonly SimEvent[], setup: EpisodeSetup): Judged {
  const { texts, redacted } = redactJson([...events, episode], setup.secrets ?? secretPolicyOf(setup.toolsets));
  return redacted ? (JSON.parse(texts[texts.length - 1] as string) as Judged) : episode;
}

/** The operation and HTTP request a call maps to (before execution), for the `tool.call` event. */
function describeCall(toolbox: Toolbox, call: AssistantToolCall): CallTarget {
  const entry = toolbox.get(call.name);
  if (!entry) return {};
  const args = parseArguments(call.arguments);
  return {
    toolset: entry.toolset.name,
    operation: entry.tool.operation,
    ...(args.ok ? { request: toHttpRequest(entry.tool, args.value) } : {}),
  };
}

function searchTools(index: ToolIndex, call: AssistantToolCall, found: Map<string, AgentTool>): ToolResult {
  const args = parseArguments(call.arguments);
  const keywords = args.ok && typeof args.value["keywords"] === "string" ? args.value["keywords"] : "";
  if (keywords.trim() === "") {
    const issue = { location: ["arguments", "keywords"], code: "required", message: "keywords are required", severity: "Error" as const };
    return { tool: TOOL_SEARCHER, status: 422, body: { status: 422, title: "Invalid request", detail: issue.message, validation: [issue] }, contentType: "application/problem+json", errors: [issue], responseErrors: [], source: "validation", notes: [] };
  }
  const hits = index.search(keywords);
  for (const h of hits) found.set(h.name, h);
  return {
    tool: TOOL_SEARCHER,
    status: 200,
    body: { tools: hits.map((h) => ({ name: h.name, description: h.description, parameters: h.parameters })) },
    contentType: "application/json",
    errors: [],
    responseErrors: [],
    source: "search",
    notes: [],
  };
}
