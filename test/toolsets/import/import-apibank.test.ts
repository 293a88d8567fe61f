import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulation } from "../../../simulator/core/simulation.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { deriveSeed } from "../../../specs/seed.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { synthesizeArguments } from "../../../specs/synthesize/synthesize-call.js";
import { getAt } from "../../../specs/json-pointer.js";
import { databaseFixtures } from "../../../toolsets/import/apibank-fixtures.js";
import { checkApiBankCall, readApiBankCalls, summarizeCalls, type ApiBankCall } from "../../../toolsets/import/apibank-calls.js";
import { apiBankSchema, importApiBank, summaryOf, type ApiBankApi } from "../../../toolsets/import/import-apibank.js";
import { loadToolsets } from "../../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";
import { checkToolsetData } from "../../../toolsets/validate-toolset.js";
import { runCli as cli } from "../../support/cli-in-process.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const CORPORA = path.resolve(ROOT, process.env["TOOLSIM_CORPORA"] ?? "../shared/corpora");
const APIBANK = path.join(CORPORA, "apibank");
const DESCRIPTIONS = path.join(APIBANK, "api_descriptions.json");
const DIALOGUES = path.join(APIBANK, "level-1-dialogues");

describe("API-Bank import (units)", () => {
  it("maps API-Bank's Python types to JSON Schema", () => {
    expect(apiBankSchema("str")).toEqual({ type: "string" });
    expect(apiBankSchema("int")).toEqual({ type: "integer" });
    expect(apiBankSchema("float")).toEqual({ type: "number" });
    expect(apiBankSchema("bool")).toEqual({ type: "boolean" });
    expect(apiBankSchema("list(str)")).toEqual({ type: "array", items: { type: "string" } });
    expect(apiBankSchema("list")).toEqual({ type: "array", items: {} });
    expect(apiBankSchema("json")).toEqual({ type: "object" });
    expect(apiBankSchema("Union[List[dict], dict]")).toEqual({ oneOf: [{ type: "array", items: { type: "object" } }, { type: "object" }] });
  });

  it("summarizes without the 'This API' framing and the inputs", () => {
    expect(summaryOf("This API queries the stock price of a given stock code and date")).toBe("Queries the stock price");
    expect(summaryOf("The API for adding a agenda item includes content, time and location")).toBe("Adding a agenda item");
    expect(summaryOf("This API allows users to modify a reservation for a meeting")).toBe("Modify a reservation for a meeting");
    expect(summaryOf("Translate the text to the target language")).toBe("Translate the text to the target language");
  });

  it("keys database entries by the names the APIs use", () => {
    expect(databaseFixtures("Account", { JohnDoe: { password: "p", token: "t" } })).toEqual([{ id: "JohnDoe", username: "JohnDoe", password: "p", token: "t" }]);
    expect(databaseFixtures("Scenes", { "movie time": [{ name: "light" }] })).toEqual([{ id: "movie time", name: "movie time", devices: [{ name: "light" }] }]);
    expect(databaseFixtures("Stock", { AAPL: { "2022-01-01": 1.5 } })).toEqual([{ id: "AAPL", stock_code: "AAPL", prices: { "2022-01-01": 1.5 } }]);
    expect(databaseFixtures("Agenda", { "1": { content: "x" } })).toEqual([{ id: "1", content: "x" }]);
  });

  it("makes each API a POST operation with a JSON body of its inputs, a response from its outputs, and token auth", async () => {
    const apis: ApiBankApi[] = [
      { name: "GetUserToken", description: "Get the user token.", input_parameters: { username: { type: "str" }, password: { type: "str" } }, output_parameters: { token: { type: "str" } }, database_name: "Account", requires_token: false, api_set: "apis" },
      { name: "AddNote", description: "This API adds a note.", input_parameters: { token: { type: "str", description: "User's token." }, text: { type: "str" }, tags: { type: "list(str)", description: "[Optional] Tags." } }, output_parameters: { status: { type: "str" } }, database_name: "Notes", requires_token: true, api_set: "apis" },
      { name: "AddNote", description: "A level-3 copy.", input_parameters: {}, output_parameters: {}, database_name: null, api_set: "lv3_apis", duplicate_of: "apis/AddNote" },
    ];
    const r = importApiBank(apis, { databases: { Account: { ann: { password: "pw", token: "tok-ann" } }, Notes: { "1": { text: "hi", username: "ann" } } } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // The level-3 copy of AddNote stays: the level-3 toolset needs its own (API-Bank's lv3 Calculator, ToolSearcher).
    expect(r.value.toolsets.map((t) => t.slug)).toEqual(["apibank-account", "apibank-notes", "apibank-level-3"]);
    const notes = r.value.toolsets[1]?.toolset;
    const doc = notes?.openapi as Record<string, unknown>;
    expect(Object.keys(doc["paths"] as object)).toEqual(["/AddNote", "/GetUserToken"]);
    const op = getAt(doc, "/paths/~1AddNote/post") as Record<string, unknown>;
    expect(op).toMatchObject({ operationId: "AddNote", summary: "Adds a note", security: [{ token: [] }] });
    expect(op["parameters"]).toEqual([{ name: "token", in: "query", required: true, description: "User's token. Get it with GetUserToken.", schema: { type: "string", example: "tok-ann" } }]);
    expect(getAt(doc, "/components/schemas/AddNoteRequest")).toMatchObject({ required: ["text"], properties: { text: { type: "string", example: "hi" }, tags: { type: "array", items: { type: "string" } } } });
    // The output raw ("success") or as a dict of the output parameters, as API-Bank's APIs return it.
    expect(getAt(doc, "/components/schemas/AddNoteResponse")).toMatchObject({ anyOf: [{ type: "object", properties: { status: { type: "string" } } }, { anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }] }] });
    expect(op["x-apibank"]).toEqual({ api: "AddNote", set: "apis" });
    expect(notes?.auth).toEqual({ type: "apiKey", in: "query", name: "token", credentials: ["tok-ann"], checkedBy: "api" });
    expect(Object.keys(notes?.fixtures ?? {})).toEqual(["/Notes", "/Account"]);
    const checked = await checkToolsetData(notes, "/tmp/apibank-notes.yaml");
    expect(checked.ok ? checked.value.warnings.map((w) => w.code) : checked.errors).toEqual(["functions-missing"]);
  });
});

describe.skipIf(!existsSync(DESCRIPTIONS))("API-Bank's APIs and level-1 dialogues (corpus)", () => {
  let dir: string;
  let toolsets: LoadedToolset[];
  let calls: ApiBankCall[];
  let importRun: { code: number; out: string; err: string };
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "toolsim-apibank-"));
    importRun = await cli(["toolset", "import", "apibank", DESCRIPTIONS, "--databases", path.join(APIBANK, "init_database"), "--out", dir]);
    const loaded = await loadToolsets([dir]);
    expect(loaded.problems).toEqual([]);
    toolsets = loaded.toolsets;
    calls = [];
    for (const f of readdirSync(DIALOGUES).filter((f) => f.endsWith(".jsonl")).sort()) {
      const read = readApiBankCalls(readFileSync(path.join(DIALOGUES, f), "utf8"), f);
      expect(read.unreadable, f).toBe(0);
      calls.push(...read.calls);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("imports every API as an operation of a valid OpenAPI document, one toolset per database", async () => {
    expect(importRun.code).toBe(0);
    const apis = JSON.parse(readFileSync(DESCRIPTIONS, "utf8")) as ApiBankApi[];
    const distinct = apis.filter((a) => a.duplicate_of === undefined);
    for (const api of distinct) {
      const home = toolsets.filter((t) => t.catalog.get(api.name) !== undefined);
      expect(home.length, api.name).toBeGreaterThan(0);
    }
    for (const ts of toolsets) {
      expect(ts.catalog.spec.sourceVersion).toBe("3.0");
      const checked = await checkToolsetData(JSON.parse(JSON.stringify({ name: ts.title, introduction: ts.introduction, description: ts.description, functions: ts.functions, openapi: ts.catalog.spec.document })), ts.file);
      expect(checked.ok ? checked.value.warnings.filter((w) => w.code !== "id-not-returned" && w.code !== "auth-missing") : checked.errors, ts.name).toEqual([]);
      for (const tool of ts.catalog.tools) expect(tool.operation).toMatchObject({ method: "post", path: `/${tool.name}` });
    }
    const agenda = toolsets.find((t) => t.name === "apibank-agenda");
    expect(agenda?.auth?.credentials).toContain("a9s8d7f6g5h4j3k2l1");
    expect(agenda?.fixtures?.["/Agenda"]?.length).toBe(10);
    expect(agenda?.catalog.get("AddAgenda")?.security).toEqual([["token"]]);
    expect(agenda?.catalog.get("GetUserToken")).toBeDefined();
  });

  it("validates the calls of all 214 level-1 dialogues, with the failures classified", () => {
    // 214 dialogue files: one is empty, one writes its only call in an AI turn's text (as does one more).
    expect(readdirSync(DIALOGUES).filter((f) => f.endsWith(".jsonl")).length).toBe(214);
    expect(new Set(calls.map((c) => c.file)).size).toBe(213);
    expect(calls.filter((c) => c.inline).map((c) => c.api).sort()).toEqual(["QueryStock", "RegisterUser"]);
    const report = summarizeCalls(calls.map((c) => checkApiBankCall(c, toolsets)));
    const parsed = summarizeCalls(calls.map((c) => checkApiBankCall(c, toolsets, { parsed: true })));
    console.log(
      `API-Bank level-1 calls: ${report.valid} of ${report.total} validate as recorded (${(report.rate * 100).toFixed(1)}%); failures: ${JSON.stringify(report.byPrimary)}; ` +
        `with API-Bank's own parsed inputs: ${parsed.valid} of ${parsed.total} (${(parsed.rate * 100).toFixed(1)}%)`,
    );
    expect(report.total).toBe(391);
    expect(report.rate).toBeGreaterThan(0.85);
    // Every failure is one of the source's known defects.
    expect(report.byPrimary.other).toBe(0);
    expect(report.byPrimary["unknown-api"]).toBe(0);
    const renamed = report.failures.filter((f) => f.primary === "renamed-parameter");
    expect(renamed.length).toBe(8);
    expect(new Set(renamed.map((f) => f.call.api))).toEqual(new Set(["TimedSwitch", "CancelTimedSwitch"]));
    expect(renamed.every((f) => f.renamed?.includes("device_id -> name"))).toBe(true);
    const lists = report.failures.filter((f) => f.primary === "list-as-string");
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.every((f) => f.issues.every((i) => i.location[0] === "body" && typeof f.call.args[i.location[1] as string] === "string"))).toBe(true);
    expect(report.failures.filter((f) => f.primary === "scalar-as-string").every((f) => f.call.api === "BookHotel" || f.call.api === "ForgotPassword")).toBe(true);
    // With API-Bank's own parsing of text values, only the renamed parameter is left.
    expect(parsed.byPrimary["renamed-parameter"]).toBe(8);
    expect(parsed.valid).toBe(parsed.total - 8);
  });

  it("measures the rate with `toolset check-calls`", async () => {
    const r = await cli(["toolset", "check-calls", DIALOGUES, "--toolsets", dir]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^391 API calls in 214 dialogues \(1 without a call; 2 calls written in an AI turn's text\), against 21 toolsets/);
    expect(r.out).toMatch(/as recorded \(param_dict\): \d+ of 391 valid \(\d+\.\d%\)/);
    expect(r.out).toMatch(/renamed-parameter \(8\):\n {2}CancelTimedSwitch-level-1-1\.jsonl:\d+ CancelTimedSwitch \[device_id -> name\]/);
    const strict = await cli(["toolset", "check-calls", DIALOGUES, "--toolsets", dir, "--min-rate", "0.99", "--json"]);
    expect(strict.code).toBe(1);
    const json = JSON.parse(strict.out) as { recorded: { total: number; byPrimary: Record<string, number> }; failures: unknown[] };
    expect(json.recorded.total).toBe(391);
    expect(json.failures.length).toBe(json.recorded.total - (json.recorded as unknown as { valid: number }).valid);
  });

  it("every operation simulates from the imported spec and fixtures, and offline episodes run", async () => {
    for (const ts of toolsets) {
      for (const tool of ts.catalog.tools) {
        const args = synthesizeArguments(ts.catalog, tool, { seed: deriveSeed(9, tool.name) });
        const r = await simulateCall(ts.catalog, { name: tool.name, arguments: args }, { seed: 9, state: ResourceStore.fromFixtures(ts.fixtures ?? {}) });
        expect(r.errors, `${ts.name}.${tool.name}`).toEqual([]);
        expect(r.responseErrors, `${ts.name}.${tool.name}`).toEqual([]);
      }
      const run = await createSimulation({ toolsets: [ts], episodes: 2, seed: 3 }).run();
      expect(run.summary.errors, ts.name).toBe(0);
    }
  });
});
