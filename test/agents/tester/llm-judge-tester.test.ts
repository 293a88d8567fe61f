import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DialogueMessage } from "../../../agents/roles/dialogue.js";
import { LlmJudgeTester, judgeTranscript, parseJudgeVote, tallyVotes } from "../../../agents/tester/llm-judge-tester.js";
import { RuleTester } from "../../../agents/tester/offline-tester.js";
import type { EpisodeTranscript } from "../../../agents/roles/roles.js";
import type { EpisodeToolset } from "../../../agents/roles/toolbox.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { startOpenAIServer, type OpenAIServer, type Script, type ScriptedReply } from "../../support/openai-server.js";
import { chatModelOn, contextOver, fixtureToolset, messagesOf, promptOf } from "../../support/llm-agent-fixtures.js";

let forecast: EpisodeToolset;
let good: EpisodeTranscript;
let server: OpenAIServer | undefined;

beforeAll(async () => {
  forecast = await fixtureToolset("forecast");
  const call = { id: "call_1", name: "getWeatherForecast", arguments: { city: "Lisbon", days: 2 } };
  const result = await simulateCall(forecast.catalog, call, { seed: 3, state: new ResourceStore() });
  const dialogue: DialogueMessage[] = [
    { role: "user", content: "What's the weather in Lisbon for the next 2 days?" },
    { role: "assistant", content: "", toolCalls: [call] },
    { role: "tool", toolCallId: "call_1", name: call.name, content: JSON.stringify(result.body), result },
    { role: "assistant", content: "Here is the forecast for Lisbon for the next two days." },
  ];
  good = {
    plan: { requests: [{ steps: [{ toolset: "forecast", tool: "getWeatherForecast", args: { city: "Lisbon", days: 2 }, links: [] }], withheld: [], style: "question" }] },
    dialogue,
    calls: [{ call, result, request: 0, toolset: "forecast" }],
    ends: [{ kind: "final", text: "Here is the forecast for Lisbon for the next two days." }],
  };
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const vote = (verdict: string, extra: Record<string, unknown> = {}): ScriptedReply => ({
  kind: "text",
  content: JSON.stringify({ solvable: true, process: verdict === "pass" ? "yes" : "no", response: verdict === "pass" ? "yes" : "no", verdict, reason: `the judge says ${verdict}`, ...extra }),
});
const garbage: ScriptedReply = { kind: "text", content: "I think it's mostly fine but hard to say." };

async function testerOn(script: Script | ScriptedReply[], options: Partial<ConstructorParameters<typeof LlmJudgeTester>[0]> = {}): Promise<LlmJudgeTester> {
  server = await startOpenAIServer(script);
  return new LlmJudgeTester({ model: chatModelOn(server), ...options });
}

describe("LlmJudgeTester through ChatOpenAI", () => {
  it("runs the rule stages, then a judge stage decided by the majority of k=3 votes", async () => {
    expect(new RuleTester().judgeNow(good).accepted).toBe(true);
    const tester = await testerOn((_r, i) => [vote("pass"), vote("fail"), vote("pass")][i] ?? garbage, { k: 3, parallel: false });
    const verdict = await tester.judge(good, contextOver([forecast], 0, "tester"));
    expect(server?.requests).toHaveLength(3);
    expect(verdict.accepted).toBe(true);
    expect(verdict.stages.map((s) => s.stage)).toEqual(["format", "execution", "consistency", "grounding", "plan", "judge"]);
    const judge = verdict.stages.at(-1);
    expect(judge?.pass).toBe(true);
    expect(judge?.reasons[0]).toBe("judge: accepted by 2 pass, 1 fail, 0 unsure, 0 abstained of 3 votes");
    expect(judge?.reasons.slice(1)).toEqual([
      'votes[0]: pass (solvable, process yes, response yes): "the judge says pass"',
      'votes[1]: fail (solvable, process no, response no): "the judge says fail"',
      'votes[2]: pass (solvable, process yes, response yes): "the judge says pass"',
    ]);
  });

  it("rejects on a failing majority, naming the judge stage", async () => {
    const tester = await testerOn((_r, i) => [vote("fail"), vote("pass"), vote("fail")][i] ?? garbage, { k: 3, parallel: false });
    const verdict = await tester.judge(good, contextOver([forecast], 0, "tester"));
    expect(verdict.accepted).toBe(false);
    expect(verdict.failedStage).toBe("judge");
    expect(verdict.stages.at(-1)?.reasons[0]).toBe("judge: rejected by 1 pass, 2 fail, 0 unsure, 0 abstained of 3 votes");
  });

  it("counts unparseable answers as abstentions: the votes cast decide", async () => {
    const tester = await testerOn((_r, i) => [garbage, vote("pass"), garbage][i] ?? garbage, { k: 3, parallel: false });
    const verdict = await tester.judge(good, contextOver([forecast], 0, "tester"));
    const judge = verdict.stages.at(-1);
    expect(judge?.pass).toBe(true);
    expect(judge?.reasons[0]).toBe("judge: accepted by 1 pass, 0 fail, 0 unsure, 2 abstained of 3 votes");
    expect(judge?.reasons[1]).toMatch(/^votes\[0\]: abstained: unparseable answer "I think it's mostly fine/);
  });

  it("fails the stage with \"judge unavailable\" when every judge abstains (garbage and 500s)", async () => {
    const tester = await testerOn((_r, i) => (i === 1 ? { kind: "status", status: 500 } : garbage), { k: 3 });
    const verdict = await tester.judge(good, contextOver([forecast], 0, "tester"));
    expect(verdict.accepted).toBe(false);
    expect(verdict.failedStage).toBe("judge");
    const judge = verdict.stages.at(-1);
    expect(judge?.reasons[0]).toBe("judge unavailable");
    expect(judge?.reasons.join("\n")).toMatch(/model error/);
    expect(judge?.reasons.join("\n")).toMatch(/unparseable answer/);
  });

  it("sends k distinct requests holding the tools, the planned goal, the dialogue and the ending", async () => {
    const tester = await testerOn([vote("pass")], { k: 3 });
    await tester.judge(good, contextOver([forecast], 0, "tester"));
    expect(server?.requests).toHaveLength(3);
    const systems = new Set(server?.requests.map((r) => messagesOf(r)[0]?.content));
    expect(systems.size).toBe(3);
    const prompt = promptOf(server?.requests[0]);
    expect(prompt).toMatch(/solvable/);
    expect(prompt).toContain("- getWeatherForecast: Get weather forecast");
    expect(prompt).toContain('1. getWeatherForecast {"city":"Lisbon","days":2}');
    expect(prompt).toContain("[User]: What's the weather in Lisbon for the next 2 days?");
    expect(prompt).toContain('[Assistant calls] getWeatherForecast {"city":"Lisbon","days":2}');
    expect(prompt).toContain("[Tool getWeatherForecast]: status 200");
    expect(prompt).toContain("Request 1: finished with a final answer");
  });

  it("skips the judge when a rule stage already failed, unless told to judge anyway", async () => {
    const broken: EpisodeTranscript = { ...good, ends: [{ kind: "final", text: "" }] };
    const skip = await testerOn([vote("pass")], { k: 3 });
    const skipped = await skip.judge(broken, contextOver([forecast], 0, "tester"));
    expect(skipped.accepted).toBe(false);
    expect(skipped.failedStage).toBe("format");
    expect(skipped.stages.map((s) => s.stage)).not.toContain("judge");
    expect(server?.requests).toHaveLength(0);
    await server?.close();

    const always = await testerOn([vote("pass")], { k: 2, judgeAfterRuleFailure: true });
    const judged = await always.judge(broken, contextOver([forecast], 0, "tester"));
    expect(server?.requests).toHaveLength(2);
    expect(judged.accepted).toBe(false);
    expect(judged.failedStage).toBe("format");
    expect(judged.stages.at(-1)).toMatchObject({ stage: "judge", pass: true });
  });
});

describe("judge votes", () => {
  it("reads JSON verdicts forgivingly, ToolAlpaca's result lines and bare labels", () => {
    expect(parseJudgeVote('```json\n{"Verdict": "Pass", "Process": "Yes", "Response": "yes", "reason": "ok"}\n```')).toMatchObject({ verdict: "pass", process: "yes", response: "yes", reason: "ok" });
    expect(parseJudgeVote('{"process_correctness": "yes", "final_response_correctness": "no"}')).toMatchObject({ verdict: "fail" });
    expect(parseJudgeVote('{"solvable": false, "verdict": "pass"}')).toMatchObject({ verdict: "pass", solvable: false });
    expect(parseJudgeVote("## Analysis\nThe calls are right.\n## Results\nProcess Correctness: Yes\nFinal Response Correctness: Uncertain")).toMatchObject({ verdict: "unsure", process: "yes", response: "uncertain", reason: "The calls are right." });
    expect(parseJudgeVote("Fail.")).toMatchObject({ verdict: "fail" });
    expect(parseJudgeVote("")).toMatchObject({ verdict: "abstain", reason: "empty answer" });
    expect(parseJudgeVote("Let me think about it.")).toMatchObject({ verdict: "abstain" });
  });

  it("needs a strict majority of the votes cast", () => {
    expect(tallyVotes([{ verdict: "pass", reason: "" }, { verdict: "fail", reason: "" }]).pass).toBe(false);
    expect(tallyVotes([{ verdict: "pass", reason: "" }, { verdict: "unsure", reason: "" }, { verdict: "pass", reason: "" }]).pass).toBe(true);
    expect(tallyVotes([{ verdict: "unsure", reason: "" }, { verdict: "abstain", reason: "x" }]).pass).toBe(false);
  });

  it("keeps long transcripts within the budget, head and ending kept", () => {
    const long: EpisodeTranscript = { ...good, dialogue: [...good.dialogue, ...Array.from({ length: 200 }, () => ({ role: "user" as const, content: "x".repeat(100) }))] };
    const text = judgeTranscript(long, undefined, 3000);
    expect(text.length).toBeLessThan(3200);
    expect(text).toContain("## Standard answer");
    expect(text).toContain("## How it ended");
  });
});
