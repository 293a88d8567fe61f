import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildCatalog, type Catalog } from "../../../specs/catalog/catalog.js";
import { loadCatalog } from "../../../specs/catalog/load-catalog.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { loadSpec } from "../../../specs/load/load-spec.js";
import { synthesize } from "../../../specs/synthesize/synthesize.js";
import { BudgetExceeded, WorkBudget } from "../../../specs/synthesize/work-budget.js";

const HOSTILE = fileURLToPath(new URL("../../fixtures/specs/hostile/hostile.yaml", import.meta.url));

let hostile: Catalog;
let shapes: Catalog;

/** Schemas for caps and recursion, each under components (addressed by `#/components/schemas/<name>`). */
const SHAPES = {
  openapi: "3.1.0",
  info: { title: "Shapes", version: "1" },
  paths: {},
  components: {
    schemas: {
      // Recursion that ends only through a union branch: every menu has three entries, menus or leaves.
      Menu: { type: "object", required: ["title", "entries"], properties: { title: { type: "string" }, entries: { type: "array", minItems: 3, items: { anyOf: [{ $ref: "#/components/schemas/Menu" }, { $ref: "#/components/schemas/Leaf" }] } } } },
      Leaf: { type: "object", required: ["label"], properties: { label: { type: "string" } } },
      // Recursion that ends through null.
      Chain: { type: "object", required: ["id", "next"], properties: { id: { type: "integer" }, next: { anyOf: [{ $ref: "#/components/schemas/Chain" }, { type: "null" }] } } },
      Wide: { type: "array", minItems: 1000, items: { type: "object", required: ["a", "b", "c"], properties: { a: { type: "string", minLength: 400 }, b: { type: "string", minLength: 400 }, c: { type: "string", minLength: 400 } } } },
      Deep: nested(60),
    },
  },
};

function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < levels; i++) schema = { type: "object", required: ["inner"], properties: { inner: schema } };
  return schema;
}

beforeAll(async () => {
  const loaded = await loadCatalog(HOSTILE);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  hostile = loaded.value;
  const spec = await loadSpec(SHAPES);
  if (!spec.ok) throw new Error(JSON.stringify(spec.errors));
  shapes = buildCatalog(spec.value);
});

/** The depth of nested `children` in a tree. */
function treeDepth(node: unknown): number {
  const children = (node as { children?: unknown[] }).children;
  return 1 + (Array.isArray(children) && children.length > 0 ? Math.max(...children.map(treeDepth)) : 0);
}

const RESPONSE = (path: string): string => `/paths/${path.replace(/\//g, "~1")}/get/responses/200/content/application~1json/schema`;

describe("recursive schemas", () => {
  it("end at the first level where their minimum is satisfiable (optional children: no grandchildren)", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const made = synthesize(hostile.registry, "response", RESPONSE("/tree"), { seed });
      expect(made.valid, `seed ${seed}`).toBe(true);
      expect(treeDepth(made.value)).toBeLessThanOrEqual(2);
      expect(made.warnings).toEqual([]);
    }
  });

  it("end through the union branch or null that ends soonest, and stay valid", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const menu = synthesize(shapes.registry, "response", "/components/schemas/Menu", { seed });
      expect(menu.valid).toBe(true);
      expect(JSON.stringify(menu.value).length).toBeLessThan(5000);
      const chain = synthesize(shapes.registry, "response", "/components/schemas/Chain", { seed });
      expect(chain.valid).toBe(true);
      expect(JSON.stringify(chain.value).length).toBeLessThan(2000);
    }
  });

  it("with no finite value at all: a small value cut where it recurses, and a warning that says so", () => {
    const made = synthesize(hostile.registry, "response", RESPONSE("/endless-tree"), { seed: 1 });
    expect(made.valid).toBe(false);
    expect(made.warnings).toEqual([expect.stringContaining("has no finite value")]);
    expect(JSON.stringify(made.value).length).toBeLessThan(1000);
    expect(made.value).toMatchObject({ children: [null, null, null] });
  });
});

describe("synthesis caps", () => {
  it("build no gigantic value for minItems: 1e6 and minLength: 1e8, and name the caps reached", () => {
    const made = synthesize(hostile.registry, "response", RESPONSE("/huge"), { seed: 1 });
    expect(made.valid).toBe(false);
    const body = made.value as { items: unknown[]; text: string };
    expect(body.items).toHaveLength(1000);
    expect(body.text).toHaveLength(10_000);
    expect(made.warnings).toEqual([
      expect.stringMatching(/^synthesis cap maxItems \(1000, --max-items\) reached: .*properties\/items asks for at least 1000000 items; 1000 generated$/),
      expect.stringMatching(/^synthesis cap maxStringLength \(10000, --max-string-length\) reached: .*properties\/text asks for at least 100000000 characters/),
    ]);
  });

  it("are configurable", () => {
    const budget = new WorkBudget({ limits: { maxItems: 5, maxStringLength: 20 } });
    const made = synthesize(hostile.registry, "response", RESPONSE("/huge"), { seed: 1, budget });
    const body = made.value as { items: unknown[]; text: string };
    expect(body.items).toHaveLength(5);
    expect(body.text).toHaveLength(20);
    expect(made.warnings[0]).toContain("maxItems (5, --max-items)");
    expect(budget.warnings).toEqual(made.warnings);
  });

  it("cut values deeper than maxDepth and larger than maxSize", () => {
    const deep = synthesize(shapes.registry, "response", "/components/schemas/Deep", { seed: 1, budget: new WorkBudget({ limits: { maxDepth: 10 } }) });
    expect(deep.valid).toBe(false);
    expect(deep.warnings.some((w) => w.startsWith("synthesis cap maxDepth (10, --max-depth) reached"))).toBe(true);
    expect(JSON.stringify(deep.value).split("inner").length - 1).toBeLessThanOrEqual(10);
    // By default the 60 levels are within the caps.
    expect(synthesize(shapes.registry, "response", "/components/schemas/Deep", { seed: 1 }).valid).toBe(true);

    const wide = synthesize(shapes.registry, "response", "/components/schemas/Wide", { seed: 1, budget: new WorkBudget({ limits: { maxSize: 100_000 } }) });
    expect(wide.valid).toBe(false);
    expect(wide.warnings.some((w) => w.startsWith("synthesis cap maxSize (100000, --max-size) reached"))).toBe(true);
    expect(JSON.stringify(wide.value).length).toBeLessThan(150_000);
    // 1.2 MB of JSON is beyond the default maxSize too.
    expect(synthesize(shapes.registry, "response", "/components/schemas/Wide", { seed: 1 }).warnings.some((w) => w.includes("maxSize"))).toBe(true);
  });

  it("change nothing for values within them: one seed, one value", () => {
    const a = synthesize(hostile.registry, "response", RESPONSE("/tree"), { seed: 9 });
    const b = synthesize(hostile.registry, "response", RESPONSE("/tree"), { seed: 9, budget: new WorkBudget({ budgetMs: 60_000 }) });
    expect(b.value).toEqual(a.value);
  });
});

describe("the time budget of a request", () => {
  /** A clock that moves 100 ms every time it is read: any work long enough to be checked uses up a 1 s budget. */
  const slowClock = (): (() => number) => {
    let t = 0;
    return () => (t += 100);
  };

  it("stops synthesis that runs past it with BudgetExceeded naming the budget", () => {
    const budget = new WorkBudget({ budgetMs: 1000, now: slowClock() });
    expect(() => synthesize(shapes.registry, "response", "/components/schemas/Wide", { seed: 1, budget })).toThrow(BudgetExceeded);
    try {
      synthesize(shapes.registry, "response", "/components/schemas/Wide", { seed: 1, budget: new WorkBudget({ budgetMs: 1000, now: slowClock() }) });
    } catch (err) {
      expect((err as Error).message).toMatch(/^the request used up its time budget of 1000 ms \(--request-budget-ms\) while synthesizing #\/components\/schemas\/Wide/);
    }
  });

  it("ends a simulated call in a 500 problem whose detail names the budget", async () => {
    const result = await simulateCall(hostile, { name: "getHuge", arguments: {} }, { budget: new WorkBudget({ budgetMs: 1000, now: slowClock() }) });
    expect(result.status).toBe(500);
    expect(result.source).toBe("budget");
    expect(result.contentType).toBe("application/problem+json");
    expect(result.body).toMatchObject({ type: "https://toolsim.dev/problems/budget-exceeded", title: "Request budget exceeded", status: 500, budgetMs: 1000 });
    expect((result.body as { detail: string }).detail).toContain("time budget of 1000 ms (--request-budget-ms)");
    // No time limit: the same call is answered (cut by the caps, and said so).
    const answered = await simulateCall(hostile, { name: "getHuge", arguments: {} }, { budget: new WorkBudget({ budgetMs: 0 }) });
    expect(answered.status).toBe(200);
    expect(answered.notes.some((n) => n.includes("--max-items"))).toBe(true);
  });
});
