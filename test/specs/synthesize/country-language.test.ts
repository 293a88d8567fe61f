import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { cohereEntities } from "../../../specs/synthesize/world/coherent-entities.js";

// A record of a country and a language speaks a language of its country; the side a call asked for stays.

describe("a record's language and country", () => {
  it("listSources(language=he) lists sources of a Hebrew-speaking country", async () => {
    const loaded = await loadToolset(fileURLToPath(new URL("../../../toolsets/bundled/news.yaml", import.meta.url)));
    if (!loaded.ok) throw new Error("news");
    for (const seed of [1, 2, 3]) {
      const r = await simulateCall(loaded.value.catalog, { name: "listSources", arguments: { language: "he" } }, { seed });
      const sources = (r.body as { sources: Array<{ language: string; country: string }> }).sources;
      expect(sources.length).toBeGreaterThan(0);
      for (const s of sources) expect(s).toMatchObject({ language: "he", country: "IL" });
    }
  });

  it("a country asked keeps its country and gets its language; a synthesized record's language follows its country", () => {
    const asked = { name: "Radio Uno", language: "he", country: "Italy" };
    cohereEntities(asked, { seed: 1, pinned: new Set(["/country"]), pinnedOnly: true });
    expect(asked).toMatchObject({ language: "it", country: "Italy" });
    const drawn = { name: "Station", language: "ja", country: "BR" };
    cohereEntities(drawn, { seed: 1 });
    expect(drawn.language).toBe("pt");
    // Countries of several languages keep any of theirs; an example's record unasked stays as the spec shows it.
    const swiss = { name: "Le Temps", language: "fr", country: "CH" };
    cohereEntities(swiss, { seed: 1 });
    expect(swiss.language).toBe("fr");
    const example = { name: "Al Jazeera English", language: "en", country: "QA", category: "general" };
    cohereEntities(example, { seed: 1, pinned: new Set(["/category"]), pinnedOnly: true });
    expect(example).toMatchObject({ language: "en", country: "QA" });
  });
});
