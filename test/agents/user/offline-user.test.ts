import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import type { AgentContext } from "../../../agents/roles/agent-context.js";
import { EpisodeState } from "../../../agents/roles/episode-state.js";
import { INSTRUCTION_TEMPLATES } from "../../../agents/user/instruction-templates.js";
import { OfflineUser } from "../../../agents/user/offline-user.js";
import { fixtureIds } from "../../../agents/user/plan-values.js";
import { renderInstruction } from "../../../agents/user/render-instruction.js";
import { operationGoal } from "../../../agents/user/operation-goal.js";
import type { Tool } from "../../../specs/catalog/tool.js";
import type { Plan, PlanRequest } from "../../../agents/roles/plan.js";
import { toolArguments } from "../../../agents/assistant/tool-arguments.js";
import { Toolbox, type EpisodeToolset } from "../../../agents/roles/toolbox.js";
import { valuePhrase, valueText } from "../../../agents/language/value-phrase.js";
import { humanize } from "../../../agents/language/words.js";
import { createRng, deriveSeed } from "../../../specs/seed.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { bundledToolsets, toolsetFromSpec } from "../../support/spec-toolsets.js";
import { countryCode, findCity } from "../../../specs/synthesize/world/world-data.js";
import { validateCall } from "../../../specs/call/validate-call.js";

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(here, "..", "..", "fixtures", "agents");

function contextFor(toolbox: Toolbox, runSeed: number, index: number): AgentContext {
  const seed = deriveSeed(runSeed, index);
  return { runId: "test", episodeId: `ep-${index}`, index, seed, rng: createRng(deriveSeed(seed, "user")), level: "call", toolbox };
}

interface Episode {
  toolbox: Toolbox;
  ctx: AgentContext;
  plan: Plan;
  texts: string[];
}

const user = new OfflineUser();

async function runEpisode(toolbox: Toolbox, runSeed: number, index: number): Promise<Episode> {
  const ctx = contextFor(toolbox, runSeed, index);
  const plan = await user.plan(ctx);
  const texts: string[] = [];
  for (let r = 0; r < plan.requests.length; r++) texts.push(await user.instruct({ plan, request: r, dialogue: [] }, ctx));
  return { toolbox, ctx, plan, texts };
}

function withheldValues(request: PlanRequest): unknown[] {
  return request.withheld.map((key) => {
    const [step, arg] = key.split(":") as [string, string];
    return request.steps[Number(step)]?.args[arg];
  });
}

function valueAt(body: unknown, path: string): unknown {
  let node = body;
  for (const seg of path.split(".")) {
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (typeof node === "object" && node !== null) node = (node as Record<string, unknown>)[seg];
    else return undefined;
  }
  return node;
}

let library: EpisodeToolset;
let forecast: EpisodeToolset;
let libraryBox: Toolbox;
let forecastBox: Toolbox;
/** Every toolbox the statistics run over: the fixtures and each bundled toolset that loads. */
let boxes: Toolbox[];
/** 500 episodes over all toolboxes (seed 2024). */
let episodes: Episode[];

beforeAll(async () => {
  library = await toolsetFromSpec("library", parseYaml(readFileSync(join(FIXTURES, "library.openapi.yaml"), "utf8")) as object, {
    fixtures: { "/books": [{ id: "bk-0001", title: "Dune", author: "Frank Herbert", year: 1965 }, { id: "bk-0002", title: "Emma", author: "Jane Austen", year: 1815 }] },
  });
  forecast = await toolsetFromSpec("forecast", parseYaml(readFileSync(join(FIXTURES, "forecast.openapi.yaml"), "utf8")) as object);
  libraryBox = new Toolbox([library]);
  forecastBox = new Toolbox([forecast]);
  boxes = [libraryBox, forecastBox, new Toolbox([library, forecast]), ...(await bundledToolsets()).map((ts) => new Toolbox([ts]))];
  episodes = [];
  for (let i = 0; i < 500; i++) episodes.push(await runEpisode(boxes[i % boxes.length] as Toolbox, 2024, i));
});

describe("OfflineUser.plan", () => {
  it("pairs glossary terms of the two languages it asks for, whatever languages it picks", async () => {
    const translation = boxes.find((b) => b.entries.some((e) => e.name === "createGlossary"));
    expect(translation).toBeDefined();
    // Words only one language has (French also says "ticket", Italian "password"), to tell a term's language.
    const LANGS: Record<string, string[]> = {
      de: ["Vorgang", "Rechnung", "Rückerstattung", "Lieferung", "Passwort", "Bestellung", "Garantie"],
      en: ["invoice", "refund", "account", "delivery", "order", "warranty"],
    };
    let glossaries = 0;
    for (let i = 0; i < 200; i++) {
      const { plan } = await runEpisode(translation as Toolbox, 7, i);
      for (const step of plan.requests.flatMap((r) => r.steps).filter((st) => st.tool === "createGlossary")) {
        const { source, target, entries } = step.args as { source: string; target: string; entries: Array<{ source: string; target: string }> };
        glossaries++;
        for (const [lang, words] of Object.entries(LANGS)) {
          for (const e of entries) {
            if (words.includes(e.source)) expect(source.slice(0, 2), JSON.stringify(step.args)).toBe(lang);
            if (words.includes(e.target)) expect(target.slice(0, 2), JSON.stringify(step.args)).toBe(lang);
          }
        }
      }
    }
    expect(glossaries).toBeGreaterThan(10);
  });

  it("gives the same plan, instructions and replies for the same seed", async () => {
    for (const box of boxes) {
      for (let i = 0; i < 15; i++) {
        const a = await runEpisode(box, 99, i);
        const b = await runEpisode(box, 99, i);
        expect(b.plan).toEqual(a.plan);
        expect(b.texts).toEqual(a.texts);
        const turn = { plan: a.plan, request: 0, dialogue: [] };
        expect(await user.reply("Which one do you mean?", turn, b.ctx)).toBe(await user.reply("Which one do you mean?", turn, a.ctx));
      }
    }
  });

  it("varies with the seed", async () => {
    const plans = new Set<string>();
    for (let i = 0; i < 30; i++) plans.add(JSON.stringify((await runEpisode(libraryBox, 5, i)).plan));
    expect(plans.size).toBeGreaterThan(20);
  });

  it("makes mostly one request, about one dialogue in five with two, never more than three; 1-3 steps each", () => {
    const counts = [0, 0, 0, 0];
    for (const e of episodes) counts[e.plan.requests.length] = (counts[e.plan.requests.length] ?? 0) + 1;
    expect(counts[0]).toBe(0);
    expect((counts[1] ?? 0) / episodes.length).toBeGreaterThan(0.65);
    expect((counts[2] ?? 0) / episodes.length).toBeGreaterThan(0.1);
    expect((counts[2] ?? 0) / episodes.length).toBeLessThan(0.3);
    for (const e of episodes) {
      expect(e.plan.requests.length).toBeLessThanOrEqual(3);
      for (const r of e.plan.requests) {
        expect(r.steps.length).toBeGreaterThanOrEqual(1);
        expect(r.steps.length).toBeLessThanOrEqual(3);
        for (const s of r.steps) expect(e.toolbox.get(s.tool)?.toolset.name).toBe(s.toolset);
      }
    }
  });

  it("plans chains: search then get by id, create then read, and coordinates from a search", async () => {
    const found = { search: false, create: false, borrow: false, coordinates: false };
    for (let i = 0; i < 300; i++) {
      for (const box of [libraryBox, forecastBox]) {
        const { plan } = await runEpisode(box, 7, i);
        for (const r of plan.requests) {
          const names = r.steps.map((s) => s.tool);
          const [first, second] = r.steps;
          if (!first || !second || second.links.length === 0) continue;
          if (names[0] === "searchBooks" && names[1] === "getBook") {
            expect(second.links).toEqual([{ arg: "bookId", fromStep: 0, field: "items.0.id" }]);
            expect(second.args).not.toHaveProperty("bookId");
            found.search = true;
          }
          if (names[0] === "addBook" && names[1] === "getBook") {
            expect(second.links).toEqual([{ arg: "bookId", fromStep: 0, field: "id" }]);
            found.create = true;
          }
          if (names[0] === "searchBooks" && names[1] === "borrowBook") {
            expect(second.links).toEqual([{ arg: "bookId", fromStep: 0, field: "items.0.id" }]);
            expect(second.args["memberEmail"]).toBeDefined();
            found.borrow = true;
          }
          if (names[0] === "findPlaces" && names[1] === "getAirQuality") {
            expect(second.links).toEqual([
              { arg: "lat", fromStep: 0, field: "0.latitude" },
              { arg: "lon", fromStep: 0, field: "0.longitude" },
            ]);
            found.coordinates = true;
          }
        }
      }
    }
    expect(found).toEqual({ search: true, create: true, borrow: true, coordinates: true });
  });

  it("links fields that the earlier call's simulated result really has, and that make the later call valid", async () => {
    let checked = 0;
    let missing = 0;
    const misses: string[] = [];
    for (const e of episodes) {
      const state = new EpisodeState([...new Set(e.toolbox.entries.map((x) => x.toolset))]);
      const ours = e.toolbox.entries.every((x) => x.toolset === library || x.toolset === forecast);
      for (const r of e.plan.requests) {
        const results: unknown[] = [];
        for (const [i, step] of r.steps.entries()) {
          const entry = e.toolbox.get(step.tool);
          if (!entry) throw new Error(step.tool);
          const args: Record<string, unknown> = { ...step.args };
          let resolved = true;
          for (const link of step.links) {
            expect(link.fromStep).toBeLessThan(i);
            const value = valueAt(results[link.fromStep], link.field);
            // The fixtures' chains always resolve; a bundled toolset's list may come back empty now and then.
            if (ours) expect(value, `${step.tool}.${link.arg} <- steps[${link.fromStep}].${link.field}`).toBeDefined();
            if (value === undefined) {
              resolved = false;
              missing++;
              misses.push(`${r.steps[link.fromStep]?.tool}(${JSON.stringify(r.steps[link.fromStep]?.args)}).${link.field} -> ${step.tool}.${link.arg}`);
            }
            args[link.arg] = value;
            checked++;
          }
          const result = await simulateCall(entry.toolset.catalog, { name: entry.tool.name, arguments: args }, { seed: 1, state: state.store(entry.toolset.name) });
          if (step.links.length > 0 && resolved) expect(result.errors, `${step.tool} ${JSON.stringify(args)}`).toEqual([]);
          results.push(result.body);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(missing / checked, misses.join("\n")).toBeLessThan(0.05);
  });

  it("plans arguments that validate against the spec (linked ones come later)", () => {
    let steps = 0;
    for (const e of episodes) {
      for (const r of e.plan.requests) {
        for (const s of r.steps) {
          const entry = e.toolbox.get(s.tool);
          if (!entry) throw new Error(s.tool);
          const checked = validateCall(entry.toolset.catalog, entry.tool.name, s.args);
          const linked = new Set(s.links.map((l) => l.arg));
          const errors = checked.ok ? [] : checked.errors.filter((x) => !(x.location[1] !== undefined && linked.has(x.location[1])));
          expect(errors, `${s.tool} ${JSON.stringify(s.args)}`).toEqual([]);
          // Required arguments are all planned (or linked); optional ones are few and not paging.
          for (const req of entry.tool.required) expect(req in s.args || linked.has(req), `${s.tool}.${req}`).toBe(true);
          expect(Object.keys(s.args)).not.toContain("limit");
          expect(Object.keys(s.args)).not.toContain("offset");
          steps++;
        }
      }
    }
    expect(steps).toBeGreaterThan(500);
  });

  it("varies argument values: free values are seldom the same (not the spec's example every time)", () => {
    // Uses of each argument with a free value: no enum, not a boolean, not an id of the initial state, not linked.
    const uses = new Map<string, Map<string, number>>();
    for (const e of episodes.slice(0, 300)) {
      for (const r of e.plan.requests) {
        for (const s of r.steps) {
          const entry = e.toolbox.get(s.tool);
          if (!entry) throw new Error(s.tool);
          const infos = toolArguments(entry.toolset.catalog, entry.tool);
          for (const [arg, value] of Object.entries(s.args)) {
            const info = infos.find((a) => a.name === arg);
            if (!info || info.enum !== undefined || typeof value === "boolean" || s.links.some((l) => l.arg === arg)) continue;
            if (fixtureIds(entry, info).length > 0) continue;
            const key = `${entry.toolset.name}.${s.tool}.${arg}`;
            const counts = uses.get(key) ?? new Map<string, number>();
            uses.set(key, counts);
            const v = JSON.stringify(value);
            counts.set(v, (counts.get(v) ?? 0) + 1);
          }
        }
      }
    }
    let total = 0;
    let top = 0;
    const frequent: Array<{ key: string; n: number; share: number; distinct: number }> = [];
    for (const [key, counts] of uses) {
      const n = [...counts.values()].reduce((a, b) => a + b, 0);
      const most = Math.max(...counts.values());
      total += n;
      top += most;
      if (n >= 5) frequent.push({ key, n, share: most / n, distinct: counts.size });
    }
    expect(total).toBeGreaterThan(300);
    expect(frequent.length).toBeGreaterThan(15);
    // Across all uses, the argument's most frequent value is used less than 40% of the time (it was 76%).
    expect(top / total).toBeLessThan(0.4);
    // Hardly any frequent argument keeps one value, and most frequent ones stay under a 50% share.
    const single = frequent.filter((f) => f.distinct === 1).map((f) => f.key);
    expect(single.length, single.join(", ")).toBeLessThanOrEqual(Math.ceil(frequent.length * 0.05));
    const dominated = frequent.filter((f) => f.share >= 0.5);
    expect(dominated.length / frequent.length, dominated.map((f) => `${f.key} ${f.share.toFixed(2)}`).join(", ")).toBeLessThan(0.25);
  });

  it("draws realistic, coherent values: one person per episode, dates near the reference date, places with their own coordinates", () => {
    let people = 0;
    let dates = 0;
    let coordinates = 0;
    let places = 0;
    for (const e of episodes) {
      const emails = new Set<string>();
      for (const r of e.plan.requests) {
        for (const s of r.steps) {
          const a = s.args;
          // A display name and an e-mail of one step belong to the same person.
          if (typeof a["displayName"] === "string" && typeof a["email"] === "string") {
            const last = (a["displayName"].split(" ").pop() ?? "").toLowerCase().normalize("NFD").replace(/[^a-z]/g, "");
            expect(a["email"].toLowerCase(), JSON.stringify(a)).toContain(last);
            people++;
          }
          if (s.tool === "registerUser" || s.tool === "login") emails.add(String(a["email"]));
          for (const v of Object.values(a)) {
            if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}(T|$)/.test(v)) continue;
            const year = Number(v.slice(0, 4));
            expect(year, v).toBeGreaterThanOrEqual(1950);
            expect(year, v).toBeLessThanOrEqual(2027);
            dates++;
          }
          // A city and a country of one step: the city's own country (London goes with GB, not ES).
          const cityKey = ["city", "q", "location"].find((k) => typeof a[k] === "string" && findCity(a[k] as string) !== undefined);
          const countryKey = ["country", "countryCode"].find((k) => typeof a[k] === "string");
          if (cityKey !== undefined && countryKey !== undefined) {
            expect(countryCode(a[countryKey] as string), JSON.stringify(a)).toBe(findCity(a[cityKey] as string)?.countryCode);
            places++;
          }
          // Coordinates of one place: latitude and longitude of the same city (not a latitude from one and a longitude from another).
          if (typeof a["lat"] === "number" && typeof a["lon"] === "number" && !s.links.some((l) => l.arg === "lat")) {
            expect(Math.abs(a["lat"]), JSON.stringify(a)).toBeLessThanOrEqual(90);
            coordinates++;
          }
        }
      }
      // The same user registers and logs in.
      expect(emails.size, [...emails].join(", ")).toBeLessThanOrEqual(1);
    }
    expect(people).toBeGreaterThan(0);
    expect(dates).toBeGreaterThan(50);
    expect(coordinates).toBeGreaterThan(0);
    expect(places).toBeGreaterThan(0);
  });

  /** A toolset of an OpenAPI 3.0 document with these paths. */
  const toolsetOfPaths = (name: string, paths: object): Promise<EpisodeToolset> => toolsetFromSpec(name, { openapi: "3.0.3", info: { title: name, version: "1" }, paths });

  it("asks for a history of what already happened in the past: a range over rides' requested_at is before today, whatever the spec's example", async () => {
    const ride = { type: "object", properties: { ride_id: { type: "string" }, generated_at: { type: "string", format: "date-time" }, requested_at: { type: "string", format: "date-time" } } };
    const rides = await toolsetOfPaths("rides", {
      "/rides": {
        get: {
          operationId: "GetRides",
          summary: "Get the rides of the user",
          parameters: [
            { name: "start_time", in: "query", required: true, description: "Start of the window.", schema: { type: "string", format: "date-time" }, example: "2025-09-01T09:00:00Z" },
            { name: "end_time", in: "query", required: true, description: "End of the window.", schema: { type: "string", format: "date-time" }, example: "2025-09-16T09:00:00Z" },
          ],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { rides: { type: "array", items: ride } } } } } } },
        },
      },
    });
    const toolbox = new Toolbox([rides]);
    for (let i = 0; i < 12; i++) {
      const { plan } = await runEpisode(toolbox, 3, i);
      for (const step of plan.requests.flatMap((r) => r.steps)) {
        for (const name of ["start_time", "end_time"]) expect(String(step.args[name]) < "2025-06-01T12:00:00Z", `${name} ${String(step.args[name])}`).toBe(true);
      }
    }
  });

  it("asks for what a chained read reads of the record found ('the cast and crew details of the first one'), not for the record", async () => {
    const anime = await toolsetOfPaths("anime", {
      "/anime": {
        get: {
          operationId: "searchAnime",
          summary: "Find anime based on a query string",
          parameters: [{ name: "query", in: "query", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { results: { type: "array", items: { type: "object", properties: { animeId: { type: "integer" }, title: { type: "string" } } } } } } } } } },
        },
      },
      "/anime/{animeId}/cast": {
        get: {
          operationId: "getCastAndCrew",
          summary: "Retrieve cast and crew details for a specific anime.",
          parameters: [{ name: "animeId", in: "path", required: true, schema: { type: "integer" } }],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { cast: { type: "array", items: { type: "string" } } } } } } } },
        },
      },
    });
    const toolbox = new Toolbox([anime]);
    const request = { steps: [{ toolset: "anime", tool: "searchAnime", args: { query: "Death Note" }, links: [] }, { toolset: "anime", tool: "getCastAndCrew", args: {}, links: [{ arg: "animeId", fromStep: 0, field: "results.0.animeId" }] }], withheld: [], style: "imperative" as const, template: 0 };
    for (let seed = 0; seed < 6; seed++) {
      const text = renderInstruction(request, toolbox, seed);
      expect(text, text).toMatch(/cast and crew details (of|for) the (first|top)/);
    }
  });

  it("withholds a required, unlinked value in about one request in five", () => {
    let requests = 0;
    let withholding = 0;
    let episodesWithholding = 0;
    for (const e of episodes) {
      let any = false;
      for (const r of e.plan.requests) {
        requests++;
        if (r.withheld.length === 0) continue;
        withholding++;
        any = true;
        for (const key of r.withheld) {
          expect(key).toMatch(/^\d+:.+$/);
          const [stepText, arg] = key.split(":") as [string, string];
          const step = r.steps[Number(stepText)];
          if (!step) throw new Error(key);
          const entry = e.toolbox.get(step.tool);
          expect(entry?.tool.required).toContain(arg);
          expect(step.links.map((l) => l.arg)).not.toContain(arg);
          expect(step.args[arg]).toBeDefined();
        }
      }
      if (any) episodesWithholding++;
    }
    const rate = withholding / requests;
    expect(rate).toBeGreaterThanOrEqual(0.12);
    expect(rate).toBeLessThanOrEqual(0.28);
    expect(episodesWithholding / episodes.length).toBeGreaterThanOrEqual(0.12);
    expect(episodesWithholding / episodes.length).toBeLessThanOrEqual(0.28);
  });
});

describe("OfflineUser.instruct", () => {
  it("never says a withheld value, and says the others", () => {
    let said = 0;
    for (const e of episodes) {
      e.plan.requests.forEach((r, i) => {
        const text = e.texts[i] ?? "";
        for (const v of withheldValues(r)) expect(text.toLowerCase(), text).not.toContain(valueText(v).toLowerCase());
        r.steps.forEach((s, si) => {
          for (const [arg, v] of Object.entries(s.args)) {
            if (r.withheld.includes(`${si}:${arg}`)) continue;
            if (typeof v === "string" || typeof v === "number") {
              expect(text, `${s.tool}.${arg}`).toContain(String(v));
              said++;
            }
          }
        });
      });
    }
    expect(said).toBeGreaterThan(300);
  });

  it("names no tool and no operation, and leaks no code", () => {
    for (const e of episodes) {
      for (const text of e.texts) {
        for (const entry of e.toolbox.entries) {
          expect(text).not.toContain(entry.name);
          if (entry.tool.operation.operationId !== undefined) expect(text).not.toContain(entry.tool.operation.operationId);
        }
        expect(text).not.toMatch(/undefined|\[object Object\]|NaN|\{|\}/);
        expect(text).toMatch(/^[A-Z]/);
        expect(text).toMatch(/[.?!"]$/);
      }
    }
  });

  it("reads naturally: no 'number' before a non-numeric id, no repeated verbs or greetings, values folded into the goal", () => {
    const awkward: Record<string, RegExp> = {
      "number <non-numeric id>": /(?<!(passport|flight|phone|card|account) )\bnumber (?=[\w-]*[A-Za-z])[A-Za-z][\w-]*\d[\w-]*|(?<!(passport|flight|phone|card|account) )\bnumber [a-z]+-[a-z]/,
      "<verb> ... <same verb>ing": /\b(chang|updat|edit)(e|es|s)?\b[^.?!]*\b\1ing\b|changing (current|old) /i,
      "opener + greeting": /^(Thanks!|Great, thanks\.|One more thing:|Also,|Next,|Perfect\. Now,)\s+(hey|hi|hello)\b/i,
      "coordinate at coordinates": /coordinates? (at|with) coordinates/i,
      "dangling amount": /\b(into|to) [A-Z]{3} (of|\(amount) \d/,
      "doubled word": /\b(\w{2,}) \1\b/i,
    };
    const texts = episodes.flatMap((e) => e.texts);
    expect(texts.length).toBeGreaterThan(500);
    for (const [name, re] of Object.entries(awkward)) {
      const hits = texts.filter((t) => re.test(t));
      expect(hits, name).toEqual([]);
    }
  });

  it("folds an amount and a coordinate into the goal and says a change from old to new", () => {
    const box = boxes.find((b) => b.get("convertCurrency") && b.get("reverseGeocode") === undefined) ?? boxes.find((b) => b.get("convertCurrency"));
    const geo = boxes.find((b) => b.get("reverseGeocode"));
    const accounts = boxes.find((b) => b.get("changePassword"));
    if (!box || !geo || !accounts) return; // the bundled toolsets are data written elsewhere
    const one = (tool: string, args: Record<string, unknown>, toolbox: Toolbox, template = 9): string => {
      const entry = toolbox.get(tool);
      if (!entry) throw new Error(tool);
      return renderInstruction({ steps: [{ toolset: entry.toolset.name, tool, args, links: [] }], withheld: [], style: "imperative", template }, toolbox, 0);
    };
    const convert = one("convertCurrency", { from: "GBP", to: "JPY", amount: 250 }, box);
    expect(convert).toMatch(/\b250 GBP (to|into) JPY\b/);
    expect(convert).not.toMatch(/an amount/);
    const place = one("reverseGeocode", { lat: 38.7223, lon: -9.1393 }, geo);
    expect(place).toContain("38.7223, -9.1393");
    expect(place).not.toMatch(/coordinates? (at|with) coordinates|a coordinate at/);
    const password = one("changePassword", { currentPassword: "river-Stone-42", newPassword: "harbour-Light-77" }, accounts);
    expect(password).toMatch(/from river-Stone-42 to harbour-Light-77/);
    expect(password).not.toMatch(/changing/);
  });

  it("uses at least 20 templates and the three styles", () => {
    expect(INSTRUCTION_TEMPLATES.length).toBeGreaterThanOrEqual(20);
    const templates = new Set<number>();
    const styles = new Set<string>();
    const openings = new Set<string>();
    for (const e of episodes) {
      for (const [i, r] of e.plan.requests.entries()) {
        if (r.template !== undefined) templates.add(r.template);
        styles.add(r.style);
        if (i === 0) openings.add((e.texts[0] ?? "").split(" ").slice(0, 2).join(" "));
      }
    }
    expect(templates.size).toBeGreaterThanOrEqual(20);
    expect([...styles].sort()).toEqual(["first-person", "imperative", "question"]);
    expect(openings.size).toBeGreaterThanOrEqual(20);
  });

  it("phrases a goal from the operation's summary, values by parameter name", async () => {
    const get = forecast.catalog.get("getWeatherForecast");
    if (!get) throw new Error("fixture");
    const goal = operationGoal(get);
    expect(goal.kind).toBe("get");
    expect(goal.definite).toBe("the weather forecast");
    const search = library.catalog.get("searchBooks");
    if (!search) throw new Error("fixture");
    expect(operationGoal(search).verbs).toContain("find");
    const args = toolArguments(forecast.catalog, get);
    const city = args.find((a) => a.name === "city");
    const days = args.find((a) => a.name === "days");
    const add = library.catalog.get("addBook");
    const title = add ? toolArguments(library.catalog, add).find((a) => a.name === "title") : undefined;
    if (!city || !days || !title || !add) throw new Error("fixture");
    const rng = createRng(1);
    expect(valuePhrase(city, "Paris", goal, rng)).toMatch(/^(in|for) Paris$/);
    expect(valuePhrase(days, 3, goal, rng)).toBe("for 3 days");
    expect(valuePhrase(title, "Dune", operationGoal(add), rng)).toMatch(/"Dune"/);
    // A text body of several words is one quoted value.
    const body = { ...title, name: "body", wrappedBody: true, in: "body" as const };
    for (let i = 0; i < 4; i++) expect(valuePhrase(body, "The sleek and stupendous Mouse comes with teal lighting.", operationGoal(add), rng)).toMatch(/"The sleek and stupendous Mouse comes with teal lighting\."$/);

    // The forecast request reads as a user's goal: a question about "the weather forecast", or a request to get it.
    const texts: string[] = [];
    for (let i = 0; i < 200; i++) {
      const e = await runEpisode(forecastBox, 11, i);
      e.plan.requests.forEach((r, j) => {
        if (r.steps.length === 1 && r.steps[0]?.tool === "getWeatherForecast") texts.push(e.texts[j] ?? "");
      });
    }
    expect(texts.some((t) => /^What is the weather forecast (in|for) /.test(t))).toBe(true);
    expect(texts.every((t) => !/Get weather forecast/.test(t))).toBe(true);
  });

  it("says a path id of the record above the one asked for as that record's ('the sections for school X', not 'the sections with ID X')", async () => {
    const toolset = await toolsetFromSpec("schools", {
      openapi: "3.0.3",
      info: { title: "Schools", version: "1" },
      paths: {
        "/schools/{id}/sections": { get: { operationId: "getSectionsForSchool", summary: "Returns the sections for a school", parameters: [{ in: "path", name: "id", required: true, schema: { type: "string" } }], responses: { "200": { description: "ok" } } } },
        "/sections/{id}": { get: { operationId: "getSection", summary: "Returns a specific section", parameters: [{ in: "path", name: "id", required: true, schema: { type: "string" } }], responses: { "200": { description: "ok" } } } },
      },
    });
    const sections = toolset.catalog.get("getSectionsForSchool");
    const section = toolset.catalog.get("getSection");
    if (!sections || !section) throw new Error("fixture");
    const [schoolId] = toolArguments(toolset.catalog, sections);
    const [sectionId] = toolArguments(toolset.catalog, section);
    if (!schoolId || !sectionId) throw new Error("fixture");
    expect(schoolId.owner).toBe("school");
    expect(sectionId.owner).toBeUndefined();
    const rng = createRng(3);
    for (let i = 0; i < 6; i++) expect(valuePhrase(schoolId, "4nzh8p5rxcfe", operationGoal(sections), rng)).toMatch(/school/);
    for (let i = 0; i < 6; i++) expect(valuePhrase(sectionId, "s-1", operationGoal(section), rng)).not.toMatch(/school/);
  });

  /** A GET operation with only a description, for the goals read from summaries. */
  const op = (description: string): Tool => ({ name: "x", description, operation: { method: "get", path: "/x", pointer: "/paths/~1x/get", operationId: "x" }, parameters: [], required: [], responses: ["200"] }) as unknown as Tool;

  it("reads a summary that heads a family of operations before a dash as that family's operation", () => {
    expect(operationGoal(op("Halo 5 - Game Variant. Changelog: renamed.")).object).toBe("the halo 5 game variant");
    expect(operationGoal(op("Halo Wars 2 - Difficulties")).object).toBe("the halo wars 2 difficulties");
    expect(operationGoal(op("Users - List all users")).kind).toBe("list");
    // After an imperative, a dash sets off an aside.
    expect(operationGoal(op("Get a user - requires admin")).object).toBe("a user");
  });

  it("keeps what a summary is about: a plural noun before 'that' is no verb, a generic head keeps its qualifier", () => {
    expect(operationGoal(op("Fields that can be requested")).object).toBe("the fields that can be requested");
    expect(operationGoal(op("Information On a Neblio Address. Returns the token UTXOs held at the address.")).object).toBe("the information on a neblio address");
    expect(operationGoal(op("Retrieve recommendations for similar anime based on a specified anime.")).object).toBe("the recommendations for similar anime");
    expect(operationGoal(op("Retrieve cast and crew details for a specific anime.")).object).toBe("the cast and crew details");
  });

  it("joins chains as one goal and plain steps with a connective", () => {
    let chains = 0;
    let plain = 0;
    for (const e of episodes) {
      e.plan.requests.forEach((r, i) => {
        const text = e.texts[i] ?? "";
        if (r.steps.length < 2) return;
        expect(text).toMatch(/ and |, then |, and then |, and finally /);
        if (r.steps.some((s) => s.links.length > 0)) {
          chains++;
          expect(text).toMatch(/\b(first|top|it|its|there|new|saved)\b/);
        } else plain++;
      });
    }
    expect(chains).toBeGreaterThan(50);
    expect(plain).toBeGreaterThan(30);
  });

  it("opens a later request of the dialogue as a follow-up", () => {
    const later = episodes.filter((e) => e.texts.length > 1).map((e) => e.texts[1] ?? "");
    expect(later.length).toBeGreaterThan(0);
    for (const t of later) expect(t).toMatch(/^(Thanks!|Great, thanks\.|One more thing:|Also,|Next,|Perfect\. Now,) /);
  });
});

describe("OfflineUser.reply", () => {
  it("gives every withheld value when the question is vague", async () => {
    let n = 0;
    for (const e of episodes) {
      for (const [i, r] of e.plan.requests.entries()) {
        if (r.withheld.length === 0) continue;
        const reply = await user.reply("Could you give me the details I still need?", { plan: e.plan, request: i, dialogue: [] }, e.ctx);
        for (const v of withheldValues(r)) expect(reply, JSON.stringify(r.withheld)).toContain(valueText(v));
        n++;
      }
    }
    expect(n).toBeGreaterThan(50);
  });

  it("answers the argument the question asks about, by name or by its words", async () => {
    let n = 0;
    for (const e of episodes) {
      for (const [i, r] of e.plan.requests.entries()) {
        for (const key of r.withheld) {
          const [stepText, arg] = key.split(":") as [string, string];
          const value = r.steps[Number(stepText)]?.args[arg];
          const turn = { plan: e.plan, request: i, dialogue: [] };
          expect(await user.reply(`What ${humanize(arg)} should I use?`, turn, e.ctx)).toContain(valueText(value));
          expect(await user.reply(`Please provide the required parameter \`${arg}\`.`, turn, e.ctx)).toContain(valueText(value));
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(50);
  });

  it("picks the right value among several, fuzzily", async () => {
    const plan: Plan = {
      requests: [
        {
          steps: [{ toolset: "forecast", tool: "getWeatherForecast", args: { city: "Lima", days: 5, units: "imperial" }, links: [] }],
          withheld: ["0:city"],
          style: "question",
          template: 0,
        },
      ],
    };
    const ctx = contextFor(forecastBox, 1, 0);
    const turn = { plan, request: 0, dialogue: [] };
    expect(await user.reply("Which city would you like the forecast for?", turn, ctx)).toContain("Lima");
    expect(await user.reply("Where should I look?", turn, ctx)).toContain("Lima");
    expect(await user.reply("For how many days?", turn, ctx)).toContain("5");
    expect(await user.reply("Which unit sytem do you prefer?", turn, ctx)).toContain("imperial");
    const both = await user.reply("What city, and for how many days?", turn, ctx);
    expect(both).toContain("Lima");
    expect(both).toContain("5");
  });

  it("answers what the question says it needs, not a word of its purpose, and the arguments the assistant names", async () => {
    const currency = boxes.find((b) => b.get("convertCurrency"));
    if (!currency) return; // the bundled toolsets are data written elsewhere
    const plan: Plan = {
      requests: [{ steps: [{ toolset: "currency", tool: "convertCurrency", args: { from: "GBP", to: "JPY", amount: 250 }, links: [] }], withheld: ["0:to"], style: "imperative", template: 9 }],
    };
    const ctx = contextFor(currency, 1, 0);
    // "amount" is in the purpose, not in what is needed: the answer is the currency, not 250.
    for (const question of ["To convert an amount, I need the iso 4217 alphabetic currency code. Could you tell me what it is?", "To convert an amount, I need the to currency code. Could you tell me what it is?"]) {
      const reply = await user.reply(question, { plan, request: 0, dialogue: [] }, ctx);
      expect(reply, question).toContain("JPY");
      expect(reply, question).not.toContain("250");
    }
    // The assistant says which argument it asks for: that one is answered, whatever the words.
    const named = await user.reply("To convert an amount, I need one more thing. Could you tell me what it is?", { plan, request: 0, dialogue: [], asks: ["amount"] }, ctx);
    expect(named).toContain("250");
  });

  it("points at the earlier result for a linked value, and politely has nothing more when nothing is withheld", async () => {
    const plan: Plan = {
      requests: [
        {
          steps: [
            { toolset: "library", tool: "searchBooks", args: { q: "dune" }, links: [] },
            { toolset: "library", tool: "getBook", args: {}, links: [{ arg: "bookId", fromStep: 0, field: "items.0.id" }] },
          ],
          withheld: [],
          style: "imperative",
          template: 9,
        },
      ],
    };
    const ctx = contextFor(libraryBox, 1, 0);
    const turn = { plan, request: 0, dialogue: [] };
    expect(await user.reply("Which book ID do you want the details of?", turn, ctx)).toMatch(/first|top/i);
    const none = await user.reply("Do you have a preferred genre?", turn, ctx);
    expect(none).toContain('"dune"');
    expect(none).not.toMatch(/undefined/);
    expect(await user.reply("Shall I go ahead with the search?", turn, ctx)).toMatch(/go ahead|do it/i);
  });
});

describe("OfflineUser.plan: reads that answer nothing", () => {
  it("seldom asks for a read whose spec declares no content for its answer (no episode can rest on it)", async () => {
    const empty = { "200": { description: "ok" } };
    const full = { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } } } } };
    const api = await toolsetFromSpec("mixed", {
      openapi: "3.0.3",
      info: { title: "Mixed", version: "1" },
      paths: {
        "/a": { get: { operationId: "readNothingA", summary: "Read a", responses: empty } },
        "/b": { get: { operationId: "readNothingB", summary: "Read b", responses: empty } },
        "/c": { get: { operationId: "readSomething", summary: "Read c", responses: full } },
      },
    });
    const toolbox = new Toolbox([api]);
    let nothing = 0;
    let steps = 0;
    for (let i = 0; i < 40; i++) {
      const { plan } = await runEpisode(toolbox, 5, i);
      for (const s of plan.requests.flatMap((r) => r.steps)) {
        steps++;
        if (s.tool.startsWith("readNothing")) nothing++;
      }
    }
    expect(steps).toBeGreaterThan(30);
    expect(nothing / steps).toBeLessThan(0.1);
  });
});
