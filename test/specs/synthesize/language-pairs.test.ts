import { describe, expect, it } from "vitest";
import { cohereEntities } from "../../../specs/synthesize/world/coherent-entities.js";
import { entityContradictions } from "../../../agents/tester/entity-contradictions.js";

// A glossary is between the two languages it names, and its entries are in them.

describe("a record between two languages", () => {
  it("unasked, names the languages its entries are in (ticket -> Vorgang is English into German), in the code's style", () => {
    const glossary = { name: "Support desk terms", source: "pt-BR", target: "pt-BR", entries: [{ source: "ticket", target: "Vorgang" }] };
    cohereEntities(glossary, { seed: 1 });
    expect(glossary).toMatchObject({ source: "en", target: "de" });
    const upper = { sourceLanguage: "PT", targetLanguage: "FR", terms: [{ source: "invoice", target: "Rechnung" }, { source: "refund", target: "Rückerstattung" }] };
    cohereEntities(upper, { seed: 1 });
    expect(upper).toMatchObject({ sourceLanguage: "EN", targetLanguage: "DE" });
  });

  it("asked for languages, writes the entries the world knows in them and leaves unknown words", () => {
    const glossary = { source: "en", target: "pt-BR", entries: [{ source: "ticket", target: "Vorgang" }, { source: "gizmo", target: "Dings" }] };
    cohereEntities(glossary, { seed: 1, pinned: new Set(["/target"]) });
    expect(glossary.entries).toEqual([{ source: "ticket", target: "chamado" }, { source: "gizmo", target: "Dings" }]);
  });

  it("leaves records whose pair is no pair of languages (a graph's edge) alone", () => {
    const edge = { source: "node-1", target: "node-2", items: [{ source: "a", target: "b" }] };
    cohereEntities(edge, { seed: 1 });
    expect(edge).toEqual({ source: "node-1", target: "node-2", items: [{ source: "a", target: "b" }] });
  });

  it("is judged by the audit: entries in other languages, or one language into itself", () => {
    const judge = (body: unknown) => entityContradictions({ toolset: "t", tool: "getGlossary", method: "get", path: "", args: {}, bodyArgs: new Set(), status: 200, body }).map((c) => c.field);
    expect(judge({ source: "pt-BR", target: "pt-BR", entries: [{ source: "ticket", target: "Vorgang" }] })).toEqual(["entries[0]"]);
    expect(judge({ source: "de", target: "de", entries: [{ source: "Kundenkonto", target: "Benutzerkonto" }] })).toEqual(["target"]);
    expect(judge({ source: "en", target: "de", entries: [{ source: "ticket", target: "Vorgang" }, { source: "gizmo", target: "Dings" }] })).toEqual([]);
  });
});
