import { describe, expect, it } from "vitest";
import { ClauseSplitter, splitClauses } from "../../../agents/language/clauses.js";

/** Clauses: a request split into the parts that each ask for one operation. */

describe("splitClauses", () => {
  it("splits at 'then' and its kin, at 'and' before a verb, and at a comma before a verb and its object", () => {
    expect(splitClauses("Find books by Ann, then show me the first one")).toEqual(["Find books by Ann", "show me the first one"]);
    expect(splitClauses("Create an event and delete it afterwards")).toEqual(["Create an event", "delete it"]);
    expect(splitClauses("List scenes, get the device dev-1, and finally remove it")).toEqual(["List scenes", "get the device dev-1", "remove it"]);
    expect(splitClauses("Search flights from LIS to JFK. Book the top offer.")).toEqual(["Search flights from LIS to JFK.", "Book the top offer."]);
  });

  it("keeps 'and' between values, and quoted text whole", () => {
    expect(splitClauses("Show rates for USD and GBP")).toEqual(["Show rates for USD and GBP"]);
    expect(splitClauses('Translate "Find and Replace" into German')).toEqual(['Translate "Find and Replace" into German']);
  });

  it("splits at a catalogue's own verbs too", () => {
    expect(splitClauses("Refresh the token and activate the scene", ["activate", "refresh"])).toEqual(["Refresh the token", "activate the scene"]);
    expect(new ClauseSplitter().split("Refresh the token and activate the scene")).toEqual(["Refresh the token and activate the scene"]);
  });

  it("gives the whole text for a request of one clause, courtesies included", () => {
    expect(splitClauses("Go ahead and show me the event evt-1004.")).toEqual(["Go ahead", "show me the event evt-1004."]);
    expect(splitClauses("What's the weather in Paris?")).toEqual(["What's the weather in Paris?"]);
  });
});
