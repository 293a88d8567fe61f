import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sampled } from "../../support/test-mode.js";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { parseFunctionDocs } from "../../../toolsets/function-docs.js";
import { importOpenApi, plainText } from "../../../toolsets/import/import-openapi.js";
import { joinSentences } from "../../../toolsets/plain-text.js";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import { validateToolsetFile } from "../../../toolsets/validate-toolset.js";
import { toolsetYaml } from "../../../toolsets/write-toolset.js";
import { runCli as cli } from "../../support/cli-in-process.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SPECS = fileURLToPath(new URL("../../fixtures/specs/core", import.meta.url));
const CORPORA = path.resolve(ROOT, process.env["TOOLSIM_CORPORA"] ?? "../shared/corpora");
const root = mkdtempSync(path.join(tmpdir(), "toolsim-import-openapi-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("toolset import openapi", () => {
  it("derives a description and function documentation from the spec, with no model", async () => {
    const r = await importOpenApi(path.join(SPECS, "petstore.yaml"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.value.toolset;
    expect(t.name).not.toBe("");
    expect(t.introduction.length).toBeGreaterThan(5);
    expect(t.description).toContain("It provides the following functions: 1) ");
    const docs = parseFunctionDocs(t.functions);
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.every((d) => d.input !== undefined && d.output !== "")).toBe(true);
    expect(typeof t.openapi).toBe("object");
  });

  it("converts Swagger 2.0 and inlines the OpenAPI 3 document", async () => {
    const r = await importOpenApi(path.join(SPECS, "petstore-swagger2.json"));
    expect(r.ok && (r.value.toolset.openapi as Record<string, unknown>)["openapi"]).toMatch(/^3\.0/);
  });

  it("writes toolsets that validate and load, inline or by reference", async () => {
    const out = path.join(root, "inline");
    const r = await cli(["toolset", "import", "openapi", path.join(SPECS, "petstore.yaml"), path.join(SPECS, "petstore-3.1.yaml"), path.join(SPECS, "petstore-swagger2.json"), "--out", out]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/imported 3 toolsets/);
    const files = [...r.out.matchAll(/^wrote (\S+)/gm)].map((m) => m[1] as string);
    expect(files.length).toBe(3);
    expect(new Set(files).size).toBe(3);
    for (const f of files) {
      const v = await validateToolsetFile(f);
      expect(v.ok ? v.value.warnings.filter((w) => w.severity === "error") : v.errors, f).toEqual([]);
      expect((await loadToolset(f)).ok).toBe(true);
    }
    const ref = path.join(root, "ref");
    const byRef = await cli(["toolset", "import", "openapi", path.join(SPECS, "petstore.yaml"), "--out", ref, "--reference"]);
    expect(byRef.code).toBe(0);
    const file = /^wrote (\S+)/m.exec(byRef.out)?.[1] as string;
    const data = parse(readFileSync(file, "utf8")) as { openapi: unknown };
    expect(typeof data.openapi).toBe("string");
    expect(path.resolve(ref, data.openapi as string)).toBe(path.join(SPECS, "petstore.yaml"));
    expect((await loadToolset(file)).ok).toBe(true);
  });

  it("skips a broken spec with its problem, and exits 1", async () => {
    const r = await cli(["toolset", "import", "openapi", fileURLToPath(new URL("../../fixtures/specs/broken.yaml", import.meta.url)), "--out", path.join(root, "broken")]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/skipped: .*broken\.yaml/);
    expect(r.out).toMatch(/imported 0 toolsets .*1 skipped/);
  });

  it("turns markdown descriptions into plain text, joined as sentences", () => {
    expect(plainText("# Title\nSee [the docs](https://x.example.com) and `code`.\n\n- one\n- two <b>bold</b>")).toBe("Title. See the docs and code. one; two bold");
    expect(plainText("Client sample: [[Demo]](https://apis.guru/simple-ui) [[Repo]](https://github.com/APIs-guru/simple-ui)\n")).toBe("Client sample: Demo Repo");
    expect(plainText("It can:\n* list calls\n* create customers\n")).toBe("It can: list calls; create customers");
    expect(plainText("Use the URL:\n\n    https://api.example.com/v1/x\n\nand a key.")).toBe("Use the URL and a key.");
    expect(plainText("A <a href=\"/t\">tutorial</a>.<p>IDs (`<provider>`) &amp; more.</p>")).toBe("A tutorial. IDs (<provider>) & more.");
    expect(plainText("Only __one\ntoken__ at a **time\nplease**.")).toBe("Only one token at a time please.");
    expect(joinSentences("Drive your app to success with Lyft's API", "It provides the following functions: 1) Get the receipt of the rides.. 2) More.")).toBe(
      "Drive your app to success with Lyft's API. It provides the following functions: 1) Get the receipt of the rides. 2) More.",
    );
  });

  it("writes YAML that reads back to the same data", async () => {
    const r = await importOpenApi(path.join(SPECS, "serialization.yaml"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const tricky = { ...r.value.toolset, introduction: "on", link: "2023-01-01", description: "yes: no\nsecond line" };
    expect(parse(toolsetYaml(tricky))).toEqual(JSON.parse(JSON.stringify(tricky)));
  });

  it.skipIf(!existsSync(path.join(CORPORA, "openapi", "oas3")))("imports real APIs.guru specs (a sample of the corpus) into valid toolsets", async () => {
    const dir = path.join(CORPORA, "openapi", "oas3");
    const out = path.join(root, "guru");
    const sample = ["owler.com.json", "lyft.com.json", "dweet.io.json", "ideal-postcodes.co.uk.json"].map((f) => path.join(dir, f));
    const r = await cli(["toolset", "import", "openapi", ...sample, "--out", out]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/imported 4 toolsets/);
    const v = await cli(["toolset", "validate", out]);
    expect(v.code).toBe(0);
  });

  it.skipIf(!existsSync(path.join(CORPORA, "openapi", "oas3")))("derives clean text from every corpus spec: no markdown links, no HTML, no doubled periods, sentences joined", async () => {
    const all = ["oas3", "swagger2"].flatMap((d) => readdirSync(path.join(CORPORA, "openapi", d)).filter((f) => f.endsWith(".json")).map((f) => path.join(CORPORA, "openapi", d, f)));
    expect(all.length).toBeGreaterThan(50);
    // The quick run checks a fixed sample of 20 specs; the full sweep all of them.
    const files = sampled(all, 20);
    const glitches: string[] = [];
    let imported = 0;
    for (const f of files) {
      const r = await importOpenApi(f);
      if (!r.ok) continue;
      imported++;
      const t = r.value.toolset;
      const texts: Array<[string, string]> = [["introduction", t.introduction], ["description", t.description], ["functions", t.functions]];
      for (const [field, text] of texts) {
        const checks: Array<[string, RegExp]> = [
          ["markdown link", /\]\((https?:|mailto:|\/|#)/],
          ["nested link brackets", /(^|[^\w])\[\[/],
          ["HTML tag", /<\/?(a|b|i|p|br|div|span|strong|em|code|img|h[1-6]|ul|ol|li|table|tr|td)\b[^<>]*>/i],
          ["HTML entity", /&(amp|lt|gt|quot|nbsp|#\d+);/],
          ["doubled period", /(^|[^.])\.\s*\.(?!\.)/],
          ["sentences run together", /[^.!?…:] It provides the following functions/],
          ["markdown emphasis", /\*\*\S|\S\*\*(\s|$)/],
        ];
        for (const [what, re] of checks) {
          const m = re.exec(text);
          if (m) glitches.push(`${path.basename(f)} ${field}: ${what}: ...${text.slice(Math.max(0, m.index - 40), m.index + 40)}...`);
        }
      }
    }
    expect(imported).toBeGreaterThanOrEqual(Math.floor(files.length * 0.9));
    expect(glitches).toEqual([]);
    const lyft = await importOpenApi(path.join(CORPORA, "openapi", "oas3", "lyft.com.json"));
    expect(lyft.ok && lyft.value.toolset.description).toMatch(/^Drive your app to success with Lyft's API\. It provides the following functions: 1\) Cost estimates\. /);
    expect(lyft.ok && lyft.value.toolset.description).toContain("Get the receipt of the rides. 12)");
    const guru = await importOpenApi(path.join(CORPORA, "openapi", "oas3", "apis.guru.json"));
    expect(guru.ok && guru.value.toolset.description).toContain("please join our Slack channel. Client sample: Demo Repo. It provides the following functions: 1) List all APIs. ");
    expect(guru.ok && guru.value.toolset.functions).toContain("Description: Retrieve one version of a particular API with a serviceName. Returns the API entry");
  }, 120_000);
});
