import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OfflineAssistant } from "../../../../agents/assistant/offline/offline-assistant.js";
import { eventsOf, runAssistantEpisode } from "../../../support/assistant-harness.js";
import { toolsetFromSpec } from "../../../support/spec-toolsets.js";
import { CORPORA } from "../../../support/corpora.js";

// "Request a lyft", "order a pizza": a request that asks for one to be made picks the operation that makes it,
// not a read whose name shares a word with the request ("my cost token" is no cost estimate). On Lyft's own spec
// from ../shared/corpora (skipped without it): NewRide, not GetCost or GetRideTypes.

const LYFT = path.join(CORPORA, "openapi/oas3/lyft.com.json");

describe.skipIf(!existsSync(LYFT))("a request to make something", () => {
  it("picks the operation that makes it, and fills the object described after its name", async () => {
    const lyft = await toolsetFromSpec("lyft", JSON.parse(readFileSync(LYFT, "utf8")) as object);
    const texts = [
      "Request a lyft (my cost token is abc123) with origin (lat -2.748971, lng 160.262358, address Via Montenapoleone 8) (ride type: lyft_plus).",
      "Can you request a lyft with origin (lat -41.326185, lng -63.515726) (ride type: lyft)?",
      "Could you request a lyft with origin (lat -51.453634, lng -10.802785, address Rua Augusta 24) with ride type lyft_plus?",
    ];
    for (const text of texts) {
      const run = await runAssistantEpisode(new OfflineAssistant(), { toolsets: [lyft], instructions: [text] });
      const call = eventsOf(run.events, "tool.call")[0]?.call;
      expect(call?.name, text).toBe("NewRide");
      const args = call?.arguments as Record<string, unknown>;
      expect(args).not.toHaveProperty("destination");
      expect(args["origin"]).toMatchObject({ lat: expect.any(Number), lng: expect.any(Number) });
    }
  });
});
