import { describe, expect, it } from "vitest";
import { cohereEntities } from "../../../specs/synthesize/world/coherent-entities.js";
import { classBounds, countClassPairs } from "../../../specs/synthesize/world/count-intervals.js";

// A count beside the class it falls in agrees with it (a company of 3,759 people is not in "5-9").

describe("a count and its class", () => {
  it("reads classes as APIs write them", () => {
    expect(["5-9", "1M-10M", "10 000 - 49 999", "10000+", "2k to 5k", "small", "9-5"].map(classBounds)).toEqual([
      { low: 5, high: 9 },
      { low: 1e6, high: 1e7 },
      undefined,
      { low: 10000, high: Infinity },
      { low: 2000, high: 5000 },
      undefined,
      undefined,
    ]);
    expect(countClassPairs(["nbrOfEmployees", "nbrOfEmployeesInterval", "netTurnover", "turnoverInterval", "priceRange", "grossTurnover"])).toEqual([["nbrOfEmployees", "nbrOfEmployeesInterval"]]);
    expect(countClassPairs(["employees", "employee_range", "revenue", "revenueBand"])).toEqual([["employees", "employee_range"], ["revenue", "revenueBand"]]);
  });

  it("puts the count in its class, as a number or a numeric text; a pinned count and a count in its class stay", () => {
    const company = { nbrOfEmployees: "3759", nbrOfEmployeesInterval: "5-9", netTurnover: "348168", turnoverInterval: "1M-10M", staff: 12, staffBand: "10-19" };
    cohereEntities(company, { seed: 1 });
    expect(Number(company.nbrOfEmployees)).toBeGreaterThanOrEqual(5);
    expect(Number(company.nbrOfEmployees)).toBeLessThanOrEqual(9);
    expect(typeof company.nbrOfEmployees).toBe("string");
    expect(Number(company.netTurnover)).toBeGreaterThanOrEqual(1e6);
    expect(Number(company.netTurnover)).toBeLessThanOrEqual(1e7);
    expect(company.staff).toBe(12);
    const pinned = { employees: 3759, employeesInterval: "5-9" };
    cohereEntities(pinned, { seed: 1, pinned: new Set(["/employees"]) });
    expect(pinned.employees).toBe(3759);
  });
});
