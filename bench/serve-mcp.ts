/**
 * Section `serve`, part `mcp` (issue 16): MCP `tools/call` per second over Streamable HTTP against the REST routes
 * of the same `toolsim serve` process, on the same spec and the same calls, in the same run.
 *
 * - Spec: the bundled bookstore toolset's inline OpenAPI document (as `serve.bookstore` uses it), served by one
 *   child `toolsim serve SPEC --stateless --mcp-http` on loopback (from source through tsx, or from dist/ with
 *   BENCH_SERVE_DIST=1). Stateless, as the serve headline: both sides answer from the schema, so the figure is
 *   what MCP costs on top of the same pipeline, not state growing differently.
 * - Calls: synthesized valid calls of every operation (a few seeds each), kept when both sides answer them
 *   alike (a 2xx over REST, a result without `isError` over MCP). REST sends each call's HTTP request with a
 *   credential; MCP sends `tools/call` with the call's arguments in one MCP session (JSON responses), each with
 *   its own JSON-RPC id, the server presenting the credential itself.
 * - Profiling: BENCH_SERVE_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" passes node flags to the serve child (`compiled.ts`).
 * - Load: autocannon, BENCH_SERVE_CONNECTIONS connections (default 10), BENCH_SERVE_SECONDS per round (default
 *   5), BENCH_SERVE_ROUNDS interleaved rounds (default 3) after a 2 s warm-up of each side.
 *
 * Prints, with medians over rounds:
 *   bench: serve.mcp.calls_per_s_bookstore <MCP tools/call per s> ratio=<MCP / REST requests per s>
 *   bench: serve.mcp.p99_ms_bookstore <MCP p99 ms> ratio=<REST p99 / MCP p99>
 *   bench: serve.mcp.cpu_us_per_call_bookstore <server CPU per MCP call, us> ratio=<REST's / MCP's> (Linux)
 * Goal: ratio >= 0.5 for calls per second.
 */
import autocannon, { type AutocannonRequest, type AutocannonResult } from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Catalog } from "../specs/catalog/catalog.js";
import { toHttpRequest } from "../specs/call/http-request.js";
import { loadCatalog } from "../specs/catalog/load-catalog.js";
import { securityRequirements } from "../specs/catalog/security-requirements.js";
import { deriveSeed } from "../specs/seed.js";
import { synthesizeArguments } from "../specs/synthesize/synthesize-call.js";
import { validateCall } from "../specs/call/validate-call.js";
import { cliEntry, toolsimBuild } from "./compiled.js";
import { bookstoreSpec, ROOT } from "./paths.js";
import { median, note, pairedRatio, printFigure, printRounds } from "./stats.js";

/** Parts of the section a filter can pick: `serve.mcp`. */
export const SERVE_MCP_PARTS = ["mcp"] as const;

const SECONDS = Number(process.env["BENCH_SERVE_SECONDS"] ?? 5);
const ROUNDS = Number(process.env["BENCH_SERVE_ROUNDS"] ?? 3);
const CONNECTIONS = Number(process.env["BENCH_SERVE_CONNECTIONS"] ?? 10);
/** Extra node flags of the serve child (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the server). */
const WARMUP_SECONDS = 2;
const SEEDS_PER_TOOL = 5;
const STARTUP_MS = 90_000;
const PROTOCOL = "2025-06-18";

interface Round {
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Server CPU (user + system, all threads) per answered request, in microseconds; NaN where /proc is missing. */
  cpuUs: number;
}

/** A process's CPU time so far in microseconds (Linux /proc; NaN elsewhere). */
function cpuMicros(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) * (1_000_000 / 100);
  } catch {
    return Number.NaN;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}


function startChild(spec: string, port: number): { process: ChildProcess; url: string; output: () => string } {
  const child = spawn(process.execPath, [...cliEntry(), "serve", spec, "--port", String(port), "--host", "127.0.0.1", "--stateless", "--mcp-http"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (d: Buffer): void => {
    output = (output + d.toString()).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { process: child, url: `http://127.0.0.1:${port}`, output: () => output };
}

async function waitReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = performance.now() + STARTUP_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`toolsim exited (${child.exitCode}): ${output()}`);
    try {
      await fetch(`${url}/__toolsim/health`, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`toolsim did not start within ${STARTUP_MS} ms: ${output()}`);
}

/** The REST request of a call, with a credential where the operation's first security alternative wants one. */
function restRequest(catalog: Catalog, tool: string, args: Record<string, unknown>): AutocannonRequest {
  const t = catalog.get(tool);
  if (!t) throw new Error(tool);
  const http = toHttpRequest(t, args);
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(http.query)) for (const x of Array.isArray(v) ? v : [v]) query.append(k, x);
  const headers: Record<string, string> = { ...http.headers, accept: "application/json" };
  for (const { scheme } of securityRequirements(catalog, t)[0]?.schemes ?? []) {
    if (scheme.type === "apiKey" && scheme.paramName) {
      if (scheme.in === "query") query.set(scheme.paramName, "bench-key");
      else headers[scheme.paramName.toLowerCase()] = "bench-key";
    } else if (scheme.type !== "mutualTLS") headers["authorization"] = "Bearer bench-token";
  }
  const qs = query.toString();
  return { method: http.method, path: `${http.path}${qs !== "" ? `?${qs}` : ""}`, headers, ...(http.body !== undefined ? { body: JSON.stringify(http.body) } : {}) };
}

async function openSession(mcpUrl: string): Promise<Record<string, string>> {
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await fetch(mcpUrl, {
    method: "POST",
    headers: base,
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "bench", version: "1" } } }),
  });
  const session = init.headers.get("mcp-session-id");
  await init.arrayBuffer();
  if (session === null) throw new Error(`no MCP session: ${init.status}`);
  const headers = { ...base, "mcp-session-id": session, "mcp-protocol-version": PROTOCOL };
  await (await fetch(mcpUrl, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).arrayBuffer();
  return headers;
}

/** A JSON-RPC id per request, of fixed width (autocannon's own id replacement miscounts the body's length). */
let nextId = 0;
function withFreshId(request: AutocannonRequest): AutocannonRequest {
  return { ...request, body: String(request.body).replace('"@ID@"', `"${String(nextId++).padStart(12, "0")}"`) };
}

async function load(url: string, requests: AutocannonRequest[], seconds: number, pid?: number): Promise<Round> {
  const cpu0 = cpuMicros(pid);
  const r: AutocannonResult = await autocannon({ url, connections: CONNECTIONS, pipelining: 1, duration: seconds, timeout: 10, requests });
  const cpuUs = (cpuMicros(pid) - cpu0) / Math.max(1, r.requests.total);
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, cpuUs };
}

export async function runServeMcp(parts: ReadonlySet<string>): Promise<void> {
  if (!parts.has("mcp")) return;
  const tmp = mkdtempSync(join(tmpdir(), "toolsim-bench-mcp-"));
  const spec = bookstoreSpec(tmp);
  const loaded = await loadCatalog(spec);
  if (!loaded.ok) throw new Error(`toolsim could not load ${spec}`);
  const catalog = loaded.value;
  const child = startChild(spec, await freePort());
  try {
    await waitReady(child.url, child.process, child.output);
    const mcpUrl = `${child.url}/mcp`;
    const session = await openSession(mcpUrl);

    // Valid calls that both sides answer alike.
    const rest: AutocannonRequest[] = [];
    const mcp: AutocannonRequest[] = [];
    const left: string[] = [];
    const seen = new Set<string>();
    for (const tool of catalog.tools) {
      for (let s = 0; s < SEEDS_PER_TOOL; s++) {
        const args = synthesizeArguments(catalog, tool, { seed: deriveSeed(7, tool.name, s) });
        const key = `${tool.name} ${JSON.stringify(args)}`;
        if (seen.has(key) || !validateCall(catalog, tool.name, args).ok) continue;
        seen.add(key);
        const r = restRequest(catalog, tool.name, args);
        const restStatus = (await fetch(`${child.url}${r.path}`, { method: r.method ?? "GET", headers: r.headers ?? {}, ...(r.body !== undefined ? { body: r.body } : {}) }).then(async (x) => (await x.arrayBuffer(), x.status))) as number;
        const body = (id: string): string => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool.name, arguments: args } });
        const answer = (await (await fetch(mcpUrl, { method: "POST", headers: session, body: body("probe") })).json()) as { result?: { isError?: boolean } };
        if (restStatus >= 200 && restStatus < 300 && answer.result !== undefined && answer.result.isError !== true) {
          rest.push(r);
          mcp.push({ method: "POST", path: "/mcp", headers: session, body: body("@ID@"), setupRequest: withFreshId });
        } else left.push(`${tool.name}: REST ${restStatus}, MCP ${answer.result?.isError === true ? "isError" : answer.result ? "ok" : "protocol error"}`);
      }
    }
    if (rest.length === 0) throw new Error("no call both sides answer");
    note(`serve.mcp bookstore: ${toolsimBuild()}, --stateless --mcp-http; ${rest.length} calls of ${catalog.tools.length} operations${left.length > 0 ? ` (left out ${left.length}: ${left.slice(0, 3).join("; ")})` : ""}; ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} rounds`);

    await load(child.url, rest, WARMUP_SECONDS);
    await load(mcpUrl, mcp, WARMUP_SECONDS);
    const rounds: { rest: Round[]; mcp: Round[] } = { rest: [], mcp: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const order: Array<"rest" | "mcp"> = r % 2 === 0 ? ["rest", "mcp"] : ["mcp", "rest"];
      for (const side of order) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        rounds[side].push(await load(side === "rest" ? child.url : mcpUrl, side === "rest" ? rest : mcp, SECONDS, child.process.pid));
      }
    }
    const m = (side: "rest" | "mcp", key: "rps" | "p99" | "cpuUs"): number => median(rounds[side].map((x) => x[key]));
    printFigure("serve.mcp.calls_per_s_bookstore", m("mcp", "rps"), m("mcp", "rps") / m("rest", "rps"));
    printRounds(
      "serve.mcp.calls_per_s_bookstore",
      { mcp: rounds.mcp.map((x) => x.rps), rest: rounds.rest.map((x) => x.rps) },
      `(MCP tools/call per s vs REST requests per s; REST median ${Math.round(m("rest", "rps"))}; median of per-round ratios ${pairedRatio(rounds.mcp.map((x) => x.rps), rounds.rest.map((x) => x.rps)).toFixed(2)}; goal >= 0.5)`,
    );
    printFigure("serve.mcp.p99_ms_bookstore", m("mcp", "p99"), m("rest", "p99") / m("mcp", "p99"));
    printRounds("serve.mcp.p99_ms_bookstore", { mcp: rounds.mcp.map((x) => x.p99), rest: rounds.rest.map((x) => x.p99) }, "(ms)");
    if (Number.isFinite(m("mcp", "cpuUs"))) {
      printFigure("serve.mcp.cpu_us_per_call_bookstore", m("mcp", "cpuUs"), m("rest", "cpuUs") / m("mcp", "cpuUs"));
      printRounds("serve.mcp.cpu_us_per_call_bookstore", { mcp: rounds.mcp.map((x) => x.cpuUs), rest: rounds.rest.map((x) => x.cpuUs) }, "(server CPU per answered request, microseconds; steadier than requests/s on a shared machine)");
    }
    const trouble = (side: "rest" | "mcp"): number => rounds[side].reduce((a, x) => a + x.errors + x.non2xx, 0);
    note(`serve.mcp bookstore: non-2xx or failed responses: REST ${trouble("rest")}, MCP ${trouble("mcp")}`);
  } finally {
    if (child.process.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.process.once("exit", () => resolve()));
      child.process.kill("SIGTERM");
      const timer = setTimeout(() => child.process.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(tmp, { recursive: true, force: true });
  }
}
