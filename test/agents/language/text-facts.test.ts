import { describe, expect, it } from "vitest";
import { phraseAfter, TextFacts } from "../../../agents/language/text-facts.js";

/** Values in text: each kind found where it is, once, with the value it stands for. */

function kinds(text: string): Array<[string, string | number]> {
  return new TextFacts(text).spans.map((s) => [s.kind, s.value]);
}

describe("TextFacts", () => {
  it("finds quoted text, links, e-mails, ISO dates and times, ids, numbers and codes", () => {
    expect(kinds('Add "Dune" for ann@example.com on 2025-03-14T09:30 from https://x.example/a, id bk-1001, 3 copies, EUR to JPY, in fr')).toEqual([
      ["quoted", "Dune"],
      ["email", "ann@example.com"],
      ["datetime", "2025-03-14T09:30"],
      ["url", "https://x.example/a"],
      ["id", "bk-1001"],
      ["number", 3],
      ["code3", "EUR"],
      ["code3", "JPY"],
      ["lang", "fr"],
    ]);
  });

  it("keeps an id made of an address whole, `,-` joins and all; a comma in a sentence still ends an id", () => {
    expect(kinds("Get the property 1702-Cherry-Orchard-Dr,-Austin,-TX-78745 please").filter(([k]) => k === "id")).toEqual([["id", "1702-Cherry-Orchard-Dr,-Austin,-TX-78745"]]);
    expect(kinds("Books bk-1001, bk-1002 and bk-1003").filter(([k]) => k === "id")).toEqual([
      ["id", "bk-1001"],
      ["id", "bk-1002"],
      ["id", "bk-1003"],
    ]);
  });

  it("reads dates written in words (chrono-node) only when day, month and year are written", () => {
    expect(kinds("Book it for March 3, 2025 please")).toEqual([["date", "2025-03-03"]]);
    expect(kinds("on the 3rd of May 2025")).toEqual([["date", "2025-05-03"]]);
    expect(kinds("Tue, 4 Feb 2025 at 19:30")).toEqual([["datetime", "2025-02-04T19:30:00"]]);
    expect(kinds("next Friday in March").filter(([k]) => k === "date" || k === "datetime")).toEqual([]);
    expect(kinds("May I see the market summary?").filter(([k]) => k === "date")).toEqual([]);
  });

  it("takes proper names, not the capitalised word that starts a sentence or 'I'", () => {
    expect(kinds("Show me articles by Jane Doe about the Bank of England")).toEqual([
      ["proper", "Jane Doe"],
      ["proper", "Bank of England"],
    ]);
    expect(kinds("Go ahead and find Lisbon weather. I want it")).toEqual([["proper", "Lisbon"]]);
    // (nor "I'd", "I'm", "I'll" or "I've" after a comma)
    expect(kinds("Perfect. Now, I'd like the feeds, and I'm sure I've asked; I'll wait")).toEqual([]);
  });

  it("ends a run of names where a value found before starts ('Causeway in Chicago in IL': IL is a code)", () => {
    expect(kinds("with address line1 327 Wolf-Vandervort Causeway in Chicago in IL (zip code: 95385)").filter(([k]) => k !== "number" && k !== "id")).toEqual([
      ["proper", "Wolf-Vandervort Causeway in Chicago"],
      ["code2", "IL"],
    ]);
  });

  it("reads a bare domain name as an address, not a file of numbers or a version", () => {
    expect(kinds("the feeds with domain yellow-cemetery.org and api.example.co.uk")).toEqual([
      ["url", "yellow-cemetery.org"],
      ["url", "api.example.co.uk"],
    ]);
    expect(kinds("version 1.2 of v2.zip").filter(([k]) => k === "url")).toEqual([]);
    expect(kinds("mail ann@example.com at https://x.example/a").filter(([k]) => k === "url")).toEqual([["url", "https://x.example/a"]]);
  });

  it("does not read the word ID as a code, nor a plain word as a language", () => {
    expect(kinds("the book with ID bk-1002")).toEqual([["id", "bk-1002"]]);
    expect(kinds("it is on my list")).toEqual([]);
  });

  it("finds phrases as whole words, with spaces, hyphens and underscores alike", () => {
    const f = new TextFacts("the max_price is 20 and the max price-cap is 30; maximum 40");
    expect(f.find("max price").length).toBe(2);
    expect(f.find("max")).toHaveLength(2);
    expect(new TextFacts("remind me to call the bank and then pay").find("call")).toEqual([[13, 17]]);
  });

  it("reads the words after a position up to a joining word, without stop words at the ends", () => {
    const f = new TextFacts("remind me to call the bank and then pay the rent");
    expect(phraseAfter(f, 12, 8)?.value).toBe("call the bank");
    expect(phraseAfter(new TextFacts("a room in the Living room, please"), 25, 4)).toBeUndefined();
  });

  it("keeps dots and commas inside a word: a domain, a dotted path, a URL, ids joined by a comma", () => {
    const after = (text: string, word: string): string | undefined => phraseAfter(new TextFacts(text), text.indexOf(word), 4)?.value;
    expect(after("services with provider apis.guru.", "apis")).toBe("apis.guru");
    expect(after("the variable demographics.population.count of it", "demo")).toBe("demographics.population.count");
    expect(after("the image is https://picsum.photos/seed/kP9c/640/480, please", "https")).toBe("https://picsum.photos/seed/kP9c/640/480");
    expect(after("entity 3587736NE,6960336JD18 for year", "358")).toBe("3587736NE,6960336JD18");
    // A dot or a comma before a space, or at the end, still ends the phrase.
    expect(after("call Lisbon. Then Porto", "Lisbon")).toBe("Lisbon");
    expect(after("in Lisbon, Portugal", "Lisbon")).toBe("Lisbon");
  });
});
