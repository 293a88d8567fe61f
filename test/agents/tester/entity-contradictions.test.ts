import { describe, expect, it } from "vitest";
import { entityContradictions } from "../../../agents/tester/entity-contradictions.js";
import type { ObservedCall } from "../../../agents/tester/observed-call.js";

// The audit's `repeat` and `entity` rules: what a reader sees wrong inside one answer.

function observed(tool: string, args: Record<string, unknown>, body: unknown): ObservedCall {
  return { toolset: "t", tool, method: "get", path: `/${tool}`, args, bodyArgs: new Set(), status: 200, body };
}

const rules = (c: ObservedCall): string[] => entityContradictions(c).map((x) => `${x.rule} ${x.field}`);

describe("one record twice in a list", () => {
  it("finds copies that differ only in their ids, and same-named items alike in most fields", () => {
    expect(rules(observed("weekends", {}, [{ startDate: "2025-05-29", dayCount: 4 }, { startDate: "2025-05-29", dayCount: 4 }]))).toEqual(["repeat [1]"]);
    expect(rules(observed("search", {}, [{ id: 1, name: "Amsterdam", country: "NL", population: 872000, region: "A" }, { id: 2, name: "Amsterdam", country: "NL", population: 872000, region: "B" }]))).toEqual(["repeat [1]"]);
    expect(rules(observed("steps", {}, { steps: [{ number: 1, text: "Fry." }, { number: 1, text: "Fry." }] }))).toEqual(["repeat steps[1]"]);
  });

  it("passes distinct records, even with one name (Paris, France and Paris, Texas)", () => {
    expect(rules(observed("search", {}, [{ id: 1, name: "Paris", country: "FR", population: 2100000, latitude: 48.86, longitude: 2.35 }, { id: 2, name: "Paris", country: "US", population: 25000, latitude: 33.66, longitude: -95.55 }]))).toEqual([]);
    expect(rules(observed("weekends", {}, [{ startDate: "2025-05-29", dayCount: 4 }, { startDate: "2025-08-14", dayCount: 4 }]))).toEqual([]);
  });
});

describe("entities that do not hang together", () => {
  it("finds a city far from its coordinates or in another country, and another country's subdivision codes", () => {
    expect(rules(observed("geo", {}, { address: { city: "Madrid", country: "Spain" }, city: "Madrid", latitude: 37.79, longitude: -122.39 }))).toEqual(["entity latitude"]);
    expect(rules(observed("airports", {}, [{ iataCode: "BER", city: "Berlin", country: "PT" }]))).toEqual(["entity [0].country"]);
    expect(rules(observed("holidays", {}, [{ name: "Australia Day", countryCode: "AU", subdivisions: ["DE-BW"] }]))).toEqual(["entity [0].subdivisions"]);
    expect(rules(observed("geo", {}, { city: "Madrid", country: "ES", latitude: 40.41, longitude: -3.7, subdivisions: ["ES-MD"] }))).toEqual([]);
  });

  it("judges cities beyond the world table against every city of that name", () => {
    // Austin with Lisbon's coordinates: the gazetteer knows where Austin is.
    expect(rules(observed("weather", { city: "Austin" }, { location: { city: "Austin", country: "PT", latitude: 38.7167, longitude: -9.1333 } }))).toEqual(["entity location.latitude"]);
    expect(rules(observed("weather", { city: "Austin" }, { location: { city: "Austin", country: "US", latitude: 30.26, longitude: -97.74 } }))).toEqual([]);
    // Springfield, Illinois is one Springfield of several: not judged against the most populous one only.
    expect(rules(observed("weather", {}, { city: "Springfield", country: "US", latitude: 39.8, longitude: -89.65 }))).toEqual([]);
    expect(rules(observed("weather", {}, { city: "Springfield", country: "US", latitude: 47.6, longitude: -122.3 }))).toEqual(["entity latitude"]);
    // A mere name beside coordinates is judged against the table's cities only (a hotel named Victoria is no city).
    expect(rules(observed("hotels", {}, [{ name: "Victoria", latitude: 51.49, longitude: -0.14 }]))).toEqual([]);
  });

  it("finds a search echo that is not what was searched", () => {
    expect(rules(observed("geocode", { q: "Puerta del Sol 1, Madrid" }, { query: "221 Market Street, San Francisco", results: [] }))).toEqual(["entity query"]);
    expect(rules(observed("geocode", { q: "Puerta del Sol 1, Madrid" }, { query: "Puerta del Sol 1, Madrid", results: [] }))).toEqual([]);
  });

  it("finds a journey that lands where it left, arrives before it departs, or counts stops it does not have", () => {
    const leg = { from: "LIS", to: "BCN", departure: "2025-07-01T07:05:00+01:00", arrival: "2025-07-01T10:35:00+02:00" };
    expect(rules(observed("offer", {}, { stops: 0, segments: [leg] }))).toEqual([]);
    expect(rules(observed("offer", {}, { stops: 0, segments: [{ ...leg, to: "LIS" }] }))).toEqual(["entity segments[0].to"]);
    expect(rules(observed("offer", {}, { stops: 0, segments: [{ ...leg, arrival: "2025-06-30T10:35:00+02:00" }] }))).toEqual(["entity segments[0].arrival"]);
    expect(rules(observed("offer", {}, { stops: 90, segments: [leg] }))).toEqual(["entity stops"]);
  });

  it("finds a flight that lasts far longer or shorter than that flight takes, or leaves or lands off its airports' clocks", () => {
    const transatlantic = { from: "OPO", to: "JFK", departure: "2025-12-03T07:05:00+00:00", arrival: "2025-12-03T09:15:00-05:00", durationMinutes: 430 };
    expect(rules(observed("offer", {}, { segments: [transatlantic] }))).toEqual([]);
    expect(rules(observed("offer", {}, { segments: [{ ...transatlantic, durationMinutes: 210, arrival: "2025-12-03T05:35:00-05:00" }] }))).toEqual(["entity segments[0].durationMinutes"]);
    expect(rules(observed("offer", {}, { segments: [{ ...transatlantic, departure: "2025-12-03T07:05:00+01:00", arrival: "2025-12-03T08:15:00-05:00" }] }))).toEqual(["entity segments[0].departure"]);
    expect(rules(observed("offer", {}, { segments: [{ ...transatlantic, arrival: "2025-12-03T15:15:00+01:00" }] }))).toEqual(["entity segments[0].arrival"]);
  });

  it("finds a count of a list beside it that is not its length, but not a page's total", () => {
    expect(rules(observed("glossary", {}, { id: "g1", entryCount: 2, entries: [{ source: "a", target: "b" }] }))).toEqual(["entity entryCount"]);
    expect(rules(observed("album", {}, { id: "al1", numTracks: 2, tracks: [{ id: "t1" }, { id: "t2" }] }))).toEqual([]);
    expect(rules(observed("list", {}, { total: 40, page: 1, itemCount: 40, items: [{ id: "i1" }] }))).toEqual([]);
  });

  it("finds an exchange in another time zone", () => {
    expect(rules(observed("status", { exchange: "NASDAQ" }, { exchange: "NASDAQ", timezone: "Europe/London" }))).toEqual(["entity timezone"]);
    expect(rules(observed("status", { exchange: "NASDAQ" }, { exchange: "NASDAQ", timezone: "America/New_York" }))).toEqual([]);
  });
});

describe("records that differ below their top level", () => {
  it("are not one record twice (GeoJSON features at different coordinates), unless they differ only in ids", () => {
    const feature = (x: number, user: string) => ({ type: "Feature", geometry: { type: "Point", coordinates: [x, 40] }, created_by: { id: user } });
    expect(rules(observed("near", {}, { features: [feature(-82.9, "u1"), feature(-83.1, "u1")] }))).toEqual([]);
    expect(rules(observed("near", {}, { features: [feature(-82.9, "u1"), feature(-82.9, "u2")] }))).toEqual(["repeat features[1]"]);
  });
});

describe("money", () => {
  it("finds a rate of another pair, a result that is not amount x rate, and a base in its own table", () => {
    expect(rules(observed("convert", { from: "GBP", to: "PLN", amount: 310 }, { query: { from: "GBP", to: "PLN", amount: 310 }, rate: 161.84, result: 40460 }))).toEqual(["entity rate", "entity result"]);
    expect(rules(observed("convert", { from: "GBP", to: "PLN", amount: 310 }, { rate: 5.02, result: 1556.2 }))).toEqual([]);
    expect(rules(observed("latest", { base: "GBP" }, { base: "GBP", rates: { GBP: 0.7721, USD: 1.27 } }))).toEqual(["entity rates.GBP"]);
  });
});

describe("texts", () => {
  it("finds a detection that is not the text's language and a translation that is not the sentence's", () => {
    expect(rules(observed("detectLanguage", { texts: ["Dov'è il museo?", "Ich hätte gern die Rechnung."] }, { detections: [{ language: "es" }, { language: "de" }] }))).toEqual(["entity detections[0].language"]);
    expect(rules(observed("translateText", { texts: ["Where is the museum?"], target: "de" }, { translations: [{ text: "Könnten Sie mir die Rechnung schicken?", detectedSourceLanguage: "en" }] }))).toEqual(["entity translations[0].text"]);
    expect(rules(observed("translateText", { texts: ["Where is the museum?"], target: "de" }, { translations: [{ text: "Wo ist das Museum?", detectedSourceLanguage: "en" }] }))).toEqual([]);
  });

  it("finds a dictionary entry or example in another language than the target", () => {
    const entry = (text: string, example: string) => ({ word: "spring", source: "en", target: "ja", entries: [{ partOfSpeech: "noun", translations: [{ text }], examples: [{ source: "Spring is here.", target: example }] }] });
    expect(rules(observed("lookupDictionary", { word: "spring", source: "en", target: "ja" }, entry("banco", "Caminó por la orilla del río.")))).toEqual(["entity entries[0].translations[0].text", "entity entries[0].examples[0].target"]);
    expect(rules(observed("lookupDictionary", { word: "spring", source: "en", target: "ja" }, entry("春", "春が来た。")))).toEqual([]);
    expect(rules(observed("lookupDictionary", { word: "bank", source: "en", target: "es" }, { target: "es", entries: [{ translations: [{ text: "banco" }], examples: [{ target: "Caminó por la orilla del río." }] }] }))).toEqual([]);
  });
});

describe("filler", () => {
  it("reads random dictionary words as filler, and plain phrases as phrases", async () => {
    const { isFiller } = await import("../../../simulator/stats/filler-text.js");
    for (const t of ["roasted gosh", "oof considering", "ew ack nor", "home regarding", "brightly our", "knowledgeably burly athwart"]) expect(isFiller(t), t).toBe(true);
    for (const t of ["in stock", "home office", "clear sky", "few clouds", "milk with lemon juice", "Where is the museum?"]) expect(isFiller(t), t).toBe(false);
  });
});

describe("a record's address and its day", () => {
  it("finds an article whose address names another day than its date, a day apart being a time zone", () => {
    const article = (url: string, publishedAt: string) => observed("articles", {}, { articles: [{ title: "Chip plants", url, publishedAt, imageUrl: "https://x.example/img/2020/01/01/a.jpg" }] });
    expect(rules(article("https://techpulse.example.com/2025/06/14/chip-plants", "2025-03-02T07:45:00Z"))).toEqual(["entity articles[0].url"]);
    expect(rules(article("https://www.theguardian.com/world/2024/jun/14/chip-plants", "2024-03-02T07:45:00Z"))).toEqual(["entity articles[0].url"]);
    expect(rules(article("https://techpulse.example.com/2025/03/02/chip-plants", "2025-03-02T07:45:00Z"))).toEqual([]);
    expect(rules(article("https://techpulse.example.com/2025/03/03/chip-plants", "2025-03-02T23:45:00Z"))).toEqual([]);
    expect(rules(article("https://techpulse.example.com/chip-plants", "2025-03-02T07:45:00Z"))).toEqual([]);
  });
});
