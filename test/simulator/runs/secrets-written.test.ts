import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import type { CliIO } from "../../../simulator/cli/cli-io.js";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import { startServe } from "../../../simulator/serve/start-serve.js";
import { RUN_FILES } from "../../../simulator/runs/run-info.js";
import { startOpenAIServer, type OpenAIServer, type ReceivedRequest, type ScriptedReply } from "../../support/openai-server.js";

/**
 * Secrets are redacted when written, not only when exported. The toolset plants secrets where they really travel:
 * a `webhookToken` and a `client_secret` in a body (camelCase and snake_case), an `x-api-key` header parameter, a
 * partner key its security scheme declares under a name that does not look secret, and fixture data. Every file a
 * run writes (offline and with a model: journal, corpora, summary, cassette, run cache), every export format, the
 * report, the stats, a replay's folder and a `serve --record` recording is then scanned for them.
 */

const TOOLSET = fileURLToPath(new URL("../../fixtures/toolsets/secrets/webhooks.yaml", import.meta.url));
/** Every planted value holds this mark (the fixture's examples, fixtures and credential). */
const MARK = "PLANTED";
const root = mkdtempSync(join(tmpdir(), "toolsim-secrets-"));
let llm: OpenAIServer;

afterAll(async () => {
  await llm?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Runs the CLI in-process; stdout is kept (and written to a file under the root, so it is scanned too). */
async function cli(args: string[], stdoutFile?: string): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), isTTY: false };
  const code = await main(args, io);
  if (stdoutFile !== undefined) writeFileSync(join(root, stdoutFile), out + err);
  return { code, out, err };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The scripted model of the assistant: calls createWebhook with the token the user gave, then answers with it. */
function assistantScript(request: ReceivedRequest): ScriptedReply {
  const messages = request.body["messages"] as Array<{ role: string; content: unknown }>;
  const said = messages.filter((m) => m.role === "user").map((m) => String(m.content)).join(" ");
  const token = /whsec_[A-Za-z0-9_]+/.exec(said)?.[0];
  if (messages[messages.length - 1]?.role === "tool") return { kind: "text", content: token ? `Registered the webhook; it signs with ${token} (client secret cs_PLANTED_client_secret_5678).` : "Here is the webhook." };
  if (token === undefined) return { kind: "tool-calls", calls: [{ name: "getWebhook", arguments: JSON.stringify({ webhookId: "wh-1001" }) }] };
  const args = { url: "https://hooks.example.com/orders", webhookToken: token, client_secret: "cs_PLANTED_client_secret_5678" };
  return { kind: "tool-calls", calls: [{ name: "createWebhook", arguments: JSON.stringify(args) }] };
}

describe("secrets planted in a toolset reach no file", { timeout: 300_000 }, () => {
  const offline = join(root, "offline");
  const withModel = join(root, "llm");

  beforeAll(async () => {
    llm = await startOpenAIServer((req) => assistantScript(req));
    const a = await cli(["generate", "--toolsets", TOOLSET, "--episodes", "40", "--seed", "4", "--out", offline], "generate-offline.txt");
    expect(a.code, a.err).toBe(0);
    const b = await cli(["generate", "--toolsets", TOOLSET, "--episodes", "6", "--seed", "4", "--assistant-model", "openai:test-model", "--base-url", llm.baseURL, "--run-cache", "--out", withModel], "generate-llm.txt");
    expect(b.code, b.err).toBe(0);
    for (const run of [offline, withModel]) {
      const name = run === offline ? "offline" : "llm";
      for (const format of ["openai", "sharegpt", "toolalpaca", "apibank", "alpaca", "dpo"]) {
        await cli(["export", run, "--format", format, "--include-rejected", "--meta", "--out", join(root, "exports", name, `${format}.jsonl`)], `export-${name}-${format}.txt`);
      }
      await cli(["export", run, "--format", "openai", "--split", "0.5", "--out", join(root, "exports", name, "split.jsonl")], `export-${name}-split.txt`);
      expect((await cli(["report", run, "--out", join(root, "reports", `${name}.html`)], `report-${name}.txt`)).code).toBe(0);
      expect((await cli(["stats", run, "--json"], `stats-${name}.json`)).code).toBe(0);
      await cli(["runs", "show", run], `runs-show-${name}.txt`);
    }
    const replay = await cli(["replay", offline, "--out", join(root, "replayed")], "replay.txt");
    expect(replay.code, replay.out).toBe(0);

    // serve --record: the same secrets sent as a client would send them.
    const loaded = await loadServedApis([TOOLSET]);
    if (!loaded.ok) throw new Error("toolset does not load");
    const server = await startServe({ apis: loaded.apis, port: 0, record: join(root, "serve", "cassette.jsonl"), log: () => undefined });
    const partner = { "x-partner-key": "pk_live_PLANTED_partner_credential" };
    const json = { ...partner, "content-type": "application/json" };
    await fetch(`${server.url}/webhooks`, { method: "POST", headers: json, body: JSON.stringify({ url: "https://hooks.example.com/a", webhookToken: "whsec_PLANTED_served_token_0001", client_secret: "cs_PLANTED_served_secret_0002" }) });
    await fetch(`${server.url}/webhooks/wh-1001`, { headers: partner });
    await fetch(`${server.url}/webhooks/wh-1001/token`, { method: "PUT", headers: { ...json, "x-api-key": "ak_PLANTED_served_api_key_03" }, body: JSON.stringify({ newToken: "whsec_PLANTED_served_rotated_04" }) });
    await fetch(`${server.url}/webhooks`, { method: "POST", headers: json, body: JSON.stringify({ url: "bad", webhookToken: "short_PLANTED" }) });
    await server.close();
  });

  it("the secrets were in play: the model was told them, and the journals hold placeholders where they were", () => {
    expect(JSON.stringify(llm.requests.map((r) => r.body))).toContain(MARK);
    for (const run of [offline, withModel]) {
      const journal = readFileSync(join(run, RUN_FILES.events), "utf8");
      expect(journal).toMatch(/"webhookToken":"\[redacted-\d+\]"/);
    }
    expect(readFileSync(join(withModel, "cassette.jsonl"), "utf8")).toContain("[redacted]");
    expect(readFileSync(join(root, "serve", "cassette.jsonl"), "utf8").split("\n").filter((l) => l !== "")).toHaveLength(4);
  });

  it("no file written holds a planted secret (or its start)", () => {
    const files = filesUnder(root);
    expect(files.length).toBeGreaterThan(30);
    const leaks = files.filter((f) => readFileSync(f, "utf8").includes(MARK)).map((f) => f.slice(root.length));
    expect(leaks).toEqual([]);
  });

  it("the replay of the redacted journal equals it, and a second run of the same seed differs from the first in nothing", async () => {
    const again = join(root, "offline-again");
    expect((await cli(["generate", "--toolsets", TOOLSET, "--episodes", "40", "--seed", "4", "--out", again])).code).toBe(0);
    const diff = await cli(["diff", offline, again]);
    expect(diff.code, diff.out).toBe(0);
    expect((await cli(["replay", offline])).out).toContain("equal");
  });
});
