import { describe, expect, it } from "vitest";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { bindingsOf } from "../../../specs/respond/bindings/bindings.js";
import { callContradictions } from "../../../simulator/stats/call-contradictions.js";
import { catalogOf, okJson } from "../../support/inline-catalog.js";

// An object of the answer that holds several of the call's arguments by name says them back: Lob's
// `standardizeUSAddress` answered `standardizedAddress: {addressLine1: "4509 Bailee Skyway", city: "Marseille"}` for
// an address in New York, and neither the tester nor the audit saw it. The executor echoes them, the tester's bindings
// and the audit judge them.

type Json = Record<string, unknown>;
const address = { type: "object", properties: { addressLine1: { type: "string" }, addressLine2: { type: "string" }, city: { type: "string" }, state: { type: "string" }, zipCode: { type: "string" } } };

async function catalog() {
  return catalogOf("Addresses", {
    "/us_verifications/standardize": {
      post: {
        operationId: "standardizeUSAddress",
        requestBody: { required: true, content: { "application/json": { schema: { ...address, required: ["addressLine1", "city", "state", "zipCode"] } } } },
        responses: okJson({ type: "object", required: ["standardizedAddress"], properties: { standardizedAddress: { ...address, required: ["addressLine1", "city", "zipCode"] } } }),
      },
    },
    "/listings/{id}": {
      get: {
        operationId: "getListing",
        parameters: [
          { in: "path", name: "id", required: true, schema: { type: "string" } },
          { in: "query", name: "city", schema: { type: "string" } },
        ],
        responses: okJson({ type: "object", properties: { id: { type: "string" }, owner: { type: "object", properties: { name: { type: "string" }, city: { type: "string" } } } } }),
      },
    },
  });
}

const sent = { addressLine1: "9768 Franco Mountain", city: "New York", state: "NY", zipCode: "18885" };

describe("an object that says back the call's arguments", () => {
  it("is answered with the values sent (each seed)", async () => {
    const c = await catalog();
    for (const seed of [1, 2, 3, 4]) {
      const r = await simulateCall(c, { name: "standardizeUSAddress", arguments: sent }, { seed });
      expect(r.responseErrors).toEqual([]);
      expect((r.body as Json)["standardizedAddress"]).toMatchObject({ addressLine1: sent.addressLine1, city: "New York", zipCode: "18885" });
    }
  });

  it("is bound field by field, and the audit reads a different city there as a contradiction", async () => {
    const c = await catalog();
    const tool = c.get("standardizeUSAddress");
    if (!tool) throw new Error("no tool");
    expect(bindingsOf(c, tool).filter((b) => b.kind === "equals").map((b) => ("field" in b ? b.field : ""))).toEqual(expect.arrayContaining(["standardizedAddress.city", "standardizedAddress.zipCode"]));
    const call = { toolset: "addresses", tool: "standardizeUSAddress", method: "POST", path: "/us_verifications/standardize", args: sent, bodyArgs: new Set(Object.keys(sent)), status: 200 };
    expect(callContradictions({ ...call, body: { standardizedAddress: { ...sent, city: "Marseille" } } }).map((x) => x.field)).toEqual(["standardizedAddress.city"]);
    expect(callContradictions({ ...call, body: { standardizedAddress: sent } })).toEqual([]);
  });

  it("an object with one argument's name only (a listing's owner's city) is not an echo of the call", async () => {
    const c = await catalog();
    const tool = c.get("getListing");
    if (!tool) throw new Error("no tool");
    expect(bindingsOf(c, tool).some((b) => "field" in b && b.field === "owner.city")).toBe(false);
    const call = { toolset: "addresses", tool: "getListing", method: "GET", path: "/listings/l1", args: { id: "l1", city: "Lyon" }, bodyArgs: new Set<string>(), status: 200, body: { id: "l1", owner: { name: "Ana", city: "Porto" } } };
    expect(callContradictions(call)).toEqual([]);
  });
});
