import { spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectEpisode } from "../../../simulator/runs/corpus-projection.js";
import type { SimEvent } from "../../../simulator/core/events.js";
import { readJournal } from "../../../simulator/runs/read-journal.js";
import { RUN_FILES } from "../../../simulator/runs/run-info.js";
import { RunStore } from "../../../simulator/runs/run-store.js";
import { reasonTemplate } from "../../../simulator/runs/run-summary.js";
import { ToolsimError } from "../../../specs/toolsim-error.js";
import { fabricateEpisode, runEpisode, testRunInfo } from "../../fixtures/episode-events.js";

const root = mkdtempSync(join(tmpdir(), "toolsim-runstore-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshDir = (): string => join(root, `run-${counter++}`);

const RUN_ID = testRunInfo().id;
const journalText = (episodes: SimEvent[][]): string => episodes.map((evs) => evs.map((e) => `${JSON.stringify(e)}\n`).join("")).join("");

/** Writes episodes [from, to) of the fake run into dir (created or resumed); `pad` adds bytes to each episode. */
async function writeRun(dir: string, to: number, from = 0, pad = 0): Promise<RunStore> {
  const store = await RunStore.create(dir, testRunInfo(), { resume: true });
  expect(store.nextIndex).toBe(from);
  for (let i = from; i < to; i++) store.appendEpisode(runEpisode(RUN_ID, i, pad));
  store.close();
  return store;
}

/** The five files of a run folder. */
function files(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of Object.values(RUN_FILES)) out[f] = readFileSync(join(dir, f), "utf8");
  return out;
}

const referenceCache = new Map<string, Record<string, string>>();
/** The files of an uninterrupted run of n episodes. */
async function reference(n: number, pad = 0): Promise<Record<string, string>> {
  let ref = referenceCache.get(`${n}/${pad}`);
  if (!ref) {
    const dir = freshDir();
    await writeRun(dir, n, 0, pad);
    ref = files(dir);
    referenceCache.set(`${n}/${pad}`, ref);
  }
  return ref;
}

const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");

describe("RunStore: writing", () => {
  it("writes the journal, the projections and run.json, and reads the journal back per episode", async () => {
    const dir = freshDir();
    const episodes = Array.from({ length: 20 }, (_, i) => runEpisode(RUN_ID, i));
    const store = await RunStore.create(dir, testRunInfo());
    for (const e of episodes) store.appendEpisode(e);
    expect(store.nextIndex).toBe(20);
    store.close();

    const f = files(dir);
    expect(f["events.jsonl"]).toBe(journalText(episodes));
    const corpus = lines(f["corpus.jsonl"] ?? "").map((l) => JSON.parse(l) as { meta: { index: number } });
    const rejected = lines(f["rejected.jsonl"] ?? "").map((l) => JSON.parse(l) as { meta: { index: number } });
    expect(corpus.map((r) => r.meta.index)).toEqual([0, 1, 2, 4, 6, 8, 10, 11, 12, 14, 16, 18]);
    expect(rejected.map((r) => r.meta.index)).toEqual([3, 5, 7, 9, 13, 15, 17, 19]);
    expect(corpus[3]).toEqual(JSON.parse(JSON.stringify(projectEpisode(episodes[4] as SimEvent[]))));

    const run = JSON.parse(f["run.json"] ?? "") as { config: { apiKey: string }; seed: number };
    expect(run.seed).toBe(42);
    expect(run.config.apiKey).toBe("[redacted]");

    const read: SimEvent[][] = [];
    for await (const group of readJournal(dir)) read.push(group);
    expect(read).toEqual(episodes);
  });

  it("refuses episodes out of order or incomplete", async () => {
    const store = await RunStore.create(freshDir(), testRunInfo());
    expect(() => store.appendEpisode(runEpisode(RUN_ID, 1))).toThrow("expected episode index 0, got 1");
    expect(() => store.appendEpisode(runEpisode(RUN_ID, 0).slice(0, -1))).toThrow("expected a whole episode");
    const mixed = [...runEpisode(RUN_ID, 0)];
    mixed.splice(2, 0, { ...(runEpisode(RUN_ID, 5)[2] as SimEvent) });
    expect(() => store.appendEpisode(mixed)).toThrow("belongs to episode run-test/5, not run-test/0");
    store.close();
    expect(() => store.appendEpisode(runEpisode(RUN_ID, 0))).toThrow("is closed");
  });

  it("refuses a non-empty folder unless told to resume, and a resume with other settings", async () => {
    const dir = freshDir();
    await writeRun(dir, 3);
    const err = await RunStore.create(dir, testRunInfo()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolsimError);
    expect((err as ToolsimError).code).toBe("run.exists");
    expect((err as ToolsimError).message).toMatch(/^the run folder .* is not empty \(corpus\.jsonl, events\.jsonl, rejected\.jsonl, run\.json, summary\.json\): resume the run in it \(--resume\) or choose another folder \(--out\)$/);

    const other = await RunStore.create(dir, { ...testRunInfo(), seed: 7 }, { resume: true }).catch((e: unknown) => e);
    expect((other as ToolsimError).code).toBe("run.mismatch");
    expect((other as ToolsimError).message).toContain("was made with a different seed 42 vs 7");

    const notRun = freshDir();
    mkdirSync(notRun);
    writeFileSync(join(notRun, "notes.txt"), "hello");
    await expect(RunStore.create(notRun, testRunInfo(), { resume: true })).rejects.toThrow("holds no run.json");
    await expect(RunStore.open(freshDir())).rejects.toThrow("is not a toolsim run");

    const resumed = await RunStore.create(dir, testRunInfo(), { resume: true });
    expect(resumed.nextIndex).toBe(3);
    resumed.close();
  });
});

describe("corpus projection", () => {
  it("projects an accepted episode onto its instance", () => {
    const events = fabricateEpisode({
      runId: "r",
      index: 4,
      seed: 99,
      level: "retrieve",
      question: { text: "Which edition?", reply: "The 1965 one." },
      calls: [
        { name: "search_books", args: { q: "dune" }, path: "/books", body: { items: [{ id: "bk_1" }] }, thought: "Search first." },
        { name: "get_book", args: { id: "bk_1" }, path: "/books/{id}", body: { id: "bk_1", title: "Dune" } },
      ],
      final: "Dune (bk_1).",
    });
    const record = projectEpisode(events);
    expect(record).toEqual({
      toolsets: ["books"],
      instructions: [{ request: 0, text: "Find me the book Dune." }],
      dialogue: [
        { role: "user", content: "Find me the book Dune.", request: 0 },
        { role: "assistant", content: "Which edition?" },
        { role: "user", content: "The 1965 one.", request: 0 },
        { role: "assistant", content: "", thought: "Search first.", toolCalls: [{ id: "call_0", name: "search_books", arguments: { q: "dune" } }] },
        { role: "tool", toolCallId: "call_0", name: "search_books", content: '{"status": 200, "body": {"items":[{"id":"bk_1"}]}}' },
        { role: "assistant", content: "", thought: "I should call get_book.", toolCalls: [{ id: "call_1", name: "get_book", arguments: { id: "bk_1" } }] },
        { role: "tool", toolCallId: "call_1", name: "get_book", content: '{"status": 200, "body": {"id":"bk_1","title":"Dune"}}' },
        { role: "assistant", content: "Dune (bk_1)." },
      ],
      steps: [
        {
          request: 0,
          thought: "Search first.",
          call: {
            id: "call_0",
            name: "search_books",
            arguments: { q: "dune" },
            toolset: "books",
            operation: { operationId: "search_books", method: "get", path: "/books", pointer: "/paths/~1search_books/get" },
            request: { method: "GET", path: "/books", query: {}, headers: {} },
          },
          observation: { status: 200, body: { items: [{ id: "bk_1" }] }, source: "example", contentType: "application/json" },
        },
        {
          request: 0,
          thought: "I should call get_book.",
          call: {
            id: "call_1",
            name: "get_book",
            arguments: { id: "bk_1" },
            toolset: "books",
            operation: { operationId: "get_book", method: "get", path: "/books/{id}", pointer: "/paths/~1get_book/get" },
            request: { method: "GET", path: "/books/{id}", query: {}, headers: {} },
          },
          observation: { status: 200, body: { id: "bk_1", title: "Dune" }, source: "example", contentType: "application/json" },
        },
      ],
      answers: [{ request: 0, kind: "final", text: "Dune (bk_1)." }],
      plan: (events[1] as Extract<SimEvent, { type: "user.plan" }>).plan,
      verdict: (events[events.length - 2] as Extract<SimEvent, { type: "tester.verdict" }>).verdict,
      meta: { runId: "r", episodeId: "r/4", index: 4, seed: 99, level: "retrieve", outcome: "accepted", steps: 4, calls: 2 },
    });
  });

  it("adds the failed stage and its reasons to rejected and error episodes", () => {
    const rejected = projectEpisode(fabricateEpisode({ index: 1, outcome: "rejected", failedStage: "execution", reasons: ['calls[0] "x": unknown tool'], giveUp: "stuck" }));
    expect(rejected).toMatchObject({
      failedStage: "execution",
      reasons: ['calls[0] "x": unknown tool'],
      answers: [{ request: 0, kind: "give-up", text: "stuck" }],
      meta: { outcome: "rejected" },
    });
    expect(rejected.dialogue[rejected.dialogue.length - 1]).toEqual({ role: "assistant", content: "stuck", giveUp: true });
    const error = projectEpisode(fabricateEpisode({ index: 2, outcome: "error", errorReason: "model timeout" }));
    expect(error).toMatchObject({ failedStage: "error", reasons: ["model timeout"], verdict: null, answers: [] });
  });
});

describe("run summary", () => {
  it("computes the figures of a small run (checked by hand)", async () => {
    const dir = freshDir();
    const store = await writeRun(dir, 10);
    const summary = JSON.parse(files(dir)["summary.json"] ?? "") as unknown;
    expect(summary).toEqual(store.summary());
    // Episode i of the fake run: kind = i % 10; calls = kind % 4; llm calls = kind % 3; level cycles call/retrieve/plan;
    // kinds 3 and 5 are rejected in grounding, 9 gives up (plan), 7 breaks off with an error, the rest are accepted.
    expect(summary).toEqual({
      runId: "run-test",
      episodes: 10,
      accepted: 6,
      rejected: 3,
      errors: 1,
      acceptRate: 0.6,
      stages: {
        format: { failed: 0, discarded: 0, discardRate: 0, topReasons: [] },
        execution: { failed: 0, discarded: 0, discardRate: 0, topReasons: [] },
        consistency: { failed: 0, discarded: 0, discardRate: 0, topReasons: [] },
        grounding: {
          failed: 2,
          discarded: 2,
          discardRate: 0.2,
          topReasons: [{ reason: 'requests[N] final answer: name "…" appears in no observation or user message', count: 2 }],
        },
        plan: { failed: 1, discarded: 1, discardRate: 0.1, topReasons: [{ reason: 'requests[N] steps[N] "get_book": never called', count: 1 }] },
      },
      errorReasons: [{ reason: "model timeout after N retries", count: 1 }],
      steps: { histogram: { "1": 3, "2": 3, "3": 2, "4": 2 }, mean: 2.3, max: 4 },
      calls: { total: 13, ok: 13, failed: 0, invalid: 0, unknownTool: 0, perEpisode: 1.3 },
      // Accepted episodes 1, 2 and 6 call GET /books and GET /books/{id}; the run declares 4 operations.
      operations: { books: { covered: 2, total: 4, calls: 13 } },
      levels: { call: { episodes: 4, accepted: 2 }, plan: { episodes: 3, accepted: 2 }, retrieve: { episodes: 3, accepted: 2 } },
      llm: {
        calls: 9,
        cached: 3,
        errors: 0,
        promptTokens: 900,
        completionTokens: 180,
        cost: 0.0009,
        byRole: { assistant: { calls: 9, errors: 0, promptTokens: 900, completionTokens: 180, cost: 0.0009 } },
        perEpisode: { calls: 0.9, tokens: 108, cost: 0.00009 },
        perAccepted: { calls: 1.5, tokens: 180, cost: 0.00015 },
      },
      // Episode i starts at i s and its events are 7 ms apart: 67 + 29 = 96 gaps of 7 ms in total.
      time: { firstAt: "2025-01-01T00:00:00.000Z", lastAt: "2025-01-01T00:00:09.056Z", wallSeconds: 9.056, episodeSeconds: 0.672, episodesPerSecond: 1.1 },
    });
  });

  it("groups reasons into templates", () => {
    expect(reasonTemplate('calls[2] "get_wether": unknown tool (nearest: "get_weather", "get_forecast")')).toBe('calls[N] "get_wether": unknown tool (nearest: "…")'); // tool names stay, values go
    expect(reasonTemplate("all 3 calls failed (statuses 404, 500)")).toBe("all N calls failed (statuses N)");
  });
});

describe("RunStore.open: recovery", () => {
  it("reopens a clean run unchanged", async () => {
    const dir = freshDir();
    await writeRun(dir, 12);
    const before = files(dir);
    const store = await RunStore.open(dir);
    expect(store.nextIndex).toBe(12);
    expect(store.recovery).toEqual({
      episodes: 12,
      truncatedBytes: 0,
      droppedEpisodes: 0,
      droppedEvents: 0,
      corruptLines: 0,
      rewroteJournal: false,
      droppedProjections: 0,
      rebuiltProjections: 0,
      rewroteProjections: false,
    });
    store.close();
    expect(files(dir)).toEqual(before);
  });

  it("cuts partial last lines", async () => {
    const dir = freshDir();
    await writeRun(dir, 8);
    const partialEvent = JSON.stringify(runEpisode(RUN_ID, 8)[0]).slice(0, 40);
    const partialRecord = JSON.stringify(projectEpisode(runEpisode(RUN_ID, 8))).slice(0, 25);
    appendFileSync(join(dir, RUN_FILES.events), partialEvent);
    appendFileSync(join(dir, RUN_FILES.corpus), partialRecord);
    const store = await RunStore.open(dir);
    expect(store.recovery?.truncatedBytes).toBe(65);
    expect(store.nextIndex).toBe(8);
    store.close();
    expect(files(dir)).toEqual(await reference(8));
  });

  it("drops the journal lines and projection of an unfinished episode", async () => {
    const dir = freshDir();
    await writeRun(dir, 8);
    const unfinished = runEpisode(RUN_ID, 8).slice(0, 5);
    appendFileSync(join(dir, RUN_FILES.events), journalText([unfinished]));
    appendFileSync(join(dir, RUN_FILES.corpus), `${JSON.stringify(projectEpisode(runEpisode(RUN_ID, 8)))}\n`);
    const store = await RunStore.open(dir);
    expect(store.recovery).toMatchObject({ episodes: 8, droppedEpisodes: 1, droppedEvents: 5, droppedProjections: 1, rewroteJournal: false, rewroteProjections: false });
    store.close();
    expect(files(dir)).toEqual(await reference(8));
  });

  it("rebuilds the projection of a finished episode the crash left out", async () => {
    const dir = freshDir();
    await writeRun(dir, 8);
    appendFileSync(join(dir, RUN_FILES.events), journalText([runEpisode(RUN_ID, 8), runEpisode(RUN_ID, 9)]));
    const store = await RunStore.open(dir);
    expect(store.nextIndex).toBe(10);
    expect(store.recovery).toMatchObject({ episodes: 10, rebuiltProjections: 2, droppedProjections: 0, rewroteProjections: false });
    store.close();
    expect(files(dir)).toEqual(await reference(10));
  });

  it("drops duplicated episodes and projection lines", async () => {
    const dir = freshDir();
    await writeRun(dir, 8);
    // Episode 7 again in the journal, then an unfinished 8 followed by the whole of 8 (a rewrite is needed).
    appendFileSync(join(dir, RUN_FILES.events), journalText([runEpisode(RUN_ID, 7), runEpisode(RUN_ID, 8).slice(0, 3), runEpisode(RUN_ID, 8)]));
    // Episode 6's corpus line twice.
    appendFileSync(join(dir, RUN_FILES.corpus), `${JSON.stringify(projectEpisode(runEpisode(RUN_ID, 6)))}\n`);
    const store = await RunStore.open(dir);
    expect(store.recovery).toMatchObject({
      episodes: 9,
      droppedEpisodes: 2,
      droppedEvents: runEpisode(RUN_ID, 7).length + 3,
      rewroteJournal: true,
      droppedProjections: 1,
      rebuiltProjections: 1,
      rewroteProjections: true,
    });
    expect(store.nextIndex).toBe(9);
    store.close();
    expect(files(dir)).toEqual(await reference(9));
  });

  it("drops an unparseable journal line with its episode", async () => {
    const dir = freshDir();
    await writeRun(dir, 5);
    appendFileSync(join(dir, RUN_FILES.events), `${journalText([runEpisode(RUN_ID, 5).slice(0, 2)])}{"type": "tool.ca\n${journalText([runEpisode(RUN_ID, 5).slice(2)])}`);
    const store = await RunStore.open(dir);
    expect(store.recovery).toMatchObject({ episodes: 5, corruptLines: 1 });
    store.close();
    expect(files(dir)).toEqual(await reference(5));
  });

  it("recomputes the summary from the journal", async () => {
    const dir = freshDir();
    await writeRun(dir, 10);
    writeFileSync(join(dir, RUN_FILES.summary), "{}");
    const store = await RunStore.open(dir);
    store.close();
    expect(files(dir)).toEqual(await reference(10));
  });

  it("streams only finished episodes unless asked", async () => {
    const dir = freshDir();
    await writeRun(dir, 3);
    appendFileSync(join(dir, RUN_FILES.events), `${journalText([runEpisode(RUN_ID, 3).slice(0, 4)])}{"partial`);
    const ids: string[] = [];
    for await (const g of readJournal(dir)) ids.push(g[0]?.episodeId ?? "");
    expect(ids).toEqual(["run-test/0", "run-test/1", "run-test/2"]);
    const all: number[] = [];
    for await (const g of readJournal(dir, { includeUnfinished: true })) all.push(g.length);
    expect(all).toEqual([...[0, 1, 2].map((i) => runEpisode(RUN_ID, i).length), 4]);
  });
});

describe("RunStore: resume after kill -9", () => {
  const script = resolve(import.meta.dirname, "../../fixtures/append-episodes.ts");
  /** Large episodes, so that the kill often lands in the middle of a write. */
  const PAD = 3000;

  /** Runs the append script until it reports `atLeast` episodes, then kills it with SIGKILL. */
  function runAndKill(dir: string, atLeast: number): Promise<{ killed: boolean; last: number }> {
    return new Promise((done, fail) => {
      const child = spawn(process.execPath, ["--import", "tsx", script, dir, "100000000", "3000"], { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      let last = 0;
      let killed = false;
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        for (const m of out.matchAll(/written (\d+)/g)) last = Math.max(last, Number(m[1]));
        if (!killed && last >= atLeast) {
          killed = child.kill("SIGKILL");
        }
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
      child.on("error", fail);
      child.on("exit", (code, signal) => {
        if (signal === "SIGKILL") done({ killed: true, last });
        else fail(new Error(`the append script exited with ${code} before it was killed: ${err}`));
      });
    });
  }

  it("reopens a clean prefix and continues to the same files as an uninterrupted run", async () => {
    const dir = freshDir();
    const first = await runAndKill(dir, 300);
    expect(first.killed).toBe(true);

    let store = await RunStore.open(dir);
    const n1 = store.nextIndex;
    store.close();
    expect(n1).toBeGreaterThanOrEqual(first.last);
    expect(files(dir)).toEqual(await reference(n1, PAD));

    // A second crash, on a resumed run.
    const second = await runAndKill(dir, n1 + 300);
    expect(second.killed).toBe(true);
    store = await RunStore.open(dir);
    const n2 = store.nextIndex;
    expect(n2).toBeGreaterThanOrEqual(second.last);
    store.close();

    const total = n2 + 150;
    await writeRun(dir, total, n2, PAD);
    expect(existsSync(join(dir, `${RUN_FILES.events}.rewrite`))).toBe(false);
    expect(files(dir)).toEqual(await reference(total, PAD));
  });
});
