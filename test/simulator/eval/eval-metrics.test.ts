import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssistantAgent } from "../../../agents/roles/roles.js";
import { parseToolAlpacaJudgement } from "../../../agents/tester/toolalpaca-judge.js";
import { classifyPrediction, evaluateAssistantOnTasks, scoreSamples } from "../../../simulator/eval/apibank/apibank-eval.js";
import { apiBankToolset, readApiBank } from "../../../simulator/eval/apibank/apibank-world.js";
import type { CliIO } from "../../../simulator/cli/cli-io.js";
import { main } from "../../../simulator/cli/main.js";
import { goldReplayReport, repairArguments, taskContext } from "../../../simulator/eval/tasks/gold-replay.js";
import { apiBankTextTurns, importApiBank, parseApiRequest } from "../../../simulator/eval/tasks/import-tasks.js";
import { binomial, passAtK, passHatK, passStats } from "../../../simulator/eval/pass-k.js";
import { parsePythonLiteral } from "../../../agents/parse/python-literal.js";
import { lcsLength, rougeL, rougeTokens } from "../../../simulator/eval/rouge.js";
import { scorePlannedStep } from "../../../simulator/eval/run-eval.js";
import { readTasks } from "../../../simulator/eval/tasks/task-set.js";
import { TaskWorlds } from "../../../simulator/eval/tasks/task-toolsets.js";
import { ruleJudgement } from "../../../simulator/eval/toolalpaca/rule-judge.js";
import { EpisodeState } from "../../../agents/roles/episode-state.js";
import { apiBankExecutor } from "../../../simulator/eval/apibank/apibank-world.js";

const root = mkdtempSync(join(tmpdir(), "toolsim-eval-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", isTTY: false, out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) };
  return io;
}

describe("ROUGE-L", () => {
  it("is LCS precision, recall and F1 on lower-cased word tokens (hand-computed)", () => {
    expect(rougeTokens("The cat, the HAT!")).toEqual(["the", "cat", "the", "hat"]);
    expect(lcsLength(["a", "b", "c", "d"], ["a", "c", "b", "d"])).toBe(3);
    // candidate: the cat sat on the mat (6), reference: the cat is on the mat (6), LCS "the cat on the mat" = 5.
    const a = rougeL("the cat sat on the mat", "the cat is on the mat");
    expect(a.precision).toBeCloseTo(5 / 6);
    expect(a.recall).toBeCloseTo(5 / 6);
    expect(a.f1).toBeCloseTo(5 / 6);
    // candidate 4 tokens, reference 6, LCS "the gunman" = 2: P 1/2, R 1/3, F1 = 2·(1/2)(1/3)/(5/6) = 0.4.
    const b = rougeL("police killed the gunman", "the gunman was killed by police");
    expect(b.precision).toBeCloseTo(0.5);
    expect(b.recall).toBeCloseTo(1 / 3);
    expect(b.f1).toBeCloseTo(0.4);
    expect(rougeL("", "something").f1).toBe(0);
    expect(rougeL("nothing shared", "entirely different").f1).toBe(0);
    expect(rougeL("Alarm set.", "alarm SET").f1).toBe(1);
  });
});

describe("pass rate, pass^k and pass@k", () => {
  it("follow the binomial estimates (hand-computed)", () => {
    expect(binomial(4, 2)).toBe(6);
    expect(passHatK(4, 2, 2)).toBeCloseTo(1 / 6);
    expect(passHatK(4, 4, 3)).toBe(1);
    expect(passAtK(4, 1, 2)).toBeCloseTo(1 - 3 / 6);
    // Three tasks over two runs: always, once, never.
    const s = passStats([
      [true, true],
      [true, false],
      [false, false],
    ]);
    expect(s.trials).toBe(2);
    expect(s.passRate).toBeCloseTo(3 / 6);
    expect(s.passHat[1]).toBeCloseTo((1 + 0.5 + 0) / 3);
    expect(s.passHat[2]).toBeCloseTo(1 / 3);
    expect(s.passAt[2]).toBeCloseTo(2 / 3);
  });
});

describe("API-Bank parsing", () => {
  it("parses Python literals and API requests of the test JSON shape", () => {
    expect(parsePythonLiteral("['John', 'Jane']")).toEqual({ value: ["John", "Jane"] });
    expect(parsePythonLiteral("[{'name': 'blood_pressure', 'value': '120/80'}]")).toEqual({ value: [{ name: "blood_pressure", value: "120/80" }] });
    expect(parsePythonLiteral("True")).toEqual({ value: true });
    expect(parsePythonLiteral("not a literal")).toBeUndefined();
    expect(parseApiRequest("[ModifyRegistration(appointment_id='34567890', new_appointment_date='2023-03-26', n=3)]")).toEqual({
      name: "ModifyRegistration",
      arguments: { appointment_id: "34567890", new_appointment_date: "2023-03-26", n: 3 },
    });
    expect(parseApiRequest("[AddMeeting(topic='a, b=c', attendees=['x', 'y'])]")).toEqual({ name: "AddMeeting", arguments: { topic: "a, b=c", attendees: ["x", "y"] } });
    const turns = apiBankTextTurns("User: Hi\nAI: Sure.\nAPI-Request: [GetToday()]->2023-03-31\nAI: Today is 2023-03-31.\nGenerate API Request:\n");
    expect(turns).toEqual([
      { role: "user", text: "Hi" },
      { role: "assistant", text: "Sure." },
      { role: "api", name: "GetToday", arguments: {}, output: "2023-03-31", exception: null },
      { role: "assistant", text: "Today is 2023-03-31." },
    ]);
  });
});

/** A small API-Bank corpus written here: two APIs of accounts and alarms, with their databases. */
let corpus: string;
beforeAll(() => {
  corpus = join(root, "apibank");
  mkdirSync(join(corpus, "init_database"), { recursive: true });
  mkdirSync(join(corpus, "dialogues"), { recursive: true });
  const apis = [
    { name: "GetUserToken", description: "Get the user token.", input_parameters: { username: { type: "str", description: "The username." }, password: { type: "str", description: "The password." } }, output_parameters: { token: { type: "str", description: "The token." } }, database_name: "Account", requires_token: false, api_set: "apis" },
    { name: "AddAlarm", description: "Set an alarm.", input_parameters: { token: { type: "str", description: "User's token." }, time: { type: "str", description: "Format: %Y-%m-%d %H:%M:%S" } }, output_parameters: { status: { type: "str", description: "success or failed" } }, database_name: "Alarm", requires_token: true, api_set: "apis" },
    { name: "QueryAlarm", description: "Query an alarm.", input_parameters: { token: { type: "str", description: "User's token." }, time: { type: "str", description: "The time." } }, output_parameters: { info: { type: "json", description: "alarm info" } }, database_name: "Alarm", requires_token: true, api_set: "apis" },
    { name: "AddMeeting", description: "Reserve a meeting.", input_parameters: { token: { type: "str", description: "User's token." }, meeting_topic: { type: "str", description: "Topic." }, start_time: { type: "str", description: "Start." }, end_time: { type: "str", description: "End." }, location: { type: "str", description: "Where." }, attendees: { type: "list(str)", description: "Attendees." } }, output_parameters: { status: { type: "str", description: "success" } }, database_name: "Meeting", requires_token: true, api_set: "apis" },
    { name: "TimedSwitch", description: "Switch a device on time.", input_parameters: { name: { type: "str", description: "Device." }, time: { type: "str", description: "Time." }, on: { type: "bool", description: "On or off." } }, output_parameters: { status: { type: "str", description: "success" } }, database_name: "TimeSwitch", requires_token: false, api_set: "apis" },
  ];
  writeFileSync(join(corpus, "api_descriptions.json"), JSON.stringify(apis));
  writeFileSync(join(corpus, "init_database", "Account.json"), JSON.stringify({ foo: { password: "bar", token: "tok-foo", email: "foo@example.com" } }));
  writeFileSync(join(corpus, "init_database", "Alarm.json"), JSON.stringify({ "1": { time: "2023-03-16 07:00:00", username: "foo" } }));
  writeFileSync(join(corpus, "init_database", "Meeting.json"), JSON.stringify({}));
  writeFileSync(join(corpus, "init_database", "TimeSwitch.json"), JSON.stringify({ light: [{ time: "2023-03-15 18:30:00", on: true }] }));
  const dialogue = [
    { role: "User", text: "Set an alarm at 8 am on 2023-03-20. I am foo, password bar." },
    { role: "AI", text: "Let me get your token." },
    { role: "API", api_name: "GetUserToken", param_dict: { username: "foo", password: "bar" }, result: { api_name: "GetUserToken", input: {}, output: { token: "tok-foo" }, exception: null } },
    { role: "AI", text: "I have your token." },
    { role: "API", api_name: "AddAlarm", param_dict: { token: "tok-foo", time: "2023-03-20 08:00:00" }, result: { output: "success", exception: null } },
    { role: "AI", text: "The alarm is set for 8 am." },
    { role: "User", text: "Check it please." },
    { role: "API", api_name: "QueryAlarm", param_dict: { token: "tok-foo", time: "2023-03-20 08:00:00" }, result: { output: { time: "2023-03-20 08:00:00", username: "foo" }, exception: null } },
    { role: "AI", text: "Your alarm at 8 am is there." },
  ];
  writeFileSync(join(corpus, "dialogues", "AddAlarm-QueryAlarm-level-1-1.jsonl"), dialogue.map((d) => JSON.stringify(d)).join("\n"));
  const defective = [
    { role: "User", text: "Meeting with John and Jane, and switch on device 12345." },
    { role: "API", api_name: "AddMeeting", param_dict: { token: "tok-foo", meeting_topic: "launch", start_time: "2023-03-21 10:00:00", end_time: "2023-03-21 11:00:00", location: "room 1", attendees: "['John', 'Jane']" }, result: { output: "success", exception: null } },
    { role: "AI", text: "Done." },
    { role: "API", api_name: "TimedSwitch", param_dict: { device_id: "light", time: "2023-03-20 08:00:00", on: "True" }, result: { output: "success", exception: null } },
    { role: "AI", text: "Switched." },
  ];
  writeFileSync(join(corpus, "dialogues", "AddMeeting-TimedSwitch-level-1-2.jsonl"), defective.map((d) => JSON.stringify(d)).join("\n"));
});

describe("API-Bank gold calls and the error taxonomy (a corpus written here)", () => {
  it("replays gold calls with state, classifying and repairing the source's defects", async () => {
    const { tasks, skipped } = importApiBank(join(corpus, "dialogues"));
    expect(skipped).toEqual([]);
    expect(tasks.map((t) => t.id)).toEqual(["apibank/AddAlarm-QueryAlarm-level-1-1", "apibank/AddMeeting-TimedSwitch-level-1-2"]);
    expect(tasks[0]?.goldResponses).toEqual(["I have your token.", "The alarm is set for 8 am.", "Your alarm at 8 am is there."]);
    const report = await goldReplayReport(tasks, new TaskWorlds());
    expect(report.calls).toBe(5);
    // QueryAlarm sees the alarm AddAlarm created: state carried through the dialogue.
    expect(report.agreed).toBe(5);
    expect(report.defects).toEqual({ "list-as-string": 1, "object-as-string": 0, "scalar-as-string": 1, "renamed-parameter": 1, placeholder: 0, "empty-argument": 0 });
    expect(report.defectiveCalls).toBe(2);
    expect(report.agreedWithoutRepair).toBe(3);
  });

  it("classifies predictions: no call, hallucination, format, missing, invalid, exception, wrong result, correct", async () => {
    const toolset = await apiBankToolset(readApiBank(corpus));
    const executor = apiBankExecutor();
    const ctx = taskContext([toolset], "t", 0, 1);
    const run = async (name: string, args: Record<string, unknown> | string): Promise<{ result: Awaited<ReturnType<typeof executor.execute>>; snapshot: string }> => {
      const state = new EpisodeState([toolset]);
      const result = await executor.execute({ id: "c", name, arguments: args }, state, ctx);
      return { result, snapshot: JSON.stringify(state.snapshot()) };
    };
    const gold = await run("AddAlarm", { token: "tok-foo", time: "2023-03-20 08:00:00" });
    const check = async (name: string, args: Record<string, unknown> | string): Promise<ReturnType<typeof classifyPrediction>> => {
      const p = await run(name, args);
      return classifyPrediction({ name: "AddAlarm" }, { name, arguments: args }, p.result, gold.result, p.snapshot === gold.snapshot);
    };
    expect(classifyPrediction({ name: "AddAlarm" }, undefined, undefined, gold.result, false)).toEqual({ correct: false, error: "no-api-call" });
    expect((await check("AddAlarm", "{token: tok")).error).toBe("false-call-format");
    expect((await check("QueryAlarm", { token: "tok-foo", time: "2023-03-20 08:00:00" })).error).toBe("api-hallucination");
    expect((await check("AddAlarm", { token: "tok-foo" })).error).toBe("missing-input-parameters");
    expect((await check("AddAlarm", { token: "tok-foo", time: "2023-03-20 08:00:00", snooze: 5 })).error).toBe("invalid-input-parameters");
    expect((await check("AddAlarm", { token: "nope", time: "2023-03-20 08:00:00" })).error).toBe("has-exception");
    expect((await check("AddAlarm", { token: "tok-foo", time: "2023-03-21 08:00:00" })).error).toBe("wrong-result");
    expect(await check("AddAlarm", { token: "tok-foo", time: "2023-03-20 08:00:00" })).toEqual({ correct: true });
    const { args, defects } = repairArguments(toolset, toolset.catalog.get("TimedSwitch")!, { device_id: "light", time: "t", on: "False" });
    expect(args).toEqual({ name: "light", time: "t", on: false });
    expect(defects.map((d) => d.kind)).toEqual(["renamed-parameter", "scalar-as-string"]);
  });

  it("scores an assistant per turn with state carried: accuracy, ROUGE-L and errors computed by hand", async () => {
    const { tasks } = importApiBank(join(corpus, "dialogues"));
    const first = tasks.slice(0, 1);
    // An assistant that always asks for the token (a response), then calls AddAlarm right, then nothing.
    let n = 0;
    const scripted: AssistantAgent = {
      step: async () => {
        n++;
        if (n === 1) return { kind: "calls", thought: "", calls: [{ id: "a", name: "GetUserToken", arguments: { username: "foo", password: "bar" } }] };
        if (n === 2) return { kind: "final", text: "I have your token now." };
        if (n === 3) return { kind: "calls", thought: "", calls: [{ id: "b", name: "AddAlarm", arguments: { token: "tok-foo", time: "2023-03-20 08:00:00" } }] };
        if (n === 4) return { kind: "final", text: "The alarm is set." };
        if (n === 5) return { kind: "final", text: "Nothing to call." };
        return { kind: "final", text: "Your alarm at 8 am is there." };
      },
    };
    const samples = await evaluateAssistantOnTasks(first, new TaskWorlds(), { assistantFor: () => scripted });
    const scores = scoreSamples(samples);
    expect(scores.apiCalls).toBe(3);
    expect(scores.correct).toBe(2);
    expect(scores.accuracy).toBeCloseTo(2 / 3);
    expect(scores.errors["no-api-call"]).toBe(1);
    // ROUGE-L: "I have your token now" vs "I have your token" = 2·(4/5)(4/4)/(9/5) = 8/9;
    // "The alarm is set" vs "The alarm is set for 8 am" = 2·1·(4/7)/(11/7) = 8/11; the last is identical (1).
    expect(scores.responses).toBe(3);
    expect(scores.rougeL).toBeCloseTo((8 / 9 + 8 / 11 + 1) / 3);
    expect(scores.passRate).toBe(0);
  });

  it("imports, evaluates and scores from the CLI; pass^k over two evaluation folders", async () => {
    const tasksFile = join(root, "tasks.jsonl");
    const io = capture();
    expect(await main(["tasks", "import", "apibank", join(corpus, "dialogues"), "--out", tasksFile], io)).toBe(0);
    expect(io.stdout).toContain("2 tasks (5 gold calls, 5 gold responses)");
    const tasks = await readTasks(tasksFile);
    expect(tasks[0]?.toolset).toBe(`apibank:${corpus}`);
    const gold = capture();
    expect(await main(["eval", tasksFile], gold)).toBe(0);
    expect(gold.stdout).toContain("5/5 agree (100.0%");
    const outs = [join(root, "ev-a"), join(root, "ev-b")];
    for (const out of outs) {
      const e = capture();
      expect(await main(["eval", "--tasks", `apibank:${join(corpus, "dialogues")}`, "--assistant", "offline", "--out", out], e)).toBe(0);
      expect(e.stdout).toMatch(/API calls: \d+\/5 correct/);
      expect(readFileSync(join(out, "samples.jsonl"), "utf8").trim().split("\n").length).toBe(10);
    }
    const both = capture();
    expect(await main(["eval", ...outs, "--json"], both)).toBe(0);
    const parsed = JSON.parse(both.stdout) as { pass: { trials: number; tasks: number; passHat: Record<string, number> } };
    expect(parsed.pass.trials).toBe(2);
    expect(parsed.pass.tasks).toBe(2);
    // The offline assistant is deterministic: pass^2 equals pass^1.
    expect(parsed.pass.passHat["2"]).toBeCloseTo(parsed.pass.passHat["1"] as number);
  });
});

describe("run scores and ToolAlpaca judgements", () => {
  it("classifies planned steps against the calls made", () => {
    const ok = { name: "get_book", arguments: { id: 3 }, result: { status: 200, source: "state", errors: [] } };
    const step = { tool: "get_book", args: { id: 3 }, linked: new Set<string>() };
    expect(scorePlannedStep(step, [ok as never])).toEqual({ correct: true });
    expect(scorePlannedStep(step, [])).toEqual({ correct: false, error: "no-api-call" });
    expect(scorePlannedStep(step, [{ ...ok, name: "list_books" } as never]).error).toBe("api-hallucination");
    expect(scorePlannedStep(step, [{ ...ok, result: { status: 422, source: "validation", errors: [{ code: "required" }] } } as never]).error).toBe("missing-input-parameters");
    expect(scorePlannedStep(step, [{ ...ok, result: { status: 404, source: "state", errors: [] } } as never]).error).toBe("has-exception");
    expect(scorePlannedStep(step, [{ ...ok, arguments: { id: 4 } } as never]).error).toBe("wrong-result");
  });

  it("judges ToolAlpaca solutions by rules: the procedure by the golden steps, the response by what the calls returned", () => {
    const steps = [{ name: "search", arguments: { color: "wild", gender: "" } }];
    const body = { results: [{ url: "https://img.example/wild1.jpg", description: "A wild axolotl with black spots" }] };
    const ok = { name: "search", arguments: { color: "Wild", page: 1 }, status: 200, body };
    const instruction = "Find me a wild axolotl picture.";
    expect(ruleJudgement(steps, [ok], "Here: https://img.example/wild1.jpg, a wild axolotl with black spots.", instruction)).toMatchObject({ process: "Yes", response: "Yes", overall: true });
    // An answer that states nothing the call returned is not a correct response, however long.
    expect(ruleJudgement(steps, [ok], "I found some lovely axolotl pictures for you, enjoy them!", instruction)).toMatchObject({ process: "Yes", response: "No", overall: false });
    expect(ruleJudgement(steps, [{ ...ok, arguments: { color: "albino" } }], "Here.", instruction)).toMatchObject({ process: "No", overall: false });
    expect(ruleJudgement(steps, [ok], undefined, instruction)).toMatchObject({ process: "Yes", response: "No", overall: false });
    // A call of a tool the golden answer does not use is a wrong procedure.
    expect(ruleJudgement(steps, [ok, { name: "deleteAll", arguments: {}, status: 200, body: {} }], "https://img.example/wild1.jpg", instruction).process).toBe("No");
    // Nothing returned to check: n/a, and overall n/a with it.
    expect(ruleJudgement(steps, [{ ...ok, body: undefined }], "Done.", instruction)).toMatchObject({ process: "Yes", response: "n/a", overall: null });
    // Numbers match as written or rounded; values the instruction gave are not evidence.
    const rate = { name: "convert", arguments: { from: "USD", to: "EUR", amount: 100 }, status: 200, body: { from: "USD", to: "EUR", result: 92.4567 } };
    const conv = [{ name: "convert", arguments: { from: "USD", to: "EUR", amount: 100 } }];
    expect(ruleJudgement(conv, [rate], "100 USD is 92.46 EUR.", "Convert 100 USD to EUR").response).toBe("Yes");
    expect(ruleJudgement(conv, [rate], "You asked about USD and EUR.", "Convert 100 USD to EUR").response).toBe("No");
    const j = parseToolAlpacaJudgement("## Analysis\nfine\n## Results\nProcess Correctness: Yes\nFinal Response Correctness: No");
    expect(j).toMatchObject({ process: "Yes", response: "No", overall: false, analysis: "## Analysis\nfine" });
    expect(parseToolAlpacaJudgement("garbage").process).toBe("Uncertain");
  });
});

describe("ToolAlpaca evaluation from the CLI", () => {
  it("imports an eval set and judges with rules, or with the LLM judge (figure 12) over an OpenAI-compatible endpoint", async () => {
    const { startOpenAIServer } = await import("../../support/openai-server.js");
    const file = join(root, "toolalpaca.json");
    const doc = {
      openapi: "3.0.0",
      info: { title: "Facts", version: "1.0.0" },
      paths: { "/facts": { get: { operationId: "getFacts", description: "Get facts about a topic.", parameters: [{ name: "topic", in: "query", required: true, schema: { type: "string" } }], responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { facts: { type: "array", items: { type: "string" } } } } } } } } } } },
    };
    writeFileSync(file, JSON.stringify([{ Name: "Facts", Description: "Facts API", Introduction: "Facts about topics.", NLDocumentation: "getFacts: Get facts about a topic.", Documentation: JSON.stringify(doc), Instructions: ["Tell me facts about the topic owls."], Golden_Answers: [[{ Action: "getFacts", Action_Input: '{"topic": "owls"}' }]] }]));
    const tasksFile = join(root, "ta-tasks.jsonl");
    expect(await main(["tasks", "import", "toolalpaca", file, "--out", tasksFile], capture())).toBe(0);
    const rules = capture();
    expect(await main(["eval", "--tasks", tasksFile], rules)).toBe(0);
    expect(rules.stdout).toContain("ToolAlpaca, 1 tasks: procedure");
    expect(rules.stdout).toContain("(rules: golden steps with their values)");
    const server = await startOpenAIServer(() => ({ kind: "text", content: "## Analysis\nok\n## Results\nProcess Correctness: Yes\nFinal Response Correctness: Yes" }));
    const saved = process.env["OPENAI_API_KEY"];
    process.env["OPENAI_API_KEY"] = "sk-test-JUDGE-0123456789abcdef";
    try {
      const io = capture();
      expect(await main(["eval", "--tasks", tasksFile, "--judge-model", `openai:judge@${server.baseURL}`, "--json"], io)).toBe(0);
      const r = JSON.parse(io.stdout) as { toolalpaca: { process: number; response: number; overall: number; judgedBy: string } };
      expect(r.toolalpaca).toMatchObject({ tasks: 1, process: 1, response: 1, overall: 1, judgedBy: "llm", judge: "openai:judge", uncertain: 0, notRun: 0 });
      const prompt = JSON.stringify(server.requests[0]?.body ?? {});
      expect(prompt).toContain("Process Correctness: one of [Yes, No, Uncertain]");
      expect(prompt).toContain("getFacts");
    } finally {
      await server.close();
      if (saved === undefined) delete process.env["OPENAI_API_KEY"];
      else process.env["OPENAI_API_KEY"] = saved;
    }
  });
});
