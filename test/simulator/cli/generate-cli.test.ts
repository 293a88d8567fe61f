import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Toolbox } from "../../../agents/roles/toolbox.js";
import type { CorpusRecord, RejectedRecord } from "../../../simulator/runs/corpus-projection.js";
import { RUN_FILES, type RunInfo } from "../../../simulator/runs/run-info.js";
import type { RunSummary } from "../../../simulator/runs/run-summary.js";
import { validateCall } from "../../../specs/call/validate-call.js";
import { validateResponse } from "../../../specs/call/validate-response.js";
import { bundledToolsetsDir, loadToolsets } from "../../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";
import { runCli as cli } from "../../support/cli-in-process.js";

const root = mkdtempSync(join(tmpdir(), "toolsim-generate-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const fresh = (): string => join(root, `out-${counter++}`);
const bundled = (name: string): string => join(bundledToolsetsDir(), `${name}.yaml`);

interface Ran {
  code: number;
  out: string;
  err: string;
}

const STACK = /\n\s+at .+:\d+:\d+/;
const jsonLines = <T>(path: string): T[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as T);

describe("toolsim generate (default: the bundled toolsets, offline)", () => {
  const dir = fresh();
  let ran: Ran;
  let toolsets: LoadedToolset[];
  beforeAll(async () => {
    ran = await cli(["generate", "--episodes", "20", "--out", dir]);
    toolsets = (await loadToolsets([bundledToolsetsDir()])).toolsets;
  });

  it("exits 0 and writes a run folder with a non-empty corpus", () => {
    expect(ran.err).not.toMatch(STACK);
    expect(ran.code).toBe(0);
    for (const f of Object.values(RUN_FILES)) expect(existsSync(join(dir, f))).toBe(true);
    const corpus = jsonLines<CorpusRecord>(join(dir, RUN_FILES.corpus));
    const rejected = jsonLines<RejectedRecord>(join(dir, RUN_FILES.rejected));
    expect(corpus.length).toBeGreaterThan(0);
    expect(corpus.length + rejected.length).toBe(20);
    expect(corpus.every((r) => r.meta.outcome === "accepted" && r.verdict?.accepted === true)).toBe(true);
    // Rejected episodes carry the failed stage and reasons.
    for (const r of rejected) {
      expect(r.failedStage).toBeTruthy();
      expect(r.reasons.length).toBeGreaterThan(0);
    }
  });

  it("ends with where the run is and a one-screen summary with the tester funnel", () => {
    expect(ran.err).toContain(`-> ${dir}`);
    expect(ran.out).toContain(`run run-`);
    expect(ran.out).toContain("episodes 20: accepted");
    expect(ran.out).toContain("tester funnel");
    expect(ran.out).toContain(join(dir, "corpus.jsonl"));
    const summary = JSON.parse(readFileSync(join(dir, RUN_FILES.summary), "utf8")) as RunSummary;
    expect(summary.episodes).toBe(20);
    expect(summary.accepted + summary.rejected + summary.errors).toBe(20);
    expect(Object.keys(summary.stages)).toEqual(expect.arrayContaining(["format", "execution", "grounding", "plan"]));
    const discarded = Object.values(summary.stages).reduce((n, s) => n + (s?.discarded ?? 0), 0);
    expect(discarded).toBe(summary.rejected);
    for (const s of Object.values(summary.stages)) if (s && s.discarded > 0) expect(s.topReasons.length).toBeGreaterThan(0);
    const info = JSON.parse(readFileSync(join(dir, RUN_FILES.run), "utf8")) as RunInfo;
    expect(info.seed).toBe(1);
    expect(info.config).toMatchObject({ episodes: 20, level: "call" });
    expect(Object.keys(info.specHashes)).toHaveLength(15);
  });

  it("every accepted tool call validates against its spec, and its observation against its response schema", () => {
    const corpus = jsonLines<CorpusRecord>(join(dir, RUN_FILES.corpus));
    let checked = 0;
    for (const record of corpus) {
      const toolbox = new Toolbox(toolsets.filter((t) => record.toolsets.includes(t.name)));
      const where = (i: number): string => `${record.meta.episodeId} steps[${i}]`;
      record.steps.forEach((step, i) => {
        const entry = toolbox.get(step.call.name);
        expect(entry, `${where(i)}: unknown tool ${step.call.name} in an accepted episode`).toBeDefined();
        if (!entry) return;
        const obs = step.observation;
        expect(obs, `${where(i)}: no observation`).toBeDefined();
        if (!obs) return;
        const v = validateCall(entry.toolset.catalog, entry.tool.name, step.call.arguments);
        if (obs.source === "validation") {
          // The executor refused it; re-validation agrees, and the tester let it pass only because a corrected call followed.
          expect(v.ok, `${where(i)}: refused by the executor but valid`).toBe(false);
          const retried = record.steps.slice(i + 1).some((s) => s.call.name === step.call.name && s.observation?.source !== "validation");
          expect(retried, `${where(i)}: invalid call without a corrected retry`).toBe(true);
          return;
        }
        expect(v.ok ? [] : v.errors, `${where(i)}: ${step.call.name} ${JSON.stringify(step.call.arguments)}`).toEqual([]);
        if (!v.ok) return;
        checked++;
        // The call event names the operation and the HTTP request the call maps to.
        expect(step.call.operation).toMatchObject({ method: entry.tool.operation.method, path: entry.tool.operation.path });
        expect(step.call.request, `${where(i)}: request`).toEqual(v.value.request);
        if (obs.status < 400) {
          const issues = validateResponse(entry.toolset.catalog, entry.tool, obs.status, obs.body, obs.contentType);
          expect(issues, `${where(i)}: response ${obs.status} of ${step.call.name}`).toEqual([]);
          expect(obs.responseErrors ?? []).toEqual([]);
        }
      });
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("`runs show DIR` prints the summary; --json prints summary.json", async () => {
    const shown = await cli(["runs", "show", dir]);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain("episodes 20: accepted");
    expect(shown.out).toContain("tester funnel");
    expect(shown.out).toContain("operations covered");
    const json = await cli(["runs", "show", dir, "--json"]);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.out) as RunSummary).episodes).toBe(20);
    const missing = await cli(["runs", "show", join(root, "nope")]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("is not a run folder");
    expect(missing.err).not.toMatch(STACK);
  });

  it("`runs show` recomputes a stale summary from the journal, says an unfinished run is unfinished, and skips damaged lines", async () => {
    const copy = fresh();
    cpSync(dir, copy, { recursive: true });
    // A crash leaves summary.json behind the journal, and run.json asked for more episodes than were finished.
    const summary = JSON.parse(readFileSync(join(copy, RUN_FILES.summary), "utf8")) as RunSummary;
    writeFileSync(join(copy, RUN_FILES.summary), JSON.stringify({ ...summary, episodes: 7, accepted: 1 }));
    const info = JSON.parse(readFileSync(join(copy, RUN_FILES.run), "utf8")) as RunInfo;
    writeFileSync(join(copy, RUN_FILES.run), JSON.stringify({ ...info, config: { ...info.config, episodes: 30 } }));
    const stale = await cli(["runs", "show", copy]);
    expect(stale.code).toBe(0);
    expect(stale.out).toContain("episodes 20: accepted");
    expect(stale.err).toContain("summary.json counts 7 episodes, the journal 20");
    expect(stale.err).toContain("unfinished: 20 of 30 episodes");
    expect(stale.err).toContain(`generate --resume --out ${copy}`);
    // A damaged line inside an episode: that episode is skipped with the file and line, the rest is counted.
    rmSync(join(copy, RUN_FILES.summary));
    const lines = readFileSync(join(copy, RUN_FILES.events), "utf8").split("\n");
    lines.splice(2, 0, "{not json");
    writeFileSync(join(copy, RUN_FILES.events), lines.join("\n"));
    const damaged = await cli(["runs", "show", copy, "--json"]);
    expect(damaged.code).toBe(0);
    expect((JSON.parse(damaged.out) as RunSummary).episodes).toBe(19);
    expect(damaged.err).toMatch(/events\.jsonl:3: not a journal event; episode ep-000000 skipped/);
    expect(damaged.err).not.toMatch(STACK);
  });

  it("--resume where no run was started yet starts one and says so", async () => {
    const out = fresh();
    const started = await cli(["generate", "--resume", "--out", out, "--episodes", "2"]);
    expect(started.code).toBe(0);
    expect(started.err).toContain(`no run in ${out} yet: starting a new one`);
    expect(started.err).not.toContain("resuming");
    expect(existsSync(join(out, RUN_FILES.corpus))).toBe(true);
    const again = await cli(["generate", "--resume", "--out", out]);
    expect(again.err).toContain("resuming 2 episodes");
  });

  it("refuses an existing run folder without --resume (exit 1, with the hint)", async () => {
    const again = await cli(["generate", "--episodes", "20", "--out", dir]);
    expect(again.code).toBe(1);
    expect(again.err).toContain("--resume");
    expect(again.err).toContain("not empty");
    expect(again.err).not.toMatch(STACK);
  });

  it("--resume of a finished run runs nothing more and keeps its settings (no options repeated)", async () => {
    const before = readFileSync(join(dir, RUN_FILES.events), "utf8");
    const resumed = await cli(["generate", "--resume", "--out", dir]);
    expect(resumed.err).not.toMatch(STACK);
    expect(resumed.code).toBe(0);
    expect(readFileSync(join(dir, RUN_FILES.events), "utf8")).toBe(before);
    // Another concurrency is fine (it does not change the content); another seed is refused, naming it.
    expect((await cli(["generate", "--resume", "--out", dir, "--concurrency", "2"])).code).toBe(0);
    const mismatch = await cli(["generate", "--resume", "--out", dir, "--seed", "9"]);
    expect(mismatch.code).toBe(1);
    expect(mismatch.err).toContain("different seed 1 vs 9");
  });
});

describe("toolsim generate: bad input is reported, never a stack trace", () => {
  const usage: Array<[string, string[], RegExp]> = [
    ["--episodes zero", ["--episodes", "zero"], /--episodes must be an integer, got "zero"/],
    ["--episodes 0", ["--episodes", "0"], /--episodes must be at least 1/],
    ["--concurrency -1", ["--concurrency", "-1"], /--concurrency must be at least 1/],
    ["--level foo", ["--level", "foo"], /'foo' is invalid.*call, retrieve, plan/s],
    ["an unknown option", ["--episdoes", "3"], /unknown option '--episdoes'/],
    ["--resume without --out", ["--resume"], /--resume needs --out/],
  ];
  for (const [name, args, message] of usage) {
    it(`${name}: exit 2 with a message`, async () => {
      const out = fresh();
      const ran = await cli(["generate", ...args, ...(args.includes("--resume") ? [] : ["--out", out])]);
      expect(ran.code).toBe(2);
      expect(ran.err).toMatch(message);
      expect(ran.err).not.toMatch(STACK);
      expect(existsSync(out)).toBe(false);
    });
  }

  it("a folder that is not a run cannot be resumed (exit 1)", async () => {
    const dir = fresh();
    mkdirSync(dir);
    writeFileSync(join(dir, "notes.txt"), "mine");
    const ran = await cli(["generate", "--resume", "--episodes", "2", "--toolsets", bundled("holidays"), "--out", dir]);
    expect(ran.code).toBe(1);
    expect(ran.err).toContain("holds no run.json");
    expect(ran.err).not.toMatch(STACK);
  });

  it("--out naming a file: exit 1 with the file-system message", async () => {
    const file = fresh();
    writeFileSync(file, "not a folder");
    for (const out of [file, join(file, "sub")]) {
      const ran = await cli(["generate", "--episodes", "1", "--toolsets", bundled("holidays"), "--out", out]);
      expect(ran.code).toBe(1);
      expect(ran.err).toContain("ENOTDIR");
      expect(ran.err).not.toMatch(STACK);
    }
  });

  it("a missing toolset path: exit 1", async () => {
    const ran = await cli(["generate", "--toolsets", join(root, "missing.yaml"), "--out", fresh()]);
    expect(ran.code).toBe(1);
    expect(ran.err).toContain("no such toolset file or folder");
  });

  it("--toolsets with a broken toolset file: skipped with a message, the good ones run", async () => {
    const folder = fresh();
    mkdirSync(folder);
    copyFileSync(bundled("holidays"), join(folder, "holidays.yaml"));
    copyFileSync(bundled("currency"), join(folder, "currency.yaml"));
    writeFileSync(join(folder, "broken.yaml"), "name: Broken\nintroduction: [unclosed\n");
    writeFileSync(join(folder, "incomplete.yaml"), "name: Incomplete\nopenapi: {}\n");
    const out = fresh();
    const ran = await cli(["generate", "--toolsets", folder, "--episodes", "4", "--out", out]);
    expect(ran.err).not.toMatch(STACK);
    expect(ran.code).toBe(0);
    expect(ran.err).toMatch(/skipped: .*broken\.yaml.*invalid YAML/);
    expect(ran.err).toMatch(/skipped: .*incomplete\.yaml/);
    expect(ran.err).toContain("over 2 toolsets");
    const info = JSON.parse(readFileSync(join(out, RUN_FILES.run), "utf8")) as RunInfo;
    expect(Object.keys(info.specHashes).sort()).toEqual(["currency", "holidays"]);
    expect(ran.out).toContain("episodes 4:");
  });

  it("--toolsets where nothing loads: exit 1", async () => {
    const bad = join(fresh() + ".yaml");
    writeFileSync(bad, "just a string\n");
    const ran = await cli(["generate", "--toolsets", bad, "--out", fresh()]);
    expect(ran.code).toBe(1);
    expect(ran.err).toContain("no toolset could be loaded");
    expect(ran.err).not.toMatch(STACK);
  });
});

describe("toolsim generate --config", () => {
  it("takes the settings from the file; the command line wins over it", async () => {
    const dir = fresh();
    mkdirSync(dir);
    const out = join(dir, "run");
    const config = join(dir, "toolsim.config.yaml");
    copyFileSync(bundled("holidays"), join(dir, "holidays.yaml"));
    // Toolset paths are relative to the config file.
    writeFileSync(config, `toolsets: [holidays.yaml]\nepisodes: 3\nseed: 77\nlevel: retrieve\nmaxSteps: 6\nconcurrency: 2\nout: ${out}\n`);
    const ran = await cli(["generate", "--config", config, "--seed", "78"]);
    expect(ran.err).not.toMatch(STACK);
    expect(ran.code).toBe(0);
    const info = JSON.parse(readFileSync(join(out, RUN_FILES.run), "utf8")) as RunInfo;
    expect(info.seed).toBe(78);
    expect(info.config).toMatchObject({ episodes: 3, level: "retrieve", maxSteps: 6, concurrency: 2, toolsets: ["holidays"] });
    expect(ran.out).toContain("episodes 3:");
  });

  const bad: Array<[string, string, RegExp]> = [
    ["an unknown key", "episodes: 3\nepisode_count: 4\n", /episode_count/],
    ["broken YAML", "episodes: [3\nseed: 1\n", /invalid YAML/],
    ["a wrong type", "episodes: many\n", /episodes: .*number/i],
    ["a bad level", "level: expert\n", /level/],
  ];
  for (const [name, text, message] of bad) {
    it(`${name}: a clear error naming the file, exit 1`, async () => {
      const dir = fresh();
      mkdirSync(dir);
      const config = join(dir, "bad.yaml");
      writeFileSync(config, text);
      const out = join(dir, "run");
      const ran = await cli(["generate", "--config", config, "--out", out]);
      expect(ran.code).toBe(1);
      expect(ran.err).toContain(config);
      expect(ran.err).toMatch(message);
      expect(ran.err).not.toMatch(STACK);
      expect(existsSync(out)).toBe(false);
    });
  }

  it("a missing config file: exit 1", async () => {
    const ran = await cli(["generate", "--config", join(root, "none.yaml"), "--out", fresh()]);
    expect(ran.code).toBe(1);
    expect(ran.err).toContain("cannot read config");
  });
});
