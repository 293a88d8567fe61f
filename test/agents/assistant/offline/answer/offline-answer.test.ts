import { describe, expect, it } from "vitest";
import { composeAnswer, describeFailure, emptyResultAnswer } from "../../../../../agents/assistant/offline/answer/offline-answer.js";

/** The offline assistant's final answers: sentences from the observations, not dumps of fields. */

const books = {
  total: 3,
  items: [
    { id: "bk-1001", title: "The Lighthouse at Varden Point", author: "Maren Sollberg", price: 14.99 },
    { id: "bk-1002", title: "Orbit of Small Things", author: "Tobias Emenike", price: 18.5 },
    { id: "bk-1003", title: "Salt and Saffron", author: "Leila Haddad", price: 24 },
  ],
};

describe("composeAnswer", () => {
  it("summarizes a list: how many, and the first names with their ids", () => {
    const text = composeAnswer("Find books about the sea.", [{ name: "listBooks", args: { q: "sea" }, status: 200, body: books }]);
    expect(text).toBe('I found 3 books: "The Lighthouse at Varden Point" (bk-1001), "Orbit of Small Things" (bk-1002) and "Salt and Saffron" (bk-1003).');
  });

  it("reads a name whose resource comes first and verb last ('patients_delete', 'offices_list') by its verb", () => {
    expect(composeAnswer("Remove the patient 36673.", [{ name: "patients_delete", args: { id: "36673" }, status: 204, body: null }])).toMatch(/^I deleted the patient\b/);
    expect(composeAnswer("Update the patient's note.", [{ name: "patients_partial_update", args: { id: "7", note: "x" }, status: 200, body: { id: 7, note: "x" } }])).toMatch(/^I updated the patient\b/);
    expect(composeAnswer("Fetch the offices.", [{ name: "offices_list", args: {}, status: 200, body: { data: [{ id: 36673, name: "Unique Developing" }] } }])).toMatch(/^I found 1 office\b/);
  });

  it("says when a search found nothing", () => {
    expect(composeAnswer("Find books about dragons.", [{ name: "listBooks", args: { q: "dragons" }, status: 200, body: { total: 0, items: [] } }])).toBe("I found no books.");
    expect(emptyResultAnswer({ name: "listBooks", args: {}, status: 200, body: { items: [] } })).toBe("I found no books, so there is nothing to show in more detail.");
  });

  it("confirms a creation with what was created and its id, and skips nulls", () => {
    const body = { id: "rem-2004", text: "Call the plumber", dueAt: "2025-06-17T09:00:00+02:00", done: false, eventId: null, priority: null };
    const text = composeAnswer("Remind me to call the plumber on June 17 at 9.", [{ name: "createReminder", args: { text: "Call the plumber", dueAt: "2025-06-17T09:00:00+02:00" }, status: 201, body }]);
    expect(text).toMatch(/^I created the reminder "Call the plumber" \(rem-2004\)/);
    expect(text).not.toMatch(/null|none|event id|createReminder/);
  });

  it("says what an update changed, with the new values from the result", () => {
    const body = { id: "u-1", displayName: "Sam Okonkwo", timezone: "Europe/Berlin", locale: "en-GB", avatarUrl: null };
    const text = composeAnswer("Set my timezone to Europe/Berlin.", [{ name: "updateProfile", args: { timezone: "Europe/Berlin" }, status: 200, body }]);
    expect(text).toBe("I updated the profile Sam Okonkwo (u-1): the timezone is now Europe/Berlin.");
  });

  it("picks the facts the request asks about, and names a read's place", () => {
    const body = { location: { name: "Lisbon", country: "PT", latitude: 38.72 }, observedAt: "2025-06-14T13:20:00Z", temperature: 24.3, humidity: 52, windSpeed: 11, condition: "sunny", uvIndex: 7 };
    const text = composeAnswer("How humid is it in Lisbon right now?", [{ name: "getCurrentWeather", args: { city: "Lisbon" }, status: 200, body }]);
    expect(text).toMatch(/^Here is the current weather for Lisbon: /);
    expect(text).toContain("the humidity is 52");
    expect(text).not.toMatch(/latitude|country|observed/);
  });

  it("says a create and the read that checks it once, and a list before the item it opens", () => {
    const event = { id: "evt-1004", title: "Team lunch", start: "2025-07-10T12:00:00Z", end: "2025-07-10T13:00:00Z", location: null };
    const text = composeAnswer("Create an event called Team lunch, then show it.", [
      { name: "createEvent", args: { title: "Team lunch", start: "2025-07-10T12:00:00Z" }, status: 201, body: event },
      { name: "getEvent", args: { eventId: "evt-1004" }, status: 200, body: event },
    ]);
    expect(text.match(/Team lunch/g)).toHaveLength(1);
    expect(text).toMatch(/^I created the event "Team lunch" \(evt-1004\)/);
    expect(text).toMatch(/I checked (it again|that it is saved)/);
    const both = composeAnswer("Search books and show me the first one.", [
      { name: "listBooks", args: {}, status: 200, body: books },
      { name: "getBook", args: { bookId: "bk-1001" }, status: 200, body: books.items[0] },
    ]);
    expect(both).toMatch(/^I found 3 books: .*\. Here is the book "The Lighthouse at Varden Point" \(bk-1001\): the /);
  });

  it("confirms a deletion with the id it was given", () => {
    expect(composeAnswer("Delete the scene scn-movie-night.", [{ name: "deleteScene", args: { sceneId: "scn-movie-night" }, status: 204, body: null }])).toBe("I deleted the scene scn-movie-night.");
  });

  it("explains a failure without the operation's name", () => {
    const text = describeFailure({ name: "getPlaylist", status: 404, body: { error: { status: 404, message: "Playlist pls-9999 not found" } } });
    expect(text).toBe("I could not get the playlist: the service answered with status 404 (Playlist pls-9999 not found).");
  });
});

describe("what a list is called", () => {
  it("says results for a qualifier path, drops version segments, and names a list field by what it holds", () => {
    expect(composeAnswer("Search.", [{ name: "get_search_v1_organic", args: {}, status: 200, body: { count: 89, items: [{}, {}] } }])).toBe("I found 89 results.");
    expect(composeAnswer("Nearest airports.", [{ name: "nearestAirports", args: {}, status: 200, body: { airport_list: [{ airport_name: "Porto Airport" }] } }])).toBe("I found 1 airport: Porto Airport.");
    // The noun before a trailing qualifier is the head (`property-records-random`).
    expect(composeAnswer("A random property.", [{ name: "property-records-random", args: {}, status: 200, body: [{ id: "p1", city: "Austin" }] }])).toBe("I found 1 record: Austin (p1).");
  });

  it("lists the features of a wrapped GeoJSON answer by their properties' names", () => {
    const feature = (name: string, lon: number) => ({ type: "Feature", geometry: { type: "Point", coordinates: [lon, 45.76] }, properties: { ident: "5OH8", name } });
    const body = { found: { type: "FeatureCollection", features: [feature("Lyon Heliport", 4.83), feature("Bron Airfield", 4.94)] } };
    expect(composeAnswer("Aerodromes near Lyon.", [{ name: "aerodromes_by_distance_query", args: { latitude: 45.76, longitude: 4.83 }, status: 200, body }])).toBe("I found 2 features: Lyon Heliport and Bron Airfield.");
  });

  it("reads a name that starts with a describing word as a noun, and drops segments that are the call's arguments", () => {
    const listings = [{ id: "l1", city: "Austin" }];
    expect(composeAnswer("Rental listings.", [{ name: "rental-listings-long-term", args: {}, status: 200, body: listings }])).toBe("I found 1 listing: Austin (l1).");
    expect(describeFailure({ name: "rental-listings-long-term", status: 500, body: null })).toBe("I could not get the rental listings: the service answered with status 500.");
    const place = { address: "Damrak 1", city: "Amsterdam" };
    expect(composeAnswer("Geocode.", [{ name: "get_search_versionNumber_structuredGeocode_ext", args: { versionNumber: 2, ext: "json" }, status: 200, body: place }])).toMatch(/^Here is the search structured geocode: /);
    // One record read by its id is one; trailing words that name nothing are not the head ("more like this").
    const record = { id: 17, title: "Election night", category: ["Audio"] };
    expect(composeAnswer("Record 17.", [{ name: "get_records_record_id_format", args: { record_id: 17, format: "json" }, status: 200, body: record }])).toBe('Here is the record "Election night" (17): the category is Audio.');
    const similar = { records: [{ id: 18, title: "Election day" }] };
    expect(composeAnswer("Like 17.", [{ name: "get_records_record_id_more_like_this_format", args: { record_id: 17, format: "json" }, status: 200, body: similar }])).toBe('I found 1 record: "Election day" (18).');
  });

  it("counts a list the tool message showed in part by its whole length", () => {
    const hours = Array.from({ length: 20 }, (_, i) => ({ time: `2025-06-01T${String(i).padStart(2, "0")}:00:00Z`, temperature: 20 }));
    const text = composeAnswer("Hourly forecast for Oslo.", [{ name: "getHourlyForecast", args: { city: "Oslo" }, status: 200, body: { units: "metric", hours }, lengths: { hours: 24 } }]);
    expect(text).toMatch(/^I found 24 hours: /);
  });

  it("calls the caller's record a profile", () => {
    expect(composeAnswer("Show me.", [{ name: "get_me", args: {}, status: 200, body: { id: "u1", name: "Murray Rau", email: "murray.rau@example.com" } }])).toMatch(/^Here is the profile Murray Rau/);
  });
});
