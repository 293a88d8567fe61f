import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { loadCatalog } from "../../../specs/catalog/load-catalog.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { synthesizeArguments } from "../../../specs/synthesize/synthesize-call.js";

const HOSTILE = fileURLToPath(new URL("../../fixtures/specs/hostile/hostile.yaml", import.meta.url));
const REDOS = /^(a+)+$/; // safe here: only ever run on strings that match it
const TAG = new RegExp("^([\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*)$", "u");

let catalog: Catalog;

beforeAll(async () => {
  const loaded = await loadCatalog(HOSTILE);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  catalog = loaded.value;
});

describe("calls against patterns that make a backtracking engine hang", () => {
  it("validates a ReDoS pattern on a query parameter at once: a 50,000-character near miss is a 422", async () => {
    const miss = await simulateCall(catalog, { name: "listCodes", arguments: { code: `${"a".repeat(50_000)}!` } });
    expect(miss.status).toBe(422);
    expect(miss.errors).toEqual([expect.objectContaining({ location: ["query", "code"], code: "pattern" })]);
    const hit = await simulateCall(catalog, { name: "listCodes", arguments: { code: "a".repeat(50_000) } });
    expect(hit.status).toBe(200);
  });

  it("validates a ReDoS pattern on a body field at once", async () => {
    const miss = await simulateCall(catalog, { name: "createCode", arguments: { code: `${"a".repeat(100_000)}b` } });
    expect(miss.status).toBe(422);
    expect(miss.errors[0]).toMatchObject({ location: ["body", "code"], code: "pattern" });
    const ok = await simulateCall(catalog, { name: "createCode", arguments: { code: "aaaa" } });
    expect(ok.status).toBe(201);
  });

  it("synthesizes response fields under ReDoS patterns, valid (checked by the response schema)", async () => {
    for (let seed = 1; seed <= 10; seed++) {
      const result = await simulateCall(catalog, { name: "listCodes", arguments: {} }, { seed });
      expect(result.status).toBe(200);
      expect(result.responseErrors).toEqual([]);
      const body = result.body as { code: string; items: string[] };
      expect(REDOS.test(body.code)).toBe(true);
      for (const item of body.items) expect(/^[a-z]*[0-9]$/.test(item)).toBe(true);
    }
  });
});

describe("Unicode property patterns (AWS's tag pattern)", () => {
  it("accept letters of any script and refuse what the class does not hold", async () => {
    const ok = await simulateCall(catalog, { name: "putTags", arguments: { Key: "Größe", Value: "日本語 テキスト: a/b=c+d-e@f" } });
    expect(ok.status).toBe(200);
    const bad = await simulateCall(catalog, { name: "putTags", arguments: { Key: "=.{-@", Value: "x" } });
    expect(bad.status).toBe(422);
    expect(bad.errors[0]).toMatchObject({ location: ["body", "Key"], code: "pattern" });
  });

  it("synthesize requests and responses an independent validator (ECMAScript, u flag) accepts", async () => {
    const tool = catalog.tools.find((t) => t.name === "putTags");
    if (!tool) throw new Error("no putTags");
    for (let seed = 1; seed <= 40; seed++) {
      const args = synthesizeArguments(catalog, tool, { seed }) as { Key: string; Value: string };
      expect(TAG.test(args.Key) && TAG.test(args.Value), JSON.stringify(args)).toBe(true);
      const result = await simulateCall(catalog, { name: "putTags", arguments: args }, { seed });
      expect(result.status).toBe(200);
      const body = result.body as { Key: string; Value: string };
      expect(TAG.test(body.Key) && TAG.test(body.Value), JSON.stringify(body)).toBe(true);
    }
  });
});

describe("patterns RE2 cannot run as written", () => {
  it("keeps lookaheads (translated) and drops backreferences, each with a warning at its pointer", async () => {
    const warnings = catalog.spec.warnings.filter((w) => w.code.startsWith("schema-pattern"));
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: "schema-pattern-translated", pointer: "/paths/~1passwords/get/parameters/0/schema/pattern" }),
        expect.objectContaining({ code: "schema-pattern-unsupported", pointer: "/paths/~1passwords/get/parameters/1/schema/pattern", message: expect.stringContaining("backreference") }),
      ]),
    );
    expect((await simulateCall(catalog, { name: "checkPassword", arguments: { password: "Abcdefg1" } })).status).toBe(200);
    expect((await simulateCall(catalog, { name: "checkPassword", arguments: { password: "abcdefgh" } })).status).toBe(422);
    // The backreference is gone: any string passes (the schema allows more, never less).
    expect((await simulateCall(catalog, { name: "checkPassword", arguments: { twice: "ab-cd" } })).status).toBe(200);
    const answer = await simulateCall(catalog, { name: "checkPassword", arguments: {} }, { seed: 3 });
    expect(answer.responseErrors).toEqual([]);
  });
});
