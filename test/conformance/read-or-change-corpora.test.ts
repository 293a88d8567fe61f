import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rankToolsFor, type OfflineToolSpec } from "../../agents/assistant/offline/offline-chat-model.js";
import { Toolbox } from "../../agents/roles/toolbox.js";
import { CORPORA } from "../support/corpora.js";
import { toolsetFromSpec } from "../support/spec-toolsets.js";

// A read asked for is no change: among Semantria's 40 tools (a real APIs.guru spec), "fetch the blacklisted items"
// is the read of the blacklist, not the delete of some items (which shares more of its words); "unfollow" asks for
// a delete. Skips when the corpora are absent.

const SPEC = path.join(CORPORA, "openapi", "oas3", "semantria.com.json");

describe.skipIf(!existsSync(SPEC))("what a request asks of a real spec's tools (semantria.com)", () => {
  it("ranks the read over a change when the words ask for a read", async () => {
    const toolset = await toolsetFromSpec("semantria", JSON.parse(readFileSync(SPEC, "utf8")) as object);
    const tools: OfflineToolSpec[] = new Toolbox([toolset]).entries.map((e) => ({ name: e.name, description: e.description, parameters: e.parameters }));
    expect(tools.length).toBeGreaterThan(30);
    expect(rankToolsFor("Fetch the blacklisted items with content type video/3gpp.", tools)[0]?.name).toBe("getBlacklist");
    expect(rankToolsFor("Remove the blacklisted items foo and bar.", tools)[0]?.name).toBe("deleteBlacklistItems");
  });
});
