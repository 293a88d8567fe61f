import { describe, expect, it } from "vitest";
import { chooseValue } from "../../../agents/user/plan-values.js";
import { toolArguments } from "../../../agents/assistant/tool-arguments.js";
import { Toolbox } from "../../../agents/roles/toolbox.js";
import { OfflineToolboxes } from "../../../agents/assistant/offline/offline-toolbox.js";
import { fillArguments } from "../../../agents/assistant/offline/slot-filling.js";
import type { OfflineToolSpec } from "../../../agents/assistant/offline/tool-params.js";
import { createRng } from "../../../specs/seed.js";
import { toolsetFromSpec } from "../../support/spec-toolsets.js";
import { okJson } from "../../support/inline-catalog.js";
import { OfflineUser } from "../../../agents/user/offline-user.js";
import { deriveSeed } from "../../../specs/seed.js";

// What the user asks for looks like what the API deals in: a message of an API whose messages have integer ids is
// asked for by an integer (`17369`, not `ag777ffnpyq5`, an id no answer can agree with), a patient whose ids are 24
// hex digits by such an id, and an amount the spec shows as 500 (cents, sent as text) as a number; the assistant
// then takes the number the user said ("the donation of 1300" is 1300, not the words).

const document = {
  openapi: "3.0.3",
  info: { title: "Clinic", version: "1" },
  paths: {
    "/api/patient_messages/{id}": {
      get: {
        operationId: "patient_messages_read",
        parameters: [{ in: "path", name: "id", required: true, schema: { type: "string" } }],
        responses: okJson({ type: "object", properties: { id: { type: "integer" }, subject: { type: "string" }, doctor: { type: "integer" } } }),
      },
    },
    "/patients/{id}": {
      get: {
        operationId: "fetchPatient",
        parameters: [{ in: "path", name: "id", required: true, schema: { type: "string" }, description: "Patient identifier." }],
        responses: okJson({ type: "object", properties: { data: { type: "object", properties: { id: { type: "string", example: "57b3708b04ad8c2224f2af3b" }, type: { type: "string" } } }, meta: { type: "object", properties: { req_id: { type: "string" } } } } }),
      },
    },
    "/notes/{slug}": {
      get: {
        operationId: "getNote",
        parameters: [{ in: "path", name: "slug", required: true, schema: { type: "string" } }],
        responses: okJson({ type: "object", properties: { slug: { type: "string" }, text: { type: "string" } } }),
      },
    },
    "/blocks/{block_id}": {
      get: {
        operationId: "getBlock",
        parameters: [{ in: "path", name: "block_id", required: true, schema: { type: "string", example: "{{BLOCK_ID}}" } }],
        responses: okJson({ type: "object", properties: { object: { type: "string" } } }),
      },
    },
    "/donations/create": {
      post: {
        operationId: "createDonation",
        parameters: [
          { in: "query", name: "amount", required: true, description: "The amount of the donation in cents.", examples: { five: { summary: "A $5.00 donation.", value: 500 } }, schema: { type: "string" } },
          { in: "query", name: "nonprofit_id", required: true, description: "The id of a nonprofit.", schema: { type: "string" } },
        ],
        responses: okJson({ type: "object", properties: { amount: { type: "integer" } } }),
      },
    },
  },
};

async function entries() {
  const box = new Toolbox([await toolsetFromSpec("clinic", document)]);
  const entry = (name: string) => box.entries.find((e) => e.name === name) ?? (() => { throw new Error(name); })();
  const arg = (name: string, argName: string) => toolArguments(entry(name).toolset.catalog, entry(name).tool).find((a) => a.name === argName) ?? (() => { throw new Error(argName); })();
  return { box, entry, arg };
}

describe("the ids a user asks for", () => {
  it("have the form of the records' ids: integers, and the form of an example id", async () => {
    const { entry, arg } = await entries();
    for (let seed = 1; seed <= 25; seed++) {
      const message = chooseValue(entry("patient_messages_read"), arg("patient_messages_read", "id"), createRng(seed)).value;
      expect(String(message)).toMatch(/^[1-9]\d{0,4}$/);
      const patient = chooseValue(entry("fetchPatient"), arg("fetchPatient", "id"), createRng(seed)).value;
      expect(String(patient)).toMatch(/^[0-9a-f]{24}$/);
    }
  });

  it("are left as they were where the records' ids say nothing of their form", async () => {
    const { entry, arg } = await entries();
    const slugs = new Set<unknown>();
    for (let seed = 1; seed <= 10; seed++) slugs.add(chooseValue(entry("getNote"), arg("getNote", "slug"), createRng(seed)).value);
    expect([...slugs].some((s) => !/^\d+$/.test(String(s)))).toBe(true);
  });
});

describe("an example that stands for a value", () => {
  it("is no value a user plans or says ({{BLOCK_ID}})", async () => {
    const { entry, arg } = await entries();
    expect(arg("getBlock", "block_id").examples).toEqual([]);
    for (let seed = 1; seed <= 20; seed++) expect(String(chooseValue(entry("getBlock"), arg("getBlock", "block_id"), createRng(seed)).value)).toMatch(/^[a-z0-9]{6,}$/);
  });
});

describe("a number sent as text", () => {
  it("is planned near the spec's example, as text, and offered to the assistant with its examples", async () => {
    const { entry, arg } = await entries();
    const amounts = new Set<unknown>();
    for (let seed = 1; seed <= 20; seed++) amounts.add(chooseValue(entry("createDonation"), arg("createDonation", "amount"), createRng(seed)).value);
    for (const a of amounts) expect(String(a)).toMatch(/^\d+$/);
    expect(amounts.size).toBeGreaterThan(2);
    const offered = (entry("createDonation").parameters["properties"] as Record<string, Record<string, unknown>>)["amount"];
    expect(offered?.["examples"]).toEqual([500]);
    // A text parameter whose examples are words keeps its schema as it was.
    const nonprofit = (entry("createDonation").parameters["properties"] as Record<string, Record<string, unknown>>)["nonprofit_id"];
    expect(nonprofit?.["examples"]).toBeUndefined();
  });

  it("is taken by the assistant as the number said, not the words around it", async () => {
    const { entry } = await entries();
    const e = entry("createDonation");
    const tool: OfflineToolSpec = { name: e.name, description: e.description, parameters: e.parameters };
    const box = new OfflineToolboxes().for([tool]);
    const text = "I was hoping you could make the donation of 1300 for the nonprofit with ID n_AxTdNJvLjUuFTSS3iv6PNZKm.";
    const request = { text, facts: box.factsOf(text), replies: [], questions: [], calls: [] };
    const filled = fillArguments(box, { tool, request, userText: text, records: [], optional: true });
    expect(filled.args["amount"]).toBe("1300");
  });
});

describe("a point the user gives", () => {
  it("is a whole point: an optional latitude is planned with its longitude", async () => {
    const toolset = await toolsetFromSpec("listings", {
      openapi: "3.0.3",
      info: { title: "Listings", version: "1" },
      paths: {
        "/listings/sale": {
          get: {
            operationId: "saleListings",
            summary: "Search sale listings",
            parameters: ["latitude", "longitude"].map((name) => ({ in: "query", name, description: `The ${name} of the search area.`, schema: { type: "number" } })).concat([{ in: "query", name: "zipCode", description: "The 5-digit zip code.", schema: { type: "string" } } as never]),
            responses: okJson({ type: "array", items: { type: "object", properties: { id: { type: "string" }, latitude: { type: "number" }, longitude: { type: "number" } } } }),
          },
        },
      },
    });
    const box = new Toolbox([toolset]);
    const user = new OfflineUser();
    let withPoint = 0;
    for (let index = 0; index < 40; index++) {
      const seed = deriveSeed(5, index);
      const plan = await user.plan({ runId: "t", episodeId: `ep-${index}`, index, seed, rng: createRng(deriveSeed(seed, "user")), level: "call", toolbox: box });
      for (const step of plan.requests.flatMap((r) => r.steps)) {
        const has = ["latitude", "longitude"].filter((k) => k in step.args);
        expect(has.length, JSON.stringify(step.args)).not.toBe(1);
        if (has.length === 2) withPoint++;
      }
    }
    expect(withPoint).toBeGreaterThan(3);
  });
});

