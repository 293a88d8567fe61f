/**
 * Section `serve` (issue 7, item 6): `toolsim serve` against `prism mock` over HTTP on loopback, on the
 * same spec, with the same bounded load generator (autocannon, programmatic API, in this process).
 *
 * - Specs (parts): `bookstore` (the bundled toolset's inline OpenAPI document, written to a temp JSON file)
 *   and `corpus` (a real APIs.guru spec from ../shared/corpora/openapi/oas3, BENCH_SERVE_SPEC, default
 *   configcat.com.json; skipped when absent).
 * - Servers, each a child process on its own free port, bound to 127.0.0.1:
 *   `toolsim` = `toolsim serve SPEC --stateless` (schema answers, no state: what Prism does; the headline),
 *   `toolsim_stateful` = `toolsim serve SPEC` (the default: state per session, reset before each round; its
 *   requests carry `X-Toolsim-Session` in blocks of 25, an agent episode's worth, cycling: every session's
 *   state grows as autocannon loops over the 500 requests, lists answer from it),
 *   `prism` = `node_modules/.bin/prism mock SPEC -v error` (static mocks, request validation and security
 *   checks, logging at `error` so that per-request logs do not slow it down).
 *   toolsim runs as users run it, from the compiled CLI (`bin/toolsim.js`), when `dist/` is fresh (see
 *   `compiled.ts`: BENCH_DIST=1/0 insists on dist/ or the sources).
 * - Requests: the executor bench's call mix (synthesized valid calls and invalid variants, 70/30, see
 *   `call-mix.ts`) as HTTP requests with credentials for the spec's security schemes (both servers accept
 *   any presented credential); each distinct request is sent once to both servers first, and only those
 *   both answer alike (2xx for valid, 4xx for invalid) are kept.
 * - Load: BENCH_SERVE_CONNECTIONS connections (default 10), BENCH_SERVE_SECONDS per round (default 5),
 *   BENCH_SERVE_ROUNDS interleaved rounds (default 3) after a warm-up of each server under the same load
 *   (BENCH_SERVE_WARMUP seconds, default 6: both servers are JIT-compiled Node programs, and both reach their steady
 *   rate only after about 5 s of load; measured from a cold start in one-second windows, toolsim served 1.7k, 3.5k,
 *   5.0k, 5.3k, then about 6.1k requests/s, Prism 0.9k, 1.3k, 1.7k, 1.9k, 2.1k, then about 2.2k).
 *
 * Prints, with medians over rounds:
 *   bench: serve.rps_<spec> <toolsim rps> ratio=<toolsim rps / prism rps>
 *   bench: serve.p99_ms_<spec> <toolsim p99> ratio=<prism p99 / toolsim p99>
 * and the same for `toolsim_stateful` (`serve.rps_stateful_<spec>`, `serve.p99_ms_stateful_<spec>`). A `#` line
 * gives each server's requests per second of its own CPU time (read from /proc on Linux), which hardly moves when
 * other work shares the cores (wall-clock rates do: the server and the load generator compete for them).
 * A last `#` line gives the floor: toolsim's rate and CPU per request on a path no API serves (routing and HTTP only).
 * Goal: ratio >= 3 for rps at a p99 ratio >= 1.
 */
import autocannon, { type AutocannonRequest, type AutocannonResult } from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { Catalog } from "../specs/catalog/catalog.js";
import { loadCatalog } from "../specs/catalog/load-catalog.js";
import { securityRequirements } from "../specs/catalog/security-requirements.js";
import { buildCallMix, type BenchCall } from "./executor/call-mix.js";
import { cliEntry, toolsimBuild } from "./compiled.js";
import { bookstoreSpec, CORPORA, figureLabel, ROOT } from "./paths.js";
import { createPrismClient } from "./prism.js";
import { median, note, pairedRatio, printFigure, printRounds } from "./stats.js";
import { runServeSessions } from "./serve-sessions.js";

/** Parts of the section a filter can pick: `serve.bookstore`, `serve.corpus`, `serve.sessions` (see serve-sessions.ts). */
export const SERVE_PARTS = ["bookstore", "corpus", "sessions"] as const;

const SECONDS = Number(process.env["BENCH_SERVE_SECONDS"] ?? 5);
const ROUNDS = Number(process.env["BENCH_SERVE_ROUNDS"] ?? 3);
const CONNECTIONS = Number(process.env["BENCH_SERVE_CONNECTIONS"] ?? 10);
const WARMUP_SECONDS = Number(process.env["BENCH_SERVE_WARMUP"] ?? 6);
const CORPUS_SPEC = process.env["BENCH_SERVE_SPEC"] ?? "configcat.com.json";
/** Requests per session of the stateful server. */
const EPISODE = 25;
/** The share of invalid requests in the mix. */
const INVALID_SHARE = 0.3;
const STARTUP_MS = 90_000;

type ServerName = "toolsim" | "toolsim_stateful" | "prism";
const SERVERS: readonly ServerName[] = ["toolsim", "toolsim_stateful", "prism"];

interface Child {
  name: ServerName;
  url: string;
  process: ChildProcess;
  output: () => string;
}

export async function runServe(parts: ReadonlySet<string>): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "toolsim-bench-serve-"));
  try {
    if (parts.has("bookstore")) await benchSpec("bookstore", bookstoreSpec(tmp));
    if (parts.has("corpus")) {
      const corpus = join(CORPORA, "oas3", CORPUS_SPEC);
      if (existsSync(corpus)) await benchSpec(figureLabel(CORPUS_SPEC), corpus);
      else note(`serve.corpus: ${corpus} not found; skipped`);
    }
    if (parts.has("sessions")) await runServeSessions();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
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

function startChild(name: ServerName, spec: string, port: number): Child {
  let args: string[];
  if (name === "prism") args = [join(ROOT, "node_modules", "@stoplight", "prism-cli", "dist", "index.js"), "mock", spec, "-p", String(port), "-h", "127.0.0.1", "-v", "error"];
  else {
    args = [...cliEntry(), "serve", spec, "--port", String(port), "--host", "127.0.0.1", ...(name === "toolsim" ? ["--stateless"] : [])];
  }
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (d: Buffer): void => {
    output = (output + d.toString()).slice(-4000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { name, url: `http://127.0.0.1:${port}`, process: child, output: () => output };
}

async function waitReady(child: Child): Promise<void> {
  const deadline = performance.now() + STARTUP_MS;
  while (performance.now() < deadline) {
    if (child.process.exitCode !== null) throw new Error(`${child.name} exited (${child.process.exitCode}): ${child.output()}`);
    try {
      await fetch(`${child.url}/__bench_probe`, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`${child.name} did not start within ${STARTUP_MS} ms: ${child.output()}`);
}

async function stopChild(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.process.once("exit", () => resolve()));
  child.process.kill("SIGTERM");
  const timer = setTimeout(() => child.process.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

/** Credentials for an operation's first security alternative (both servers accept any presented value). */
function withCredentials(catalog: Catalog, c: BenchCall): AutocannonRequest {
  const tool = catalog.get(c.tool);
  const headers: Record<string, string> = { ...c.http.input.headers };
  let path = c.http.url;
  const query: string[] = [];
  for (const { scheme } of (tool ? securityRequirements(catalog, tool)[0]?.schemes : undefined) ?? []) {
    if (scheme.type === "apiKey" && scheme.paramName) {
      if (scheme.in === "query") query.push(`${encodeURIComponent(scheme.paramName)}=bench-key`);
      else if (scheme.in === "cookie") headers["cookie"] = `${scheme.paramName}=bench-key`;
      else headers[scheme.paramName.toLowerCase()] = "bench-key";
    } else if (scheme.type === "http" && scheme.scheme === "basic") headers["authorization"] = `Basic ${Buffer.from("bench:secret").toString("base64")}`;
    else if (scheme.type !== "mutualTLS") headers["authorization"] = "Bearer bench-token";
  }
  if (query.length > 0) path += (path.includes("?") ? "&" : "?") + query.join("&");
  const body = c.http.input.body;
  return { method: c.http.input.method.toUpperCase(), path, headers, ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}) };
}

async function statusOf(base: string, r: AutocannonRequest): Promise<number> {
  try {
    const res = await fetch(`${base}${r.path ?? "/"}`, { method: r.method ?? "GET", headers: r.headers ?? {}, ...(r.body !== undefined ? { body: r.body } : {}) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return -1;
  }
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  statuses: Record<string, number>;
  /** Requests answered per second of the server process's CPU time (undefined where /proc cannot tell). */
  perCpu: number | undefined;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); undefined elsewhere. */
function cpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / CLOCK_TICKS : undefined;
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const CLOCK_TICKS = 100;

async function load(child: Child, requests: AutocannonRequest[], seconds: number): Promise<Round> {
  const cpuBefore = cpuSeconds(child.process.pid);
  const r: AutocannonResult = await autocannon({ url: child.url, connections: CONNECTIONS, pipelining: 1, duration: seconds, timeout: 10, requests });
  const cpuAfter = cpuSeconds(child.process.pid);
  const statuses: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statuses[code] = Number(s.count);
  const cpu = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, statuses, perCpu: cpu !== undefined && cpu > 0 ? r.requests.total / cpu : undefined };
}

async function benchSpec(label: string, spec: string): Promise<void> {
  const loaded = await loadCatalog(spec);
  if (!loaded.ok) throw new Error(`toolsim could not load ${spec}`);
  const catalog = loaded.value;
  const mix = await buildCallMix(catalog, await createPrismClient(spec), { invalidShare: INVALID_SHARE });
  note(
    `serve ${label} (${basename(spec)}): ${toolsimBuild()}, ` +
      `prism mock -v error; ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} rounds`,
  );

  const children: Child[] = [];
  try {
    for (const name of SERVERS) children.push(startChild(name, spec, await freePort()));
    await Promise.all(children.map(waitReady));
    const byName = new Map(children.map((c) => [c.name, c]));
    const toolsim = byName.get("toolsim") as Child;
    const stateful = byName.get("toolsim_stateful") as Child;
    const prism = byName.get("prism") as Child;

    // The mix over HTTP, verified on both servers (stateless toolsim and prism): same status class.
    const verify = async (pool: readonly BenchCall[], valid: boolean): Promise<AutocannonRequest[]> => {
      const ok = (s: number): boolean => (valid ? s >= 200 && s < 300 : s >= 400 && s < 500);
      const kept: AutocannonRequest[] = [];
      const seen = new Set<string>();
      const disagreements: string[] = [];
      for (const c of pool) {
        const r = withCredentials(catalog, c);
        const key = JSON.stringify(r);
        if (seen.has(key)) continue;
        seen.add(key);
        const [mine, theirs] = [await statusOf(toolsim.url, r), await statusOf(prism.url, r)];
        if (ok(mine) && ok(theirs)) kept.push(r);
        else disagreements.push(`${c.tool} ${c.variant}: toolsim ${mine}, prism ${theirs}`);
      }
      note(`  ${valid ? "valid" : "invalid"} requests kept ${kept.length}/${seen.size}${disagreements.length > 0 ? `; left out: ${disagreements.slice(0, 4).join("; ")}${disagreements.length > 4 ? "; ..." : ""}` : ""}`);
      return kept;
    };
    const valid = await verify(mix.validPool, true);
    const invalid = await verify(mix.invalidPool, false);
    if (valid.length === 0 || invalid.length === 0) throw new Error(`no usable HTTP mix for ${label}: ${valid.length} valid, ${invalid.length} invalid`);
    const requests: AutocannonRequest[] = [];
    for (let i = 0, vi = 0, ii = 0; i < 500; i++) {
      const bad = Math.floor((i + 1) * INVALID_SHARE) > Math.floor(i * INVALID_SHARE);
      requests.push(bad ? (invalid[ii++ % invalid.length] as AutocannonRequest) : (valid[vi++ % valid.length] as AutocannonRequest));
    }

    // The stateful server gets the same requests in sessions of EPISODE requests (an agent's episode each), so
    // that its state grows as an agent's would, not by every create of the whole round in one collection.
    const episodes = requests.map((r, i) => ({ ...r, headers: { ...r.headers, "x-toolsim-session": `ep-${Math.floor(i / EPISODE)}` } }));
    const requestsOf = (c: Child): AutocannonRequest[] => (c.name === "toolsim_stateful" ? episodes : requests);
    const reset = async (): Promise<void> => {
      await fetch(`${stateful.url}/__toolsim/reset`, { method: "POST" }).then((r) => r.arrayBuffer());
    };
    for (const c of children) {
      if (c.name === "toolsim_stateful") await reset();
      await load(c, requestsOf(c), WARMUP_SECONDS);
    }
    const rounds: Record<ServerName, Round[]> = { toolsim: [], toolsim_stateful: [], prism: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? children : [...children].reverse();
      for (const c of order) {
        if (c.name === "toolsim_stateful") await reset();
        await new Promise((resolve) => setTimeout(resolve, 250));
        rounds[c.name].push(await load(c, requestsOf(c), SECONDS));
      }
    }
    report(label, rounds);
    // Context: what the HTTP layer alone costs here (a path no API serves: routed, answered 404, no simulation).
    const floor = await load(toolsim, [{ method: "GET", path: "/__bench_no_such_path", headers: {} }], SECONDS);
    note(
      `serve ${label} floor: toolsim answers an unrouted path (404) at ${Math.round(floor.rps)} requests/s` +
        (floor.perCpu !== undefined ? `, ${(1e6 / floor.perCpu).toFixed(1)} µs of CPU each; the bench mix costs ${perCpuMicros(rounds.toolsim)} µs` : ""),
    );
  } finally {
    await Promise.all(children.map(stopChild));
  }
}

/** Median CPU microseconds per request over rounds (from requests per CPU-second), as text. */
function perCpuMicros(rounds: readonly Round[]): string {
  const values = rounds.map((r) => r.perCpu).filter((v): v is number => v !== undefined);
  return values.length > 0 ? (1e6 / median(values)).toFixed(1) : "?";
}

function report(label: string, rounds: Record<ServerName, Round[]>): void {
  const m = (name: ServerName, key: "rps" | "p50" | "p99"): number => median(rounds[name].map((r) => r[key]));
  const prismRps = m("prism", "rps");
  const prismP99 = m("prism", "p99");
  for (const [name, suffix] of [
    ["toolsim", ""],
    ["toolsim_stateful", "stateful_"],
  ] as const) {
    const rps = m(name, "rps");
    const p99 = m(name, "p99");
    printFigure(`serve.rps_${suffix}${label}`, rps, rps / prismRps);
    printRounds(
      `serve.rps_${suffix}${label}`,
      { [name]: rounds[name].map((r) => r.rps), prism: rounds.prism.map((r) => r.rps) },
      `(requests/s; prism median ${Math.round(prismRps)}; median of per-round ratios ${pairedRatio(rounds[name].map((r) => r.rps), rounds.prism.map((r) => r.rps)).toFixed(2)})`,
    );
    printFigure(`serve.p99_ms_${suffix}${label}`, p99, prismP99 / p99);
    printRounds(
      `serve.p99_ms_${suffix}${label}`,
      { [name]: rounds[name].map((r) => r.p99), prism: rounds.prism.map((r) => r.p99) },
      `(ms; p50 medians ${name} ${m(name, "p50").toFixed(2)}, prism ${m("prism", "p50").toFixed(2)})`,
    );
  }
  const perCpu = (name: ServerName): number | undefined => {
    const values = rounds[name].map((r) => r.perCpu).filter((v): v is number => v !== undefined);
    return values.length > 0 ? median(values) : undefined;
  };
  const prismPerCpu = perCpu("prism");
  const toolsimPerCpu = perCpu("toolsim");
  const statefulPerCpu = perCpu("toolsim_stateful");
  if (prismPerCpu !== undefined && toolsimPerCpu !== undefined && statefulPerCpu !== undefined) {
    note(
      `serve.rps_${label} per CPU-second of each server (robust to other load on the machine): toolsim ${Math.round(toolsimPerCpu)}, ` +
        `toolsim_stateful ${Math.round(statefulPerCpu)}, prism ${Math.round(prismPerCpu)}; ratios toolsim/prism ${(toolsimPerCpu / prismPerCpu).toFixed(2)}, ` +
        `stateful/prism ${(statefulPerCpu / prismPerCpu).toFixed(2)}`,
    );
  }
  for (const name of SERVERS) {
    const statuses: Record<string, number> = {};
    let errors = 0;
    for (const r of rounds[name]) {
      errors += r.errors;
      for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
    }
    const total = Object.values(statuses).reduce((a, b) => a + b, 0);
    const parts = Object.entries(statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([code, n]) => `${code} ${((n / total) * 100).toFixed(1)}%`);
    note(`serve ${label} ${name}: ${total} responses (${parts.join(", ")}), ${errors} connection errors/timeouts`);
  }
}
