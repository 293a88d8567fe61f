import { describe, expect, it } from "vitest";
import { cohereEntities } from "../../../specs/synthesize/world/coherent-entities.js";

// A DNS record's value is what its type holds, and its name is a label of its zone.

describe("a DNS record", () => {
  it("holds a value of its type and a name that is a label; one that already fits stays", () => {
    const kinds: Record<string, RegExp> = {
      A: /^192\.0\.2\.\d{1,3}$/,
      AAAA: /^2001:db8::[0-9a-f]+$/,
      CNAME: /^edge\.shop\.example$/,
      MX: /^mail\.shop\.example$/,
      TXT: /^v=spf1 include:_spf\.shop\.example ~all$/,
      NS: /^ns[1-4]\.shop\.example$/,
    };
    for (const [type, shape] of Object.entries(kinds)) {
      for (let seed = 1; seed <= 5; seed++) {
        const record = { id: "rec_1", name: "Cornell Muller", recordType: type, value: "chairperson", domain: "shop.example", ttl: 60 };
        cohereEntities(record, { seed });
        expect(record.value).toMatch(shape);
        expect(record.name).toMatch(/^(www|api|app|mail|blog|docs|shop|status|@)$/);
      }
    }
    const fine = { name: "api", type: "A", content: "203.0.113.7", zone_name: "shop.example", proxied: true };
    cohereEntities(fine, { seed: 1 });
    expect(fine).toEqual({ name: "api", type: "A", content: "203.0.113.7", zone_name: "shop.example", proxied: true });
  });

  it("is told by a key only DNS records have: a grade's type and value are left alone", () => {
    const grade = { type: "A", value: "excellent", name: "Maths" };
    cohereEntities(grade, { seed: 1 });
    expect(grade).toEqual({ type: "A", value: "excellent", name: "Maths" });
  });
});
