import { describe, expect, it } from "vitest";
import { cohereEntities } from "../../../specs/synthesize/world/coherent-entities.js";
import { citiesNamed, findPlace, namedCity } from "../../../specs/synthesize/world/gazetteer.js";

// A place is one city's: the one its city field names, in the world table or its gazetteer, with that city's
// coordinates, and the address it already had when only its coordinates were elsewhere.

describe("the gazetteer", () => {
  it("knows cities the table does not, most populous first, and a country given picks among namesakes", () => {
    expect(findPlace("Austin")).toMatchObject({ countryCode: "US", timeZone: "America/Chicago" });
    expect(findPlace("Madrid")).toMatchObject({ countryCode: "ES" });
    expect(citiesNamed("Springfield").length).toBeGreaterThan(2);
    expect(namedCity("Córdoba, Argentina")).toMatchObject({ countryCode: "AR" });
    expect(namedCity("Córdoba", "ES")).toMatchObject({ countryCode: "ES" });
    expect(findPlace("Smallville")).toBeUndefined();
    expect(findPlace("x".repeat(41))).toBeUndefined();
  });
});

describe("a place whose city field names a city", () => {
  it("is at that city's coordinates, keeping its own street, state and zip code", () => {
    for (const seed of [1, 2, 3, 4]) {
      const listing = { addressLine1: "1702 Cherry Orchard Dr", city: "Austin", state: "TX", zipCode: "78745", formattedAddress: "1702 Cherry Orchard Dr, Austin, TX 78745", latitude: 41.1484, longitude: -8.6196, price: 385000 };
      cohereEntities(listing, { seed });
      expect(listing).toMatchObject({ city: "Austin", state: "TX", zipCode: "78745", addressLine1: "1702 Cherry Orchard Dr" });
      expect(Math.abs(listing.latitude - 30.27)).toBeLessThan(0.1);
      expect(Math.abs(listing.longitude + 97.74)).toBeLessThan(0.1);
    }
  });

  it("moved there by a call, keeps no address part of where it was", () => {
    const place = { city: "Madrid", state: "Lisboa", postcode: "1100-148", latitude: 38.7167, longitude: -9.1333 };
    cohereEntities(place, { seed: 1, pinned: new Set(["/city"]) });
    expect(place).toMatchObject({ city: "Madrid", state: null, postcode: null });
    expect(Math.abs(place.latitude - 40.42)).toBeLessThan(0.1);
  });
});
