import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssistantAgent } from "../../../agents/roles/roles.js";
import type { CliIO } from "../../../simulator/cli/cli-io.js";
import { main } from "../../../simulator/cli/main.js";
import type { SimEvent } from "../../../simulator/core/events.js";
import { scriptOf } from "../../../simulator/replay/journal-script.js";
import { diffRuns, formatRunDiff } from "../../../simulator/replay/run-diff.js";
import { replayRun } from "../../../simulator/replay/replay.js";
import { createSimulation } from "../../../simulator/core/simulation.js";
import { bundledToolsetsDir, loadToolsets } from "../../../toolsets/load-toolset.js";
import { startOpenAIServer, type ReceivedRequest, type ScriptedReply } from "../../support/openai-server.js";
import { journalWithoutTimes } from "../../support/llm-roles.js";

const root = mkdtempSync(join(tmpdir(), "toolsim-replay-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const dir = (name: string): string => join(root, `${name}-${n++}`);

function capture(): CliIO & { stdout: string; stderr: string } {
  const io = { stdout: "", stderr: "", isTTY: false, out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) };
  return io;
}


function lines(run: string): string[] {
  return readFileSync(join(run, "events.jsonl"), "utf8").trim().split("\n");
}

const TOOLSETS = ["agenda", "bookstore", "weather"].map((t) => join(bundledToolsetsDir(), `${t}.yaml`));
let offlineRun: string;

beforeAll(async () => {
  const { toolsets, problems } = await loadToolsets(TOOLSETS);
  expect(problems).toEqual([]);
  offlineRun = dir("offline");
  const sim = createSimulation({ toolsets, episodes: 8, seed: 11, level: "call", out: offlineRun });
  const r = await sim.run();
  expect(r.summary.episodes).toBe(8);
});

describe("replay of an offline run", () => {
  it("re-publishes the journal: the new journal equals the old one except times, and the CLI exits 0", async () => {
    const out = dir("replayed");
    const report = await replayRun({ source: offlineRun, out });
    expect(report.equal).toBe(true);
    expect(report.episodes).toBe(8);
    expect(journalWithoutTimes(out)).toEqual(journalWithoutTimes(offlineRun));
    expect(readFileSync(join(out, "corpus.jsonl"), "utf8")).toBe(readFileSync(join(offlineRun, "corpus.jsonl"), "utf8"));

    const io = capture();
    expect(await main(["replay", offlineRun], io)).toBe(0);
    expect(io.stdout).toContain("equal: the new journal equals the recorded one except times");
  });

  it("takes results and verdicts from the journal in the journal mode", async () => {
    const out = dir("journal-mode");
    const report = await replayRun({ source: offlineRun, out, results: "journal" });
    expect(report.equal).toBe(true);
    expect(journalWithoutTimes(out)).toEqual(journalWithoutTimes(offlineRun));
  });

  it("names the first differing event of a tampered journal (episode, seq, field, old vs new) and exits 1", async () => {
    const tampered = dir("tampered");
    const copy = await replayRun({ source: offlineRun, out: tampered });
    expect(copy.equal).toBe(true);
    const all = lines(tampered);
    const at = all.findIndex((l) => (JSON.parse(l) as SimEvent).type === "tool.result");
    expect(at).toBeGreaterThan(0);
    const event = JSON.parse(all[at] as string) as SimEvent & { type: "tool.result" };
    event.result.status = 299;
    all[at] = JSON.stringify(event);
    writeFileSync(join(tampered, "events.jsonl"), `${all.join("\n")}\n`);

    const report = await replayRun({ source: tampered });
    expect(report.equal).toBe(false);
    expect(report.diverged).toBe(1);
    expect(report.first).toMatchObject({ episodeId: event.episodeId, seq: event.seq, type: "tool.result", path: "result.status", old: 299 });
    const io = capture();
    expect(await main(["replay", tampered], io)).toBe(1);
    expect(io.stdout).toContain(`first difference: episode ${event.episodeId}`);
    expect(io.stdout).toContain(`seq ${event.seq} (tool.result), field result.status: old 299 vs new`);
  });

  it("refuses a toolset whose spec changed, unless told", async () => {
    const run = dir("changed");
    await replayRun({ source: offlineRun, out: run });
    const info = JSON.parse(readFileSync(join(run, "run.json"), "utf8")) as { specHashes: Record<string, string> };
    info.specHashes["weather"] = "sha256:0000";
    writeFileSync(join(run, "run.json"), JSON.stringify(info));
    const io = capture();
    expect(await main(["replay", run], io)).toBe(1);
    expect(io.stderr).toContain("changed since the run was recorded");
    expect(await main(["replay", run, "--allow-spec-change"], capture())).toBe(0);
  });
});

describe("fork and diff", () => {
  it("keeps the recorded prefix byte for byte, continues with the new assistant, and diff names the episode", async () => {
    const giveUp: AssistantAgent = { step: async () => ({ kind: "give-up", reason: "forked assistant stops here" }) };
    const out = dir("fork");
    const report = await replayRun({ source: offlineRun, out, fork: { episode: 2, turn: 1, agents: () => ({ assistant: giveUp }) } });
    expect(report.equal).toBe(true);
    expect(report.fork).toMatchObject({ forked: 1, turn: 1 });
    const before = lines(offlineRun);
    const after = lines(out);
    const ep = (l: string): string => (JSON.parse(l) as SimEvent).episodeId;
    const original = before.filter((l) => ep(l) === "ep-000002");
    const forked = after.filter((l) => ep(l) === "ep-000002");
    // The prefix: episode.started, user.plan and the first user instruction (turn 0), verbatim, times included.
    const instruction = original.findIndex((l) => (JSON.parse(l) as SimEvent).type === "user.instruction");
    expect(forked.slice(0, instruction + 1)).toEqual(original.slice(0, instruction + 1));
    const rest = forked.slice(instruction + 1).map((l) => JSON.parse(l) as SimEvent);
    expect(rest[0]).toMatchObject({ type: "assistant.gave-up", reason: "forked assistant stops here" });
    expect(rest[rest.length - 1]?.type).toBe("episode.finished");
    // The other episodes are unchanged.
    expect(after.filter((l) => ep(l) !== "ep-000002").map((l) => l.replace(/"at":"[^"]*"/, ""))).toEqual(before.filter((l) => ep(l) !== "ep-000002").map((l) => l.replace(/"at":"[^"]*"/, "")));

    const diff = await diffRuns(offlineRun, out);
    expect(diff.differing).toBe(1);
    expect(diff.diffs[0]).toMatchObject({ episodeId: "ep-000002" });
    expect(diff.diffs[0]?.differs).toContain("answers");
    expect(formatRunDiff(diff)).toContain("ep-000002:");
    const io = capture();
    expect(await main(["diff", offlineRun, out], io)).toBe(1);
    expect(io.stdout).toContain("8 episodes: 7 same, 1 differ");
    const json = capture();
    await main(["diff", offlineRun, out, "--json"], json);
    expect((JSON.parse(json.stdout) as { differing: number }).differing).toBe(1);
  });

  it("forks from the CLI with an offline assistant: the prefix replays and the rest is simulated anew", async () => {
    const out = dir("cli-fork");
    const io = capture();
    expect(await main(["replay", offlineRun, "--from-episode", "all", "--from-turn", "1", "--assistant", "offline", "--user", "offline", "--out", out], io)).toBe(0);
    expect(io.stdout).toContain("8 forked at turn 1");
    // The offline assistant is deterministic: continuing with it gives the recorded run again.
    const diff = await diffRuns(offlineRun, out);
    expect(diff.differing).toBe(0);
    expect(await main(["replay", offlineRun, "--from-turn", "1"], capture())).toBe(2);
  });

  it("refuses fork points out of range with exit 2, naming the valid range, and writes nothing", async () => {
    const turns = lines(offlineRun).map((l) => JSON.parse(l) as SimEvent).filter((e) => e.episodeId === "ep-000002");
    const n = scriptOf(turns).turns.length;
    const cases: Array<[string[], RegExp]> = [
      [["--from-episode", "99", "--from-turn", "0"], /--from-episode 99: the run has 8 episodes \(0-7\), or give all/],
      [["--from-episode", "2", "--from-turn", String(n)], new RegExp(`--from-turn ${n}: episode 2 has ${n} turns \\(0-${n - 1}\\)`)],
      [["--from-episode", "all", "--from-turn", "500"], /--from-turn 500: no episode has that many turns \(the longest has \d+: 0-\d+\)/],
    ];
    for (const [flags, message] of cases) {
      const out = dir("bad-fork");
      const io = capture();
      expect(await main(["replay", offlineRun, ...flags, "--out", out], io), flags.join(" ")).toBe(2);
      expect(io.stderr).toMatch(message);
      expect(existsSync(out)).toBe(false);
    }
    // The last recorded turn is a valid fork point.
    expect(await main(["replay", offlineRun, "--from-episode", "2", "--from-turn", String(n - 1), "--out", dir("last-turn")], capture())).toBe(0);
  });

  it("refuses to write into the replayed run (or any non-empty folder) with a hint that fits replay", async () => {
    const io = capture();
    expect(await main(["replay", offlineRun, "--out", offlineRun], io)).toBe(1);
    expect(io.stderr).toContain(`--out ${offlineRun} is the run being replayed: a replay writes a new run; choose another folder with --out`);
    expect(io.stderr).not.toContain("--resume");
    const busy = dir("busy");
    mkdirSync(busy);
    writeFileSync(join(busy, "notes.txt"), "x");
    const other = capture();
    expect(await main(["replay", offlineRun, "--out", busy], other)).toBe(1);
    expect(other.stderr).toContain(`the folder ${busy} is not empty: a replay writes a new run`);
    expect(other.stderr).not.toContain("--resume");
  });
});

/** A model for every role, told apart by the prompts (as in the generate LLM tests). */
function roleScript(req: ReceivedRequest): ScriptedReply {
  const messages = (req.body["messages"] ?? []) as { role: string; content: unknown }[];
  const sys = typeof messages[0]?.content === "string" ? messages[0].content : "";
  const last = messages[messages.length - 1];
  if (sys.startsWith("You simulate one operation")) return { kind: "text", content: '{"status": 200, "body": {"note": "simulated"}}' };
  if (sys.startsWith("You review a dialogue")) return { kind: "text", content: '{"solvable": true, "process_correct": true, "response_correct": true, "verdict": "pass", "reason": "fine"}' };
  if (sys.startsWith("You play the user in a conversation")) return { kind: "text", content: "Sure, use what I said." };
  if (sys.startsWith("You play a user")) return { kind: "text", content: "1. Could you look that up for me please?" };
  const tools = req.body["tools"] as { function: { name: string } }[] | undefined;
  if (tools && tools.length > 0) {
    if (last?.role === "tool") return { kind: "text", content: "Here is what the service returned." };
    return { kind: "tool-calls", calls: [{ name: tools[0]!.function.name, arguments: "{}" }] };
  }
  return { kind: "text", content: "OK." };
}

describe("replay of a cassette run", () => {
  it("replays an LLM run (all four roles) with the endpoint closed: equal except times", async () => {
    const saved = process.env["OPENAI_API_KEY"];
    process.env["OPENAI_API_KEY"] = "sk-test-REPLAY-0123456789abcdef";
    const server = await startOpenAIServer(roleScript);
    const run = dir("llm");
    try {
      const io = capture();
      const code = await main(["generate", "--toolsets", ...TOOLSETS.slice(1), "--episodes", "3", "--seed", "5", "--model", "openai:test-model", "--base-url", server.baseURL, "--out", run], io);
      expect(io.stderr).not.toContain("internal error");
      expect(code).toBe(0);
    } finally {
      await server.close();
      if (saved === undefined) delete process.env["OPENAI_API_KEY"];
      else process.env["OPENAI_API_KEY"] = saved;
    }
    delete process.env["OPENAI_API_KEY"];
    try {
      const out = dir("llm-replayed");
      const io = capture();
      const code = await main(["replay", run, "--out", out], io);
      expect(io.stderr).not.toContain("internal error");
      expect(io.stdout).toContain("equal");
      expect(code).toBe(0);
      expect(journalWithoutTimes(out)).toEqual(journalWithoutTimes(run));
      expect(journalWithoutTimes(run).some((l) => l.includes('"type":"llm.call"'))).toBe(true);
    } finally {
      if (saved !== undefined) process.env["OPENAI_API_KEY"] = saved;
    }
  });
});
