import { describe, expect, it } from "vitest";
import { SchemaRegistry } from "../../../specs/catalog/schema-registry.js";
import type { LoadedSpec } from "../../../specs/load/loaded-spec.js";
import { synthesize } from "../../../specs/synthesize/synthesize.js";
import { isPlausible, valueKindOf } from "../../../specs/value-kinds.js";

// A field the audit reads as a moment something happened is synthesized as one: launchdarkly's `lastPing` was "minority".

type Json = Record<string, unknown>;
const names = ["lastPing", "last_heartbeat", "lastSyncedAt", "lastActivity", "lastBackup"];
const User = { type: "object", required: names, properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])) };
const document = { openapi: "3.0.3", info: { title: "Test", version: "1" }, paths: {}, components: { schemas: { User } } };
const registry = SchemaRegistry.of({ file: "<inline>", sourceVersion: "3.0", dialect: "3.0", document: document as unknown as LoadedSpec["document"], hash: "", warnings: [] } as LoadedSpec);

describe("synthesized stamps by name", () => {
  it("every field the audit calls a stamp holds a date-time the audit finds plausible", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const user = synthesize(registry, "response", "/components/schemas/User", { seed }).value as Json;
      for (const n of names) {
        expect(valueKindOf(n), n).toBe("stamp");
        expect(isPlausible("stamp", user[n], n), `${n}: ${String(user[n])}`).not.toBe(false);
        expect(String(user[n])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
      }
    }
  });
});
