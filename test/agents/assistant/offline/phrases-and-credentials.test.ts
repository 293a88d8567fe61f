import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { OfflineChatModel, rankToolsFor, type OfflineToolSpec } from "../../../../agents/assistant/offline/offline-chat-model.js";

// Words said together as one tool's description says them pick that tool; a credential is never guessed.

const GEOCODING: OfflineToolSpec[] = [
  {
    name: "reverse",
    description:
      "Reverse geocoding. Performs a reverse geocoding search. It will return the closest results around `coordinates`. If `coordinates` are not set, it will use the user's IP to approximate its coordinates.",
    parameters: { type: "object", properties: { coordinates: { type: "string" }, countries: { type: "array", items: { type: "string" } }, countryByIP: { type: "boolean" }, language: { type: "string" } } },
  },
  {
    name: "search",
    description:
      "Search for addresses. Performs a forward geocoding search. It will return results around `coordinates` (if provided) and the best matching textual relevance. It is highly recommended to set the `countries` parameter for the best accuracy and revelance possible.",
    parameters: { type: "object", properties: { query: { type: "string" }, coordinates: { type: "string" }, countries: { type: "array", items: { type: "string" } }, language: { type: "string" } } },
  },
];

const PRICING: OfflineToolSpec[] = [
  {
    name: "retrievePricingAllCountries",
    description: "Retrieve outbound pricing for all countries. Retrieves the pricing information for all countries.",
    parameters: { type: "object", properties: { type: { type: "string", enum: ["sms", "voice"] }, api_key: { type: "string" }, api_secret: { type: "string" } }, required: ["type", "api_key", "api_secret"] },
  },
  {
    name: "retrievePricingCountry",
    description: "Retrieve outbound pricing for a specific country. Retrieves the pricing information based on the specified country.",
    parameters: { type: "object", properties: { type: { type: "string", enum: ["sms", "voice"] }, api_key: { type: "string" }, api_secret: { type: "string" }, country: { type: "string" } }, required: ["type", "api_key", "api_secret", "country"] },
  },
];

describe("tool ranking: phrases", () => {
  it("takes a tool's own phrase over a word another tool is named after ('a reverse geocoding search' is `reverse`)", () => {
    expect(rankToolsFor("Is it possible to perform a reverse geocoding search?", GEOCODING)[0]?.name).toBe("reverse");
    expect(rankToolsFor("Please perform a reverse geocoding search that is country by ip (language: en).", GEOCODING)[0]?.name).toBe("reverse");
    expect(rankToolsFor("Perform a forward geocoding search for 42 avenue des Champs-Elysees.", GEOCODING)[0]?.name).toBe("search");
    expect(rankToolsFor("Search for addresses in France.", GEOCODING)[0]?.name).toBe("search");
  });
});

describe("slot filling: credentials", () => {
  const decide = (text: string) => new OfflineChatModel().decide([new HumanMessage(text)], PRICING);

  it("asks for an api key nobody gave instead of taking the api secret, or a country code, for it", () => {
    for (const text of [
      "Fetch the outbound pricing for all countries (type: sms) using my api secret zz9, then look up the outbound pricing with type sms (my api secret is zz9) in US.",
      "Fetch the outbound pricing for all countries (type: sms) using my api secret zz9, then look up the outbound pricing with type sms in US.",
    ]) {
      const d = decide(text);
      expect(d.calls, text).toEqual([]);
      expect(d.asks, text).toEqual(["api_key"]);
    }
  });

  it("takes a key the user names", () => {
    const d = decide("Fetch the outbound pricing for all countries (type: sms) using my api key k-77 and my api secret zz9.");
    expect(d.calls[0]).toEqual(expect.objectContaining({ name: "retrievePricingAllCountries", args: { type: "sms", api_key: "k-77", api_secret: "zz9" } }));
  });
});

describe("slot filling: free text after a colon", () => {
  const DWEET: OfflineToolSpec[] = [
    { name: "post_dweet_for_thing", description: "Create a dweet for a thing.", parameters: { type: "object", properties: { thing: { type: "string" }, body: { type: "string" } }, required: ["thing", "body"] } },
  ];
  const SCENES: OfflineToolSpec[] = [
    { name: "QueryScene", description: "Query the details of a smart home scene by its name.", parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
  ];

  it("takes the whole phrase a colon introduces, and no more than a proper name elsewhere", () => {
    const dweet = new OfflineChatModel().decide([new HumanMessage("Any chance you could create the dweet with thing final with these details: Optimized local challenge.")], DWEET).calls[0];
    expect(dweet?.args).toEqual({ thing: "final", body: "Optimized local challenge" });
    const scene = new OfflineChatModel().decide([new HumanMessage("Can you check the Morning Routine scene for me?")], SCENES).calls[0];
    expect(scene?.args).toEqual({ name: "Morning Routine" });
  });
});

describe("slot filling: a guess stays in its own step", () => {
  const KEYS: OfflineToolSpec[] = [
    { name: "KeyAvailability", description: "Availability. Returns public information on a key: whether it is useable.", parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] } },
    { name: "PhoneNumberValidation", description: "Phone number validation. Checks a phone number.", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } },
  ];

  it("asks for a value its step does not give rather than take a quoted text said for the next step", () => {
    const d = new OfflineChatModel().decide([new HumanMessage('Check the availability, then check the phone number validation matching "+44 20 7946 0000".')], KEYS);
    expect(d.calls).toEqual([]);
    expect(d.asks).toEqual(["key"]);
  });
});

describe("slot filling: a value named with a colon", () => {
  const ABUSE: OfflineToolSpec[] = [
    { name: "reportAbusiveIP", description: "Report an abusive IP address or domain to the AbuseIPDB database.", parameters: { type: "object", properties: { ip: { type: "string" }, comment: { type: "string" } }, required: ["ip"] } },
  ];

  it("takes the value after 'ip:' over the words after an 'IP' said in passing", () => {
    const call = new OfflineChatModel().decide([new HumanMessage("Would you mind reporting an abusive IP address or domain to the AbuseIPDB database (ip: 110.163.26.26)?")], ABUSE).calls[0];
    expect(call?.args["ip"]).toBe("110.163.26.26");
  });
});

describe("what a tool is for, as the assistant says it", () => {
  it("takes the base form of a description's third-person verb ('to return a list of school admins', never 'to returns')", async () => {
    const { OfflineToolboxes } = await import("../../../../agents/assistant/offline/offline-toolbox.js");
    const { purposeOf, goalOf } = await import("../../../../agents/assistant/offline/ask-phrases.js");
    const tool = (description: string): OfflineToolSpec => ({ name: "t", description, parameters: { type: "object", properties: {} } });
    const box = new OfflineToolboxes().for([]);
    expect(purposeOf(box, tool("Returns a list of school admins."))).toBe("To return a list of school admins");
    expect(goalOf(box, tool("Searches the catalog for books."))).toBe("search the catalog for books");
    expect(goalOf(box, tool("Get a book by its id."))).toBe("get a book by its id");
    expect(purposeOf(box, tool("Access logs of my account."))).not.toMatch(/^To acces /);
  });
});


describe("verbs that undo", () => {
  it("ask for a delete: unfollow, unstar, unwatch, unpin, detach, revoke", async () => {
    const { verbKindsOf } = await import("../../../../agents/language/operation-words.js");
    for (const verb of ["unfollow", "unstar", "unwatch", "unpin", "detach", "revoke"]) expect(verbKindsOf(verb), verb).toContain("delete");
  });
});
