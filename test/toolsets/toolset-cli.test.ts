import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { CorpusRecord } from "../../simulator/runs/corpus-projection.js";
import type { RunSummary } from "../../simulator/runs/run-summary.js";
import type { ToolsetDocumentation } from "../../toolsets/toolset-documentation.js";
import { runCli as cli } from "../support/cli-in-process.js";

/** `toolset list` and `toolset show`, and corpora generated over imported toolsets. */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const GOOD = fileURLToPath(new URL("../fixtures/toolsets/good/tides.yaml", import.meta.url));
const SPECS = fileURLToPath(new URL("../fixtures/specs/core/", import.meta.url));
const CORPORA = path.resolve(ROOT, process.env["TOOLSIM_CORPORA"] ?? "../shared/corpora");
const root = mkdtempSync(path.join(tmpdir(), "toolsim-toolset-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("npx toolsim toolset list", () => {
  it("lists the bundled toolsets with category, operations, auth and fixtures", async () => {
    const r = await cli(["toolset", "list"]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+CATEGORY\s+OPS\s+AUTH\s+FIXTURES\s+TASKS\s+TITLE$/);
    expect(lines.length).toBe(17);
    expect(lines.at(-1)).toBe("15 toolsets, 97 operations");
    expect(r.out).toMatch(/^bookstore\s+Shopping\s+8\s+apiKey in header X-Api-Key \(2 credentials\)\s+7 in 2 collections\s+-\s+Bookstore$/m);
  });

  it("lists given files as JSON", async () => {
    const r = await cli(["toolset", "list", GOOD, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ name: "tides", title: "Tide Tables", category: "Science & Math", operations: 3, fixtures: 2, collections: 1, tasks: 1 });
  });
});

describe("npx toolsim toolset show", () => {
  it("prints the documentation as the agents see it", async () => {
    const r = await cli(["toolset", "show", "bookstore"]);
    expect(r.code).toBe(0);
    for (const heading of ["# Bookstore (bookstore)", "## Introduction", "## Description", "## Functions", "## Tools (8)", "### getBook  (GET /books/{bookId})"]) expect(r.out).toContain(heading);
    expect(r.out).toContain("1. Name: listBooks");
    expect(r.out).toContain('"bookId": {');
  });

  it("finds a toolset by title, by file, and answers as JSON with each tool's argument schema", async () => {
    expect((await cli(["toolset", "show", "Public Holidays"])).out).toContain("# Public Holidays (holidays)");
    const r = await cli(["toolset", "show", GOOD, "--json"]);
    const doc = JSON.parse(r.out) as ToolsetDocumentation;
    expect(doc.tools.map((t) => t.name)).toEqual(["searchStations", "getStation", "getTides"]);
    expect(doc.tools[1]?.parameters).toMatchObject({ type: "object", required: ["stationId"], properties: { stationId: { type: "string" } } });
    expect(doc.auth).toBe("apiKey in header X-Api-Key (1 credential)");
    expect(doc.fixtures).toEqual({ "/stations": 2 });
  });

  it("names the known toolsets when it finds none (exit 1)", async () => {
    const r = await cli(["toolset", "show", "nope"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no toolset named "nope" .*known: accounts, agenda/);
  });
});

function corpusOf(dir: string): CorpusRecord[] {
  return readFileSync(path.join(dir, "corpus.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as CorpusRecord);
}

describe("imported toolsets generate corpora (offline)", () => {
  it("from an OpenAPI import", async () => {
    const dir = path.join(root, "openapi");
    expect((await cli(["toolset", "import", "openapi", path.join(SPECS, "petstore.yaml"), path.join(SPECS, "petstore-3.1.yaml"), "--out", dir])).code).toBe(0);
    const run = path.join(root, "run-openapi");
    const g = await cli(["generate", "--toolsets", dir, "--episodes", "8", "--out", run]);
    expect(g.code).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(run, "summary.json"), "utf8")) as RunSummary;
    expect(summary.episodes).toBe(8);
    expect(summary.errors).toBe(0);
    expect(corpusOf(run).length).toBeGreaterThan(0);
  });

  it.skipIf(!existsSync(path.join(CORPORA, "toolalpaca", "eval_simulated.json")))("from the ToolAlpaca import", async () => {
    const dir = path.join(root, "toolalpaca");
    expect((await cli(["toolset", "import", "toolalpaca", path.join(CORPORA, "toolalpaca", "eval_simulated.json"), "--out", dir])).code).toBe(0);
    const run = path.join(root, "run-toolalpaca");
    const g = await cli(["generate", "--toolsets", dir, "--episodes", "20", "--out", run]);
    expect(g.code).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(run, "summary.json"), "utf8")) as RunSummary;
    expect(summary.errors).toBe(0);
    expect(corpusOf(run).length).toBeGreaterThan(0);
    expect(Object.keys(summary.operations).length).toBe(10);
  });

  it.skipIf(!existsSync(path.join(CORPORA, "apibank", "api_descriptions.json")))("from the API-Bank import", async () => {
    const dir = path.join(root, "apibank");
    expect((await cli(["toolset", "import", "apibank", path.join(CORPORA, "apibank", "api_descriptions.json"), "--out", dir])).code).toBe(0);
    const run = path.join(root, "run-apibank");
    const g = await cli(["generate", "--toolsets", dir, "--episodes", "42", "--out", run]);
    expect(g.code).toBe(0);
    const summary = JSON.parse(readFileSync(path.join(run, "summary.json"), "utf8")) as RunSummary;
    expect(summary.errors).toBe(0);
    expect(corpusOf(run).length).toBeGreaterThan(0);
  });
});
