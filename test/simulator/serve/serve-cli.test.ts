import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { serveCommand } from "../../../simulator/cli/serve-command.js";
import type { CliIO } from "../../../simulator/cli/cli-io.js";
import { startOpenAIServer } from "../../support/openai-server.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const ENTRY = fileURLToPath(new URL("../../fixtures/cli-entry.ts", import.meta.url));
const PETSHOP = fileURLToPath(new URL("../../fixtures/serve/petshop.yaml", import.meta.url));
const SPEC = fileURLToPath(new URL("../../fixtures/serve/pets.openapi.yaml", import.meta.url));
const TSX = createRequire(import.meta.url).resolve("tsx");

function captureIO(): CliIO & { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  return { out: (s) => void (out += s), err: (s) => void (err += s), isTTY: false, stdout: () => out, stderr: () => err };
}

describe("toolsim serve (CLI)", () => {
  it("prints the served URLs, answers over HTTP, and stops cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", TSX, ENTRY, "serve", PETSHOP, SPEC, "--port", "0", "--api-key", "key-1"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr.on("data", (d: Buffer) => void (err += d.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${out} ${err}`)), 30_000);
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("Press Ctrl-C to stop.")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    expect(out).toMatch(/^toolsim serve: schema mode, seed 1; state per X-Toolsim-Session, auth enforced\n/);
    const petshop = /petshop\s+(http:\/\/127\.0\.0\.1:\d+\/petshop)\/\s+Pet Store \(8 operations\)/.exec(out)?.[1];
    const pets = /pets\s+(http:\/\/127\.0\.0\.1:\d+\/pets)\/\s+Pet Store \(8 operations\)/.exec(out)?.[1];
    expect(petshop).toBeDefined();
    expect(pets).toBeDefined();
    expect(out).toMatch(/admin\s+http:\/\/127\.0\.0\.1:\d+\/__toolsim\/health/);
    const res = await fetch(`${petshop}/pets/2`, { headers: { "x-api-key": "key-1" } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe("Rex");
    expect((await fetch(`${pets}/status`)).status).toBe(200);
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(out).toContain("toolsim serve: SIGTERM, stopping");
    expect(err).toBe("");
  });

  it("stops on SIGINT in-process and frees the port", async () => {
    const io = captureIO();
    const signals = new EventEmitter();
    const cmd = serveCommand(io, () => undefined, signals).exitOverride();
    const done = cmd.parseAsync([SPEC, "--port", "0", "--fault-rate", "0", "--rate-limit", "100/min", "--quota", "1000/day", "--stateless"], { from: "user" });
    for (let i = 0; i < 200 && !io.stdout().includes("Press Ctrl-C"); i++) await new Promise((r) => setTimeout(r, 25));
    expect(io.stdout()).toContain("stateless, auth enforced, rate limit 100/min, quota 1000/day, faults 5xx at 0");
    const url = /(http:\/\/127\.0\.0\.1:\d+)\/__toolsim\/health/.exec(io.stdout())?.[1];
    expect((await fetch(`${url}/__toolsim/health`)).status).toBe(200);
    signals.emit("SIGINT");
    await done;
    expect(io.stdout()).toContain("SIGINT, stopping");
    await expect(fetch(`${url}/__toolsim/health`)).rejects.toThrow();
  });

  it("warns that admin routes are open when --host is not loopback, and --admin-token closes them", async () => {
    for (const token of [undefined, "admin-token-1"]) {
      const io = captureIO();
      const signals = new EventEmitter();
      const done = serveCommand(io, () => undefined, signals)
        .exitOverride()
        .parseAsync([SPEC, "--port", "0", "--host", "0.0.0.0", ...(token ? ["--admin-token", token] : [])], { from: "user" });
      try {
        for (let i = 0; i < 200 && !io.stdout().includes("Press Ctrl-C"); i++) await new Promise((r) => setTimeout(r, 25));
        expect(io.stderr()).toContain("other machines can reach this server");
        const url = /(http:\/\/127\.0\.0\.1:\d+)\/__toolsim\/health/.exec(io.stdout())?.[1];
        const state = await fetch(`${url}/__toolsim/state`);
        if (token === undefined) {
          expect(io.stderr()).toMatch(/warning: the admin routes .* are open to anyone who can reach it; give --admin-token/);
          expect(state.status).toBe(200);
        } else {
          expect(io.stderr()).not.toContain("warning");
          expect(state.status).toBe(401);
          expect((await fetch(`${url}/__toolsim/state`, { headers: { "x-toolsim-admin-token": token } })).status).toBe(200);
        }
      } finally {
        signals.emit("SIGTERM");
        await done;
      }
    }
  });

  it("--mode llm answers from an OpenAI-compatible endpoint, validated against the spec", async () => {
    const llm = await startOpenAIServer([{ kind: "text", content: '{"status": 200, "body": {"pets": 12}}' }]);
    const io = captureIO();
    const signals = new EventEmitter();
    const done = serveCommand(io, () => undefined, signals)
      .exitOverride()
      .parseAsync([SPEC, "--port", "0", "--mode", "llm", "--model", `openai:test-model@${llm.baseURL}`, "--no-auth"], { from: "user" });
    try {
      for (let i = 0; i < 200 && !io.stdout().includes("Press Ctrl-C"); i++) await new Promise((r) => setTimeout(r, 25));
      const url = /(http:\/\/127\.0\.0\.1:\d+)\/__toolsim\/health/.exec(io.stdout())?.[1];
      const res = await fetch(`${url}/admin/stats`);
      expect(res.headers.get("x-toolsim-source")).toBe("llm");
      expect(await res.json()).toEqual({ pets: 12 });
      const prompt = JSON.stringify(llm.requests[0]?.body);
      expect(prompt).toContain("/admin/stats");
    } finally {
      signals.emit("SIGTERM");
      await done;
      await llm.close();
    }
  });

  it("refuses bad options with exit code 2 and bad specs with exit code 1, without a stack trace", async () => {
    const cases: Array<[string[], number, RegExp]> = [
      [["serve", SPEC, "--mode", "replay"], 2, /--mode replay needs --cassette/],
      [["serve", SPEC, "--fault-rate", "2"], 2, /--fault-rate must be a probability/],
      [["serve", SPEC, "--fault-rate", "0.1", "--fault", "meteor"], 2, /--fault must be one of 5xx, timeout, latency/],
      [["serve", SPEC, "--rate-limit", "lots"], 2, /--rate-limit must look like 60\/min/],
      [["serve", SPEC, "--body-limit", "huge"], 2, /--body-limit must be a size/],
      [["serve", SPEC, "--upstream", "ftp://x"], 2, /--upstream must be an http\(s\) URL/],
      [["serve", SPEC, "--mode", "llm"], 2, /--mode llm needs --model/],
      [["serve", SPEC, "--admin-token", "abc"], 2, /--admin-token must be at least 8 characters/],
      [["serve", SPEC, "--mode", "teleport"], 2, /argument 'teleport' is invalid/],
      [["serve", "missing.yaml"], 1, /missing\.yaml/],
      [["serve", SPEC, "--credentials", "nowhere.yaml"], 1, /cannot read credentials/],
    ];
    for (const [argv, code, message] of cases) {
      const io = captureIO();
      expect(await main(argv, io), argv.join(" ")).toBe(code);
      expect(io.stderr()).toMatch(message);
      expect(io.stderr()).not.toMatch(/\n\s+at /);
    }
  });
});
