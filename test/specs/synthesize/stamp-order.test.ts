import { describe, expect, it } from "vitest";
import { cohereEntities } from "../../../specs/synthesize/world/coherent-entities.js";
import { stampStem, timelineOf } from "../../../specs/synthesize/world/stamp-order.js";

// A record's stamps tell one story (the simulated now is 2025-06-01T12:00:00Z): nothing is removed before it was
// listed or updated before it was made, a span does not end before it starts, days since a stamp count from it,
// and a live record has no removal stamp.

describe("the order of a record's stamps", () => {
  it("reads stamps by their stems and pairs a lifecycle's and a span's ends", () => {
    expect(["listedDate", "created_at", "date_removed", "lastSeenDate", "checkOutDate"].map(stampStem)).toEqual(["listed", "created", "removed", "last_seen", "check_out"]);
    const t = timelineOf(["id", "state", "status", "listedDate", "removedDate", "daysOnMarket", "startTime", "endTime", "title"]);
    expect(t).toEqual({ pairs: [["listedDate", "removedDate", true], ["startTime", "endTime", false]], days: [["daysOnMarket", "listedDate"]], gone: ["removedDate"], status: "status" });
    expect(timelineOf(["id", "name", "price"])).toBeUndefined();
  });

  it("a live listing listed yesterday has been on the market one day and is not removed; a closed one was removed after it was listed", () => {
    const live = { id: "l1", status: "Active", state: "TX", listedDate: "2025-05-31T13:51:08.657Z", removedDate: "2022-05-03", daysOnMarket: 45 };
    cohereEntities(live, { seed: 1 });
    expect(live).toEqual({ id: "l1", status: "Active", state: "TX", listedDate: "2025-05-31T13:51:08.657Z", daysOnMarket: 1 });
    const gone = { id: "l2", status: "Inactive", listedDate: "2025-03-01", removedDate: "2025-02-20", days_since_listed: 2 };
    cohereEntities(gone, { seed: 1 });
    expect(gone).toEqual({ id: "l2", status: "Inactive", listedDate: "2025-03-01", removedDate: "2025-03-10", days_since_listed: 92 });
  });

  it("updates come after the making (by now at the latest), a span's end after its start; pinned values stay", () => {
    const r = { id: 1, createdAt: "2025-05-30T10:00:00Z", updatedAt: "2025-05-20T10:00:00Z", start: "2025-07-01T09:00:00+02:00", end: "2025-07-01T08:00:00+02:00" };
    cohereEntities(r, { seed: 1 });
    expect(r).toEqual({ id: 1, createdAt: "2025-05-30T10:00:00Z", updatedAt: "2025-06-01T12:00:00Z", start: "2025-07-01T09:00:00+02:00", end: "2025-07-01T10:00:00+02:00" });
    const pinned = { id: 2, start: "2025-07-01T09:00:00Z", end: "2025-07-01T08:00:00Z" };
    cohereEntities(pinned, { seed: 1, pinned: new Set(["/end"]) });
    expect(pinned).toEqual({ id: 2, start: "2025-07-01T07:00:00Z", end: "2025-07-01T08:00:00Z" });
  });
});
