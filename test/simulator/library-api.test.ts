import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bundledToolsetsDir,
  createSimulation,
  loadToolsets,
  RuleTester,
  RUN_FILES,
  type AssistantAgent,
  type LoadedToolset,
  type SimEvent,
  type Tester,
  type Verdict,
} from "../../simulator/library.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const README = join(ROOT, "README.md");
const FIXTURE = fileURLToPath(new URL("../fixtures/readme-library.ts", import.meta.url));
const TSX_CLI = createRequire(import.meta.url).resolve("tsx/cli");

const tmp = mkdtempSync(join(tmpdir(), "toolsim-library-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The first TypeScript block of the README's "Library" section. */
function readmeExample(): string {
  const text = readFileSync(README, "utf8");
  const section = text.split(/^## Library\s*$/m)[1];
  if (section === undefined) throw new Error("README.md has no '## Library' section");
  const block = /```ts\n([\s\S]*?)```/.exec(section.split(/^## /m)[0] ?? "")?.[1];
  if (block === undefined) throw new Error("the Library section has no ```ts block");
  return block;
}

describe("the README's Library example", () => {
  it("is the type-checked copy in test/fixtures/readme-library.ts (import path aside)", () => {
    const text = readFileSync(FIXTURE, "utf8");
    // The fixture's own header comment stops at the first import.
    const fixture = text
      .slice(text.search(/^import /m))
      .replace('from "../../simulator/library.js"', 'from "./simulator/library.js"');
    expect(fixture).toBe(readmeExample());
  });

  it("runs as written from the root of a checkout", async () => {
    const code = readmeExample();
    const child = spawn(process.execPath, [TSX_CLI, "--input-type=module", "-e", code], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => void (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => void (err += d.toString()));
    const exit = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(err).toBe("");
    expect(exit).toBe(0);
    const lines = out.trim().split("\n");
    // The tool.call subscriber printed calls with their HTTP requests, the episode.finished one each outcome.
    expect(lines.some((l) => /^ep-\d{6} \w+ -> (GET|POST|PUT|PATCH|DELETE) \/\S*$/.test(l))).toBe(true);
    expect(lines.filter((l) => /^ep-\d{6} (accepted|rejected|error)/.test(l))).toHaveLength(12);
    expect(lines.at(-1)).toMatch(/^\d+ of 12 episodes accepted$/);
  });
});

describe("the library API", () => {
  let toolsets: LoadedToolset[];
  beforeAll(async () => {
    const loaded = await loadToolsets(["holidays", "weather", "bookstore"].map((n) => join(bundledToolsetsDir(), `${n}.yaml`)));
    toolsets = loaded.toolsets;
    expect(toolsets).toHaveLength(3);
  });

  it("runs in memory, delivers typed events to subscribers, and uses a custom tester", async () => {
    const judged: number[] = [];
    const rules = new RuleTester();
    // Rejects every episode with more than one call, at a stage of its own.
    const tester: Tester = {
      async judge(episode, ctx) {
        judged.push(ctx.index);
        const verdict = await rules.judge(episode, ctx);
        const reasons = episode.calls.length > 1 ? ["more than one call"] : [];
        const stages = [...verdict.stages, { stage: "judge" as const, pass: reasons.length === 0, reasons }];
        if (!verdict.accepted) return { ...verdict, stages };
        return reasons.length === 0 ? ({ accepted: true, stages } satisfies Verdict) : { accepted: false, stages, failedStage: "judge" };
      },
    };
    const sim = createSimulation({ toolsets, episodes: 9, seed: 3, agents: { tester } });
    const calls: string[] = [];
    const finished: SimEvent[] = [];
    const all: SimEvent[] = [];
    sim.on("tool.call", (e) => {
      expect(e.type).toBe("tool.call");
      if (e.operation) calls.push(`${e.operation.method} ${e.operation.path} ${e.request?.path}`);
    });
    sim.on("episode.finished", (e) => void finished.push(e));
    const off = sim.on("*", (e) => void all.push(e));
    const result = await sim.run();

    expect(result.ran).toBe(9);
    expect(result.interrupted).toBe(false);
    expect(result.dir).toBeUndefined();
    expect(result.runId).toBe(sim.runId);
    expect(judged.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => /^(get|post|put|patch|delete) \/\S+ \/\S*$/.test(c))).toBe(true);
    expect(finished).toHaveLength(9);
    expect(result.summary.episodes).toBe(9);
    expect(result.summary.accepted + result.summary.rejected + result.summary.errors).toBe(9);
    // The custom stage appears in the funnel when it discarded something.
    const discardedAtJudge = finished.filter((e) => e.type === "episode.finished" && e.reason === "judge").length;
    expect(result.summary.stages.judge?.discarded ?? 0).toBe(discardedAtJudge);
    // Events of one episode are in seq order.
    const first = all.filter((e) => e.episodeId === "ep-000000");
    expect(first.map((e) => e.seq)).toEqual(first.map((_, i) => i));

    // Unsubscribed: a second run does not reach the listener.
    off();
    const count = all.length;
    await sim.run();
    expect(all.length).toBe(count);
  });

  it("plugs in a custom assistant; the other agents stay the offline ones", async () => {
    const assistant: AssistantAgent = { step: async () => ({ kind: "give-up", reason: "I only watch." }) };
    const sim = createSimulation({ toolsets, episodes: 4, seed: 1, agents: { assistant } });
    const gaveUp: string[] = [];
    sim.on("assistant.gave-up", (e) => void gaveUp.push(e.reason));
    const { summary } = await sim.run();
    expect(gaveUp).toEqual(["I only watch.", "I only watch.", "I only watch.", "I only watch."]);
    expect(summary.accepted).toBe(0);
    expect(summary.rejected).toBe(4);
  });

  it("writes a run folder whose journal is what the subscribers saw", async () => {
    const out = join(tmp, "run");
    const at = new Date("2025-05-05T05:05:05.000Z");
    const sim = createSimulation({ toolsets, episodes: 5, seed: 9, concurrency: 3, out, clock: () => at });
    const seen: SimEvent[] = [];
    sim.on("*", (e) => void seen.push(e));
    const result = await sim.run();
    expect(result.dir).toBe(out);
    const journal = readFileSync(join(out, RUN_FILES.events), "utf8");
    // Episodes are written whole and in index order; subscribers see them as they happen (interleaved).
    const byEpisode = [...seen].sort((a, b) => a.episodeId.localeCompare(b.episodeId) || a.seq - b.seq);
    expect(journal).toBe(byEpisode.map((e) => `${JSON.stringify(e)}\n`).join(""));
    const info = JSON.parse(readFileSync(join(out, RUN_FILES.run), "utf8")) as { toolsetFiles?: string[]; createdAt: string };
    expect(info.toolsetFiles).toEqual(toolsets.map((t) => t.file));
    expect(info.createdAt).toBe(at.toISOString());
  });

  it("stop() from a subscriber: the episodes in flight finish, the rest do not start", async () => {
    const sim = createSimulation({ toolsets, episodes: 50, seed: 2, concurrency: 2 });
    sim.on("episode.finished", (e) => {
      if (e.episodeId === "ep-000002") sim.stop();
    });
    const result = await sim.run();
    expect(result.interrupted).toBe(true);
    expect(result.ran).toBeGreaterThanOrEqual(3);
    expect(result.ran).toBeLessThan(10);
    expect(result.summary.episodes).toBe(result.ran);
  });

  it("a subscriber that throws does not disturb the run; its errors go to onListenerError", async () => {
    const errors: string[] = [];
    const sim = createSimulation({ toolsets, episodes: 3, seed: 4, onListenerError: (err, event) => void errors.push(`${event.type}: ${(err as Error).message}`) });
    let calls = 0;
    sim.on("tool.call", () => {
      calls++;
      throw new Error("observer bug");
    });
    const { summary } = await sim.run();
    expect(summary.episodes).toBe(3);
    expect(summary.errors).toBe(0);
    expect(summary.calls.total).toBe(calls);
    expect(errors).toEqual(Array.from({ length: calls }, () => "tool.call: observer bug"));
  });

  it("refuses a simulation without toolsets", () => {
    expect(() => createSimulation({ toolsets: [] })).toThrow(/at least one toolset/);
  });
});
