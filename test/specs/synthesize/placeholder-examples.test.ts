import { describe, expect, it } from "vitest";
import { replacePlaceholderExamples } from "../../../specs/synthesize/world/placeholder-examples.js";
import { isPlausible } from "../../../specs/value-kinds.js";

// A spec's placeholders where a value goes (`email: XXXXXXXXXXX`, `websites: [website-1]`) are values of their kind.

describe("placeholders in a spec's examples", () => {
  it("become e-mails, URLs and phone numbers made from their words; real values and other fields stay", () => {
    const doc = {
      paths: {
        "/profile": {
          get: {
            responses: {
              "200": {
                content: {
                  "application/json": {
                    example: { email: "new-business-email", websites: ["website-1", "https://shop.example.org"], url: "<Webhook URL, https>", phone: "PHONE", name: "XXXXXXXX", contact: { email: "XXXXXXXXXXX" } },
                    examples: { other: { value: { email: "ann@example.org" } } },
                  },
                },
              },
            },
          },
        },
      },
      components: { schemas: { User: { properties: { email: { type: "string", example: "XXXXXXXXXXX" }, code: { type: "string", pattern: "^X+$", example: "XXXX" }, homepage: { type: "string", format: "uri", example: "n/a" } } } } },
    };
    replacePlaceholderExamples(doc);
    const example = doc.paths["/profile"].get.responses["200"].content["application/json"].example;
    expect(example.email).toBe("new.business@example.com");
    expect(example.websites).toEqual(["https://www.example.com/website-1", "https://shop.example.org"]);
    expect(example.url).toBe("https://www.example.com/webhook");
    expect(isPlausible("phone", example.phone)).toBe(true);
    expect(example.name).toBe("XXXXXXXX");
    expect(example.contact.email).toBe("contact@example.com");
    expect(doc.paths["/profile"].get.responses["200"].content["application/json"].examples.other.value.email).toBe("ann@example.org");
    expect(doc.components.schemas.User.properties.email.example).toBe("contact@example.com");
    // A property with its own format or pattern keeps its example (the spec says what it is).
    expect(doc.components.schemas.User.properties.homepage.example).toBe("n/a");
  });
});
