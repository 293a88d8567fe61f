/**
 * Part `serve.sessions` (issue 14): the memory of `toolsim serve` under many clients. A child `toolsim serve`
 * of the bundled bookstore toolset (state per session, seeded from its fixtures) receives BENCH_SESSION_CREATES
 * creates (default 100,000; `createBook` with synthesized valid bodies) spread round-robin over
 * BENCH_SESSIONS sessions (default 2,000) by autocannon on 10 connections, with `--max-sessions` equal to the
 * number of sessions, so that every create is kept (no eviction). The child runs the compiled CLI
 * (`bin/toolsim.js`, as users run it: `npm run build` first; without `dist/` the sources through tsx, noted).
 * Its resident memory is sampled from /proc every 200 ms.
 *
 * Prints:
 *   bench: serve.sessions_peak_rss_mb <peak RSS of the server, MB> ratio=<300 / peak>  (goal: under 300 MB)
 *   bench: serve.sessions_creates_per_s <creates answered per second> ratio=1
 * and a note with the statuses, the sessions and resources held at the end, and the evictions.
 */
import autocannon, { type AutocannonRequest } from "autocannon";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { toHttpRequest } from "../specs/call/http-request.js";
import { synthesizeArguments } from "../specs/synthesize/synthesize-call.js";
import { loadToolset } from "../toolsets/load-toolset.js";
import { cliEntry, useDist } from "./compiled.js";
import { ROOT } from "./paths.js";
import { note, printFigure } from "./stats.js";

const CREATES = Number(process.env["BENCH_SESSION_CREATES"] ?? 100_000);
const SESSIONS = Number(process.env["BENCH_SESSIONS"] ?? 2000);
const CONNECTIONS = 10;
const GOAL_MB = 300;
/** What users run: the compiled CLI (`npm run build` first); through tsx only without `dist/` (about 70 MB more). */

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

/** The resident memory of a process, in MB (Linux /proc). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** `serve.sessions`: peak RSS through many creates over many sessions. */
export async function runServeSessions(): Promise<void> {
  const file = join(ROOT, "toolsets", "bundled", "bookstore.yaml");
  const loaded = await loadToolset(file);
  if (!loaded.ok) throw new Error("the bundled bookstore toolset does not load");
  const catalog = loaded.value.catalog;
  const tool = catalog.get("createBook");
  if (!tool) throw new Error("bookstore has no createBook");
  const key = loaded.value.auth?.credentials[0] ?? "bench-key";
  const bodies: AutocannonRequest[] = [];
  for (let seed = 1; bodies.length < 20 && seed < 200; seed++) {
    const request = toHttpRequest(tool, synthesizeArguments(catalog, tool, { seed }));
    bodies.push({ method: "POST", path: request.path, headers: { ...request.headers, "x-api-key": key }, body: JSON.stringify(request.body) });
  }

  const port = await freePort();
  const child = spawn(process.execPath, [...cliEntry(), "serve", file, "--port", String(port), "--host", "127.0.0.1", "--max-sessions", String(SESSIONS)], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => void (output = (output + d.toString()).slice(-2000)));
  child.stderr?.on("data", (d: Buffer) => void (output = (output + d.toString()).slice(-2000)));
  const url = `http://127.0.0.1:${port}`;
  try {
    const deadline = performance.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`toolsim serve exited: ${output}`);
      try {
        await fetch(`${url}/__toolsim/health`, { signal: AbortSignal.timeout(1000) });
        break;
      } catch {
        if (performance.now() > deadline) throw new Error(`toolsim serve did not start: ${output}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    // Every body is a valid create (checked once, in a session of its own).
    for (const b of bodies) {
      const res = await fetch(`${url}${b.path}`, { method: "POST", headers: { ...(b.headers as Record<string, string>), "x-toolsim-session": "bench-check" }, body: b.body as string });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`createBook answered ${res.status} to a synthesized body`);
    }
    await fetch(`${url}/__toolsim/reset`, { method: "POST" }).then((r) => r.arrayBuffer());

    const pid = child.pid as number;
    const baseline = rssMb(pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssMb(pid));
      } catch {
        // exited
      }
    }, 200);
    let sent = 0;
    const t0 = performance.now();
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      amount: CREATES,
      timeout: 30,
      requests: [
        {
          setupRequest: (req) => {
            const n = sent++;
            const body = bodies[n % bodies.length] as AutocannonRequest;
            return { ...req, method: "POST", path: body.path, body: body.body, headers: { ...(body.headers as Record<string, string>), "x-toolsim-session": `client-${n % SESSIONS}` } };
          },
        },
      ],
    });
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(pid));
    const health = (await (await fetch(`${url}/__toolsim/health`)).json()) as { sessions: number; evictions: number };
    const state = (await (await fetch(`${url}/__toolsim/state?session=client-0`)).json()) as { apis: Record<string, Record<string, unknown[]>> };
    const booksInOne = Object.values(state.apis).reduce((n, s) => n + (s["/books"]?.length ?? 0), 0);
    const statuses = Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => `${code} x${s.count}`).join(", ");
    if (!useDist()) note("serve.sessions: no dist/ (npm run build): the server ran through tsx, whose compiler adds about 70 MB");
    printFigure("serve.sessions_peak_rss_mb", peak, GOAL_MB / peak);
    printFigure("serve.sessions_creates_per_s", result.requests.total / seconds, 1);
    note(
      `serve.sessions: ${result.requests.total} creates over ${SESSIONS} sessions in ${seconds.toFixed(1)} s (${statuses}; ${result.errors + result.timeouts} errors/timeouts); ` +
        `RSS ${baseline.toFixed(0)} MB at start, peak ${peak.toFixed(0)} MB (goal < ${GOAL_MB}); ${health.sessions} live sessions, ${health.evictions} evicted; ` +
        `one session holds ${booksInOne} books (fixtures + its creates)`,
    );
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
  }
}
