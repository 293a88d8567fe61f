import { expect, it } from "vitest";
import type { AgentContext } from "../../../agents/roles/agent-context.js";
import type { AssistantTurn, DialogueMessage } from "../../../agents/roles/dialogue.js";
import { EpisodeState } from "../../../agents/roles/episode-state.js";
import type { Plan } from "../../../agents/roles/plan.js";
import type { AssistantAgent, EpisodeTranscript, Tester, ToolExecutor, UserAgent } from "../../../agents/roles/roles.js";
import type { EpisodeToolset, Toolbox } from "../../../agents/roles/toolbox.js";

/*
 * The shared conformance suite of the four roles (the LangGraph checkpoint-validation style): each strategy of a
 * role, offline or LLM, passes the same tests. A suite takes a factory and a world (a toolbox and contexts).
 */

/** What a conformance suite runs against. */
export interface RoleWorld {
  toolsets: readonly EpisodeToolset[];
  toolbox: Toolbox;
  /** A context for an episode index (same index, same context). */
  context(index: number, role: string): AgentContext;
}

const TOOL_NAME = /\b[a-z]+[A-Z][A-Za-z]*\b/;

/** The user role: a plan over the toolbox, instructions that name no tool, replies to questions, one seed one result. */
export function userConformance(make: () => UserAgent | Promise<UserAgent>, world: () => Promise<RoleWorld>): void {
  it("plans requests whose steps name tools of the toolbox, with arguments as objects", async () => {
    const w = await world();
    const user = await make();
    const plan = await user.plan(w.context(0, "user"));
    expect(plan.requests.length).toBeGreaterThan(0);
    for (const r of plan.requests) {
      expect(r.steps.length).toBeGreaterThan(0);
      for (const s of r.steps) {
        expect(w.toolbox.get(s.tool), s.tool).toBeDefined();
        expect(typeof s.args).toBe("object");
      }
    }
  });

  it("states each request in words that name no tool, and answers a question with a non-empty reply", async () => {
    const w = await world();
    const user = await make();
    const ctx = w.context(1, "user");
    const plan = await user.plan(ctx);
    const dialogue: DialogueMessage[] = [];
    const text = await user.instruct({ plan, request: 0, dialogue }, ctx);
    expect(text.trim().length).toBeGreaterThan(5);
    for (const s of plan.requests[0]?.steps ?? []) expect(text).not.toContain(s.tool);
    expect(text).not.toMatch(TOOL_NAME);
    dialogue.push({ role: "user", content: text }, { role: "assistant", content: "Which one do you mean? Could you tell me more?" });
    const reply = await user.reply("Which one do you mean? Could you tell me more?", { plan, request: 0, dialogue }, ctx);
    expect(reply.trim().length).toBeGreaterThan(0);
  });

  it("gives the same plan and words for the same seed", async () => {
    const w = await world();
    const one = async (): Promise<[Plan, string]> => {
      const user = await make();
      const ctx = w.context(2, "user");
      const plan = await user.plan(ctx);
      return [plan, await user.instruct({ plan, request: 0, dialogue: [] }, ctx)];
    };
    expect(await one()).toEqual(await one());
  });
}

function expectTurn(turn: AssistantTurn, offered: readonly string[]): void {
  if (turn.kind === "calls") {
    expect(turn.calls.length).toBeGreaterThan(0);
    for (const c of turn.calls) {
      expect(offered).toContain(c.name);
      expect(c.id).toMatch(/\S/);
      expect(typeof c.arguments === "object" || typeof c.arguments === "string").toBe(true);
    }
  } else if (turn.kind === "question") expect(turn.text.trim()).toMatch(/\?$/);
  else if (turn.kind === "final") expect(turn.text.trim().length).toBeGreaterThan(0);
  else expect(turn.reason.trim().length).toBeGreaterThan(0);
}

/** The assistant role: a well-formed turn for a request; after a result, an answer or another well-formed turn. */
export function assistantConformance(make: () => AssistantAgent | Promise<AssistantAgent>, world: () => Promise<RoleWorld>, request: string): void {
  it("answers a request with a well-formed turn: calls of offered tools, a question, an answer or a give-up", async () => {
    const w = await world();
    const tools = w.toolbox.tools();
    const turn = await (await make()).step([{ role: "user", content: request }], tools, w.context(0, "assistant"));
    expectTurn(turn, tools.map((t) => t.name));
  });

  it("goes on from a tool result to a well-formed next turn", async () => {
    const w = await world();
    const tools = w.toolbox.tools();
    const assistant = await make();
    const ctx = w.context(1, "assistant");
    const dialogue: DialogueMessage[] = [{ role: "user", content: request }];
    const first = await assistant.step(dialogue, tools, ctx);
    if (first.kind !== "calls") return;
    const call = first.calls[0];
    if (!call) return;
    const state = new EpisodeState(w.toolsets);
    const { SimulatedExecutor } = await import("../../../agents/executor/simulated-executor.js");
    const result = await new SimulatedExecutor().execute(call, state, w.context(1, "executor"));
    dialogue.push({ role: "assistant", content: "", thought: first.thought, toolCalls: first.calls }, { role: "tool", toolCallId: call.id, name: call.name, content: JSON.stringify({ status: result.status, body: result.body }), result });
    expectTurn(await assistant.step(dialogue, tools, ctx), tools.map((t) => t.name));
  });
}

/** The executor role: a result with a status for a valid call, a structured error for an unknown tool. */
export function executorConformance(make: () => ToolExecutor | Promise<ToolExecutor>, world: () => Promise<RoleWorld>, valid: { name: string; arguments: Record<string, unknown> }): void {
  it("answers a valid call with a 2xx result and a body", async () => {
    const w = await world();
    const result = await (await make()).execute({ id: "call_1", ...valid }, new EpisodeState(w.toolsets), w.context(0, "executor"));
    expect(result.status).toBeGreaterThanOrEqual(200);
    expect(result.status).toBeLessThan(300);
    expect(result.body).toBeDefined();
  });

  it("answers an unknown tool with a 4xx error that names the nearest tools", async () => {
    const w = await world();
    const result = await (await make()).execute({ id: "call_2", name: `${valid.name}Typo`, arguments: {} }, new EpisodeState(w.toolsets), w.context(0, "executor"));
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
    expect(JSON.stringify(result.body)).toContain(valid.name);
  });

  it("answers invalid arguments with problem details, not a crash", async () => {
    const w = await world();
    const result = await (await make()).execute({ id: "call_3", name: valid.name, arguments: "{not json" }, new EpisodeState(w.toolsets), w.context(0, "executor"));
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
  });
}

/** The tester role: a verdict with its stages in order, a rejection that names the first failed stage. */
export function testerConformance(make: () => Tester | Promise<Tester>, transcripts: () => Promise<{ good: EpisodeTranscript; broken: EpisodeTranscript; ctx: AgentContext }>): void {
  it("accepts a sound episode with every stage passed", async () => {
    const { good, ctx } = await transcripts();
    const verdict = await (await make()).judge(good, ctx);
    expect(verdict.stages.length).toBeGreaterThan(0);
    expect(verdict.accepted).toBe(true);
    expect(verdict.stages.every((s) => s.pass)).toBe(true);
  });

  it("rejects a broken episode and names its first failed stage with reasons", async () => {
    const { broken, ctx } = await transcripts();
    const verdict = await (await make()).judge(broken, ctx);
    expect(verdict.accepted).toBe(false);
    const firstFailed = verdict.stages.find((s) => !s.pass);
    expect(verdict.failedStage).toBe(firstFailed?.stage);
    expect(firstFailed?.reasons.length).toBeGreaterThan(0);
  });
}
