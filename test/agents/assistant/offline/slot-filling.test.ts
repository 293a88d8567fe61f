import { describe, expect, it } from "vitest";
import type { RequestView } from "../../../../agents/assistant/offline/dialogue-history.js";
import { OfflineToolboxes, type OfflineToolbox } from "../../../../agents/assistant/offline/offline-toolbox.js";
import { fillArguments } from "../../../../agents/assistant/offline/slot-filling.js";
import type { OfflineToolSpec } from "../../../../agents/assistant/offline/tool-params.js";

/*
 * Slot filling, rule by rule: each test names the rule that must fill the value (the fill's notes say which one
 * did), so a rule that stops working fails here even when another rule would have guessed the same value.
 */

const searchArticles: OfflineToolSpec = {
  name: "searchArticles",
  description: "Search articles by keywords.",
  parameters: {
    type: "object",
    properties: {
      q: { type: "string", description: "Keywords." },
      author: { type: "string", description: "The author's name." },
      sortBy: { type: "string", description: "Order of the results." },
      from: { type: "string", format: "date", description: "Oldest publication date." },
    },
    required: ["q"],
  },
};

const weather: OfflineToolSpec = {
  name: "getForecast",
  description: "The daily forecast for a city.",
  parameters: {
    type: "object",
    properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 14 }, units: { type: "string", enum: ["metric", "imperial"] } },
    required: ["city"],
  },
};

const convert: OfflineToolSpec = {
  name: "convertCurrency",
  description: "Convert an amount from one currency to another.",
  parameters: {
    type: "object",
    properties: {
      from: { type: "string", pattern: "^[A-Z]{3}$", description: "ISO 4217 code of the source currency." },
      to: { type: "string", pattern: "^[A-Z]{3}$", description: "ISO 4217 code of the target currency." },
      amount: { type: "number" },
      maxPrice: { type: "number" },
    },
    required: ["from", "to", "amount"],
  },
};

const reminders: OfflineToolSpec = {
  name: "createReminder",
  description: "Create a reminder.",
  parameters: { type: "object", properties: { text: { type: "string" }, dueAt: { type: "string", format: "date-time" }, bookId: { type: "string" } }, required: ["text"] },
};

function fill(tool: OfflineToolSpec, text: string, replies: Array<{ question: string; text: string }> = []) {
  const box: OfflineToolbox = new OfflineToolboxes().for([tool]);
  const request: RequestView = { text, facts: box.factsOf(text), replies: replies.map((r) => ({ ...r, facts: box.factsOf(r.text) })), questions: replies.map((r) => r.question), calls: [] };
  return fillArguments(box, { tool, request, userText: [text, ...replies.map((r) => r.text)].join("\n"), records: [], optional: true });
}

function noteOf(out: ReturnType<typeof fill>, param: string): string | undefined {
  return out.notes.find((n) => n.startsWith(`${param} `));
}

const glossary: OfflineToolSpec = {
  name: "createGlossary",
  description: "Create a glossary of fixed translations.",
  parameters: {
    type: "object",
    properties: {
      name: { type: "string" },
      target: { type: "string", description: "Target language." },
      entries: { type: "array", items: { type: "object", properties: { source: { type: "string" }, target: { type: "string" } }, required: ["source", "target"] } },
    },
    required: ["name", "entries"],
  },
};

describe("slot filling", () => {
  it("fills one list item per parenthesized group, each from its own words", () => {
    const two = fill(glossary, 'Create a glossary called "Marketing" into es with these entries: (source garantia, target garantía) and (source senha, target contraseña).');
    expect(two.args["entries"]).toEqual([
      { source: "garantia", target: "garantía" },
      { source: "senha", target: "contraseña" },
    ]);
    // One group: one item; a group that is no item (a remark in parentheses) leaves the list as it was.
    expect(fill(glossary, 'Create a glossary called "Marketing" with entries (source garantia, target garantía).').args["entries"]).toEqual([{ source: "garantia", target: "garantía" }]);
  });


  it("never takes words that point at a result for the value itself", () => {
    const countryAirports: OfflineToolSpec = {
      name: "countryAirports",
      description: "Airports of a country.",
      parameters: { type: "object", properties: { country_code: { type: "string", description: "Country code (ISO 3166-1)." } }, required: ["country_code"] },
    };
    for (const reply of ["Use the top result.", "Just take the first result.", "The first one from the results, please."]) {
      // No earlier observation holds a country code: nothing to take, and not the reply's words.
      const out = fill(countryAirports, "Get the country airports for the first country.", [{ question: "For the country airports, I need the country code. Could you tell me what it is?", text: reply }]);
      expect(out.args["country_code"]).toBeUndefined();
    }
    const named = fill(countryAirports, "Get the country airports.", [{ question: "For the country airports, I need the country code. Could you tell me what it is?", text: "DK" }]);
    expect(named.args["country_code"]).toBe("DK");
  });

  it("does not take a reply that went into another argument of an earlier call for this one", () => {
    const profile: OfflineToolSpec = {
      name: "getCompanyProfile",
      description: "Company profile of a ticker.",
      parameters: { type: "object", properties: { symbol: { type: "string", description: "Ticker symbol." } }, required: ["symbol"] },
    };
    const box: OfflineToolbox = new OfflineToolboxes().for([profile]);
    const text = "Search for symbols and show me the company profile for the first symbol.";
    const replies = [{ question: "To search symbols, I need the company name or ticker. Could you tell me what it is?", text: '"toyota"' }];
    const request: RequestView = { text, facts: box.factsOf(text), replies: replies.map((r) => ({ ...r, facts: box.factsOf(r.text) })), questions: replies.map((r) => r.question), calls: [] };
    const fresh = fillArguments(box, { tool: profile, request, userText: text, records: [], optional: true });
    expect(String(fresh.args["symbol"]).toLowerCase()).toBe("toyota");
    // Once the search took it as its query, the profile's ticker is not that word.
    const searched: RequestView = { ...request, calls: [{ id: "call_1", name: "searchSymbols", args: { q: "toyota" } }] };
    const again = fillArguments(box, { tool: profile, request: searched, userText: text, records: [], optional: true });
    expect(again.args["symbol"], JSON.stringify(again.notes)).toBeUndefined();
  });

  it("takes a named value after a separating word before a mention of the name in passing ('setting the topic to pocket-watch')", () => {
    const edit: OfflineToolSpec = { name: "editOfferingTopic", description: "Edit the offering topic metadata.", parameters: { type: "object", properties: { id: { type: "string" }, topic: { type: "string" } }, required: ["id", "topic"] } };
    const out = fill(edit, "Is it possible to edit the offering topic metadata 85lex7l7jnb7 setting the topic to pocket-watch?");
    expect(out.args).toEqual({ id: "85lex7l7jnb7", topic: "pocket-watch" });
    expect(noteOf(out, "topic")).toMatch(/named in the request/);
    const level = fill({ ...edit, parameters: { type: "object", properties: { level: { type: "string" } }, required: ["level"] } }, "Edit the offering level metadata where the level is medium.");
    expect(level.args).toEqual({ level: "medium" });
  });

  it("leaves a value named by a parameter's own name to that parameter, not to a longer name ending in it ('doctor 76' is `doctor`'s, not `ordering_doctor`'s)", () => {
    const labs: OfflineToolSpec = { name: "createLabResult", description: "Create a lab result.", parameters: { type: "object", properties: { ordering_doctor: { type: "integer" }, doctor: { type: "integer" }, since: { type: "string" } } } };
    expect(fill(labs, "I want to create the patient lab results (since: redesign) with doctor 76.").args).toEqual({ doctor: 76, since: "redesign" });
    // (alone, the longer name still takes it)
    const only = { ...labs, parameters: { type: "object", properties: { ordering_doctor: { type: "integer" } } } };
    expect(fill(only, "Create the lab result with doctor 76.").args).toEqual({ ordering_doctor: 76 });
  });

  it("takes a value after a cue word for the parameters the cue is for (whole words of their names only)", () => {
    const out = fill(searchArticles, "Find articles about the elections by Jane Doe");
    expect(out.args).toEqual({ q: "elections", author: "Jane Doe" });
    expect(noteOf(out, "author")).toMatch(/cue word/);
    expect(out.args).not.toHaveProperty("sortBy");
  });

  it("takes a city after 'in', a count before its noun, and an enum value named in the text", () => {
    const out = fill(weather, "What's the forecast in Lisbon for 5 days in imperial units?");
    expect(out.args).toEqual({ city: "Lisbon", days: 5, units: "imperial" });
    expect(noteOf(out, "city")).toMatch(/cue word/);
    expect(noteOf(out, "days")).toMatch(/named in the request/);
    expect(noteOf(out, "units")).toMatch(/allowed value/);
  });

  it("reads 'from X to Y' for the two ends of a conversion, and an unnamed number for the amount", () => {
    const out = fill(convert, "Convert 120 EUR to JPY");
    expect(out.args).toEqual({ from: "EUR", to: "JPY", amount: 120 });
    expect(noteOf(out, "from")).toMatch(/cue word/);
    expect(out.missing).toEqual([]);
  });

  it("gives a parameter whose name says what it holds only a value of that kind (a country code is no airport's name)", () => {
    const airports: OfflineToolSpec = {
      name: "autocompleteAirportName",
      description: "Airport names that start with the given text.",
      parameters: {
        type: "object",
        properties: { airport_name: { type: "string" }, optional_country_code: { type: "string", description: "Country code (ISO 3166-1)." } },
        required: ["airport_name"],
      },
    };
    const cued = fill(airports, 'Get the autocomplete airport names for "Busy Suspension"');
    expect(cued.args).not.toHaveProperty("optional_country_code");
    const country = fill(airports, 'Get the autocomplete airport names for "Lisb" in PT');
    expect(country.args).toEqual({ airport_name: "Lisb", optional_country_code: "PT" });
  });

  it("reads an upper bound after 'under'", () => {
    const out = fill(convert, "Convert 50 GBP to USD under 100");
    expect(out.args["maxPrice"]).toBe(100);
    expect(noteOf(out, "maxPrice")).toMatch(/cue word/);
  });

  it("takes free text after a phrase cue and a date written in words, never an id from a free word", () => {
    const out = fill(reminders, "Remind me to call the plumber on March 3, 2025");
    expect(out.args["text"]).toBe("call the plumber");
    expect(noteOf(out, "text")).toMatch(/after a cue/);
    expect(out.args).not.toHaveProperty("bookId");
  });

  it("takes a reply to the question that asked for a value", () => {
    const out = fill(weather, "What's the forecast?", [{ question: "To get the forecast, I need the city. Could you tell me what it is?", text: "Sure, it's Porto." }]);
    expect(out.args["city"]).toBe("Porto");
    expect(noteOf(out, "city")).toMatch(/reply/);
  });

  it("says what is missing", () => {
    const out = fill(convert, "Convert some money");
    expect(out.missing.map((p) => p.name).sort()).toEqual(["amount", "from", "to"]);
  });
});

describe("enum values that are everyday words", () => {
  const news: OfflineToolSpec = {
    name: "searchNews",
    description: "Search articles.",
    parameters: { type: "object", properties: { q: { type: "string" }, language: { type: "string", enum: ["de", "en", "it", "no"] } }, required: ["q"] },
  };
  it("are not read from a pronoun or a plain word (It's, no)", () => {
    const out = fill(news, "Look for articles, please.", [{ question: "What are the search words?", text: 'It\'s "wildfires", no rush.' }]);
    expect(out.args["language"]).toBeUndefined();
  });
  it("are read where the text names them or quotes them", () => {
    expect(fill(news, 'Look for articles about "wildfires" (language: it).').args["language"]).toBe("it");
    expect(fill(news, 'Look for articles about "wildfires" in "no".').args["language"]).toBe("no");
    expect(fill(news, 'Look for articles about "wildfires" in de.').args["language"]).toBe("de");
  });
});

describe("slot filling: an object described after its name", () => {
  const point = { type: "object", properties: { lat: { type: "number" }, lng: { type: "number" }, address: { type: "string" } }, required: ["lat", "lng"] };
  const ride: OfflineToolSpec = {
    name: "NewRide",
    description: "Request a ride to pick you up at the given location.",
    parameters: { type: "object", properties: { ride_type: { type: "string", enum: ["lyft", "lyft_plus"] }, origin: point, destination: point }, required: ["ride_type", "origin"] },
  };

  it("fills that object from its parentheses, and no other object from them", () => {
    const out = fill(ride, "Could you request a lyft with origin (lat -51.453634, lng -10.802785, address Rua Augusta 24) with ride type lyft_plus?");
    expect(out.args["origin"]).toEqual({ lat: -51.453634, lng: -10.802785, address: "Rua Augusta 24" });
    expect(out.args).not.toHaveProperty("destination");
    const both = fill(ride, "Request a lyft from origin (lat 1.5, lng 2.5) to destination (lat 3.5, lng 4.5, address Main Street 1), ride type lyft.");
    expect(both.args["origin"]).toEqual({ lat: 1.5, lng: 2.5 });
    expect(both.args["destination"]).toEqual({ lat: 3.5, lng: 4.5, address: "Main Street 1" });
  });
});

describe("an address's city and state, said without their names", () => {
  const verify: OfflineToolSpec = {
    name: "verifyUSAddress",
    description: "Verify a given US address to ensure it meets USPS standards and is deliverable.",
    parameters: {
      type: "object",
      properties: {
        addressLine1: { type: "string", description: "The primary address line, including street number and name." },
        addressLine2: { type: "string", description: "The secondary address line, such as apartment or suite number." },
        city: { type: "string", description: "The city of the address." },
        state: { type: "string", description: "The state or territory of the address." },
        zipCode: { type: "string", description: "The 5-digit ZIP code of the address." },
      },
      required: ["addressLine1", "city", "state", "zipCode"],
    },
  };

  it("are the city and the state the words name, not another capitalised word (USPS) or a label (line1)", () => {
    const out = fill(verify, "Would you mind verifying a given US address to ensure it meets USPS standards and is deliverable with address line1 327 Wolf-Vandervort Causeway in Chicago in IL (zip code: 95385)?");
    expect(out.args).toMatchObject({ addressLine1: "327 Wolf-Vandervort Causeway", city: "Chicago", state: "IL", zipCode: "95385" });
    const york = fill(verify, "Verify a US address where the address line1 is 39320 Geraldine Skyway and the address line2 is 8745 Rowena Center in New York in NY with the zip code 10001.");
    expect(york.args).toMatchObject({ city: "New York", state: "NY" });
  });
});


describe("currency codes named after words of the tool's description", () => {
  it("are the codes, not the words after the first 'from' and 'to' ('from one currency to another from AUD to EUR')", () => {
    const loose: OfflineToolSpec = {
      name: "convertCurrency",
      description: "Convert currency values from one currency to another.",
      parameters: {
        type: "object",
        properties: {
          from: { type: "string", description: "The currency code to convert from." },
          to: { type: "string", description: "The currency code to convert to." },
          amount: { type: "number", description: "The amount to be converted." },
        },
        required: ["from", "to", "amount"],
      },
    };
    expect(fill(loose, "Help me convert currency values from one currency to another from AUD to EUR of 333.15.").args).toEqual({ from: "AUD", to: "EUR", amount: 333.15 });
    expect(fill(loose, "Could you convert currency values from one currency to another from USD into CHF (amount 455.98)").args).toMatchObject({ from: "USD", to: "CHF" });
  });
});
