import { describe, expect, it } from "vitest";
import { findExchange, sessionAt } from "../../../specs/synthesize/world/world-exchanges.js";

// An exchange's session as seen at a moment: open on a weekday between its hours, and its next open and close on
// its own clock (the simulated today, 2025-06-01, is a Sunday: every market is closed and opens on Monday).

const at = (iso: string): number => Date.parse(iso);

describe("sessionAt", () => {
  const nasdaq = findExchange("NASDAQ")!;
  it("is closed on a Sunday and opens on Monday, on New York's clock", () => {
    expect(sessionAt(nasdaq, at("2025-06-01T12:00:00Z"))).toEqual({ isOpen: false, nextOpen: "2025-06-02T09:30:00-04:00", nextClose: "2025-06-02T16:00:00-04:00" });
  });
  it("is open during a weekday's session, closing that day and opening the next weekday", () => {
    expect(sessionAt(nasdaq, at("2025-06-02T15:00:00Z"))).toEqual({ isOpen: true, nextOpen: "2025-06-03T09:30:00-04:00", nextClose: "2025-06-02T16:00:00-04:00" });
  });
  it("opens later the same day before its session, and on Monday after Friday's close", () => {
    expect(sessionAt(nasdaq, at("2025-06-03T12:00:00Z"))?.nextOpen).toBe("2025-06-03T09:30:00-04:00");
    expect(sessionAt(nasdaq, at("2025-06-06T21:00:00Z"))).toEqual({ isOpen: false, nextOpen: "2025-06-09T09:30:00-04:00", nextClose: "2025-06-09T16:00:00-04:00" });
  });
  it("keeps each exchange's own day and offset (Tokyo is already on Monday morning)", () => {
    expect(sessionAt(findExchange("TSE")!, at("2025-06-02T01:00:00Z"))).toEqual({ isOpen: true, nextOpen: "2025-06-03T09:00:00+09:00", nextClose: "2025-06-02T15:00:00+09:00" });
  });
});
