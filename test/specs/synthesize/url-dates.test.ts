import { describe, expect, it } from "vitest";
import { cohereEntities } from "../../../specs/synthesize/world/coherent-entities.js";
import { dayInUrl } from "../../../specs/synthesize/world/url-dates.js";
import { keepStampsPast } from "../../../specs/synthesize/world/dated-examples.js";

// A record's own address names its own day, written as the address writes days.

describe("a record's address and its day", () => {
  it("reads the day an address names, in numbers or month names", () => {
    expect(dayInUrl("https://techpulse.example.com/2025/06/14/chip-plants")).toBe("2025-06-14");
    expect(dayInUrl("https://www.theguardian.com/world/2024/jun/4/x")).toBe("2024-06-04");
    expect(dayInUrl("https://example.com/2024/13/40/x")).toBeUndefined();
    expect(dayInUrl("https://example.com/posts/chip-plants")).toBeUndefined();
  });

  it("writes the record's day into its address, as the address writes it, and leaves other addresses alone", () => {
    const a = { title: "Chip plants", url: "https://techpulse.example.com/2025/06/14/chip-plants?ref=rss", publishedAt: "2025-03-02T07:45:00Z", imageUrl: "https://techpulse.example.com/2025/06/14/a.jpg" };
    cohereEntities(a, { seed: 1 });
    expect(a.url).toBe("https://techpulse.example.com/2025/03/02/chip-plants?ref=rss");
    expect(a.imageUrl).toBe("https://techpulse.example.com/2025/06/14/a.jpg");
    const g = { webTitle: "Chip plants", webUrl: "https://www.theguardian.com/world/2024/Jun/4/chip-plants", webPublicationDate: "2024-11-23T10:00:00Z" };
    cohereEntities(g, { seed: 1 });
    expect(g.webUrl).toBe("https://www.theguardian.com/world/2024/Nov/23/chip-plants");
  });

  it("takes the day of an address a call asked for, keeping the time of day", () => {
    const a = { url: "https://techpulse.example.com/2025/06/14/chip-plants", publishedAt: "2025-03-02T07:45:00Z" };
    cohereEntities(a, { seed: 1, pinned: new Set(["/url"]) });
    expect(a).toEqual({ url: "https://techpulse.example.com/2025/06/14/chip-plants", publishedAt: "2025-06-14T07:45:00Z" });
  });

  it("moves with its record when an example's days move back to today", () => {
    const example = { articles: [{ url: "https://techpulse.example.com/2025/06/14/chip-plants", publishedAt: "2025-06-14T07:45:00Z", imageUrl: "https://techpulse.example.com/2025/06/14/a.jpg" }] };
    keepStampsPast(example, "2025-06-01");
    expect(example.articles[0]).toEqual({ url: "https://techpulse.example.com/2025/06/01/chip-plants", publishedAt: "2025-06-01T07:45:00Z", imageUrl: "https://techpulse.example.com/2025/06/14/a.jpg" });
  });
});
