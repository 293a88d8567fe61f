import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgentContext } from "../../../../agents/roles/agent-context.js";
import { ChatModelAssistant } from "../../../../agents/assistant/chat-model-assistant.js";
import { DfsdtAssistant, defaultDfsdtHint, type AssistantStep } from "../../../../agents/assistant/text/dfsdt-assistant.js";
import type { AssistantTurn, DialogueMessage } from "../../../../agents/roles/dialogue.js";
import type { AgentTool } from "../../../../agents/roles/roles.js";
import { TextProtocolAssistant } from "../../../../agents/assistant/text/text-protocol-assistant.js";
import { Toolbox, type EpisodeToolset } from "../../../../agents/roles/toolbox.js";
import { createRng } from "../../../../specs/seed.js";
import { bundledToolset, eventsOf, runAssistantEpisode, sentMessages, testChatOpenAI } from "../../../support/assistant-harness.js";
import { startOpenAIServer, type OpenAIServer, type ScriptedReply } from "../../../support/openai-server.js";

let holidays: EpisodeToolset;
beforeAll(async () => {
  holidays = await bundledToolset("holidays");
});

let server: OpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const text = (content: string): ScriptedReply => ({ kind: "text", content });
const react = (countryCode: string, thought = "I look up the holidays."): ScriptedReply =>
  text(`Thought: ${thought}\nAction: getPublicHolidays\nAction Input: {"year": 2025, "countryCode": "${countryCode}"}`);

const holidaysCall = (countryCode: string, id = "c"): AssistantTurn => ({ kind: "calls", thought: `try ${countryCode}`, calls: [{ id, name: "getPublicHolidays", arguments: { year: 2025, countryCode } }] });
const final = (t: string): AssistantTurn => ({ kind: "final", text: t });
const giveUp = (reason: string): AssistantTurn => ({ kind: "give-up", reason });

/** An inner step that plays a script and records every view it was shown. */
function scripted(script: Array<AssistantTurn | ((view: readonly DialogueMessage[]) => AssistantTurn)>): AssistantStep & { views: DialogueMessage[][] } {
  const views: DialogueMessage[][] = [];
  let i = 0;
  const step = async (view: readonly DialogueMessage[]): Promise<AssistantTurn> => {
    views.push([...view]);
    const next = script[Math.min(i++, script.length - 1)];
    if (next === undefined) throw new Error("empty script");
    return typeof next === "function" ? next(view) : next;
  };
  return Object.assign(step, { views });
}

const roles = (view: readonly DialogueMessage[]): string[] => view.map((m) => m.role);

describe("DfsdtAssistant over the real ChatOpenAI (ReAct inner assistant)", () => {
  it("backtracks after a failing branch: the model sees the failed try in a diversity note, not the branch", async () => {
    server = await startOpenAIServer([
      react("Germany"),
      react("Deutschland", "Maybe the German name works."),
      react("DE", "An ISO code this time."),
      text("Thought: Done.\nFinal Answer: Germany's 2025 public holidays begin with New Year's Day on 2025-01-01."),
    ]);
    const inner = new TextProtocolAssistant(testChatOpenAI(server.baseURL), { protocol: "react" });
    const dfsdt = new DfsdtAssistant(inner, { width: 2, maxFailures: 2 });
    const run = await runAssistantEpisode(dfsdt, { toolsets: [holidays], instructions: ["Which public holidays does Germany have in 2025?"] });

    // The loop executed both failing calls, then the new branch, then the answer.
    expect(run.outcome.outcome).toBe("accepted");
    const calls = eventsOf(run.events, "tool.call").map((e) => [e.call.id, (e.call.arguments as Record<string, unknown>)["countryCode"]]);
    expect(calls).toEqual([
      ["call_1", "Germany"],
      ["call_2", "Deutschland"],
      ["call_3", "DE"],
    ]);
    expect(eventsOf(run.events, "tool.result").map((e) => e.result.status)).toEqual([422, 422, 200]);
    expect(eventsOf(run.events, "assistant.final")[0]?.text).toBe("Germany's 2025 public holidays begin with New Year's Day on 2025-01-01.");
    const thoughts = eventsOf(run.events, "assistant.thought").map((e) => e.text);
    expect(thoughts[2]).toMatch(/^\(Search: backtracked after 2 turns in a row got only errors \(last: 422[^)]*\)\.\) An ISO code this time\.$/);

    // Third request: back at the root, the failed branch replaced by ToolLLM's "previous trials" note.
    const third = sentMessages(server.requests[2]);
    expect(third.map(([role]) => role)).toEqual(["system", "user", "user"]);
    expect(third[1]?.[1]).toBe("Which public holidays does Germany have in 2025?");
    const note = third[2]?.[1] ?? "";
    expect(note).toContain("This is not your first try from this point");
    expect(note).toContain('1. getPublicHolidays {"year":2025,"countryCode":"Germany"} (422');
    expect(note).toContain('then getPublicHolidays {"year":2025,"countryCode":"Deutschland"} (422');
    expect(note).toContain("-> failed: 2 turns in a row got only errors");
    // Fourth request: the successful path only.
    const fourth = sentMessages(server.requests[3]);
    expect(fourth.map(([role]) => role)).toEqual(["system", "user", "assistant", "user"]);
    expect(fourth[3]?.[1]).toMatch(/^Observation: \{"status":200/);

    // The tree and its trajectories.
    const [tree] = dfsdt.treesOf(run.outcome.episodeId);
    expect(tree?.outcome).toBe("succeeded");
    expect(tree?.calls).toBe(4);
    expect(tree?.nodes.map((n) => [n.id, n.parent, n.depth, n.status, n.emitted, n.diversified])).toEqual([
      [0, undefined, 1, "failed", true, false],
      [1, 0, 2, "failed", true, false],
      [2, undefined, 1, "succeeded", true, true],
      [3, 2, 2, "succeeded", true, false],
    ]);
    expect(tree?.nodes[0]?.reason).toMatch(/^2 turns in a row got only errors/);
    const trajectories = dfsdt.trajectories(run.outcome.episodeId, "run-text");
    expect(trajectories.map((t) => [t.path, t.outcome])).toEqual([
      [[0, 1], "failed"],
      [[2, 3], "succeeded"],
    ]);
    expect(roles(trajectories[1]!.messages)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(roles(trajectories[0]!.messages)).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
  });

  it("works over native function calling too (ChatModelAssistant), one model call per candidate", async () => {
    const call = (countryCode: string): ScriptedReply => ({ kind: "tool-calls", calls: [{ name: "getPublicHolidays", arguments: JSON.stringify({ year: 2025, countryCode }) }] });
    server = await startOpenAIServer([call("XX1"), call("DE"), text("Germany has 3 listed holidays in 2025.")]);
    const inner = new ChatModelAssistant(testChatOpenAI(server.baseURL));
    const dfsdt = new DfsdtAssistant(inner, { maxFailures: 1 });
    const run = await runAssistantEpisode(dfsdt, { toolsets: [holidays], instructions: ["German holidays in 2025?"] });
    expect(eventsOf(run.events, "tool.result").map((e) => e.result.status)).toEqual([422, 200]);
    expect(eventsOf(run.events, "assistant.final")[0]?.text).toBe("Germany has 3 listed holidays in 2025.");
    // The second candidate was asked for at the root with the note as a user message; native tools were bound.
    const second = sentMessages(server.requests[1]);
    expect(second.map(([role]) => role)).toEqual(["system", "user", "user"]);
    expect(second[2]?.[1]).toContain('getPublicHolidays {"year":2025,"countryCode":"XX1"} (422');
    expect(Array.isArray(server.requests[1]?.body["tools"])).toBe(true);
    expect(dfsdt.treesOf(run.outcome.episodeId)[0]?.calls).toBe(3);
  });
});

describe("DfsdtAssistant search rules (scripted inner step)", () => {
  it("never shows the loop a give-up while a sibling can be tried; the sibling gets the note", async () => {
    const inner = scripted([giveUp("no idea which country"), holidaysCall("DE"), final("Done: 3 holidays.")]);
    const dfsdt = new DfsdtAssistant(inner);
    const run = await runAssistantEpisode(dfsdt, { toolsets: [holidays], instructions: ["Holidays 2025 in Germany?"] });
    expect(eventsOf(run.events, "assistant.gave-up")).toEqual([]);
    expect(eventsOf(run.events, "assistant.final")[0]?.text).toBe("Done: 3 holidays.");
    expect(roles(inner.views[1]!)).toEqual(["user", "user"]);
    expect(inner.views[1]![1]).toMatchObject({ role: "user", content: expect.stringContaining('1. gave up: "no idea which country" -> failed: gave up: no idea which country') });
    const [tree] = dfsdt.treesOf(run.outcome.episodeId);
    expect(tree?.nodes.map((n) => [n.status, n.emitted])).toEqual([
      ["failed", false],
      ["succeeded", true],
      ["succeeded", true],
    ]);
    // The give-up still appears as a failed trajectory (for preference data).
    expect(dfsdt.trajectories(run.outcome.episodeId).map((t) => [t.outcome, roles(t.messages)])).toEqual([
      ["failed", ["user", "assistant"]],
      ["succeeded", ["user", "assistant", "tool", "assistant"]],
    ]);
  });

  it("gives up with a reason when every first step failed (width exhausted at the root)", async () => {
    const inner = scripted([giveUp("no tool for flights"), giveUp("still no tool for flights")]);
    const dfsdt = new DfsdtAssistant(inner, { width: 2 });
    const run = await runAssistantEpisode(dfsdt, { toolsets: [holidays], instructions: ["Book me a flight to Rome."] });
    const [gaveUp] = eventsOf(run.events, "assistant.gave-up");
    expect(gaveUp?.reason).toBe(
      'DFSDT search failed: all 2 first steps failed: gave up: "no tool for flights" (gave up: no tool for flights); gave up: "still no tool for flights" (gave up: still no tool for flights)',
    );
    expect(dfsdt.treesOf(run.outcome.episodeId)[0]).toMatchObject({ outcome: "gave-up", calls: 2 });
  });

  it("backtracks up the tree when a node's continuations are all exhausted", async () => {
    // Root -> A (ok) -> [give-up, give-up] => A fails => root -> B (ok) -> final.
    const inner = scripted([holidaysCall("DE"), giveUp("x"), giveUp("y"), holidaysCall("FR"), final("France it is.")]);
    const dfsdt = new DfsdtAssistant(inner, { width: 2 });
    const run = await runAssistantEpisode(dfsdt, { toolsets: [holidays], instructions: ["Holidays?"] });
    expect(eventsOf(run.events, "tool.call").map((e) => (e.call.arguments as Record<string, unknown>)["countryCode"])).toEqual(["DE", "FR"]);
    expect(eventsOf(run.events, "assistant.thought").map((e) => e.text)[1]).toBe('(Search: backtracked after getPublicHolidays {"year":2025,"countryCode":"DE"}: all 2 continuations failed.) try FR');
    // The root-level note lists A with what came after it.
    const note = inner.views[3]![inner.views[3]!.length - 1]!;
    expect(note).toMatchObject({ role: "user", content: expect.stringContaining('(200), then gave up: "y" -> failed: all 2 continuations failed') });
    const [tree] = dfsdt.treesOf(run.outcome.episodeId);
    expect(tree?.nodes.map((n) => n.status)).toEqual(["failed", "failed", "failed", "succeeded", "succeeded"]);
  });

  it("abandons a branch at the depth limit", async () => {
    const inner = scripted([holidaysCall("DE"), holidaysCall("FR"), holidaysCall("IE"), final("Ireland.")]);
    const dfsdt = new DfsdtAssistant(inner, { maxDepth: 2 });
    const run = await runAssistantEpisode(dfsdt, { toolsets: [holidays], instructions: ["Holidays?"] });
    const [tree] = dfsdt.treesOf(run.outcome.episodeId);
    expect(tree?.nodes[1]).toMatchObject({ status: "failed", reason: "the branch reached the depth limit of 2 turns without an answer" });
    // DE -> FR hit the limit; back at DE, IE hit it too; DE's two continuations failed; back at the root, an answer.
    expect(tree?.nodes.map((n) => [n.parent, n.depth, n.status])).toEqual([
      [undefined, 1, "failed"],
      [0, 2, "failed"],
      [0, 2, "failed"],
      [undefined, 1, "succeeded"],
    ]);
    expect(tree?.nodes[0]?.reason).toBe("all 2 continuations failed");
    expect(eventsOf(run.events, "assistant.final")[0]?.text).toBe("Ireland.");
  });

  it("does not emit a candidate that repeats a failed try", async () => {
    const inner = scripted([holidaysCall("Germany"), holidaysCall("Germany"), holidaysCall("DE"), final("ok")]);
    const dfsdt = new DfsdtAssistant(inner, { maxFailures: 1, width: 3 });
    const run = await runAssistantEpisode(dfsdt, { toolsets: [holidays], instructions: ["Holidays?"] });
    expect(eventsOf(run.events, "tool.call").map((e) => (e.call.arguments as Record<string, unknown>)["countryCode"])).toEqual(["Germany", "DE"]);
    const [tree] = dfsdt.treesOf(run.outcome.episodeId);
    expect(tree?.nodes.map((n) => [n.status, n.reason ?? ""])).toEqual([
      ["failed", expect.stringMatching(/^1 turns in a row got only errors/)],
      ["failed", "repeated an earlier failed try"],
      ["succeeded", ""],
      ["succeeded", ""],
    ]);
  });

  it("stops at the budget of model calls", async () => {
    const inner = scripted([holidaysCall("A1"), holidaysCall("B2"), holidaysCall("C3"), holidaysCall("D4")]);
    const dfsdt = new DfsdtAssistant(inner, { maxCalls: 3, maxFailures: 1, width: 5 });
    const run = await runAssistantEpisode(dfsdt, { toolsets: [holidays], instructions: ["Holidays?"] });
    expect(inner.views).toHaveLength(3);
    expect(eventsOf(run.events, "assistant.gave-up")[0]?.reason).toBe("DFSDT search failed: the search budget of 3 model calls is spent (3 candidates, none answered)");
  });

  it("keeps one tree per request; a later request sees only the earlier successful path; questions are nodes", async () => {
    const inner = scripted([
      holidaysCall("x1"),
      holidaysCall("y2"),
      { kind: "question", text: "Which country?" },
      holidaysCall("FR"),
      final("France: 3 holidays."),
      holidaysCall("IE"),
      final("Ireland: 3 holidays."),
    ]);
    const dfsdt = new DfsdtAssistant(inner);
    const run = await runAssistantEpisode(dfsdt, { toolsets: [holidays], instructions: ["Holidays in 2025?", "And for Ireland?"], replies: ["France."] });
    expect(eventsOf(run.events, "assistant.final").map((e) => e.text)).toEqual(["France: 3 holidays.", "Ireland: 3 holidays."]);
    const trees = dfsdt.treesOf(run.outcome.episodeId);
    expect(trees.map((t) => [t.request, t.outcome, t.nodes.length])).toEqual([
      [0, "succeeded", 5],
      [1, "succeeded", 2],
    ]);
    // The second request's first view: request 1's successful path (question, reply, call, result, answer), no failed calls.
    const view = inner.views[5]!;
    expect(view.map((m) => (m.role === "assistant" ? `assistant:${m.toolCalls ? "calls" : m.content}` : m.role === "user" ? `user:${m.content}` : "tool"))).toEqual([
      "user:Holidays in 2025?",
      "assistant:Which country?",
      "user:France.",
      "assistant:calls",
      "tool",
      "assistant:France: 3 holidays.",
      "user:And for Ireland?",
    ]);
    // The loop's dialogue keeps everything; the scripted id "c" is kept once, then renamed to stay unique.
    const ids = eventsOf(run.events, "tool.call").map((e) => e.call.id);
    expect(ids).toEqual(["c", "call_2", "call_3", "call_4"]);
  });

  it("keeps episodes apart and can forget them", async () => {
    const ctx = (episodeId: string): AgentContext => ({ runId: "r", episodeId, index: 0, seed: 1, rng: createRng(1), level: "call", toolbox: new Toolbox([]) });
    const inner = scripted([final("a"), final("b")]);
    const dfsdt = new DfsdtAssistant(inner);
    const tools: AgentTool[] = [];
    await dfsdt.step([{ role: "user", content: "one" }], tools, ctx("e1"));
    await dfsdt.step([{ role: "user", content: "two" }], tools, ctx("e2"));
    expect(dfsdt.treesOf("e1")[0]?.base).toEqual([{ role: "user", content: "one" }]);
    expect(dfsdt.treesOf("e2")[0]?.base).toEqual([{ role: "user", content: "two" }]);
    dfsdt.forget("e1");
    expect(dfsdt.treesOf("e1")).toEqual([]);
    expect(defaultDfsdtHint([{ action: "x", then: [], reason: "r" }])).toContain("1. x -> failed: r");
  });
});
