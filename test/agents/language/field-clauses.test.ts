import { describe, expect, it } from "vitest";
import { booleanClause } from "../../../agents/language/field-clauses.js";

/** A yes/no field said as words that fit it, whatever form its name has. */
describe("booleanClause", () => {
  it("says a state, a done thing, a feature and a setting as such", () => {
    const say = (name: string): [string, string] => [booleanClause([name], true), booleanClause([name], false)];
    expect(say("emailVerified")).toEqual(["the email is verified", "the email is not verified"]);
    expect(say("is_active")).toEqual(["it is active", "it is not active"]);
    expect(say("isHoliday")).toEqual(["it is a holiday", "it is not a holiday"]);
    expect(say("marketOpen")).toEqual(["the market is open", "the market is not open"]);
    // A done thing, not "it has a taken a ride".
    expect(say("has_taken_a_ride")).toEqual(["it has taken a ride", "it has not taken a ride"]);
    // A feature named by an adjective and a noun, not "the explicit is not content".
    expect(say("explicit_content")).toEqual(["it has explicit content", "it has no explicit content"]);
    expect(say("free_shipping")).toEqual(["it has free shipping", "it has no free shipping"]);
    expect(say("dark_mode")).toEqual(["it has dark mode", "it has no dark mode"]);
    // How much of something is no feature it has.
    expect(say("allDay")[1]).not.toMatch(/has no/);
  });
});
