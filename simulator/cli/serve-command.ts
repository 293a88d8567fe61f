import { Command, Option } from "commander";
import { existsSync } from "node:fs";
import { createGateway } from "../../agents/llm/llm-gateway.js";
import { parseModelSpec, redactUrl } from "../../agents/llm/model-spec.js";
import { formatProblem } from "../../specs/load/spec-problem.js";
import { loadCredentials, type Credential } from "../serve/auth.js";
import { FAULT_KINDS, type FaultKind, type FaultOptions } from "../serve/faults.js";
import { HttpCassette } from "../serve/record/http-cassette.js";
import { loadServedApis } from "../serve/load-apis.js";
import { parseRate, type Rate } from "../serve/rate-limits.js";
import { SERVE_MODES, type ServeMode, type ServeOptions } from "../serve/serve-app.js";
import { DEFAULT_PORT, startServe } from "../serve/start-serve.js";
import { withWorkBudgetOptions, workBudgetFromFlags, type WorkBudgetFlags } from "./options/work-budget-options.js";
import { mcpFlagsOf, serveMcpStdio, type McpFlags } from "./serve-mcp.js";
import type { CliIO } from "./cli-io.js";
import { UsageError, UserError } from "./cli-io.js";
import { parseInteger } from "./options/parse-options.js";

/** The options of `toolsim serve` as commander gives them. */
interface ServeFlags extends McpFlags, WorkBudgetFlags {
  port: string;
  host: string;
  mode?: ServeMode;
  seed: string;
  stateless?: boolean;
  bodyLimit: string;
  maxSessions?: string;
  allowHost?: string[];
  auth: boolean;
  apiKey?: string[];
  credentials?: string;
  rateLimit?: string;
  quota?: string;
  faultRate?: string;
  fault?: string[];
  latencyMs: string;
  timeoutMs: string;
  upstream?: string[];
  upstreamTimeout: string;
  record?: string;
  cassette?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  cors?: boolean;
  verbose?: boolean;
  adminToken?: string;
}

/** Whether a host name binds the loopback interface only. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h) || h === "::ffff:127.0.0.1";
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), ...value.split(",").map((s) => s.trim()).filter((s) => s !== "")];

/** Parses `1mb`, `512kb`, `2048` (bytes). */
export function parseSize(name: string, text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|k|kib|mb|m|mib)?\s*$/i.exec(text);
  if (!m) throw new UsageError(`${name} must be a size like 1mb, 512kb or 2048, got "${text}"`);
  const unit = (m[2] ?? "b").toLowerCase();
  const factor = unit.startsWith("k") ? 1024 : unit.startsWith("m") ? 1024 * 1024 : 1;
  return Math.floor(Number(m[1]) * factor);
}

function rateOption(name: string, text: string | undefined): Rate | undefined {
  if (text === undefined) return undefined;
  const rate = parseRate(text);
  if (!rate) throw new UsageError(`${name} must look like 60/min, 10/s, 100/5min or 1000/day, got "${text}"`);
  return rate;
}

function faultOptions(flags: ServeFlags): FaultOptions | undefined {
  if (flags.faultRate === undefined) {
    if (flags.fault !== undefined) throw new UsageError("--fault needs --fault-rate (e.g. --fault-rate 0.05)");
    return undefined;
  }
  const rate = Number(flags.faultRate);
  if (!Number.isFinite(rate) || rate < 0 || rate > 1) throw new UsageError(`--fault-rate must be a probability between 0 and 1, got "${flags.faultRate}"`);
  const kinds = flags.fault ?? ["5xx"];
  for (const k of kinds) if (!FAULT_KINDS.includes(k as FaultKind)) throw new UsageError(`--fault must be one of ${FAULT_KINDS.join(", ")}, got "${k}"`);
  return {
    rate,
    kinds: kinds as FaultKind[],
    latencyMs: parseInteger("--latency-ms", flags.latencyMs, 0) ?? 200,
    timeoutMs: parseInteger("--timeout-ms", flags.timeoutMs, 0) ?? 30_000,
  };
}

/** `--upstream URL` (one API, or all) or `--upstream name=URL` per API. */
function upstreams(values: readonly string[], names: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of values) {
    const eq = v.indexOf("=");
    const named = eq > 0 && !v.slice(0, eq).includes("/") ? { name: v.slice(0, eq), url: v.slice(eq + 1) } : undefined;
    const url = named?.url ?? v;
    try {
      const u = new URL(url);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("not http");
    } catch {
      throw new UsageError(`--upstream must be an http(s) URL (or name=URL), got "${v}"`);
    }
    if (named) {
      if (!names.includes(named.name)) throw new UsageError(`--upstream ${named.name}=...: no served API is named ${named.name} (served: ${names.join(", ")})`);
      out.set(named.name, named.url);
    } else for (const n of names) if (!out.has(n)) out.set(n, url);
  }
  return out;
}

/** The absolute http(s) server URL of a spec, if it has one. */
function specServerUrl(document: unknown): string | undefined {
  const servers = (document as { servers?: unknown }).servers;
  const first = Array.isArray(servers) ? (servers[0] as { url?: unknown } | undefined) : undefined;
  return typeof first?.url === "string" && /^https?:\/\//i.test(first.url) && !first.url.includes("{") ? first.url : undefined;
}

/** `toolsim serve SPEC|TOOLSET...`: simulated APIs over HTTP. */
export function serveCommand(io: CliIO, setExit: (code: number) => void, signals: NodeJS.EventEmitter = process): Command {
  const serve = new Command("serve")
    .description("serve simulated APIs over HTTP: validation, state, auth, rate limits, faults, proxy, record and replay")
    .argument("<specs...>", "OpenAPI specs or toolset files (several are served under /<name>/)")
    .option("--port <n>", "port (0: any free port)", String(DEFAULT_PORT))
    .option("--host <host>", "interface to bind (0.0.0.0 exposes the server to the network)", "127.0.0.1")
    .addOption(new Option("--mode <mode>", "where answers come from (default schema; proxy with --upstream, replay with --cassette)").choices([...SERVE_MODES]))
    .option("--seed <n>", "seed of simulated answers and injected faults", "1")
    .option("--stateless", "answer from the schema only, without state (as Prism does)")
    .option("--body-limit <size>", "largest request body (413 beyond)", "1mb")
    .option("--max-sessions <n>", "most live X-Toolsim-Session states (default 1000); past it the least recently used is evicted and answers 410 until reset")
    .option("--allow-host <name>", "a Host name the admin routes answer besides loopback names and IP addresses (repeatable; e.g. a container's service name)", collect)
    .option("--no-auth", "do not enforce the specs' security schemes")
    .option("--api-key <key>", "an accepted API key or bearer token (repeatable)", collect)
    .option("--credentials <file>", "accepted credentials (YAML/JSON: key, scopes, scheme, api, rateLimit, quota)")
    .option("--rate-limit <rate>", "requests per credential per window, e.g. 60/min (429 beyond)")
    .option("--quota <rate>", "requests per credential per long window, e.g. 1000/day (429 beyond)")
    .option("--fault-rate <p>", "share of requests that get an injected fault (0..1), deterministic for --seed")
    .option("--fault <kind>", `kind of injected fault: ${FAULT_KINDS.join(", ")} (repeatable; default 5xx)`, collect)
    .option("--latency-ms <ms>", "delay of a latency fault", "200")
    .option("--timeout-ms <ms>", "how long a timeout fault hangs before its 504", "30000")
    .option("--upstream <url>", "proxy mode: the real API's base URL (name=URL per API with several)", collect)
    .option("--upstream-timeout <ms>", "time allowed to the real API", "30000")
    .option("--record <file>", "record the requests the API answered (real or simulated) and its responses to a cassette (JSON Lines, secrets redacted)")
    .option("--cassette <file>", "replay mode: serve these recordings, simulate what was never recorded")
    .option("--model <spec>", "llm mode: the model of the executor, openai:<model>[@<base-url>]")
    .option("--base-url <url>", "llm mode: OpenAI-compatible endpoint")
    .option("--api-key-env <name>", "llm mode: environment variable holding the model's API key")
    .option("--cors", "answer CORS preflights and allow any origin (agents in a browser)")
    .option("--admin-token <token>", "require this token (X-Toolsim-Admin-Token header) on the admin routes that read or reset state; without it they are open (a warning when --host is not loopback)")
    .option("--verbose", "log one line per request")
    .option("--mcp", "serve the APIs as MCP tools on stdin/stdout, for MCP clients that spawn servers (Claude Desktop, IDEs): stdout carries only the protocol, messages go to stderr, and no HTTP port is opened unless --mcp-http")
    .option("--mcp-http", "also answer MCP (Streamable HTTP) at /mcp beside the REST routes; each MCP session has its own state")
    .option("--mcp-credential <key>", 'the API key or token that MCP tool calls present when they bring none (default: the first configured credential, or any value when none is configured); "none" presents nothing')
    .option("--mcp-page-size <n>", "tools per MCP tools/list page (default: all in one page)");
  return withWorkBudgetOptions(serve).action(async (paths: string[], flags: ServeFlags, command: Command) => {
      const port = parseInteger("--port", flags.port, 0) ?? DEFAULT_PORT;
      if (port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
      const seed = parseInteger("--seed", flags.seed) ?? 1;
      const mode: ServeMode = flags.mode ?? (flags.upstream ? "proxy" : flags.cassette ? "replay" : "schema");
      if (flags.upstream && mode !== "proxy") throw new UsageError(`--upstream goes with --mode proxy, not ${mode}`);
      if (flags.cassette && mode !== "replay") throw new UsageError(`--cassette goes with --mode replay, not ${mode}`);
      if (mode === "replay" && !flags.cassette) throw new UsageError("--mode replay needs --cassette FILE");
      if (mode === "llm" && !flags.model) throw new UsageError("--mode llm needs --model openai:<model>[@<base-url>]");
      const faults = faultOptions(flags);
      const rateLimit = rateOption("--rate-limit", flags.rateLimit);
      const quota = rateOption("--quota", flags.quota);
      const bodyLimit = parseSize("--body-limit", flags.bodyLimit);
      const maxSessions = parseInteger("--max-sessions", flags.maxSessions, 1);
      if (flags.adminToken !== undefined && flags.adminToken.trim().length < 8) throw new UsageError("--admin-token must be at least 8 characters");
      const upstreamTimeoutMs = parseInteger("--upstream-timeout", flags.upstreamTimeout, 1) ?? 30_000;
      const mcp = mcpFlagsOf(flags, (name) => command.getOptionValueSource(name) === "cli");
      // With MCP on stdio, stdout carries the protocol: everything else goes to stderr.
      const say = flags.mcp ? io.err : io.out;
      const work = workBudgetFromFlags(flags);

      const loaded = await loadServedApis(paths);
      if (!loaded.ok) throw new UserError(loaded.problems.map(formatProblem).join("\n"));
      const apis = loaded.apis;
      const credentials: Credential[] = (flags.apiKey ?? []).map((value) => ({ value }));
      if (flags.credentials !== undefined) {
        const read = await loadCredentials(flags.credentials);
        if (!read.ok) throw new UserError(read.message);
        credentials.push(...read.value);
      }
      if (mode === "proxy") {
        const targets = upstreams(flags.upstream ?? [], apis.map((a) => a.name));
        for (const api of apis) {
          const url = targets.get(api.name) ?? specServerUrl(api.catalog.spec.document);
          if (url === undefined) throw new UsageError(`--mode proxy: no --upstream for ${api.name} and its spec has no absolute server URL`);
          if (!targets.has(api.name)) io.err(`toolsim serve: ${api.name}: proxying to the spec's server ${url}\n`);
          api.upstream = url;
        }
      }
      let cassette: HttpCassette | undefined;
      if (flags.cassette !== undefined) {
        if (!existsSync(flags.cassette)) throw new UserError(`no cassette at ${flags.cassette}`);
        const read = await HttpCassette.load(flags.cassette);
        cassette = read.cassette;
        if (read.skipped > 0) io.err(`toolsim serve: ${flags.cassette}: ${read.skipped} line(s) skipped (not recordings)\n`);
      }
      let llm: ServeOptions["llm"];
      if (mode === "llm" && flags.model) {
        const spec = parseModelSpec(flags.model, {
          ...(flags.baseUrl !== undefined ? { baseURL: flags.baseUrl } : {}),
          ...(flags.apiKeyEnv !== undefined ? { apiKeyEnv: flags.apiKeyEnv } : {}),
        });
        if (!spec.ok) throw new UsageError(`--model: ${spec.errors.map((e) => e.message).join("; ")}`);
        if (spec.value.provider === "offline") throw new UsageError("--mode llm needs a model endpoint (openai:<model>); the offline model does not simulate APIs");
        llm = { model: createGateway(spec.value, { role: "executor", seed }) };
      }

      const serveOptions: ServeOptions = {
        apis,
        mode,
        seed,
        bodyLimit,
        enforceAuth: flags.auth,
        credentials,
        upstreamTimeoutMs,
        requestBudgetMs: work.budgetMs,
        synthesisLimits: work.limits,
        log: (line) => io.err(`${line}\n`),
        ...(flags.stateless ? { stateless: true } : {}),
        ...(maxSessions !== undefined ? { maxSessions } : {}),
        ...(rateLimit ? { rateLimit } : {}),
        ...(quota ? { quota } : {}),
        ...(faults ? { faults } : {}),
        ...(llm ? { llm } : {}),
        ...(flags.record !== undefined ? { record: flags.record } : {}),
        ...(cassette ? { cassette } : {}),
        ...(flags.verbose ? { verbose: true } : {}),
        ...(flags.cors ? { cors: true } : {}),
        ...(flags.adminToken !== undefined ? { adminToken: flags.adminToken } : {}),
        ...(flags.allowHost !== undefined ? { allowedHosts: flags.allowHost } : {}),
      };
      const extras = [
        flags.stateless ? "stateless" : "state per X-Toolsim-Session",
        flags.auth ? "auth enforced" : "auth off",
        rateLimit ? `rate limit ${rateLimit.text}` : "",
        quota ? `quota ${quota.text}` : "",
        faults ? `faults ${faults.kinds.join("/")} at ${faults.rate}` : "",
        flags.record !== undefined ? `recording to ${flags.record}` : "",
        cassette ? `${cassette.size} recordings` : "",
      ].filter((s) => s !== "");
      if (mcp.stdioOnly) {
        say(`toolsim serve: ${mode} mode, seed ${seed}; ${extras.join(", ")}\n`);
        await serveMcpStdio(io, setExit, signals, serveOptions, mcp.options);
        return;
      }

      const server = await startServe({
        ...serveOptions,
        host: flags.host,
        port,
        ...(flags.mcpHttp ? { mcp: mcp.options } : {}),
      }).catch((e: NodeJS.ErrnoException) => {
        if (e.code === "EADDRINUSE") throw new UserError(`port ${port} on ${flags.host} is already in use (try --port 0)`);
        if (e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND") throw new UserError(`cannot listen on ${flags.host}: ${e.message}`);
        throw e;
      });

      const width = Math.max(5, ...server.apis.map((a) => a.name.length));
      say(`toolsim serve: ${mode} mode, seed ${seed}; ${extras.join(", ")}\n`);
      for (const a of server.apis) {
        const upstream = apis.find((x) => x.name === a.name)?.upstream;
        say(`  ${a.name.padEnd(width)}  ${a.url}/  ${a.title} (${a.operations} operation${a.operations === 1 ? "" : "s"})${upstream ? ` -> ${redactUrl(upstream)}` : ""}\n`);
      }
      say(`  ${"admin".padEnd(width)}  ${server.url}/__toolsim/health\n`);
      if (server.mcpUrl !== undefined) say(`  ${"mcp".padEnd(width)}  ${server.mcpUrl}  MCP over Streamable HTTP (state per MCP session)\n`);
      if (!isLoopbackHost(flags.host)) {
        io.err(`toolsim serve: listening on ${flags.host}: other machines can reach this server\n`);
        if (flags.adminToken === undefined) {
          io.err(`toolsim serve: warning: the admin routes (/__toolsim/state, /sessions, /reset) are open to anyone who can reach it; give --admin-token TOKEN to require an X-Toolsim-Admin-Token header\n`);
        }
      }
      if (flags.mcp) {
        await serveMcpStdio(io, setExit, signals, serveOptions, mcp.options, server);
        return;
      }
      say("Press Ctrl-C to stop.\n");

      await new Promise<void>((resolve) => {
        const stop = (signal: string): void => {
          signals.off("SIGINT", onInt);
          signals.off("SIGTERM", onTerm);
          io.out(`toolsim serve: ${signal}, stopping\n`);
          void server.close().then(resolve, (e: unknown) => {
            io.err(`toolsim serve: error while stopping: ${(e as Error).message}\n`);
            setExit(1);
            resolve();
          });
        };
        const onInt = (): void => stop("SIGINT");
        const onTerm = (): void => stop("SIGTERM");
        signals.on("SIGINT", onInt);
        signals.on("SIGTERM", onTerm);
      });
    });
}
