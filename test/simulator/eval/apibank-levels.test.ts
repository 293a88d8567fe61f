import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { goldReplayReport } from "../../../simulator/eval/tasks/gold-replay.js";
import { importApiBank } from "../../../simulator/eval/tasks/import-tasks.js";
import { TaskWorlds } from "../../../simulator/eval/tasks/task-toolsets.js";
import { readPredictionFile } from "../../../simulator/eval/predictions/prediction-readers.js";
import { scorePredictions } from "../../../simulator/eval/predictions/score-predictions.js";
import { scoreSamples } from "../../../simulator/eval/apibank/apibank-eval.js";

/** API-Bank's three levels on a corpus written for these tests (test/fixtures/apibank-levels). */
const ROOT = resolve("test/fixtures/apibank-levels");
const tmp = mkdtempSync(join(tmpdir(), "toolsim-apibank-levels-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function io(): { out: string[]; err: string[]; io: { out: (t: string) => void; err: (t: string) => void; isTTY: boolean } } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t) => void out.push(t), err: (t) => void err.push(t), isTTY: false } };
}

describe("level 2: ToolSearcher in the world", () => {
  it("labels a dialogue that retrieves its API level 2 (whatever its file name says) and offers ToolSearcher first", () => {
    const { tasks } = importApiBank(join(ROOT, "level-2"));
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ level: 2, apis: ["ToolSearcher"] });
  });

  it("replays its gold calls, ToolSearcher included, in agreement", async () => {
    const { tasks } = importApiBank(join(ROOT, "level-2"));
    const report = await goldReplayReport(tasks, new TaskWorlds());
    expect(report.failed).toEqual([]);
    expect(report.calls).toBe(3);
    expect(report.agreed).toBe(3);
    expect(report.byApi["ToolSearcher"]).toEqual({ calls: 1, agreed: 1 });
  });

  it("scores ToolSearcher predictions by what they find, and the other calls by their APIs' checks", async () => {
    const { tasks } = importApiBank(join(ROOT, "level-2"));
    const read = readPredictionFile(join(ROOT, "predictions", "level-2-preds.jsonl"), tasks);
    expect(read.format).toBe("apibank");
    const { samples, unpredicted } = await scorePredictions(tasks, new TaskWorlds(), read.predictions);
    const api = samples.filter((s) => s.kind === "api");
    // "alarm clock" finds AddAlarm as "set alarm" did; a wrong password gets no token; text without a call is no call.
    expect(api.map((s) => [s.gold.name, s.correct, s.error ?? null])).toEqual([
      ["ToolSearcher", true, null],
      ["GetUserToken", false, "has-exception"],
      ["AddAlarm", false, "no-api-call"],
    ]);
    expect(unpredicted).toBe(1); // the AI turn after ToolSearcher has no prediction
    expect(scoreSamples(samples).responses).toBe(1);
  });
});

describe("level 3: the authors' scenario files and test data", () => {
  it("imports a scenario file as a level-3 task whose gold calls replay without exception", async () => {
    const { tasks, skipped } = importApiBank(join(ROOT, "level-3", "Trip Planning.txt"));
    expect(skipped).toEqual([]);
    expect(tasks).toHaveLength(1);
    const t = tasks[0]!;
    expect(t).toMatchObject({ id: "apibank/level-3/Trip Planning", level: 3, apis: ["ToolSearcher"] });
    expect(t.goldCalls.map((c) => c.name)).toEqual(["GetUserToken", "AddAlarm", "Calculator"]);
    expect(t.userKnowledge?.[1]).toBe("Alarm at 2023-06-10 5:00");
    expect((t.turns[0] as { text: string }).text).toContain("Wake me up early");
    const report = await goldReplayReport(tasks, new TaskWorlds());
    expect(report.agreed).toBe(3);
  });

  it("scores level-3 predictions (sample_id, api_id) with API-Bank's parsing: ToolSearcher keywords split by capitals", async () => {
    const { tasks } = importApiBank(join(ROOT, "level-3", "level-3.json"));
    const report = await goldReplayReport(tasks, new TaskWorlds());
    expect(report.agreed).toBe(3);
    const read = readPredictionFile(join(ROOT, "predictions", "level-3-preds.jsonl"), tasks);
    const { samples } = await scorePredictions(tasks, new TaskWorlds(), read.predictions);
    const api = samples.filter((s) => s.kind === "api");
    expect(api.map((s) => s.correct)).toEqual([true, true, false]);
    const response = samples.find((s) => s.kind === "response");
    expect(response?.kind === "response" && response.rougeL).toBe(1);
  });

  it("refuses to import outside a checkout when API-Bank's databases cannot be found", async () => {
    const lone = join(tmp, "lone");
    cpSync(join(ROOT, "level-2"), lone, { recursive: true });
    const c = io();
    const saved = process.env["TOOLSIM_CORPORA"];
    process.env["TOOLSIM_CORPORA"] = join(tmp, "nowhere");
    try {
      const code = await main(["tasks", "import", "apibank", lone, "--out", join(tmp, "t.jsonl")], c.io);
      expect(code).toBe(1);
      expect(c.err.join("")).toMatch(/give --apibank-root DIR/);
      expect(await main(["tasks", "import", "apibank", lone, "--out", join(tmp, "t.jsonl"), "--apibank-root", ROOT], io().io)).toBe(0);
    } finally {
      if (saved === undefined) delete process.env["TOOLSIM_CORPORA"];
      else process.env["TOOLSIM_CORPORA"] = saved;
    }
  });
});

describe("exit codes that tell the truth", () => {
  async function closedPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((r) => server.close(() => r()));
    return port;
  }

  it("eval --tasks with a dead model endpoint exits 1 and names the cause", async () => {
    const port = await closedPort();
    const tasksFile = join(tmp, "l2.jsonl");
    expect(await main(["tasks", "import", "apibank", join(ROOT, "level-2"), "--out", tasksFile], io().io)).toBe(0);
    const c = io();
    const code = await main(["eval", "--tasks", tasksFile, "--assistant", `openai:m@http://127.0.0.1:${port}/v1`, "--retries", "0"], c.io);
    expect(code).toBe(1);
    expect(c.err.join("")).toMatch(/no task could be run: the assistant failed on every turn \(.*connect/);
    expect(c.err.join("")).not.toMatch(/\n\s+at /);
  });

  it("generate where every episode errors exits 1 with the cause", async () => {
    const port = await closedPort();
    const c = io();
    const code = await main(["generate", "--episodes", "2", "--assistant-model", `openai:m@http://127.0.0.1:${port}/v1`, "--retries", "0", "--out", join(tmp, "run")], c.io);
    expect(code).toBe(1);
    expect(c.err.join("")).toMatch(/no episode could run: all 2 ended with an error/);
  });

  it("eval of a task set whose world is gone exits 1 instead of reporting 0/0", async () => {
    const tasksFile = join(tmp, "gone.jsonl");
    writeFileSync(tasksFile, `${JSON.stringify({ id: "apibank/x", source: "apibank", toolset: `apibank:${join(tmp, "missing")}`, turns: [{ role: "user", text: "hi" }], goldCalls: [], goldResponses: [] })}\n`);
    const c = io();
    expect(await main(["eval", tasksFile], c.io)).toBe(1);
    expect(c.err.join("")).toMatch(/no task of .* could be replayed/);
  });
});
