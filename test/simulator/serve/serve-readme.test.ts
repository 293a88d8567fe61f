import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const FIXTURE = fileURLToPath(new URL("../../fixtures/readme-langchain.ts", import.meta.url));
const TSX_CLI = createRequire(import.meta.url).resolve("tsx/cli");
const SECTION = "## Simulated APIs for LangChain agents";

/** The TypeScript block of the README's section on simulated APIs. */
function readmeExample(): string {
  const text = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = text.split(SECTION)[1]?.split(/^## /m)[0];
  if (section === undefined) throw new Error(`README.md has no '${SECTION}' section`);
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("the section has no ```ts block");
  return block;
}

describe("the README's LangChain example", () => {
  it("is the type-checked copy in test/fixtures/readme-langchain.ts (import path aside)", () => {
    const text = readFileSync(FIXTURE, "utf8");
    const fixture = text.slice(text.search(/^import /m)).replace('from "../../simulator/library.js"', 'from "./simulator/library.js"');
    expect(fixture).toBe(readmeExample());
  });

  it("runs as written from the root of a checkout: an agent over in-process tools, then tools over HTTP", async () => {
    const child = spawn(process.execPath, [TSX_CLI, "--input-type=module", "-e", readmeExample()], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => void (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => void (err += d.toString()));
    const exit = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(err).toBe("");
    expect(exit).toBe(0);
    const lines = out.trim().split("\n");
    expect(lines[1]).toBe('ai: listBooks({"genre":"mystery","inStock":true})');
    expect(lines[2]).toMatch(/^tool: \{"status":200,"body":\{"items":\[\{"id":"bk-1001"/);
    expect(lines[4]).toMatch(/^tool: \{"status":201,/);
    expect(lines[5]).toBe("ai: Ordered The Lighthouse at Varden Point.");
    expect(JSON.parse(lines[6] ?? "")).toMatchObject({ status: 200, body: { id: "bk-1004", title: "The Cartographer's Daughter" } });
  });
});
