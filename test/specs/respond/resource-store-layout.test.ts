import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// A session's stored items stay compact in V8 (`serve.sessions` keeps 100k of them): whatever an item went through
// before it was stored (fields deleted from an answer body, fields added after), the store keeps it with fast
// properties and one hidden class per collection, not a hash table or a class of its own (about 1 KB more each).

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const SCRIPT = `
import { ResourceStore } from "./specs/respond/resource-store.ts";
const store = new ResourceStore();
for (let i = 0; i < 3; i++) {
  const body = { id: "bk-" + i, isbn: "978000000000" + i, title: "T" + i, subtitle: "", price: 10.5 + i, rating: 4.4 };
  delete body.subtitle; // as an omitted optional field is left out of an answer
  body.currency = "USD";
  store.put("/books", "bk-" + i, body, "id");
}
store.putSingleton("/profile", (() => { const p = { name: "A", nick: "", tz: "UTC" }; delete p.nick; return p; })());
const [a, b, c] = ["bk-0", "bk-1", "bk-2"].map((id) => store.get("/books", id));
console.log(JSON.stringify({ fast: [a, b, c, store.singleton("/profile")].every((o) => %HasFastProperties(o)), shared: %HaveSameMap(a, b) && %HaveSameMap(b, c), kept: c }));
`;

describe("ResourceStore items in memory", () => {
  it("are stored with fast properties and one hidden class per collection, after deletions", () => {
    const result = spawnSync(process.execPath, ["--allow-natives-syntax", "--import", "tsx", "--input-type=module", "-e", SCRIPT], { cwd: ROOT, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout.trim()) as { fast: boolean; shared: boolean; kept: unknown };
    expect(out.kept).toEqual({ id: "bk-2", isbn: "9780000000002", title: "T2", price: 12.5, rating: 4.4, currency: "USD" });
    expect(out.fast).toBe(true);
    expect(out.shared).toBe(true);
  });
});
