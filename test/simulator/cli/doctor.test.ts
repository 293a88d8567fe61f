import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Command } from "commander";
import { afterEach, describe, expect, it } from "vitest";
import { doctorCommand } from "../../../simulator/cli/doctor-command.js";
import { startOpenAIServer, type OpenAIServer, type Script } from "../../support/openai-server.js";

const KEY = "sk-doctor-test-SECRET-9876543210abcdef";
const KEY_ENV = "TOOLSIM_DOCTOR_TEST_KEY";

interface Run {
  code: number;
  out: string;
  err: string;
}

/** Runs `toolsim doctor <args>` through the exported command, as main.ts would. */
async function doctor(args: string[]): Promise<Run> {
  let out = "";
  let err = "";
  let code = 0;
  const io = { out: (s: string) => void (out += s), err: (s: string) => void (err += s), isTTY: false };
  const program = new Command("toolsim").exitOverride();
  program.addCommand(doctorCommand(io, (c) => (code = Math.max(code, c))).exitOverride());
  await program.parseAsync(["doctor", ...args], { from: "user" });
  return { code, out, err };
}

/** A server that does what toolsim needs: chat, forced and auto tool calls, JSON output. */
const goodScript: Script = (req) => {
  const body = req.body;
  if (Array.isArray(body["tools"])) {
    const choice = body["tool_choice"] as { function?: { name?: string } } | string | undefined;
    const name = typeof choice === "object" ? (choice.function?.name ?? "get_weather") : "get_weather";
    return { kind: "tool-calls", calls: [{ name, arguments: '{"city":"Paris"}' }] };
  }
  if (body["response_format"] !== undefined) return { kind: "text", content: '{"ok": true, "n": 2}' };
  return { kind: "text", content: "ok" };
};

const servers: OpenAIServer[] = [];
const raw: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(raw.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
  delete process.env[KEY_ENV];
});

async function server(script: Script): Promise<OpenAIServer> {
  const s = await startOpenAIServer(script, { model: "test-model" });
  servers.push(s);
  return s;
}

function lines(out: string): string[] {
  return out.trimEnd().split("\n");
}

describe("toolsim doctor", () => {
  it("passes every check against a good endpoint, and never prints the key", async () => {
    const s = await server(goodScript);
    process.env[KEY_ENV] = KEY;
    const run = await doctor(["--model", "openai:test-model", "--base-url", s.baseURL, "--api-key-env", KEY_ENV, "--timeout", "2000"]);
    const out = lines(run.out);
    expect(out[0]).toBe(`toolsim doctor: openai:test-model at ${s.baseURL} key from ${KEY_ENV}`);
    expect(out.slice(1, 7).map((l) => l.slice(0, 16))).toEqual(["ok   reachable  ", "ok   authorised ", "ok   model      ", "ok   chat       ", "ok   tools      ", "ok   json       "]);
    expect(run.out).toContain('a forced call came back as get_weather({"city":"Paris"}); tool_choice auto works');
    expect(run.out).toContain('response_format json_object gave {"ok":true,"n":2}');
    expect(out.at(-1)).toBe("all checks passed");
    expect(run.code).toBe(0);
    expect(run.out + run.err).not.toContain(KEY);
    // the key was sent, as a header
    expect(s.requests.every((r) => r.headers["authorization"] === `Bearer ${KEY}`)).toBe(true);
    const forced = s.requests.find((r) => typeof r.body["tool_choice"] === "object");
    expect(forced?.body["tool_choice"]).toEqual({ type: "function", function: { name: "get_weather" } });
    expect(s.requests.some((r) => JSON.stringify(r.body["response_format"]) === '{"type":"json_object"}')).toBe(true);
  });

  it("picks the first listed model when --model is not given", async () => {
    const s = await server(goodScript);
    const run = await doctor(["--base-url", s.baseURL]);
    expect(run.out).toContain("ok   model      test-model is served (the first model listed; choose with --model)");
    expect(run.out).toContain("ok   authorised no key needed (local endpoint)");
    expect(run.code).toBe(0);
  });

  it("fails the tools check with what to change when the server answers tool calls in text", async () => {
    const s = await server((req) => (req.body["response_format"] !== undefined ? { kind: "text", content: '{"ok": true}' } : { kind: "text", content: "I would call get_weather(city=Paris)" }));
    const run = await doctor(["--model", "openai:test-model", "--base-url", s.baseURL, "--timeout", "2000"]);
    const tools = lines(run.out).find((l) => l.startsWith("FAIL tools"));
    expect(tools).toBeDefined();
    expect(tools).toContain("a forced tool call came back as text");
    expect(tools).toContain("vLLM needs --enable-auto-tool-choice --tool-call-parser");
    expect(run.out).toContain("ok   chat");
    expect(run.out).toContain("ok   json");
    expect(lines(run.out).at(-1)).toBe("1 check failed");
    expect(run.code).toBe(1);
  });

  it("fails the tools check when the server rejects tools with a 400", async () => {
    const s = await server((req) =>
      Array.isArray(req.body["tools"])
        ? { kind: "status", status: 400, body: { error: { message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' } } }
        : goodScript(req, 0),
    );
    const run = await doctor(["--model", "openai:test-model", "--base-url", s.baseURL]);
    expect(run.out).toMatch(/FAIL tools +HTTP 400: .*auto-tool-choice.*; fix: the server does not return tool calls: vLLM needs/);
    expect(run.code).toBe(1);
  });

  it("says the key was refused when chat completions answer 401", async () => {
    const s = await server(() => ({ kind: "status", status: 401, body: { error: { message: "Incorrect API key provided" } } }));
    process.env[KEY_ENV] = KEY;
    const run = await doctor(["--model", "openai:test-model", "--base-url", s.baseURL, "--api-key-env", KEY_ENV]);
    expect(run.out).toMatch(/FAIL authorised the endpoint refused the key on chat completions; fix: set OPENAI_API_KEY, or name the variable holding the key with --api-key-env NAME/);
    expect(run.out).toMatch(/FAIL chat +the endpoint refused the key \(401\)/);
    expect(run.out).toContain("skip tools      not run: not authorised");
    expect(run.code).toBe(1);
    expect(run.out).not.toContain(KEY);
  });

  it("says the key was refused when /models answers 401, and skips the model calls", async () => {
    const srv = createServer((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "invalid api key" } }));
    });
    raw.push(srv);
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`;
    const run = await doctor(["--model", "openai:m", "--base-url", url]);
    expect(run.out).toContain("ok   reachable");
    expect(run.out).toMatch(/FAIL authorised GET \/models answered 401: the endpoint refused the key; fix: set OPENAI_API_KEY/);
    expect(run.out).toContain("skip chat       not run: not authorised");
    expect(run.code).toBe(1);
  });

  it("says the endpoint is unreachable and how to point at one", async () => {
    const s = await server(goodScript);
    const url = s.baseURL;
    await s.close();
    servers.splice(0);
    const run = await doctor(["--model", "openai:m", "--base-url", url, "--timeout", "2000"]);
    expect(run.out).toMatch(/FAIL reachable +cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: .*; fix: start the server, or check --base-url/);
    expect(run.out).toContain("skip chat       not run: the endpoint is unreachable");
    expect(run.code).toBe(1);
  });

  it("never prints a base URL's query values (?api-key=...), and sends the query with every request on the right path", async () => {
    const SECRET = "azure-query-SECRET-42";
    const s = await server((req, index) => {
      // an endpoint that echoes the URL it was asked in its answer (some proxies do, in errors)
      if (Array.isArray(req.body["tools"]) && typeof req.body["tool_choice"] === "string") return { kind: "status", status: 400, body: { error: { message: `tool_choice auto is not supported at ${req.path}` } } };
      return goodScript(req, index);
    });
    const run = await doctor(["--model", "openai:test-model", "--base-url", `${s.baseURL}?api-version=2024-06-01&api-key=${SECRET}`, "--timeout", "2000"]);
    expect(run.out).toContain(`ok   reachable  GET ${s.baseURL}/models?api-version=[redacted]&api-key=[redacted] answered 200`);
    expect(run.out).toContain("ok   model      test-model is served");
    expect(run.out).toContain("ok   chat");
    expect(run.out).toMatch(/FAIL tools +a forced call works, but tool_choice auto failed: .*\[redacted\]/);
    expect(run.out + run.err).not.toContain(SECRET);
    // GET /models went to its path (the model check read its list); every chat completion too, the query after the path
    const asked = s.requests.map((r) => new URL(r.path, "http://127.0.0.1"));
    expect(asked.length).toBe(4);
    expect(asked.every((u) => u.pathname === "/v1/chat/completions")).toBe(true);
    expect(asked.every((u) => u.searchParams.get("api-key") === SECRET && u.searchParams.get("api-version") === "2024-06-01")).toBe(true);
  });

  it("does not print a base URL's query values when the endpoint is unreachable", async () => {
    const s = await server(goodScript);
    const url = s.baseURL;
    await s.close();
    servers.splice(0);
    const run = await doctor(["--model", "openai:m", "--base-url", `${url}?api-key=unreachable-SECRET-7`, "--timeout", "2000"]);
    expect(run.out).toMatch(/FAIL reachable +cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\?api-key=\[redacted\]: /);
    expect(run.out + run.err).not.toContain("unreachable-SECRET-7");
    expect(run.code).toBe(1);
  });

  it("refuses a bad model spec as a usage error", async () => {
    const error = await doctor(["--model", "anthropic:claude"]).catch((e: unknown) => e);
    expect((error as Error).name).toBe("UsageError");
    expect((error as Error).message).toMatch(/unknown model provider "anthropic"/);
  });
});
