import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { repeatedItems } from "../../../specs/respond/world/repeated-records.js";
import { entityContradictions } from "../../../agents/tester/entity-contradictions.js";
import { bindingsOf } from "../../../specs/respond/bindings/bindings.js";
import { fixedHolidays } from "../../../specs/synthesize/world/world-holidays.js";
import { findExchange } from "../../../specs/synthesize/world/world-exchanges.js";
import { exchangeRate } from "../../../specs/synthesize/world/world-money.js";
import { airportOffset, flightMinutes } from "../../../specs/synthesize/world/flight-times.js";

// Answers a careful reader would keep, on the bundled toolsets: lists name each record once, a found place is
// where the query says, a holiday is not a country, and a journey lands elsewhere, later, and comes back.

type Json = Record<string, any>;

async function call(toolset: string, tool: string, args: Json, seed = 1): Promise<Json> {
  const loaded = await loadToolset(fileURLToPath(new URL(`../../../toolsets/bundled/${toolset}.yaml`, import.meta.url)));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  const result = await simulateCall(loaded.value.catalog, { name: tool, arguments: args }, { seed, state: ResourceStore.fromFixtures(loaded.value.fixtures ?? {}) });
  expect(result.errors).toEqual([]);
  expect(result.responseErrors).toEqual([]);
  const found = entityContradictions({ toolset, tool, method: "get", path: "", args, bodyArgs: new Set(), status: result.status, body: result.body });
  expect(found.map((c) => `${c.rule} ${c.field}: ${JSON.stringify(c.actual)}`)).toEqual([]);
  return result.body as Json;
}

describe("a language asked of a list is a filter when its items have one", () => {
  it("listSources(language=pt) lists Portuguese sources only, and the binding is shown as data", async () => {
    const loaded = await loadToolset(fileURLToPath(new URL("../../../toolsets/bundled/news.yaml", import.meta.url)));
    if (!loaded.ok) throw new Error("news");
    const tool = loaded.value.catalog.get("listSources");
    expect(tool && bindingsOf(loaded.value.catalog, tool)).toContainEqual(expect.objectContaining({ kind: "filter", arg: "language", field: "sources[].language" }));
    for (const seed of [1, 2, 3, 4]) {
      const body = await call("news", "listSources", { language: "pt" }, seed);
      expect(body["sources"].length).toBeGreaterThan(0);
      for (const s of body["sources"]) expect(s.language).toBe("pt");
    }
  });
});

describe("lists name each record once", () => {
  it.each([
    ["weather", "searchLocations", { q: "Amsterdam" }],
    ["recipes", "getRecipe", { recipeId: 67503 }],
    ["holidays", "getLongWeekends", { year: 2025, countryCode: "US" }],
    ["news", "listSources", {}],
  ])("%s.%s", async (toolset, tool, args) => {
    for (const seed of [1, 2, 3]) expect(repeatedItems(await call(toolset, tool, args, seed))).toEqual([]);
  });
});

describe("a found place is where the query says", () => {
  it("geocodeAddress of a street in a known city: the echo, the address, the coordinates and the box are that city's", async () => {
    const body = await call("geocoding", "geocodeAddress", { q: "Puerta del Sol 1, Madrid" });
    expect(body["query"]).toBe("Puerta del Sol 1, Madrid");
    const [hit] = body["results"];
    expect(hit.displayName).toBe("Puerta del Sol 1, Madrid");
    expect(hit.address).toMatchObject({ city: "Madrid", country: "Spain", countryCode: "ES", road: "Puerta del Sol", houseNumber: "1" });
    expect(hit.address.state).not.toBe("California");
    expect(Math.abs(hit.latitude - 40.4168)).toBeLessThan(0.1);
    expect(hit.boundingBox.south).toBeLessThan(hit.latitude);
    expect(hit.boundingBox.north).toBeGreaterThan(hit.latitude);
  });

  it("reverseGeocode of a point near a known city: the place, its address and its box are there", async () => {
    for (const [lat, lon, city, code] of [[41.3874, 2.1686, "Barcelona", "ES"], [-33.86, 151.2, "Sydney", "AU"], [35.68, 139.76, "Tokyo", "JP"]] as const) {
      for (const seed of [1, 2]) {
        const place = await call("geocoding", "reverseGeocode", { lat, lon }, seed);
        expect(place["displayName"]).toContain(city);
        if (place["address"]?.["city"] !== undefined) expect(place["address"]["city"]).toBe(city);
        if (place["address"]?.["countryCode"] !== undefined) expect(place["address"]["countryCode"]).toBe(code);
        const box = place["boundingBox"];
        if (box !== undefined) expect(box["south"] <= lat && lat <= box["north"] && box["west"] <= lon && lon <= box["east"]).toBe(true);
      }
    }
  });

  it("a geocode hit read by its placeId is the same place (a hit names itself by another noun's id)", async () => {
    const loaded = await loadToolset(fileURLToPath(new URL("../../../toolsets/bundled/geocoding.yaml", import.meta.url)));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    for (const seed of [1, 2, 3]) {
      const state = ResourceStore.fromFixtures(loaded.value.fixtures ?? {});
      const found = await simulateCall(loaded.value.catalog, { name: "geocodeAddress", arguments: { q: "1-1 Marunouchi, Tokyo" } }, { seed, state });
      const hit = (found.body as Json)["results"][0] as Json;
      const place = (await simulateCall(loaded.value.catalog, { name: "getPlace", arguments: { placeId: hit["placeId"] } }, { seed, state })).body as Json;
      expect(place["displayName"]).toBe(hit["displayName"]);
      expect([place["latitude"], place["longitude"]]).toEqual([hit["latitude"], hit["longitude"]]);
    }
  });

  it("searchLocations keeps no region of the example's city", async () => {
    const [hit] = (await call("weather", "searchLocations", { q: "Amsterdam" })) as unknown as Json[];
    expect(hit).toMatchObject({ name: "Amsterdam", country: "NL" });
    expect(hit?.["region"]).not.toBe("Porto District");
  });
});

describe("a holiday of another country", () => {
  it("keeps its own name (not the country's) and no subdivision codes of the example's country", async () => {
    const body = await call("holidays", "getPublicHolidays", { year: 2025, countryCode: "AU" });
    for (const h of body["holidays"]) {
      expect(h.countryCode).toBe("AU");
      expect(h.name).not.toBe("Australia");
      for (const s of h.subdivisions ?? []) expect(s.startsWith("AU-")).toBe(true);
    }
  });

  it.each([
    ["AU", 2025, "Australia Day"],
    ["JP", 2024, "Foundation Day"],
    ["ES", 2026, "National Day"],
  ])("is one of the country's own: %s %i", async (countryCode, year, expected) => {
    const body = await call("holidays", "getPublicHolidays", { year, countryCode });
    const names = body["holidays"].map((h: Json) => h.name);
    const days = body["holidays"].map((h: Json) => h.date.slice(5, 10));
    const own = fixedHolidays(countryCode);
    for (const [i, h] of body["holidays"].entries()) {
      expect(h.date.startsWith(String(year))).toBe(true);
      expect(own.find((o) => o.day === days[i])?.name, JSON.stringify(h)).toBe(h.name);
    }
    expect(names.join(" ")).not.toMatch(/German|Deutsch/);
    if (expected !== "") expect(own.map((o) => o.name)).toContain(expected);
  });

  it("a next holiday from a date is the country's next one", async () => {
    const body = (await call("holidays", "getNextHolidays", { countryCode: "FR", from: "2025-09-30" })) as unknown as Json[];
    for (const h of body) {
      expect(h["date"] >= "2025-09-30").toBe(true);
      expect(fixedHolidays("FR").some((o) => o.day === h["date"].slice(5, 10) && o.name === h["name"])).toBe(true);
    }
  });
});

describe("a subdivision asked for", () => {
  it("is among a holiday's subdivisions, and no other country's are", async () => {
    for (const [countryCode, subdivision] of [["IT", "IT-RM"], ["GB", "GB-SCT"]] as const) {
      const body = await call("holidays", "getPublicHolidays", { year: 2026, countryCode, subdivision });
      for (const h of body["holidays"]) for (const s of h.subdivisions ?? []) expect(s.startsWith(`${countryCode}-`), `${countryCode}: ${JSON.stringify(h.subdivisions)}`).toBe(true);
      expect(body["holidays"].some((h: Json) => (h["subdivisions"] ?? []).includes(subdivision) || h["global"] === true)).toBe(true);
    }
  });
});

describe("a journey", () => {
  it("lands elsewhere, after it departs, with stops between its legs, and the way back mirrors the way out", async () => {
    for (const seed of [1, 2, 3]) {
      const offer = await call("flights", "getFlightOffer", { offerId: "off_1Mr2BkTb7C" }, seed);
      const out = offer["outbound"].segments;
      const back: Json[] = offer["inbound"]?.segments ?? [];
      expect(out[0].from).not.toBe(out[out.length - 1].to);
      if (back.length > 0) {
        expect(back[0]?.["from"]).toBe(out[out.length - 1].to);
        expect(back[back.length - 1]?.["to"]).toBe(out[0].from);
      }
      expect(offer["outbound"].stops).toBe(out.length - 1);
      for (const leg of [...out, ...back]) expect(Date.parse(leg.arrival) - Date.parse(leg.departure)).toBe(leg.durationMinutes * 60000);
    }
  });
});

describe("a flight", () => {
  it("lasts as long as that flight takes, leaves and lands on its airports' clocks, and comes back after it went", async () => {
    for (const [origin, destination, departureDate] of [["BCN", "OPO", "2025-12-02"], ["OPO", "JFK", "2025-12-03"], ["HND", "BER", "2025-06-25"], ["SYD", "LHR", "2025-11-11"]] as const) {
      const found = await call("flights", "searchFlights", { origin, destination, departureDate });
      for (const offer of found["offers"]) {
        const out: Json[] = offer["outbound"].segments;
        const back: Json[] = offer["inbound"]?.segments ?? [];
        expect(out[0]?.["departure"].slice(0, 10)).toBe(departureDate);
        if (out.length === 1) expect(out[0]?.["durationMinutes"]).toBe(flightMinutes(origin, destination));
        const offset = airportOffset(origin, departureDate) as string;
        expect(out[0]?.["departure"].endsWith(offset) || (offset === "+00:00" && out[0]?.["departure"].endsWith("Z"))).toBe(true);
        if (back.length > 0) expect(Date.parse(back[0]?.["departure"])).toBeGreaterThan(Date.parse(out[out.length - 1]?.["arrival"]));
      }
    }
    // Barcelona to Porto in December: 07:05 in Barcelona (CET) lands at 07:45 in Porto (WET), 100 minutes later.
    const leg = (await call("flights", "searchFlights", { origin: "BCN", destination: "OPO", departureDate: "2025-12-02" }))["offers"][0].outbound.segments[0];
    expect([leg.departure, leg.arrival, leg.durationMinutes]).toEqual(["2025-12-02T07:05:00+01:00", "2025-12-02T07:45:00+00:00", 100]);
  });

  it("an airport found by its city is the world's airport of that city, with its codes and country", async () => {
    const [london] = (await call("flights", "searchAirports", { q: "London" })) as unknown as Json[];
    expect(london).toMatchObject({ iataCode: "LHR", icaoCode: "EGLL", city: "London", country: "GB" });
    // No airport of the world in Lyon: no other city's airport renamed for it.
    const lyon = (await call("flights", "searchAirports", { q: "Lyon" })) as unknown as Json[];
    for (const a of lyon) expect(a["city"] === "Lyon" && a["country"] !== "FR").toBe(false);
  });
});

describe("a booking of an offer", () => {
  it("flies that offer's itinerary at its price, whichever is seen first", async () => {
    const loaded = await loadToolset(fileURLToPath(new URL("../../../toolsets/bundled/flights.yaml", import.meta.url)));
    if (!loaded.ok) throw new Error("flights");
    const booking = { offerId: "off_8Eu4MpTk2H", passengers: [{ type: "adult", firstName: "Loren", lastName: "Padberg", dateOfBirth: "1963-06-18" }], contact: { email: "loren.padberg@example.org", phone: "+49 476 269 1993" } };
    for (const order of [["createBooking", "getFlightOffer"], ["getFlightOffer", "createBooking"]]) {
      const state = ResourceStore.fromFixtures(loaded.value.fixtures ?? {});
      const seen: Json[] = [];
      for (const name of order) {
        const r = await simulateCall(loaded.value.catalog, { name, arguments: name === "createBooking" ? booking : { offerId: booking.offerId } }, { seed: 1, state });
        expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
        seen.push(r.body as Json);
      }
      expect(seen[1]?.["outbound"]).toEqual(seen[0]?.["outbound"]);
      expect(seen[1]?.["totalPrice"]).toEqual(seen[0]?.["totalPrice"]);
    }
  });
});

describe("a distance between two points", () => {
  it("is theirs: the points asked (fromLat -> from.lat), the great-circle distance in the unit asked or the default one, the bearing", async () => {
    const munichLyon = { fromLat: 48.1351, fromLon: 11.582, toLat: 45.764, toLon: 4.8357 };
    expect(await call("geocoding", "getDistance", munichLyon)).toEqual({ from: { lat: 48.1351, lon: 11.582 }, to: { lat: 45.764, lon: 4.8357 }, distance: 575.7, unit: "km", bearing: 245.3 });
    expect(await call("geocoding", "getDistance", { ...munichLyon, unit: "mi" })).toMatchObject({ distance: 357.7, unit: "mi" });
    expect(await call("geocoding", "getDistance", { fromLat: 40.7128, fromLon: -74.006, toLat: 51.5074, toLon: -0.1278, unit: "nmi" })).toMatchObject({ distance: 3007.7, unit: "nmi", bearing: 51.2 });
    const stated = entityContradictions({ toolset: "geocoding", tool: "getDistance", method: "get", path: "/distance", args: munichLyon, bodyArgs: new Set(), status: 200, body: { from: { lat: 48.1351, lon: 11.582 }, to: { lat: 45.764, lon: 4.8357 }, distance: 213.9, unit: "mi" } });
    expect(stated.map((c) => `${c.field}: ${String(c.expected)}`)).toEqual(["distance: about 357.7 mi"]);
  });
});

describe("the session's user", () => {
  it("is the person registered or logged in: the profile and a token refresh answer that person, another login is another person", async () => {
    const loaded = await loadToolset(fileURLToPath(new URL("../../../toolsets/bundled/accounts.yaml", import.meta.url)));
    if (!loaded.ok) throw new Error("accounts");
    const state = ResourceStore.fromFixtures(loaded.value.fixtures ?? {});
    const run = async (name: string, args: Json): Promise<Json> => {
      const r = await simulateCall(loaded.value.catalog, { name, arguments: args }, { seed: 1, state });
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
      return (r.body as Json)["user"] ?? (r.body as Json);
    };
    const joe = await run("registerUser", { email: "joe.jenkins@example.com", password: "Secret-pass-12", displayName: "Joe Jenkins", locale: "nl-NL" });
    const profile = await run("getProfile", {});
    expect(profile).toMatchObject({ id: joe["id"], email: "joe.jenkins@example.com", displayName: "Joe Jenkins", locale: "nl-NL" });
    expect(await run("refreshToken", { refreshToken: "rt_9f8e7d6c5b4a39281706f5e4d3c2b1a0" })).toMatchObject({ id: joe["id"], email: "joe.jenkins@example.com" });
    const ana = await run("login", { email: "ana.silva@example.com", password: "Other-pass-34" });
    expect(ana["id"]).not.toBe(joe["id"]);
    expect(await run("getProfile", {})).toMatchObject({ id: ana["id"], email: "ana.silva@example.com" });
    expect(await run("updateProfile", { displayName: "Ana S." })).toMatchObject({ id: ana["id"], email: "ana.silva@example.com", displayName: "Ana S." });
  });
});

describe("a thing named by a natural key", () => {
  it("keeps its name across answers of one episode: the symbol a search found is the quote's company", async () => {
    const loaded = await loadToolset(fileURLToPath(new URL("../../../toolsets/bundled/stocks.yaml", import.meta.url)));
    if (!loaded.ok) throw new Error("stocks");
    const state = ResourceStore.fromFixtures(loaded.value.fixtures ?? {});
    const found = await simulateCall(loaded.value.catalog, { name: "searchSymbols", arguments: { q: "nvidia" } }, { seed: 1, state });
    const hit = (found.body as Json)["results"][0];
    expect(hit.name.toLowerCase()).toContain("nvidia");
    const quote = await simulateCall(loaded.value.catalog, { name: "getQuote", arguments: { symbol: hit.symbol } }, { seed: 2, state });
    expect((quote.body as Json)["name"]).toBe(hit.name);
    expect(quote.responseErrors).toEqual([]);
  });

  it("a quote is about the symbol asked for, after a search renamed the example's record: not the first search's company", async () => {
    const loaded = await loadToolset(fileURLToPath(new URL("../../../toolsets/bundled/stocks.yaml", import.meta.url)));
    if (!loaded.ok) throw new Error("stocks");
    const state = ResourceStore.fromFixtures(loaded.value.fixtures ?? {});
    const search = async (q: string): Promise<Json> => ((await simulateCall(loaded.value.catalog, { name: "searchSymbols", arguments: { q } }, { seed: 41, state })).body as Json)["results"][0];
    const first = await search("nestle");
    const second = await search("shell");
    expect(second.symbol).not.toBe(first.symbol);
    for (const tool of ["getQuote", "getCompanyProfile"]) {
      const answer = (await simulateCall(loaded.value.catalog, { name: tool, arguments: { symbol: second.symbol } }, { seed: 41, state })).body as Json;
      expect(answer["symbol"]).toBe(second.symbol);
      expect(answer["name"]).toBe(second.name);
    }
  });
});

describe("an exchange", () => {
  it.each(["NASDAQ", "TSE", "XETRA"])("%s keeps its own time zone and session times", async (exchange) => {
    const body = await call("stocks", "getMarketStatus", { exchange });
    const known = findExchange(exchange);
    expect(body["timezone"]).toBe(known?.timeZone);
    if (typeof body["nextOpen"] === "string") expect(body["nextOpen"].slice(11, 16)).toBe(known?.open);
  });
});

describe("what counts as one record twice", () => {
  it("items that differ only in ids (nested ones too), not items that differ below their top level", () => {
    const feature = (x: number, user: string) => ({ type: "Feature", geometry: { type: "Point", coordinates: [x, 40] }, created_by: { id: user } });
    expect(repeatedItems({ features: [feature(-82.9, "u1"), feature(-83.1, "u1")] })).toEqual([]);
    expect(repeatedItems({ features: [feature(-82.9, "u1"), feature(-82.9, "u2"), feature(-82.9, "u3")] })).toEqual(["/features/1", "/features/2"]);
    expect(repeatedItems({ types: ["public", "bank", "public"] })).toEqual(["/types/2"]);
  });
});

describe("one id, one record", () => {
  it("a random recipe is remembered as a recipe (`/random` of getRandomRecipe), and one made to fit other criteria is another recipe", async () => {
    const loaded = await loadToolset(fileURLToPath(new URL("../../../toolsets/bundled/recipes.yaml", import.meta.url)));
    if (!loaded.ok) throw new Error("recipes");
    const state = ResourceStore.fromFixtures(loaded.value.fixtures ?? {});
    const run = async (name: string, args: Json): Promise<Json> => (await simulateCall(loaded.value.catalog, { name, arguments: args }, { seed: 1, state })).body as Json;
    const american = await run("getRandomRecipe", { cuisine: "american" });
    expect(american["cuisine"]).toBe("american");
    expect((await run("getRecipe", { recipeId: american["id"] }))["cuisine"]).toBe("american");
    const pescatarian = await run("getRandomRecipe", { diet: "pescatarian" });
    expect(pescatarian["diets"]).toContain("pescatarian");
    expect(pescatarian["id"]).not.toBe(american["id"]);
  });
});

describe("a dictionary entry", () => {
  it("gives translations in the target language, and none it does not know (another word, another language)", async () => {
    const bank = await call("translation", "lookupDictionary", { source: "en", target: "es", word: "bank" });
    expect(bank["entries"][0].translations[0].text).toBe("banco");
    for (const args of [{ source: "en", target: "ja", word: "spring" }, { source: "fr", target: "en", word: "avocat" }, { source: "en", target: "pl", word: "bank" }]) {
      const entry = await call("translation", "lookupDictionary", args);
      expect(entry["word"]).toBe(args.word);
      for (const e of entry["entries"]) {
        if (args.word !== "bank") expect(e.translations ?? []).toEqual([]);
        for (const x of e.examples ?? []) expect(x.target).not.toBe("Caminó por la orilla del río.");
      }
    }
  });
});

describe("money", () => {
  it("a conversion is at its pair's rate, and its result is the amount times the rate", async () => {
    for (const [from, to] of [["GBP", "PLN"], ["USD", "JPY"], ["EUR", "CHF"]] as const) {
      const body = await call("currency", "convertCurrency", { from, to, amount: 310 });
      const reference = exchangeRate(from, to) as number;
      expect(Math.abs(body["rate"] / reference - 1)).toBeLessThan(0.01);
      expect(Math.abs(body["result"] - 310 * body["rate"])).toBeLessThan(to === "JPY" ? 1 : 0.011);
    }
  });

  it("a synthesized rate table of its own base lists other currencies at the world's rates", async () => {
    for (const seed of [1, 2, 3]) {
      const body = await call("currency", "getHistoricalRates", { date: "2025-04-18" }, seed);
      const base = body["base"] as string;
      for (const [code, rate] of Object.entries(body["rates"] as Record<string, number>)) {
        expect(code).not.toBe(base);
        expect(Math.abs(rate / (exchangeRate(base, code) as number) - 1)).toBeLessThan(0.01);
      }
    }
  });

  it("a rate table has the symbols asked for, not its base, and a series the business days asked for", async () => {
    const latest = await call("currency", "getLatestRates", { base: "GBP", symbols: ["USD", "PLN"] });
    expect(Object.keys(latest["rates"]).sort()).toEqual(["PLN", "USD"]);
    const series = await call("currency", "getTimeSeries", { base: "GBP", symbols: ["USD"], startDate: "2025-01-02", endDate: "2025-01-07" });
    expect(Object.keys(series["rates"])).toEqual(["2025-01-02", "2025-01-03", "2025-01-06", "2025-01-07"]);
    for (const day of Object.values(series["rates"]) as Json[]) expect(Object.keys(day)).toEqual(["USD"]);
  });
});

describe("texts", () => {
  it("a detection names each text's own language", async () => {
    const body = await call("translation", "detectLanguage", { texts: ["Dov'è il museo?", "Ich hätte gern die Rechnung.", "¿Dónde está el baño?"] });
    expect(body["detections"].map((d: Json) => d.language)).toEqual(["it", "de", "es"]);
  });

  it("a translation of phrasebook sentences is the book's, one per text, with the characters sent billed", async () => {
    const texts = ["Where is the nearest pharmacy?", "Is breakfast included?"];
    const body = await call("translation", "translateText", { texts, target: "de" });
    expect(body["translations"].map((t: Json) => t.text)).toEqual(["Wo ist die nächste Apotheke?", "Ist das Frühstück inbegriffen?"]);
    expect(body["translations"].every((t: Json) => t.detectedSourceLanguage === null || t.detectedSourceLanguage === "en")).toBe(true);
    if (typeof body["charactersBilled"] === "number") expect(body["charactersBilled"]).toBe(texts.join("").length);
  });
});

describe("a city the call names is where it is, in the world table or not", () => {
  it.each([
    ["Austin", "US", 30.27, -97.74, "America/Chicago"],
    ["Ouagadougou", "BF", 12.37, -1.52, "Africa/Ouagadougou"],
    ["Madrid", "ES", 40.42, -3.7, "Europe/Madrid"],
  ])("getCurrentWeather(city=%s) is in %s, near its coordinates, on its clock", async (city, country, lat, lon, zone) => {
    for (const seed of [1, 2, 3]) {
      const body = await call("weather", "getCurrentWeather", { city }, seed);
      expect(body["location"]).toMatchObject({ name: city, country, timezone: zone });
      expect(Math.abs(body["location"].latitude - lat)).toBeLessThan(0.1);
      expect(Math.abs(body["location"].longitude - lon)).toBeLessThan(0.1);
    }
  });

  it("a country asked beside an ambiguous name picks that country's city (Córdoba, AR is not Córdoba, ES)", async () => {
    const body = await call("weather", "getCurrentWeather", { city: "Córdoba, AR" });
    expect(body["location"]).toMatchObject({ country: "AR", timezone: "America/Argentina/Cordoba" });
  });
});

describe("a recipe read for another number of servings", () => {
  it("holds its ingredients for that many: getRecipe(48213, servings=18) over a recipe for 4 has 4.5 times as much", async () => {
    const four = await call("recipes", "getRecipe", { recipeId: 48213 });
    const eighteen = await call("recipes", "getRecipe", { recipeId: 48213, servings: 18 });
    expect(four["servings"]).toBe(4);
    expect(eighteen["servings"]).toBe(18);
    const amounts = (b: Json) => b["ingredients"].map((i: Json) => i["amount"]);
    expect(amounts(eighteen)).toEqual(amounts(four).map((a: number) => Math.round(a * 4.5 * 100) / 100).map((a: number) => (Number.isInteger(a) || a >= 10 ? Math.round(a) : a)));
  });
});

describe("an article a search found", () => {
  it("is about the search: headline, summary and address, not the example's with the searched words in front", async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const body = await call("news", "searchArticles", { q: "heat wave AND Spain" }, seed);
      for (const a of body["articles"]) {
        expect(a["title"].toLowerCase()).toContain("heat wave spain");
        expect(a["title"]).not.toMatch(/chip/i);
        if (typeof a["description"] === "string") expect(a["description"]).not.toMatch(/manufacturers|factories/);
        expect(a["url"]).toMatch(/\/heat-wave-spain$/);
      }
    }
  });
});
