import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuildMessage } from "../../../toolsets/build/build-prompts.js";
import { buildToolset, type BuildModel, type BuildStage } from "../../../toolsets/build/build-toolset.js";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import { validateToolsetFile } from "../../../toolsets/validate-toolset.js";
import { startOpenAIServer, type OpenAIServer, type ReceivedRequest, type ScriptedReply } from "../../support/openai-server.js";
import { runCli as cli } from "../../support/cli-in-process.js";

/**
 * `toolset build` end to end through the local OpenAI-protocol server: a scripted model answers the three
 * construction prompts per API, with good, repairable, unparseable and invalid specs, a chatty answer that
 * needs a retry, and an endpoint that refuses the call. Then resume and replay.
 */

type Json = Record<string, unknown>;

const STAGES: Array<[string, BuildStage]> = [
  ["You write documentation", "description"],
  ["You design the functions", "functions"],
  ["You write OpenAPI", "openapi"],
];

function messagesOf(req: ReceivedRequest): Array<{ role: string; content: string }> {
  return ((req.body["messages"] ?? []) as Array<{ role: string; content: unknown }>).map((m) => ({ role: m.role, content: typeof m.content === "string" ? m.content : "" }));
}

function stageOf(req: ReceivedRequest): BuildStage {
  const system = messagesOf(req)[0]?.content ?? "";
  return STAGES.find(([prefix]) => system.startsWith(prefix))?.[1] ?? "description";
}

/** The API a request is about: the last `Name:` line of the first user message (the prompt's example comes first). */
function apiOf(req: ReceivedRequest): string {
  const user = messagesOf(req)[1]?.content ?? "";
  return [...user.matchAll(/^Name: (.+)$/gm)].pop()?.[1] ?? "";
}

const FUNCTIONS = `1. Name: listThings
   Description: List the things, filtered by name.
   Input: {"name": "Optional. String. Part of a thing's name."}
   Output: The things, each with its id and name.

2. Name: getThing
   Description: Get one thing.
   Input: {"thingId": "Required. String. The id of the thing, from listThings."}
   Output: The thing's id, name and size.`;

function spec(title: string, opts: { brokenRef?: boolean } = {}): Json {
  return {
    openapi: "3.0.3",
    info: { title, version: "1.0.0", description: `The ${title}.` },
    servers: [{ url: "https://things.example.com" }],
    paths: {
      "/things": {
        get: {
          operationId: "listThings",
          summary: "List things",
          description: "List the things, filtered by name.",
          parameters: [{ name: "name", in: "query", description: "Part of a name.", schema: { type: "string" } }],
          responses: { "200": { description: "The things.", content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Thing" } } } } } },
        },
      },
      "/things/{thingId}": {
        get: {
          operationId: "getThing",
          summary: "Get a thing",
          description: "Get one thing.",
          parameters: [{ name: "thingId", in: "path", required: true, description: "The id.", schema: { type: "string", example: "th-1" } }],
          responses: {
            "200": { description: "The thing.", content: { "application/json": { schema: { $ref: opts.brokenRef ? "#/components/schemas/Missing" : "#/components/schemas/Thing" } } } },
            "404": { description: "No such thing.", content: { "application/json": { schema: { type: "object", properties: { message: { type: "string" } } } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        Thing: { type: "object", required: ["id", "name"], properties: { id: { type: "string", example: "th-1" }, name: { type: "string" }, size: { type: "integer" } } },
      },
    },
  };
}

const fenced = (doc: Json): string => `Here is the document.\n\`\`\`json\n${JSON.stringify(doc, null, 1)}\n\`\`\``;

/** When set, `Invalid API` gets a good spec (its failure is retried and built). */
let invalidFixed = false;

/** The scripted model: answers by stage and API; `Repairable API` is fixed by its repair turn. */
function script(req: ReceivedRequest): ScriptedReply {
  const stage = stageOf(req);
  const api = apiOf(req);
  const repairTurn = messagesOf(req).length > 2;
  if (api === "Down API") return { kind: "status", status: 400, body: { error: { message: "model not found", type: "invalid_request_error" } } };
  if (stage === "description") return { kind: "text", content: `Description: The ${api} keeps a catalogue of things for people who collect them. It provides the following functions: 1) List things by name. 2) Get one thing.`, usage: { prompt: 100, completion: 40 } };
  if (stage === "functions") {
    if (api === "Chatty API" && !repairTurn) return { kind: "text", content: "Sure! I would design a list function and a get function." };
    return { kind: "text", content: FUNCTIONS, usage: { prompt: 200, completion: 80 } };
  }
  if (api === "Broken API") return { kind: "text", content: "I'm sorry, I cannot write that document." };
  if (api === "Invalid API" && !invalidFixed) return { kind: "text", content: fenced(spec(api, { brokenRef: true })) };
  if (api === "Repairable API" && !repairTurn) return { kind: "text", content: fenced(spec(api, { brokenRef: true })) };
  return { kind: "text", content: fenced(spec(api)), usage: { prompt: 300, completion: 500 } };
}

const LIST = {
  count: 8,
  entries: [
    { API: "Good API", Description: "Things to collect", Auth: "", HTTPS: true, Cors: "yes", Link: "https://good.example.com", Category: "Testing" },
    { API: "Repairable API", Description: "Things, after a repair", Auth: "", HTTPS: true, Cors: "yes", Link: "https://repairable.example.com", Category: "Testing" },
    { API: "Chatty API", Description: "Things, after a retry", Auth: "", HTTPS: true, Cors: "no", Link: "https://chatty.example.com", Category: "Testing" },
    { API: "Broken API", Description: "No JSON ever", Auth: "", HTTPS: true, Cors: "no", Link: "https://broken.example.com", Category: "Testing" },
    { API: "Invalid API", Description: "An invalid spec every time", Auth: "", HTTPS: true, Cors: "no", Link: "https://invalid.example.com", Category: "Testing" },
    { API: "Down API", Description: "The endpoint refuses", Auth: "", HTTPS: true, Cors: "no", Link: "https://down.example.com", Category: "Testing" },
    { API: "Keyed API", Description: "Things behind an API key", Auth: "apiKey", HTTPS: true, Cors: "no", Link: "https://keyed.example.com", Category: "Testing" },
    { API: "Other API", Description: "Another category", Auth: "", HTTPS: true, Cors: "no", Link: "https://other.example.com", Category: "Elsewhere" },
  ],
};

const jsonLines = (path: string): Json[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Json);

describe("npx toolsim toolset build (local OpenAI-protocol server)", () => {
  let server: OpenAIServer;
  let root: string;
  let list: string;
  let dir: string;
  let first: { code: number; out: string; err: string };
  const saved = Object.fromEntries(["OPENAI_API_KEY", "OPENAI_BASE_URL", "TOOLSIM_BASE_URL"].map((k) => [k, process.env[k]]));
  const args = (out: string): string[] => ["toolset", "build", "--from", list, "--category", "testing", "--model", `openai:test-model@${server.baseURL}`, "--out", out, "--concurrency", "3", "--repairs", "1"];

  beforeAll(async () => {
    for (const k of Object.keys(saved)) delete process.env[k];
    server = await startOpenAIServer(script);
    root = mkdtempSync(join(tmpdir(), "toolsim-build-"));
    list = join(root, "public_apis.json");
    writeFileSync(list, JSON.stringify(LIST));
    dir = join(root, "built");
    first = await cli(args(dir));
  });
  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  });

  it("builds the good, repairable and chatty APIs into valid toolset files", async () => {
    expect(first.err).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir).filter((f) => f.endsWith(".yaml")).sort()).toEqual(["chatty-api.yaml", "good-api.yaml", "keyed-api.yaml", "repairable-api.yaml"]);
    for (const f of ["good-api.yaml", "repairable-api.yaml", "chatty-api.yaml"]) {
      const loaded = await loadToolset(join(dir, f));
      expect(loaded.ok, f).toBe(true);
      if (!loaded.ok) continue;
      expect(loaded.value.catalog.tools.map((t) => t.name)).toEqual(["listThings", "getThing"]);
      expect(loaded.value.introduction).toMatch(/^Things/);
      expect(loaded.value.description).toMatch(/^The .* keeps a catalogue/);
      expect(loaded.value.functions).toContain("1. Name: listThings");
      expect(loaded.value.category).toBe("Testing");
      const valid = await validateToolsetFile(join(dir, f));
      expect(valid.ok && valid.value.warnings).toEqual([]);
    }
  });

  it("gives an API whose Auth is apiKey a security scheme and auth, asked for in the prompt and added when missing", async () => {
    const prompt = server.requests.find((r) => apiOf(r) === "Keyed API" && stageOf(r) === "openapi");
    expect(messagesOf(prompt as ReceivedRequest)[1]?.content).toContain("The API needs an API key: declare an apiKey security scheme");
    expect(first.err).toMatch(/built {2}Keyed API .*\n {9}fixed: added an apiKey security scheme "ApiKeyAuth" \(header X-Api-Key\)/);
    const loaded = await loadToolset(join(dir, "keyed-api.yaml"));
    expect(loaded.ok && loaded.value.auth).toEqual({ type: "apiKey", in: "header", name: "X-Api-Key", credentials: ["demo-keyed-api-key"] });
    expect(loaded.ok && loaded.value.catalog.tools.every((t) => t.security.some((req) => req.includes("ApiKeyAuth")))).toBe(true);
    const valid = await validateToolsetFile(join(dir, "keyed-api.yaml"));
    expect(valid.ok && valid.value.warnings).toEqual([]);
    const others = await loadToolset(join(dir, "good-api.yaml"));
    expect(others.ok && others.value.auth).toBeUndefined();
  });

  it("repairs a spec by feeding the checker's problems back (fixed on the second answer)", () => {
    const openapi = server.requests.filter((r) => apiOf(r) === "Repairable API" && stageOf(r) === "openapi");
    expect(openapi.length).toBe(2);
    const repair = messagesOf(openapi[1] as ReceivedRequest);
    expect(repair.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(repair[3]?.content).toContain("/paths/~1things~1{thingId}/get/responses/200/content/application~1json/schema");
    expect(repair[3]?.content).toContain("Missing");
    expect(first.err).toMatch(/built {2}Repairable API .*openapi 2/);
  });

  it("retries a text stage whose answer cannot be used", () => {
    const fns = server.requests.filter((r) => apiOf(r) === "Chatty API" && stageOf(r) === "functions");
    expect(fns.length).toBe(2);
    expect(messagesOf(fns[1] as ReceivedRequest)[3]?.content).toContain('no "1. Name: <functionName>" blocks');
  });

  it("records failures with their stage and reason, and exits 1", () => {
    expect(first.code).toBe(1);
    const failures = jsonLines(join(dir, "failures.jsonl"));
    const byApi = Object.fromEntries(failures.map((f) => [f["api"], f]));
    expect(Object.keys(byApi).sort()).toEqual(["Broken API", "Down API", "Invalid API"]);
    expect(byApi["Broken API"]).toMatchObject({ stage: "openapi", answers: 2 });
    expect(String(byApi["Broken API"]?.["reason"])).toMatch(/no JSON object could be read/);
    expect(byApi["Invalid API"]).toMatchObject({ stage: "openapi", answers: 2 });
    expect((byApi["Invalid API"]?.["problems"] as Json[])[0]).toMatchObject({ code: "ref-unresolved", severity: "error" });
    expect(byApi["Down API"]).toMatchObject({ stage: "description" });
    expect(String(byApi["Down API"]?.["reason"])).toMatch(/model call failed: .*HTTP 400/);
    for (const f of failures) expect(typeof f["at"]).toBe("string");
  });

  it("prints a summary with calls, tokens and cost, and records a cassette", () => {
    expect(first.out).toMatch(/^built 4, failed 3, skipped 0 of 7 APIs -> /);
    const calls = Number(/; (\d+) model calls/.exec(first.out)?.[1]);
    expect(calls).toBe(server.requests.length);
    expect(first.out).toMatch(/\d+ tokens \(\d+ prompt \+ \d+ completion\), cost \$0\.0000/);
    expect(first.out).toContain("failures.jsonl");
    expect(jsonLines(join(dir, "cassette.jsonl")).length).toBe(calls);
    expect(server.requests.some((r) => apiOf(r) === "Other API")).toBe(false);
  });

  it("writes build-summary.json: built, failures by stage with reasons, calls, tokens, cost and time", () => {
    const summary = JSON.parse(readFileSync(join(dir, "build-summary.json"), "utf8")) as Json;
    expect(first.out).toContain(`summary: ${join(dir, "build-summary.json")}`);
    const run = summary["run"] as Json;
    expect(run["apis"]).toBe(7);
    expect(run["built"]).toEqual(["Good API", "Repairable API", "Chatty API", "Keyed API"]);
    expect(run["failed"]).toEqual(["Broken API", "Invalid API", "Down API"]);
    expect(run["calls"]).toBe(server.requests.length);
    expect(run["promptTokens"]).toBeGreaterThan(0);
    expect(run["costUsd"]).toBe(0);
    expect(typeof run["durationMs"]).toBe("number");
    expect(summary["built"]).toBe(4);
    const failed = summary["failed"] as Json;
    expect(failed["count"]).toBe(3);
    expect(failed["byStage"]).toEqual({ description: 1, functions: 0, openapi: 2 });
    expect((failed["apis"] as Json[]).map((f) => [f["api"], f["stage"], f["attempts"]])).toEqual([["Broken API", "openapi", 1], ["Invalid API", "openapi", 1], ["Down API", "description", 1]]);
    expect(String((failed["apis"] as Json[])[1]?.["reason"])).toMatch(/after 1 repair/);
    expect(Object.keys(summary["fixes"] as Json)).toEqual(["Keyed API"]);
    // The test endpoint is local: free, as generate prices it; the model has no price anyway.
    expect(summary["pricing"]).toEqual({ input: 0, output: 0, local: true, source: "unpriced" });
    expect((summary["allRuns"] as Json)["runs"]).toBe(1);
  });

  it("resumes: built APIs are skipped, failed ones tried again; failures.jsonl stays the current truth", async () => {
    const before = server.requests.length;
    const again = await cli(args(dir));
    expect(again.out).toMatch(/^built 0, failed 3, skipped 4 of 7 APIs/);
    const asked = new Set(server.requests.slice(before).map(apiOf));
    expect([...asked].sort()).toEqual(["Broken API", "Down API", "Invalid API"]);
    // One record per API, not one per attempt.
    const failures = jsonLines(join(dir, "failures.jsonl"));
    expect(failures.map((f) => [f["api"], f["attempts"]])).toEqual([["Broken API", 2], ["Invalid API", 2], ["Down API", 2]]);
    // A failure retried and now built leaves the file, and the summary.
    invalidFixed = true;
    try {
      const third = await cli(args(dir));
      expect(third.out).toMatch(/^built 1, failed 2, skipped 4 of 7 APIs/);
    } finally {
      invalidFixed = false;
    }
    expect(existsSync(join(dir, "invalid-api.yaml"))).toBe(true);
    expect(jsonLines(join(dir, "failures.jsonl")).map((f) => [f["api"], f["attempts"]])).toEqual([["Broken API", 3], ["Down API", 3]]);
    const summary = JSON.parse(readFileSync(join(dir, "build-summary.json"), "utf8")) as Json;
    expect((summary["run"] as Json)["built"]).toEqual(["Invalid API"]);
    expect(summary["built"]).toBe(5);
    expect((summary["failed"] as Json)["count"]).toBe(2);
    expect((summary["failed"] as Json)["byStage"]).toEqual({ description: 1, functions: 0, openapi: 1 });
    const all = summary["allRuns"] as Json;
    expect(all["runs"]).toBe(3);
    expect(all["calls"]).toBe(server.requests.length);
  });

  it("prices with the config file's price table, as generate does: on a local endpoint too, and replayed calls at their recorded usage", async () => {
    const config = join(root, "prices.yaml");
    writeFileSync(config, "llm:\n  prices:\n    test-model: {input: 1000, output: 2000}\n");
    const recorded = join(root, "priced-recorded");
    const live = await cli([...args(recorded), "--config", config]);
    expect(live.code).toBe(1);
    const summary = JSON.parse(readFileSync(join(recorded, "build-summary.json"), "utf8")) as Json;
    const run = summary["run"] as Json;
    expect(summary["pricing"]).toEqual({ input: 1000, output: 2000, local: true, source: "config" });
    const expected = ((run["promptTokens"] as number) * 1000 + (run["completionTokens"] as number) * 2000) / 1_000_000;
    expect(expected).toBeGreaterThan(0);
    expect(run["costUsd"]).toBeCloseTo(expected, 9);
    expect(live.out).toContain(`cost $${expected.toFixed(4)}\n`);
    // Replayed: nothing spent now, the recorded calls priced the same.
    const replayed = join(root, "priced-replayed");
    const r = await cli(["toolset", "build", "--from", list, "--category", "Testing", "--replay", recorded, "--out", replayed, "--repairs", "1", "--config", config]);
    const again = JSON.parse(readFileSync(join(replayed, "build-summary.json"), "utf8")) as Json;
    expect(again["pricing"]).toEqual({ input: 1000, output: 2000, local: false, source: "config" });
    expect((again["run"] as Json)["costUsd"]).toBe(0);
    expect((again["run"] as Json)["replayedCostUsd"]).toBeCloseTo(expected, 9);
    expect(r.out).toContain(`cost $0.0000 (+ $${expected.toFixed(4)} when recorded)`);
    // Without the config the same model is unpriced.
    const bare = join(root, "unpriced-replayed");
    await cli(["toolset", "build", "--from", list, "--category", "Testing", "--replay", recorded, "--out", bare, "--repairs", "1"]);
    const plain = JSON.parse(readFileSync(join(bare, "build-summary.json"), "utf8")) as Json;
    expect(plain["pricing"]).toEqual({ input: 0, output: 0, local: false, source: "unpriced" });
    expect((plain["run"] as Json)["replayedCostUsd"]).toBe(0);
  });

  it("replays from the cassette with no endpoint: the same files, the same failures", async () => {
    const replayed = join(root, "replayed");
    const recorded = join(root, "recorded");
    const rec = await cli(args(recorded));
    expect(rec.code).toBe(1);
    const before = server.requests.length;
    const r = await cli(["toolset", "build", "--from", list, "--category", "Testing", "--replay", recorded, "--out", replayed, "--concurrency", "2", "--repairs", "1"]);
    expect(server.requests.length).toBe(before);
    expect(r.err).toContain("replaying");
    expect(r.out).toMatch(/^built 4, failed 3, skipped 0 of 7 APIs/);
    expect(r.out).toMatch(/\(\d+ from cassette, 1 failed\)/);
    for (const f of ["good-api.yaml", "repairable-api.yaml", "chatty-api.yaml", "keyed-api.yaml"]) {
      expect(readFileSync(join(replayed, f), "utf8")).toBe(readFileSync(join(recorded, f), "utf8"));
    }
    const strip = (rows: Json[]): Json[] => rows.map(({ at: _at, ...rest }) => rest).sort((a, b) => String(a["api"]).localeCompare(String(b["api"])));
    expect(strip(jsonLines(join(replayed, "failures.jsonl")))).toEqual(strip(jsonLines(join(recorded, "failures.jsonl"))));
    expect(existsSync(join(replayed, "cassette.jsonl"))).toBe(false);
  });

  it("refuses to build without a language model (usage error, exit 2)", async () => {
    const none = await cli(["toolset", "build", "--from", list, "--out", join(root, "none")]);
    expect(none.code).toBe(2);
    expect(none.err).toContain("needs a model");
    const offline = await cli(["toolset", "build", "--from", list, "--model", "offline", "--out", join(root, "none")]);
    expect(offline.code).toBe(2);
    const missing = await cli(["toolset", "build", "--from", join(root, "missing.json"), "--model", "openai:x@http://127.0.0.1:9/v1", "--out", join(root, "none")]);
    expect(missing.code).toBe(1);
    expect(missing.err).not.toMatch(/\n\s+at /);
  });
});

describe("buildToolset with an in-process model", () => {
  const api = { name: "Tiny", introduction: "A tiny API", auth: "apiKey", link: "", category: "" };

  it("asks for an apiKey scheme when the API needs a key, and derives the toolset's auth from the spec", async () => {
    const seen: BuildMessage[][] = [];
    const keyed = spec("Tiny");
    keyed["components"] = { ...(keyed["components"] as Json), securitySchemes: { key: { type: "apiKey", in: "header", name: "X-Key" } } };
    keyed["security"] = [{ key: [] }];
    const model: BuildModel = {
      complete: async (messages, ctx) => {
        seen.push(messages);
        if (ctx.stage === "description") return "The Tiny API keeps a catalogue of things for collectors of things.";
        if (ctx.stage === "functions") return FUNCTIONS;
        return fenced(keyed);
      },
    };
    const built = await buildToolset(api, "tiny", model);
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.value.toolset.auth).toEqual({ type: "apiKey", in: "header", name: "X-Key", credentials: ["demo-tiny-key"] });
    expect(built.value.warnings).toEqual([]);
    expect(seen[2]?.[1]?.content).toContain("apiKey security scheme");
    expect(seen[0]?.[1]?.content).toContain("Introduction: A tiny API");
  });

  const textModel = (openapi: (messages: BuildMessage[]) => string, seen: BuildMessage[][] = []): BuildModel => ({
    complete: async (messages, ctx) => {
      seen.push(messages);
      if (ctx.stage === "description") return "The Tiny API keeps a catalogue of things for collectors of things.";
      if (ctx.stage === "functions") return FUNCTIONS;
      return openapi(messages);
    },
  });

  it("adds the security scheme an apiKey API needs when the model leaves it out, without a model call, and sets auth", async () => {
    const seen: BuildMessage[][] = [];
    const built = await buildToolset(api, "tiny", textModel(() => fenced(spec("Tiny")), seen));
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(seen.length).toBe(3);
    expect(built.value.answers.openapi).toBe(1);
    const doc = built.value.toolset.openapi as Json;
    expect((doc["components"] as Json)["securitySchemes"]).toEqual({ ApiKeyAuth: { type: "apiKey", in: "header", name: "X-Api-Key", description: "The API key." } });
    expect(doc["security"]).toEqual([{ ApiKeyAuth: [] }]);
    expect(built.value.toolset.auth).toEqual({ type: "apiKey", in: "header", name: "X-Api-Key", credentials: ["demo-tiny-key"] });
    expect(built.value.fixes).toEqual([expect.stringMatching(/^added an apiKey security scheme "ApiKeyAuth" \(header X-Api-Key\) .*public-apis Auth: apiKey/)]);
    expect(built.value.warnings).toEqual([]);
    // What is written validates with no auth warning.
    const dir = mkdtempSync(join(tmpdir(), "toolsim-build-auth-"));
    writeFileSync(join(dir, "tiny.json"), JSON.stringify(built.value.toolset));
    const valid = await validateToolsetFile(join(dir, "tiny.json"));
    expect(valid.ok && valid.value.warnings).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("asks for OAuth as a bearer scheme, and adds one that is missing", async () => {
    const seen: BuildMessage[][] = [];
    const oauth = { ...api, auth: "OAuth" };
    const built = await buildToolset(oauth, "tiny", textModel(() => fenced(spec("Tiny")), seen));
    expect(seen[2]?.[1]?.content).toContain("The API needs OAuth: declare an http bearer security scheme");
    expect(built.ok && built.value.toolset.auth).toEqual({ type: "bearer", credentials: ["demo-tiny-token"] });
    expect(built.ok && ((built.value.toolset.openapi as Json)["components"] as Json)["securitySchemes"]).toEqual({
      BearerAuth: { type: "http", scheme: "bearer", description: "OAuth access token, sent as `Authorization: Bearer <token>`." },
    });
    // No auth in the list: none is asked for or added.
    const open = await buildToolset({ ...api, auth: "" }, "tiny", textModel(() => fenced(spec("Tiny")), seen));
    expect(open.ok && open.value.toolset.auth).toBeUndefined();
    expect(open.ok && open.value.fixes).toEqual([]);
    expect(seen[seen.length - 1]?.[1]?.content).not.toContain("security scheme");
  });

  it("checks the scheme matches the Auth column: an X-Mashape-Key API with a query key gets the header scheme, and auth names it", async () => {
    const seen: BuildMessage[][] = [];
    const queryKey = spec("Tiny");
    queryKey["components"] = { ...(queryKey["components"] as Json), securitySchemes: { key: { type: "apiKey", in: "query", name: "key" } } };
    queryKey["security"] = [{ key: [] }];
    const built = await buildToolset({ ...api, auth: "X-Mashape-Key" }, "tiny", textModel(() => fenced(queryKey), seen));
    expect(seen[2]?.[1]?.content).toContain('"name": "X-Mashape-Key"');
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect((built.value.toolset.openapi as Json)["security"]).toEqual([{ ApiKeyAuth: [] }, { key: [] }]);
    expect(built.value.toolset.auth).toEqual({ type: "apiKey", in: "header", name: "X-Mashape-Key", credentials: ["demo-tiny-key"] });
  });

  it("puts a missing scheme into a repair turn that other problems call for, and adds nothing when the model fixes it", async () => {
    const seen: BuildMessage[][] = [];
    const noSchema = spec("Tiny");
    ((noSchema["paths"] as Json)["/things/{thingId}"] as Json)["get"] = { operationId: "getThing", summary: "Get", parameters: [{ name: "thingId", in: "path", required: true, schema: { type: "string" } }], responses: { "200": { description: "ok" } } };
    const keyed = spec("Tiny");
    keyed["components"] = { ...(keyed["components"] as Json), securitySchemes: { key: { type: "apiKey", in: "query", name: "api_key" } } };
    keyed["security"] = [{ key: [] }];
    const built = await buildToolset(api, "tiny", textModel((messages) => fenced(messages.length > 2 ? keyed : noSchema), seen));
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    const repair = seen[3]?.[3]?.content ?? "";
    expect(repair).toContain("has no schema for its 200 response");
    expect(repair).toContain("the API needs an API key (public-apis Auth: apiKey), but no operation requires it");
    expect(built.value.answers.openapi).toBe(2);
    expect(built.value.fixes).toEqual([]);
    expect(built.value.toolset.auth).toEqual({ type: "apiKey", in: "query", name: "api_key", credentials: ["demo-tiny-key"] });
  });

  it("keeps a spec with warnings when repairs run out, and fails one with errors", async () => {
    const noSchema = spec("Tiny");
    ((noSchema["paths"] as Json)["/things/{thingId}"] as Json)["get"] = { operationId: "getThing", summary: "Get", parameters: [{ name: "thingId", in: "path", required: true, schema: { type: "string" } }], responses: { "200": { description: "ok" } } };
    let openapiAnswers = 0;
    const model = (doc: Json | string): BuildModel => ({
      complete: async (_m, ctx) => {
        if (ctx.stage === "description") return "The Tiny API keeps a catalogue of things for collectors of things.";
        if (ctx.stage === "functions") return FUNCTIONS;
        openapiAnswers++;
        return typeof doc === "string" ? doc : fenced(doc);
      },
    });
    const warned = await buildToolset(api, "tiny", model(noSchema), { repairs: 2 });
    expect(warned.ok && warned.value.warnings.map((w) => w.code)).toEqual(["no-response-schema"]);
    expect(warned.ok && warned.value.fixes.length).toBe(1);
    expect(warned.ok && warned.value.answers.openapi).toBe(3);
    expect(openapiAnswers).toBe(3);
    const failed = await buildToolset(api, "tiny", model("{not json"), { repairs: 0 });
    expect(!failed.ok && failed.errors[0]).toMatchObject({ api: "Tiny", slug: "tiny", stage: "openapi", answers: 1 });
  });
});
