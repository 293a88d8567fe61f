import { describe, expect, it } from "vitest";
import { answerOf, inlineCatalog, ok, type Json } from "../respond/inline-catalog.js";

// A person's names agree with each other: a board member "Alexie Wiegand" had the first name Cheyanne, the given
// name Molly and the surname Thompson.

describe("a person's names", () => {
  it("agree in every synthesized board member: first and given name one, surname and last name one, full name both", async () => {
    const member = { type: "object", properties: { firstName: { type: "string" }, givenName: { type: "string" }, surName: { type: "string" }, fullName: { type: "string" }, roleName: { type: "string" } }, required: ["firstName", "givenName", "surName", "fullName"] };
    const catalog = await inlineCatalog({
      "/companies/{companyId}/board": {
        get: {
          operationId: "getBoardMembers",
          parameters: [{ name: "companyId", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { boardMembers: { type: "array", minItems: 2, items: member } } } } } } },
        },
      },
    });
    let members = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const body = await answerOf(catalog, "getBoardMembers", { companyId: "c-1" }, seed);
      for (const m of body["boardMembers"] as Json[]) {
        members++;
        expect(m["givenName"], JSON.stringify(m)).toBe(m["firstName"]);
        expect(m["fullName"], JSON.stringify(m)).toBe(`${m["firstName"]} ${m["surName"]}`);
      }
    }
    expect(members).toBeGreaterThanOrEqual(24);
  });

  it("an example's names follow the one the call settled (a full name asked for gives the parts)", async () => {
    const catalog = await inlineCatalog({
      "/people": {
        get: {
          operationId: "findPerson",
          parameters: [{ name: "fullName", in: "query", required: true, schema: { type: "string" } }],
          responses: ok({ type: "object", properties: { firstName: { type: "string" }, lastName: { type: "string" }, fullName: { type: "string" } } }, { firstName: "Ada", lastName: "Lovelace", fullName: "Ada Lovelace" }),
        },
      },
    });
    const body = await answerOf(catalog, "findPerson", { fullName: "Grace Hopper" });
    expect(body).toEqual({ firstName: "Grace", lastName: "Hopper", fullName: "Grace Hopper" });
  });
});
