import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { CliIO } from "../../../simulator/cli/cli-io.js";
import { main } from "../../../simulator/cli/main.js";
import { importApiBank, inlineApiCalls } from "../../../simulator/eval/tasks/import-tasks.js";
import { readTasks } from "../../../simulator/eval/tasks/task-set.js";

/** The API-Bank corpus written for these tests (see its README). */
const CORPUS = fileURLToPath(new URL("../../fixtures/apibank", import.meta.url)).replace(/\/$/, "");
const LEVEL1 = join(CORPUS, "test-data", "level-1-given-desc.json");
const LEVEL3 = join(CORPUS, "test-data", "level-3.json");
const INLINE = join(CORPUS, "dialogues", "AddAlarm-level-1-3.jsonl");

const root = mkdtempSync(join(tmpdir(), "toolsim-apibank-import-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", isTTY: false, out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) };
  return io;
}

describe("API-Bank test JSON import", () => {
  it("level-1 samples: one task per dialogue, from its longest sample's input and expected_output", () => {
    const { tasks, skipped, notes } = importApiBank(LEVEL1);
    expect(notes).toBeUndefined();
    expect(skipped).toEqual([{ where: `${LEVEL1}[4]`, reason: "not an API-Bank sample (input, expected_output)" }]);
    expect(tasks.map((t) => [t.id, t.toolset, t.level])).toEqual([
      ["apibank/GetUserToken-level-1-1", `apibank:${CORPUS}`, 1],
      ["apibank/AddAlarm-level-1-1", `apibank:${CORPUS}`, 1],
    ]);
    expect(tasks[0]?.turns).toEqual([
      { role: "user", text: "Log me in please. I am foo, my password is bar." },
      { role: "api", name: "GetUserToken", arguments: { username: "foo", password: "bar" }, exception: null },
    ]);
    expect(tasks[1]?.turns).toEqual([
      { role: "user", text: "Set an alarm at 8 am on 2023-03-20. I am foo, password bar." },
      { role: "api", name: "GetUserToken", arguments: { username: "foo", password: "bar" }, output: { token: "tok-foo" }, exception: null },
      { role: "assistant", text: "I have your token." },
      { role: "api", name: "AddAlarm", arguments: { token: "tok-foo", time: "2023-03-20 08:00:00" }, exception: null },
    ]);
    expect(tasks[1]?.goldCalls.map((c) => [c.name, c.turn])).toEqual([
      ["GetUserToken", 1],
      ["AddAlarm", 3],
    ]);
    expect(tasks[1]?.goldResponses).toEqual(["I have your token."]);
    expect(tasks[1]?.apis).toEqual(["GetUserToken", "AddAlarm"]);
  });

  it("level-3 samples: the requirement, the API calls with their outputs, and the response", () => {
    const { tasks, skipped } = importApiBank(LEVEL3);
    expect(skipped).toEqual([]);
    expect(tasks.map((t) => [t.id, t.toolset, t.level, t.goldCalls.length])).toEqual([
      ["apibank/level-3/0", `apibank:${CORPUS}#lv3_apis`, 3, 1],
      ["apibank/level-3/1", `apibank:${CORPUS}#lv3_apis`, 3, 2],
    ]);
    expect(tasks[1]?.turns).toEqual([
      { role: "user", text: "Please compute 10/4 and then 2.5*2." },
      { role: "api", name: "Calculator", arguments: { formula: "10/4" }, output: 2.5, exception: null },
      { role: "api", name: "Calculator", arguments: { formula: "2.5*2" }, output: 5, exception: null },
      { role: "assistant", text: "10/4 is 2.5, and 2.5*2 is 5." },
    ]);
    expect(tasks[1]?.goldResponses).toEqual(["10/4 is 2.5, and 2.5*2 is 5."]);
  });

  it("imports and replays the level-1 JSON from the CLI; an API-Bank evaluation without reference responses says ROUGE-L is n/a", async () => {
    const file = join(root, "level-1.jsonl");
    const imported = capture();
    expect(await main(["tasks", "import", "apibank", LEVEL1, "--out", file], imported)).toBe(0);
    expect(imported.stdout).toBe(`2 tasks (3 gold calls, 1 gold responses) -> ${file} (1 skipped)\n`);
    expect((await readTasks(file)).map((t) => t.id)).toEqual(["apibank/GetUserToken-level-1-1", "apibank/AddAlarm-level-1-1"]);
    const gold = capture();
    expect(await main(["eval", file], gold)).toBe(0);
    expect(gold.stdout).toContain("gold calls replayed with state: 3/3 agree");
    const scored = capture();
    expect(await main(["eval", "--tasks", file, "--limit", "1"], scored)).toBe(0);
    expect(scored.stdout).toContain("responses: 0, ROUGE-L n/a (no reference responses)\n");
    // ToolAlpaca's judge does not apply to API-Bank tasks.
    const judged = capture();
    expect(await main(["eval", "--tasks", file, "--judge-model", "openai:judge"], judged)).toBe(2);
    expect(judged.stderr).toContain("--judge-model is ToolAlpaca's judge: it applies to toolalpaca tasks (and to runs), not to API-Bank tasks");
  });
});

describe("API-Bank dialogues that write the call inside the AI text", () => {
  it("reads the inline call with API-Bank's text parser, and nothing from brackets that are not calls", () => {
    expect(inlineApiCalls("Great. Let me register your account now. [RegisterUser(username='user4', password='password4', email='user4@example.com')]")).toEqual({
      text: "Great. Let me register your account now.",
      calls: [{ name: "RegisterUser", arguments: { username: "user4", password: "password4", email: "user4@example.com" } }],
    });
    expect(inlineApiCalls("OK. API-Request: [QueryStock(stock_code='AAPL', date='2023-01-04')]")).toEqual({ text: "OK.", calls: [{ name: "QueryStock", arguments: { stock_code: "AAPL", date: "2023-01-04" } }] });
    expect(inlineApiCalls("You're welcome [see the Notes (below)].")).toBeUndefined();
    expect(inlineApiCalls("Plain text.")).toBeUndefined();
  });

  it("imports the inline call as a gold call (no recorded result) and notes it; the CLI says so", async () => {
    const { tasks, notes } = importApiBank(INLINE);
    expect(tasks[0]?.turns).toEqual([
      { role: "user", text: "Please set an alarm at 8 am on 2023-03-20. My token is tok-foo." },
      { role: "assistant", text: "Sure, let me set it." },
      { role: "api", name: "AddAlarm", arguments: { token: "tok-foo", time: "2023-03-20 08:00:00" }, exception: null },
      { role: "assistant", text: "Done, your alarm is set." },
      { role: "user", text: "Thanks." },
      { role: "assistant", text: "You're welcome [see the Notes (below)]." },
    ]);
    expect(tasks[0]?.goldCalls.map((c) => c.name)).toEqual(["AddAlarm"]);
    expect(tasks[0]?.goldResponses).toEqual(["Done, your alarm is set."]);
    expect(notes).toEqual([`${INLINE}:2: the AI turn writes AddAlarm(...) inline; read as gold call(s) with no recorded result`]);
    const io = capture();
    const out = join(root, "inline.jsonl");
    expect(await main(["tasks", "import", "apibank", INLINE, "--out", out], io)).toBe(0);
    expect(io.stdout).toBe(`1 tasks (1 gold calls, 1 gold responses) -> ${out}\n`);
    expect(io.stderr).toBe(`toolsim: note: ${notes?.[0]}\n`);
    const gold = capture();
    expect(await main(["eval", out], gold)).toBe(0);
    expect(gold.stdout).toContain("1/1 agree");
  });
});
