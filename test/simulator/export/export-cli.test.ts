import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DfsdtTrajectory } from "../../../agents/assistant/text/dfsdt-assistant.js";
import { splitDraw, splitFileNames, validationCount, validationThreshold } from "../../../simulator/export/dataset-split.js";
import { dfsdtPreferencePairs } from "../../../simulator/export/dfsdt-pairs.js";
import type { OpenAIMessage } from "../../../simulator/export/openai-format.js";
import { planPairs, type PairCandidate } from "../../../simulator/export/pairing-rule.js";
import { splitPreferencePair } from "../../../simulator/export/preference-pair.js";
import { redactRecord, redactSchemaSecrets } from "../../../simulator/export/redact-record.js";
import type { SimEvent } from "../../../simulator/core/events.js";
import { RUN_FILES } from "../../../simulator/runs/run-info.js";
import { RunStore } from "../../../simulator/runs/run-store.js";
import { BOOKSHOP, FIXTURE_SECRETS, fixtureEpisodes, fixtureRunInfo, writeFixtureRun } from "../../fixtures/export-run.js";
import { runCli as cli } from "../../support/cli-in-process.js";

const root = mkdtempSync(join(tmpdir(), "toolsim-export-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let run = "";
beforeAll(async () => {
  run = await writeFixtureRun(join(root, "run"));
});

const jsonLines = (path: string): Record<string, unknown>[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("toolsim export", () => {
  it("exports the accepted episodes and says where", async () => {
    const out = join(root, "a", "openai.jsonl");
    const r = await cli(["export", run, "--format", "openai", "--out", out]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toBe(`exported 3 episodes as openai from 6 episodes of ${run} -> ${out} (3 lines)\n`);
    expect(jsonLines(out)).toHaveLength(3);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it("--include-rejected, --meta, --no-thoughts and --system shape the lines", async () => {
    const out = join(root, "b.jsonl");
    const r = await cli(["export", run, "--format", "openai", "--out", out, "--include-rejected", "--meta", "--no-thoughts", "--system", ""]);
    expect(r.code).toBe(0);
    const all = jsonLines(out) as { messages: { role: string; content?: string; tool_calls?: unknown[] }[]; meta: { episodeId: string; outcome: string; failedStage?: string } }[];
    expect(all.map((l) => [l.meta.episodeId, l.meta.outcome, l.meta.failedStage])).toEqual([
      ["ep-000000", "accepted", undefined],
      ["ep-000001", "rejected", "plan"],
      ["ep-000002", "accepted", undefined],
      ["ep-000003", "error", "error"],
      ["ep-000004", "rejected", "execution"],
      ["ep-000005", "accepted", undefined],
    ]);
    for (const l of all) {
      expect(l.messages[0]?.role).toBe("user");
      for (const m of l.messages) if (m.tool_calls) expect(m.content).toBeUndefined();
    }
  });

  it("splits into train and validation files, exactly and deterministically by seed", async () => {
    const base = join(root, "split", "data.jsonl");
    const r1 = await cli(["export", run, "--format", "sharegpt", "--out", base, "--include-rejected", "--split", "0.5", "--seed", "3"]);
    expect(r1.code).toBe(0);
    const names = splitFileNames(base);
    expect(names).toEqual({ train: join(root, "split", "data.train.jsonl"), validation: join(root, "split", "data.validation.jsonl") });
    const first = { train: readFileSync(names.train, "utf8"), validation: readFileSync(names.validation, "utf8") };
    // sharegpt writes 5 of the 6 episodes (episode 3 cannot alternate): the split covers the 6 selected episodes.
    const total = first.train.split("\n").filter(Boolean).length + first.validation.split("\n").filter(Boolean).length;
    expect(total).toBe(5);
    expect(r1.out).toContain("data.train.jsonl");
    await cli(["export", run, "--format", "sharegpt", "--out", base, "--include-rejected", "--split", "0.5", "--seed", "3"]);
    expect(readFileSync(names.train, "utf8")).toBe(first.train);
    expect(readFileSync(names.validation, "utf8")).toBe(first.validation);
    // Each episode goes wholly to one side: the openai split puts the same episodes in validation.
    await cli(["export", run, "--format", "openai", "--out", join(root, "split", "o.jsonl"), "--include-rejected", "--meta", "--split", "0.5", "--seed", "3"]);
    const validationIds = jsonLines(join(root, "split", "o.validation.jsonl")).map((l) => (l["meta"] as { episodeId: string }).episodeId);
    expect(validationIds).toHaveLength(validationCount(6, 0.5));
    const draws = Array.from({ length: 6 }, (_, i) => splitDraw(3, `ep-00000${i}`));
    const threshold = validationThreshold(draws, 0.5);
    expect(validationIds).toEqual(draws.flatMap((d, i) => (d <= threshold ? [`ep-00000${i}`] : [])));
  });

  it("never writes the run's secrets, in any format", async () => {
    for (const format of ["openai", "sharegpt", "toolalpaca", "apibank", "alpaca", "dpo"]) {
      const out = join(root, "secrets", `${format}.jsonl`);
      const r = await cli(["export", run, "--format", format, "--out", out, "--include-rejected", "--meta"]);
      expect(r.code, r.err).toBe(0);
      const text = readFileSync(out, "utf8");
      for (const s of FIXTURE_SECRETS) expect(text, `${format}: ${s}`).not.toContain(s);
      // What describes a secret is not one: the login's `tokenType: "Bearer"` survives where observations are exported.
      if (format !== "alpaca" && format !== "dpo") expect(text, format).toMatch(/tokenType\W{1,8}Bearer\W/);
    }
  });

  it("finds moved toolsets with --toolsets, and warns when they are missing", async () => {
    const moved = join(root, "moved");
    mkdirSync(moved, { recursive: true });
    for (const f of readdirSync(run)) copyFileSync(join(run, f), join(moved, f));
    const info = JSON.parse(readFileSync(join(moved, RUN_FILES.run), "utf8")) as { toolsetFiles: string[] };
    info.toolsetFiles = [join(root, "nowhere", "bookshop.yaml")];
    writeFileSync(join(moved, RUN_FILES.run), JSON.stringify(info));
    const missing = await cli(["export", moved, "--format", "openai", "--out", join(root, "m1.jsonl")]);
    expect(missing.code).toBe(0);
    expect(missing.err).toContain("toolsim: warning: toolset file not found");
    expect(missing.err).toContain("toolset bookshop could not be loaded");
    // Without the toolset, episode 0 is offered the tools it called, without schemas.
    const tools = (jsonLines(join(root, "m1.jsonl"))[0]?.["tools"] as { function: { name: string } }[]).map((t) => t.function.name);
    expect(tools).toEqual(["searchBooks", "getBook"]);
    const found = await cli(["export", moved, "--format", "openai", "--out", join(root, "m2.jsonl"), "--toolsets", BOOKSHOP]);
    expect(found.err).toBe("");
    expect((jsonLines(join(root, "m2.jsonl"))[0]?.["tools"] as unknown[]).length).toBe(3);
  });

  it("reports usage errors with exit 2 and run errors with exit 1, without a stack trace", async () => {
    const cases: [string[], number, RegExp][] = [
      [["export", run, "--format", "csv", "--out", "x.jsonl"], 2, /argument 'csv' is invalid/],
      [["export", run, "--format", "openai"], 2, /--out/],
      [["export", run, "--format", "openai", "--out", join(root, "x.jsonl"), "--split", "1.5"], 2, /--split must be a number between 0 and 1/],
      [["export", run, "--format", "openai", "--out", join(root, "x.jsonl"), "--seed", "4"], 2, /--seed sets the seed of --split/],
      [["export", run, "--format", "openai", "--out", join(root, "x.jsonl"), "--pair-with", run], 2, /--pair-with is for --format dpo/],
      [["export", join(root, "not-a-run"), "--format", "openai", "--out", join(root, "x.jsonl")], 1, /is not a run folder/],
    ];
    for (const [argv, code, message] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(" ")).toBe(code);
      expect(r.err).toMatch(message);
      expect(r.err).not.toMatch(/\n\s+at .+:\d+:\d+/);
    }
  });

  it("dpo --pair-with pairs episodes across runs (a fork or replay of the same instructions)", async () => {
    const out = join(root, "pairs.jsonl");
    const r = await cli(["export", run, "--format", "dpo", "--out", out, "--pair-with", run, "--meta"]);
    expect(r.code).toBe(0);
    // Each rejected episode (1 and 4, in both copies of the pool) takes one pair.
    const all = jsonLines(out) as { meta: { rule: string; chosen: { episodeId: string }; rejected: { episodeId: string } } }[];
    expect(all.map((l) => [l.meta.rule, l.meta.chosen.episodeId, l.meta.rejected.episodeId])).toEqual([
      ["instruction", "ep-000000", "ep-000001"],
      ["plan", "ep-000002", "ep-000004"],
      ["instruction", "ep-000000", "ep-000001"],
      ["plan", "ep-000002", "ep-000004"],
    ]);
  });
});

describe("toolsim export: nothing to write", () => {
  it("dpo without pairs explains why, suggests --pair-with or a fork, writes no file and exits 1", async () => {
    const lone = join(root, "lone-run");
    const store = await RunStore.create(lone, await fixtureRunInfo());
    store.appendEpisode(fixtureEpisodes()[0] as SimEvent[]);
    store.close();
    const out = join(root, "lone", "pairs.jsonl");
    const r = await cli(["export", lone, "--format", "dpo", "--out", out]);
    expect(r.code).toBe(1);
    expect(r.out).toBe(`exported 0 preference pairs (0 by instruction, 0 by plan) as dpo from 1 episodes of ${lone} -> nothing written\n`);
    expect(r.err).toContain("no preference pairs: no instruction (or plan) in");
    expect(r.err).toContain("(1 accepted, 0 rejected)");
    expect(r.err).toContain("--pair-with RUN2");
    expect(r.err).toContain(`toolsim replay ${lone} --from-episode all --from-turn 1`);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
    // The other formats too: nothing accepted, nothing written, exit 1 with a hint.
    const rejectedOnly = join(root, "rejected-run");
    const rs = await RunStore.create(rejectedOnly, await fixtureRunInfo());
    // Episode 1 of the fixture (rejected) as the run's only episode.
    rs.appendEpisode((fixtureEpisodes()[1] as SimEvent[]).map((e) => ({ ...e, episodeId: "ep-000000", ...(e.type === "episode.started" ? { index: 0 } : {}) }) as SimEvent));
    rs.close();
    const none = await cli(["export", rejectedOnly, "--format", "openai", "--out", join(root, "none.jsonl")]);
    expect(none.code).toBe(1);
    expect(none.err).toContain("no accepted episodes to export among the 1 episodes");
    expect(none.err).toContain("--include-rejected");
    expect(existsSync(join(root, "none.jsonl"))).toBe(false);
  });

  it("says --include-rejected does not apply to dpo", async () => {
    const r = await cli(["export", run, "--format", "dpo", "--out", join(root, "inc.jsonl"), "--include-rejected"]);
    expect(r.code).toBe(0);
    expect(r.err).toBe("toolsim: warning: --include-rejected does not apply to dpo: every pair already holds a rejected trajectory (with --pair-with, from either run)\n");
  });
});

describe("the pairing rule", () => {
  const c = (index: number, outcome: PairCandidate["outcome"], instructionKey?: string, planKey?: string): PairCandidate => ({
    run: 0,
    index,
    episodeId: `ep-${index}`,
    outcome,
    ...(instructionKey ? { instructionKey } : {}),
    ...(planKey ? { planKey } : {}),
  });

  it("prefers the same instruction, falls back to the same plan, leaves errors and unmatched episodes out", () => {
    const pairs = planPairs([c(0, "accepted", "i1", "p1"), c(1, "accepted", "i2", "p1"), c(2, "rejected", "i3", "p1"), c(3, "rejected", "i1", "p9"), c(4, "error", "i1", "p1"), c(5, "rejected", "i7", "p7")]);
    expect(pairs.map((p) => [p.chosen.index, p.rejected.index, p.rule])).toEqual([
      [0, 2, "plan"],
      [0, 3, "instruction"],
    ]);
  });

  it("spreads the rejected episodes of a key over its accepted ones in turn", () => {
    const pairs = planPairs([c(0, "accepted", "i"), c(1, "accepted", "i"), c(2, "rejected", "i"), c(3, "rejected", "i"), c(4, "rejected", "i")]);
    expect(pairs.map((p) => p.chosen.index)).toEqual([0, 1, 0]);
  });

  it("splits two forks at their last shared message before the assistant", () => {
    const sys: OpenAIMessage = { role: "system", content: "s" };
    const user: OpenAIMessage = { role: "user", content: "u" };
    const call: OpenAIMessage = { role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] };
    const result: OpenAIMessage = { role: "tool", tool_call_id: "c1", content: "r" };
    const pair = splitPreferencePair([sys, user, call, result, { role: "assistant", content: "good" }], [sys, user, call, result, { role: "assistant", content: "bad" }]);
    expect(pair).toEqual({ prompt: [sys, user, call, result], chosen: [{ role: "assistant", content: "good" }], rejected: [{ role: "assistant", content: "bad" }] });
    expect(splitPreferencePair([sys, user, call], [sys, user, call])).toBeUndefined();
  });

  it("pairs a DFSDT search's successful trajectory with each failed one", () => {
    const base = [{ role: "user" as const, content: "Find Dune" }];
    const t = (path: number[], outcome: DfsdtTrajectory["outcome"], last: string): DfsdtTrajectory => ({
      request: 0,
      path,
      outcome,
      messages: [...base, { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "searchBooks", arguments: { q: "Dune" } }] }, { role: "tool", toolCallId: "call_1", name: "searchBooks", content: "{}", result: { tool: "searchBooks", status: 200, body: {}, errors: [], responseErrors: [], source: "example", notes: [] } }, { role: "assistant", content: last }],
    });
    const pairs = dfsdtPreferencePairs([t([0, 1], "failed", "GIVE UP: nothing"), t([0, 2], "succeeded", "Dune is a book."), t([0, 3], "open", "?")]);
    expect(pairs).toHaveLength(1);
    expect(pairs[0]?.prompt).toHaveLength(3);
    expect(pairs[0]?.chosen).toEqual([{ role: "assistant", content: "Dune is a book." }]);
    expect(pairs[0]?.rejected).toEqual([{ role: "assistant", content: "GIVE UP: nothing" }]);
  });
});

describe("redaction and splits", () => {
  it("blanks secret keys and their values wherever they appear in text", () => {
    const { value, secrets } = redactRecord({ args: { password: "s3cret-pass", refreshToken: "rt_123456" }, text: "my password is s3cret-pass; token rt_123456", other: "s3cret-passport" });
    expect(value).toEqual({ args: { password: "[redacted]", refreshToken: "[redacted]" }, text: "my password is [redacted]; token [redacted]", other: "s3cret-passport" });
    expect([...secrets].sort()).toEqual(["rt_123456", "s3cret-pass"]);
  });

  it("blanks tokens, keys and the credential of an authorization value, never the words that describe them", () => {
    const { value, secrets } = redactRecord({
      result: { accessToken: "eyJhbGci.payload.sig", tokenType: "Bearer", token_type: "bearer", expiresIn: 3600, tokenUrl: "https://auth.example.com/token" },
      headers: { Authorization: "Bearer eyJhbGci.payload.sig", "X-Api-Key": "key-9f8e7d6c", authorization: "Bearer" },
      basic: { authorization: "Basic dXNlcjpwYXNzd29yZA==" },
      flags: { passwordSet: true, apiKeyName: "X-Api-Key", password: "abc" },
      text: "Send it as a Bearer token: Bearer eyJhbGci.payload.sig (key key-9f8e7d6c); abc is fine; token type Bearer.",
    });
    expect(value).toEqual({
      result: { accessToken: "[redacted]", tokenType: "Bearer", token_type: "bearer", expiresIn: 3600, tokenUrl: "https://auth.example.com/token" },
      headers: { Authorization: "Bearer [redacted]", "X-Api-Key": "[redacted]", authorization: "Bearer" },
      basic: { authorization: "Basic [redacted]" },
      flags: { passwordSet: true, apiKeyName: "X-Api-Key", password: "[redacted]" },
      // A three-letter password is blanked where it is a value, but not hunted for in text.
      text: "Send it as a Bearer token: Bearer [redacted] (key [redacted]); abc is fine; token type Bearer.",
    });
    expect([...secrets].sort()).toEqual(["abc", "dXNlcjpwYXNzd29yZA==", "eyJhbGci.payload.sig", "key-9f8e7d6c"]);
    // Known secrets that are common words (a misconfigured credential "Bearer") are not scrubbed either.
    expect(redactRecord({ text: "a Bearer token" }, ["Bearer"]).value).toEqual({ text: "a Bearer token" });
  });

  it("drops the examples of secret fields from schemas and documents", () => {
    const { value, secrets } = redactSchemaSecrets({ properties: { password: { type: "string", examples: ["p4ssw0rd!"] }, name: { type: "string", examples: ["Ann"] } }, example: { password: "p4ssw0rd!" } });
    expect(value).toEqual({ properties: { password: { type: "string" }, name: { type: "string", examples: ["Ann"] } }, example: { password: "[redacted]" } });
    expect([...secrets]).toEqual(["p4ssw0rd!"]);
  });

  it("counts validation items exactly and keeps at least one on each side", () => {
    expect([1, 2, 3, 10, 100].map((n) => validationCount(n, 0.9))).toEqual([0, 1, 1, 1, 10]);
    const draws = Array.from({ length: 100 }, (_, i) => splitDraw(1, `ep-${i}`));
    const threshold = validationThreshold(draws, 0.9);
    expect(draws.filter((d) => d <= threshold)).toHaveLength(10);
    expect(splitDraw(1, "ep-1")).toBe(splitDraw(1, "ep-1"));
    expect(splitDraw(2, "ep-1")).not.toBe(splitDraw(1, "ep-1"));
  });
});
