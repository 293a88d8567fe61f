import { firstValue, lastName, listOf, locate, type FieldSpot } from "../../catalog/field-path.js";
import { pointerSegment } from "../../json-object.js";
import { Edits, undo, within } from "./answer-edits.js";
import { applyToday, itemOf, shiftMoments, shiftSiblings } from "./dated-items.js";
import { followLinks } from "./record-links.js";
import { daysBetween, shiftDays } from "../../synthesize/world/day-arithmetic.js";
import { SIMULATED_TODAY } from "../../synthesize/world/simulated-today.js";
import { assumedValue } from "./argument-defaults.js";
import { listSlot, pageRequest } from "../state-list.js";
import { objectShape } from "../../catalog/object-properties.js";
import { cohereEntities } from "../../synthesize/world/coherent-entities.js";
import { cloneJson } from "../../synthesize/synthesis-rules.js";
import { AIRPORTS, findCity, findCountry, fold } from "../../synthesize/world/world-data.js";
import type { ResponseContext } from "../responder.js";
import type { Catalog } from "../../catalog/catalog.js";
import type { Binding } from "./bindings.js";
import { askedViews, obeyPlan } from "./obey-plan.js";
import { growToSpan } from "./requested-span.js";
import { hasFutureStamp, keepStampsPast } from "../world/past-stamps.js";
import { convertUnits, specUnitSystem, unitSystemChange } from "../world/unit-systems.js";
import { examplesOf } from "../response-examples.js";
import { stampTouched, type StampFits, type Touch } from "../world/made-now.js";
import { askedWindow, keepWindow, looksBack } from "../world/asked-window.js";
import { selectedResponse } from "../response-cache.js";
import { agreeTimeZone, asksPointZone, pointOf } from "../world/coordinate-time-zone.js";
import { keepNearby } from "../world/nearby-points.js";
import { agrees, convertFor, dayOf, searchWords } from "./binding-values.js";
import { checkBindings, totalOf } from "./binding-check.js";
import { completeRequired } from "../created-resource.js";
import { dropRepeatedItems, repeatedItems } from "../world/repeated-records.js";
import { isPlace, relocate, renameNaturalKey } from "../world/found-place.js";
import { agreeMoney, MONEY_ARGS, speaksMoney } from "../world/money-answers.js";
import { scaleToServings } from "../world/scaled-servings.js";
import { aboutTheSearch, isArticle } from "../world/search-headlines.js";
import { agreeDetectedLanguage, sendsTexts } from "../world/detected-language.js";
import { keepTargetLanguage, lookedUp, TARGET_ARGS, targetLanguageOf } from "../world/translated-texts.js";
import { answerRecords, isIdentityField, knownNatural, knownRecord, mayRepeatIds, naturalRecords } from "../world/entity-memory.js";
import { hasExampleRecords, mentionsExampleId } from "../world/example-records.js";
import { isSessionOperation, knownSessionUser } from "../world/session-user.js";
import { anotherId, idKeyOf, recall, recallExamples, renumber } from "./recalled-records.js";
import { keepSentProblems } from "../world/sent-problems.js";
import { dropUnsentEchoes } from "../world/unsent-echoes.js";

/**
 * Makes an answer obey its call's bindings (an example's, a synthesized one's, or one made from state):
 * bound fields take the arguments' values, list items are brought inside filters and ranges, search results
 * mention what was searched, routes start and end where asked, actions leave their status, references
 * carry the referenced resource's fields and totals add up. Entities stay coherent around what changed (a
 * city's country and coordinates follow its name). Every edit is checked: those the schema rejects are
 * undone, and the answer as it was is kept when that is not enough.
 */

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Options of {@link obeyBindings}. */
export interface ObeyOptions {
  /** Whether the body was synthesized (all its entities are made coherent) or is an example or a stored record (only what changed). */
  synthesized: boolean;
  /** Whether list items may be rewritten to fit filters, ranges and searches (not for lists made from state, which are filtered instead). */
  rewriteItems?: boolean;
  /** Whether records the episode already knows (by noun and id) take their known fields (default true). */
  recall?: boolean;
  /** Whether what the body says already happened is already on or before today (an example prepared once): not looked at again. */
  datedAsOfToday?: boolean;
  /** How the call touched the record the body is (default: the plan's, by method and status): its stamps of that are now. */
  touch?: Touch;
}

/** The first value an argument path has in the call's arguments, else its parameter's default. */
function argValue(ctx: ResponseContext, path: string): unknown {
  const value = firstValue(ctx.call.args, path);
  if (value !== undefined && value !== "") return value;
  // Left out: what the server assumes (the parameter's default).
  return assumedValue(ctx.catalog, ctx.call.tool, ctx.call.args, path);
}

function titleWords(words: readonly string[]): string {
  return words.map((w) => (w.length > 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(" ");
}

/** A text made to mention a search: a name gets the searched words in front, a longer text a heading. */
function mentioning(original: string, query: string, words: readonly string[]): string {
  const q = /[A-Z]/.test(query) ? query.replace(/\s+(AND|OR|NOT)\s+/g, " ").trim() : titleWords(words);
  const parts = original.trim().split(/\s+/);
  if (original.trim() === "") return q;
  if (parts.length <= 4) return parts.length >= 2 ? `${q} ${parts.slice(1).join(" ")}` : q;
  return `${q}: ${original}`;
}

function applyEquals(ctx: ResponseContext, schemaPointer: string | undefined, out: unknown, b: Extract<Binding, { kind: "equals" | "route" }>, edits: Edits): void {
  const arg = argValue(ctx, b.arg);
  if (arg === undefined || arg === null) return;
  const match = b.kind === "route" ? "exact" : (b.match ?? "exact");
  for (const spot of locate(out, b.field)) {
    if (isObject(spot.value) && !isObject(arg)) {
      // A route end as an object: its code field.
      if (b.kind === "route") {
        const key = ["iataCode", "iata", "code", "airport"].find((k) => isObject(spot.value) && typeof spot.value[k] === "string");
        if (key !== undefined && isObject(spot.value) && spot.value[key] !== arg) edits.writeKey(spot.value, key, `${spot.pointer}/${key}`, arg);
      }
      continue;
    }
    // Coordinates near the ones asked agree (a grid's point); an answer made here echoes them as asked.
    if (agrees(spot.value, arg, match) === true && !(match === "near" && typeof spot.value === "number" && Number(arg) !== spot.value)) {
      edits.pinned.add(spot.pointer);
      continue;
    }
    let value: unknown;
    if (isObject(arg) || Array.isArray(arg)) {
      const top = schemaPointer !== undefined && !b.field.includes(".") && !b.field.includes("[") ? objectShape(ctx.catalog.registry, "response", schemaPointer)?.properties[b.field] : undefined;
      value = top !== undefined ? completeRequired(ctx, top, cloneJson(arg), spot.value) : cloneJson(arg);
      if (Array.isArray(arg) && !Array.isArray(spot.value) && spot.value !== null) continue;
    } else value = convertFor(spot.value, arg, match);
    if (value === undefined) continue;
    const before = match === "day" ? dayOf(spot.value) : undefined;
    const was = spot.value;
    edits.write(spot, value);
    // The record is another one: its links name its id (`links.self: /questions/21` -> `/questions/26v1`).
    if (match === "exact" && typeof spot.key === "string" && isIdentityField(spot.key) && (typeof was === "string" || typeof was === "number") && (typeof value === "string" || typeof value === "number")) {
      const at = spot.pointer.slice(0, spot.pointer.lastIndexOf("/"));
      followLinks(edits, spot.holder, at, spot.pointer, was, value);
      // A JSON:API document's links beside its `data` too.
      if (at === "/data" && isObject(out)) followLinks(edits, out, "", "/data", was, value);
    }
    // The day asked is the record's: its other moments of that occasion move with it (a flight's times, a quote's stamp).
    const after = dayOf(value);
    if (before !== undefined && after !== undefined && before !== after && !Array.isArray(spot.holder)) {
      shiftMoments(edits, spot.holder, spot.pointer.slice(0, spot.pointer.lastIndexOf("/")), spot.pointer, before, daysBetween(before, after));
    }
  }
}

function applyFilter(ctx: ResponseContext, out: unknown, b: Extract<Binding, { kind: "filter" }>, edits: Edits): void {
  const arg = argValue(ctx, b.arg);
  if (arg === undefined || arg === null) return;
  const match = b.match ?? "exact";
  if (match === "selects") {
    const noun = fold(lastName(b.field.replace(/\[\]$/, ""))).replace(/ies$/, "y").replace(/s$/, "");
    if (noun === fold(String(arg)).replace(/s$/, "")) return;
    for (const spot of locate(out, b.field.replace(/\[\]$/, ""))) if (Array.isArray(spot.value) && spot.value.length > 0) edits.write(spot, []);
    return;
  }
  // One of several values asked (`countries: [SE, PT]`): the items take them in turn.
  const valueFor = (items: readonly number[]): unknown => (match === "oneOf" && Array.isArray(arg) && arg.length > 0 ? arg[(items[0] ?? 0) % arg.length] : arg);
  for (const spot of locate(out, b.field)) {
    if (agrees(spot.value, arg, match) !== false) {
      edits.pinned.add(spot.pointer);
      continue;
    }
    const value = convertFor(spot.value, valueFor(spot.items), match === "oneOf" ? "exact" : match);
    if (value === undefined) continue;
    const before = spot.value;
    edits.write(spot, value);
    const holder = itemOf(out, spot, b.field);
    if (holder && match === "year" && typeof before === "string") shiftSiblings(edits, holder.item, holder.pointer, spot.pointer, 0, Number(arg) - Number(before.slice(0, 4)));
  }
  const end = b.field.lastIndexOf("[].");
  // An item without the field filtered on says it too (`iata_code: LYS` for `airport_iata=LYS`), where the schema has it.
  const key = end >= 0 ? b.field.slice(end + 3) : "";
  if ((match === "exact" || match === "oneOf") && /^[^.[\]]+$/.test(key)) {
    for (const item of locate(out, b.field.slice(0, end + 2))) {
      const v = valueFor(item.items);
      if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") continue;
      if (isObject(item.value) && !Object.prototype.hasOwnProperty.call(item.value, key)) edits.add(item.value, key, `${item.pointer}/${pointerSegment(key)}`, v);
    }
  }
  // A record's own key (`iata_code=LHR`, `isbn=...`) names one record: one item, not copies of it.
  if (match === "exact" && end >= 0 && OWN_KEYS.has(fold(lastName(b.field)).replace(/[^a-z0-9]/g, ""))) {
    const list = b.field.slice(0, end);
    if (list === "" && Array.isArray(out)) out.splice(1);
    else for (const spot of locate(out, list)) if (Array.isArray(spot.value) && spot.value.length > 1) edits.write(spot, spot.value.slice(0, 1));
  }
}

/** Fields that name their record alone (normalized): a filter on one of them answers one record. */
const OWN_KEYS = new Set(["id", "uuid", "iata", "iatacode", "icao", "icaocode", "isbn", "isbn13", "symbol", "ticker"]);

function applyRanges(ctx: ResponseContext, out: unknown, ranges: ReadonlyArray<Extract<Binding, { kind: "range" }>>, edits: Edits): void {
  const byField = new Map<string, { min?: unknown; max?: unknown }>();
  for (const r of ranges) {
    const v = argValue(ctx, r.arg);
    if (v === undefined || v === null) continue;
    const slot = byField.get(r.field) ?? {};
    slot[r.bound] = v;
    byField.set(r.field, slot);
  }
  for (const [field, { min, max }] of byField) {
    const spots = locate(out, field);
    spots.forEach((spot, i) => {
      const value = spot.value;
      const lo = dayOf(min);
      const hi = dayOf(max);
      const d = dayOf(value);
      if (typeof value === "string" && d !== undefined && (lo !== undefined || hi !== undefined)) {
        if ((lo === undefined || d >= lo) && (hi === undefined || d <= hi)) return;
        let target: string;
        if (lo !== undefined && hi !== undefined) {
          const span = Math.max(0, daysBetween(lo, hi));
          target = shiftDays(lo, span === 0 ? 0 : (i * 3 + 1) % (span + 1));
        } else if (lo !== undefined) target = shiftDays(lo, i * 4 + 1);
        else target = shiftDays(hi as string, -(i * 4 + 1));
        const days = daysBetween(d, target);
        edits.write(spot, shiftDays(value, days));
        const holder = itemOf(out, spot, field);
        if (holder) shiftSiblings(edits, holder.item, holder.pointer, spot.pointer, days);
        return;
      }
      if (typeof value !== "number") return;
      const a = min !== undefined ? Number(min) : undefined;
      const z = max !== undefined ? Number(max) : undefined;
      if ((a === undefined || !Number.isFinite(a) || value >= a) && (z === undefined || !Number.isFinite(z) || value <= z)) return;
      let next: number;
      const step = ((i % 5) + 1) / 10;
      if (a !== undefined && z !== undefined && Number.isFinite(a) && Number.isFinite(z)) next = a + (z - a) * Math.min(0.9, step);
      else if (a !== undefined && Number.isFinite(a)) next = a === 0 ? i + 1 : a * (1 + step);
      else next = (z as number) * (1 - step / 2);
      next = Number.isInteger(value) ? Math.round(next) : Math.round(next * 100) / 100;
      if (a !== undefined && next < a) next = a;
      if (z !== undefined && next > z) next = z;
      edits.write(spot, next);
    });
  }
}

function applySearch(ctx: ResponseContext, out: unknown, b: Extract<Binding, { kind: "search" }>, edits: Edits): void {
  const arg = argValue(ctx, b.arg);
  if (typeof arg !== "string" && typeof arg !== "number") return;
  const query = String(arg);
  const words = searchWords(query);
  if (words.length === 0) return;
  const list = b.fields.map(listOf).find((l) => l !== undefined);
  if (list === undefined) return;
  const code = /^[A-Z0-9.\-]{1,6}$/.test(query);
  // A city named by the query or by one part of an address (`Puerta del Sol 1, Madrid`).
  const city = findCity(query) ?? query.split(",").map((p) => p.trim()).filter((p) => p.length > 1).reverse().map((p) => findCity(p)).find((c) => c !== undefined);
  const country = city ? undefined : findCountry(query);
  const airport = AIRPORTS.find((a) => a.iata === query.toUpperCase() && query.length === 3);
  let usedKeys: Set<string> | undefined;
  for (const item of locate(out, list)) {
    if (!isObject(item.value)) continue;
    const spots: FieldSpot[] = [];
    for (const f of b.fields) spots.push(...locate(item.value, f.slice(list.length).replace(/^\./, "")).map((s) => ({ ...s, pointer: `${item.pointer}${s.pointer}` })));
    const texts = spots.filter((s) => typeof s.value === "string" || typeof s.value === "number");
    if (texts.length === 0) {
      // A hit that leaves out the field the search reads (an optional title) matched on its subjects: they name it.
      const topics = Object.keys(item.value).find((k) => TOPIC_LIST.test(k) && Array.isArray((item.value as Json)[k]) && ((item.value as Json)[k] as unknown[]).every((v) => typeof v === "string"));
      const held = topics === undefined ? [] : ((item.value as Json)[topics] as string[]);
      if (topics !== undefined && !held.some((v) => words.some((w) => fold(v).includes(w)))) edits.writeKey(item.value, topics, `${item.pointer}/${pointerSegment(topics)}`, [mentioning("", query, words), ...held]);
      continue;
    }
    const matching = texts.filter((s) => words.some((w) => fold(String(s.value)).includes(w)));
    if (matching.length > 0) {
      for (const m of matching) edits.pinned.add(m.pointer);
      continue;
    }
    const isCodeField = (s: FieldSpot): boolean => /^(symbol|code|iata|iatacode|ticker|icao)$/i.test(String(s.key));
    // An airport found by its city is that city's airport (the world's), or none: Berlin's airport renamed "Lyon"
    // would be in the wrong country.
    const iataSpot = texts.find((s) => /^(iata|iatacode)$/i.test(String(s.key)));
    if (iataSpot && city && !airport) {
      const local = AIRPORTS.find((a) => fold(a.city) === fold(city.name) && a.countryCode === city.countryCode);
      if (local === undefined) continue;
      edits.write(iataSpot, local.iata);
      continue;
    }
    if (code) {
      const target = texts.find(isCodeField);
      if (target) {
        edits.write(target, query);
        continue;
      }
    }
    if (airport) {
      const target = texts.find((s) => /^(iata|iatacode|code)$/i.test(String(s.key)));
      if (target) {
        edits.write(target, airport.iata);
        continue;
      }
    }
    const target = texts.find((s) => typeof s.value === "string" && !isCodeField(s)) ?? texts.find((s) => typeof s.value === "string");
    if (!target) continue;
    // A record the episode already knows by a natural key (`symbol: NWRB`), renamed to fit the search, is
    // another record: it gets a key of its own (as a recalled record gets another id below).
    if (edits.pinned.has(target.pointer)) renameNaturalKey(ctx, item.value, item.pointer, query, edits, (usedKeys ??= new Set(naturalRecords(out).map((r) => r.value))));
    const known = city?.name ?? country?.name;
    // A place that is not the one searched for, when the world knows no place of that name: left to be dropped
    // (an empty search answers better than Berlin's airport renamed "Manchester").
    if (known === undefined && !code && !airport && isPlace(item.value)) continue;
    const key = String(target.key).toLowerCase();
    if (known !== undefined && /name|city|title|display|address|label/.test(key)) edits.write(target, /display|address|title|label/.test(key) ? `${query}` : known);
    // An article found is about the search: its headline, summary and address, not the example's with the words in front.
    else if (!code && isArticle(item.value)) aboutTheSearch(item.value, item.pointer, query, item.items[0] ?? 0, ctx.seed, (h, k, p, v) => edits.follow(h, k, p, v));
    else edits.write(target, mentioning(String(target.value), query, words));
    // The item found is in the city asked for: its places name it, and its own coordinates are there.
    if (city) relocate(item.value, item.pointer, city, query, edits);
  }
}

/** Lists of words that say what a record is about (`subjects`, `keywords`, `tags`, `topics`, `categories`). */
const TOPIC_LIST = /^(subjects?|keywords?|tags|topics?|categories|genres|themes)$/i;

function applyEffect(out: unknown, b: Extract<Binding, { kind: "effect" }>, edits: Edits): void {
  for (const spot of locate(out, b.field)) if (spot.value !== b.value) edits.write(spot, b.value);
}

/** The state's record of a referenced resource, by its collection (a concrete path) and id. */
function referenced(ctx: ResponseContext, collection: string, id: string): Json | undefined {
  return collection.includes("{") ? undefined : ctx.state.get(collection, id);
}

function applyReference(ctx: ResponseContext, out: unknown, b: Extract<Binding, { kind: "reference" }>, edits: Edits): void {
  for (const ref of locate(ctx.call.args, b.arg)) {
    if (typeof ref.value !== "string" && typeof ref.value !== "number") continue;
    const target = referenced(ctx, b.collection, String(ref.value));
    if (!target) continue;
    for (const [field, theirs] of Object.entries(b.fields)) {
      const value = target[theirs];
      if (value === undefined) continue;
      for (const spot of locate(out, field)) {
        if (spot.items.length > 0 && ref.items.length > 0 && spot.items[0] !== ref.items[0]) continue;
        if (spot.value === undefined) continue;
        edits.write(spot, cloneJson(value));
      }
    }
  }
}

function applyTotal(out: unknown, b: Extract<Binding, { kind: "total" }>, edits: Edits): void {
  const total = totalOf(b, out);
  if (total === undefined) return;
  for (const spot of locate(out, b.field)) {
    if (typeof spot.value === "number" && Math.abs(spot.value - total) > 0.005) edits.write(spot, total);
    else if (isObject(spot.value) && typeof spot.value["amount"] === "number" && Math.abs(spot.value["amount"] - total) > 0.005) {
      edits.writeKey(spot.value, "amount", `${spot.pointer}/amount`, total);
    }
  }
}

/** The arguments the money and translation rules read: a call with none of them skips both. */
const RULE_ARGS: ReadonlySet<string> = new Set([...MONEY_ARGS, ...TARGET_ARGS]);

function namesAny(args: Json, names: ReadonlySet<string>): boolean {
  for (const k in args) if (names.has(k)) return true;
  return false;
}

/**
 * The body made to obey the call's bindings (and its entities coherent), where it stays valid against the
 * schema at `schemaPointer` (an answer without a schema is held to nothing else). Returns the same object when
 * nothing changes.
 */
export function obeyBindings(ctx: ResponseContext, schemaPointer: string | undefined, body: unknown, options: ObeyOptions): unknown {
  if (!isObject(body) && !Array.isArray(body)) return body;
  const plan = obeyPlan(ctx.catalog, ctx.call.tool);
  // Nothing to do (no binding the call can speak to, no record the episode knows, an example left as written): the body as it is.
  const args = isObject(ctx.call.args) ? ctx.call.args : {};
  const toolName = plan.toolName;
  const rules = namesAny(args, RULE_ARGS);
  const money = rules && speaksMoney(args);
  const texts = sendsTexts(toolName, args);
  const target = rules ? targetLanguageOf(args) : undefined;
  const zone = plan.point && asksPointZone(args, body);
  const nearby = plan.nearby && pointOf(args) !== undefined;
  const page = pageRequest(ctx);
  const span = plan.span !== undefined ? (args[plan.span.arg] ?? plan.defaults.get(plan.span.arg)) : undefined;
  const rewrite = options.rewriteItems !== false;
  const touch = options.touch ?? plan.touch;
  const window = plan.windowArgs.length > 0 ? askedWindow(args, plan.defaults, plan.windowArgs) : undefined;
  const callSpeaks = touch !== undefined || window !== undefined || money || texts || zone || nearby || target !== undefined || page.limitGiven === true || span !== undefined || plan.unconditional || plan.problems || plan.statusEchoes.length > 0 || plan.searchEchoes.length > 0 || plan.args.some((a) => firstValue(args, a) !== undefined || plan.defaults.has(a));
  if (!options.synthesized && !callSpeaks && !(rewrite && plan.stamps && options.datedAsOfToday !== true && hasFutureStamp(body, SIMULATED_TODAY))) {
    if (options.recall === false || ctx.state.isBlank || !((isSessionOperation(ctx) && knownSessionUser(ctx) !== undefined) || answerRecords(body, ctx.call.tool.operation).some((r) => knownRecord(ctx, r.noun, r.id) !== undefined) || naturalRecords(body).some((r) => knownNatural(ctx, r) !== undefined))) return body;
  }
  const out = cloneJson(body);
  const edits = new Edits();
  // A span asked for (`days=5`) is the length of the dated list, before its items are made to obey the call.
  const grown = rewrite && plan.span !== undefined && span !== undefined && growToSpan(ctx, plan.span, span, schemaPointer, out, edits);
  // Which record the answer is comes first (`getQuote(SHEL)` answers about SHEL, whatever symbol the example had):
  // what the episode knows is then recalled for that record, not for the example's.
  for (const b of plan.identity) applyEquals(ctx, schemaPointer, out, b, edits);
  // The fields the call names the record by (its id): such a record is that one, whatever else the call changes.
  const named = new Set(edits.pinned);
  const recalled = options.recall === false ? [] : recall(ctx, out, edits);
  const beforeEquals = edits.list.length;
  for (const b of plan.equals) applyEquals(ctx, schemaPointer, out, b, edits);
  // A record the episode knows, made to fit criteria (`getRandomRecipe(cuisine=american)` over a Thai recipe), is
  // another record, unless the call names it (its id is bound: an update of that record).
  const equalled = recalled.length === 0 ? undefined : new Set(edits.list.slice(beforeEquals).map((e) => e.pointer));
  const given = (b: { arg?: string }): boolean => b.arg !== undefined && argValue(ctx, b.arg) !== undefined;
  for (const b of plan.todayEquals) applyToday(out, b, given(b), SIMULATED_TODAY, edits);
  // A recipe read for more servings holds more of each ingredient.
  if (edits.list.length > beforeEquals && ctx.call.tool.operation.method === "get") scaleToServings(edits);
  // Measurements in the unit system the answer is now in (`units: imperial` over an example in metric).
  if (rewrite && plan.units) {
    // A synthesized answer's numbers are in the spec's system, whatever unit label synthesis drew beside them.
    const drawnIn = options.synthesized ? specUnitSystem(plan.defaults, examplesOf(ctx.catalog, selectedResponse(ctx.catalog, ctx.call.tool, ctx.status))) : undefined;
    const system = unitSystemChange(edits, args, plan.defaults, out, drawnIn);
    if (system !== undefined) convertUnits(out, system.from, system.to, (holder, key, pointer, value) => edits.writeKey(holder, key, pointer, value));
  }
  if (rewrite) {
    const before = edits.list.length;
    for (const b of plan.filters) applyFilter(ctx, out, b, edits);
    if (plan.ranges.length > 0) applyRanges(ctx, out, plan.ranges, edits);
    for (const b of plan.todayItems) applyToday(out, b, given(b), SIMULATED_TODAY, edits);
    for (const b of plan.searches) applySearch(ctx, out, b, edits);
    // A known record rewritten to fit the call is another record: it gets another id.
    const changed = recalled.length === 0 ? undefined : new Set(edits.list.slice(before).map((e) => e.pointer));
    for (const { record, pointers } of recalled) {
      const idKey = idKeyOf(record);
      if (idKey === undefined) continue;
      const idPointer = `${record.pointer}/${pointerSegment(idKey)}`;
      const refitted = record.inList ? [...pointers].some((p) => changed?.has(p) === true) : !named.has(idPointer) && [...(equalled ?? [])].some((p) => p !== idPointer && within(p, record.pointer));
      if (refitted) renumber(ctx, record, idKey, edits);
    }
  }
  // A page size the call gave bounds the list (an example of three holidays for `limit=2` answers two).
  if (rewrite && page.limitGiven === true) {
    const slot = listSlot(out);
    if (page.limitGiven === true && page.limit !== undefined && slot && slot.items.length > page.limit) {
      const kept = slot.items.slice(0, page.limit);
      if (slot.field === undefined && Array.isArray(out)) out.splice(page.limit);
      else if (slot.field !== undefined && isObject(out)) edits.writeKey(out, slot.field, `/${pointerSegment(slot.field)}`, kept);
    }
  }
  if (options.synthesized || rewrite) distinctIds(ctx, out, edits);
  if (options.recall !== false && hasExampleRecords(ctx.catalog) && mentionsExampleId(ctx.catalog, out)) recallExamples(ctx, out, edits, named, askedViews(plan, args));
  for (const b of plan.effects) applyEffect(out, b, edits);
  for (const b of plan.references) applyReference(ctx, out, b, edits);
  for (const b of plan.totals) applyTotal(out, b, edits);
  // What already happened happened by today (an example's `createdAt` two weeks ahead moves back).
  // (An example already is, unless upcoming items moved forward, their other dates along.)
  if (rewrite && plan.stamps && (options.datedAsOfToday !== true || plan.todayItems.length > 0)) keepStampsPast(out, SIMULATED_TODAY, edits);
  const write = (holder: Json, key: string, pointer: string, value: unknown): void => edits.writeKey(holder, key, pointer, value);
  // The last N hours asked for (`hours=34`) are the window the answer names.
  if (window !== undefined) keepWindow(out, window.ms, looksBack(plan.toolName), write);
  // A record the call just made or changed was made or changed now (after the past stamps: now is not in the future).
  if (touch !== undefined && schemaPointer !== undefined) stampTouched(out, touch, isObject(ctx.call.body) ? ctx.call.body : {}, stampFits(ctx.catalog, schemaPointer), { write, remove: (h, k, p) => edits.remove(h, k, p) });
  if (money || options.synthesized) agreeMoney(args, out, write);
  if (texts) agreeDetectedLanguage(toolName, args, out, write);
  if (zone) agreeTimeZone(args, out, write);
  if (nearby && rewrite) keepNearby(args, out, ctx.seed, edits.pinned, write);
  if (target !== undefined) keepTargetLanguage(target, out, write, lookedUp(out) !== lookedUp(body));
  if (plan.statusEchoes.length > 0) echoStatus(ctx, out, plan.statusEchoes, edits);
  if (plan.problems) keepSentProblems(ctx.call.args, out, (h, k, p) => edits.remove(h, k, p));
  if (plan.searchEchoes.length > 0) dropUnsentEchoes(args, out, plan.searchEchoes, (h, k, p) => edits.remove(h, k, p));
  const cohered = cohereEntities(out, { seed: ctx.seed, pinned: edits.pinned, pinnedOnly: !options.synthesized });
  const validate: { (v: unknown): boolean; errors?: Array<{ instancePath: string }> | null } = schemaPointer !== undefined ? ctx.catalog.registry.validatorAt("response", schemaPointer) : () => true;
  // A synthesized or example list lists each record once (state lists are what was stored, as stored).
  const once = (v: unknown): unknown => {
    if (!(options.synthesized || rewrite)) return v;
    // The body as given is copied only when it repeats a record (the common answer repeats none).
    if (v === body && repeatedItems(v).length === 0) return v;
    const copy = v === body ? cloneJson(v) : v;
    return dropRepeatedItems(copy, validate) ? copy : v;
  };
  if (edits.list.length === 0 && cohered.length === 0 && !grown) return once(body);
  const done = (): unknown => once(rewrite ? withoutMisfits(plan.itemBindings, ctx.call.args, out, validate) : out);
  if (validate(out)) return done();
  // Undo what the errors point at (coherence first: it is a nicety, the bindings are the point), then try again.
  const errorPaths = (): string[] => (validate.errors ?? []).map((e) => e.instancePath);
  let paths = errorPaths();
  // A part of an old address the schema will not have empty as null (`state: "TX"` of a place now in Lisbon) is empty text.
  const refusedNulls = cohered.filter((e) => e.after === null && typeof e.before === "string" && !Array.isArray(e.holder) && paths.includes(e.pointer));
  for (const e of refusedNulls) (e.holder as Json)[e.key as string] = e.after = "";
  if (refusedNulls.length > 0 && validate(out)) return done();
  paths = errorPaths();
  for (const e of [...cohered].reverse()) if (paths.some((p) => within(e.pointer, p) || within(p, e.pointer))) undo(e);
  if (validate(out)) return done();
  for (const e of [...cohered].reverse()) undo(e);
  if (validate(out)) return done();
  paths = errorPaths();
  let undone = 0;
  for (const e of [...edits.list].reverse()) {
    if (paths.some((p) => within(e.pointer, p) || within(p, e.pointer))) {
      undo(e);
      undone++;
    }
  }
  if (undone > 0 && validate(out)) return done();
  return body;
}

/** The answer's fields that echo its HTTP status say the status it is sent with. */
function echoStatus(ctx: ResponseContext, out: unknown, paths: readonly string[], edits: Edits): void {
  const status = selectedResponse(ctx.catalog, ctx.call.tool, ctx.status).status;
  for (const path of paths) for (const spot of locate(out, path)) if (typeof spot.value === "number" && spot.value !== status) edits.write(spot, status);
}

/** Items of the same list with the same id (a synthesized list repeating its example's): the later ones get ids of their own. */
function distinctIds(ctx: ResponseContext, out: unknown, edits: Edits): void {
  if (!mayRepeatIds(out)) return;
  const seen = new Map<string, Set<string>>();
  for (const r of answerRecords(out, ctx.call.tool.operation)) {
    if (!r.inList) continue;
    const list = r.pointer.slice(0, r.pointer.lastIndexOf("/"));
    const ids = seen.get(list) ?? new Set<string>();
    seen.set(list, ids);
    if (!ids.has(r.id)) {
      ids.add(r.id);
      continue;
    }
    const idKey = idKeyOf(r);
    if (idKey === undefined) continue;
    const next = anotherId(ctx, r.noun, r.record[idKey], r.pointer);
    if (next === undefined || ids.has(String(next))) continue;
    ids.add(String(next));
    edits.writeKey(r.record, idKey, `${r.pointer}/${pointerSegment(idKey)}`, next);
  }
}

/** The pointer of the list item a violation sits in (`/holidays/3/date` -> `/holidays/3`). */
function itemPointerOf(at: string, field: string): string | undefined {
  const list = listOf(field);
  if (list === undefined) return undefined;
  const rest = field.slice(list.length).replace(/^\./, "");
  const depth = rest === "" ? 0 : rest.split(".").length;
  const parts = at.split("/");
  return parts.slice(0, parts.length - depth).join("/");
}

/**
 * The answer without the list items that still contradict a filter, a range or a search (a request no
 * item can satisfy: `q=Porto&country=IT`), as a real service leaves them out; the answer as it is when the
 * shorter lists would not validate.
 */
function withoutMisfits(itemBindings: readonly Binding[], args: unknown, out: unknown, validate: (v: unknown) => boolean): unknown {
  if (itemBindings.length === 0) return out;
  const violations = checkBindings(itemBindings, args, out);
  if (violations.length === 0) return out;
  const drop = new Set<string>();
  for (const v of violations) {
    if (v.binding.kind === "filter" && v.binding.match === "selects") continue;
    const item = v.binding.kind === "search" ? v.at : itemPointerOf(v.at, v.field);
    if (item !== undefined && /\/\d+$/.test(item)) drop.add(item);
  }
  if (drop.size === 0) return out;
  const pruned = cloneJson(out);
  for (const pointer of [...drop].sort((a, b) => Number(b.slice(b.lastIndexOf("/") + 1)) - Number(a.slice(a.lastIndexOf("/") + 1)))) {
    const listPointer = pointer.slice(0, pointer.lastIndexOf("/"));
    const index = Number(pointer.slice(pointer.lastIndexOf("/") + 1));
    let list: unknown = pruned;
    for (const p of listPointer.split("/").slice(1)) {
      const k = p.replace(/~1/g, "/").replace(/~0/g, "~");
      list = Array.isArray(list) ? list[Number(k)] : isObject(list) ? list[k] : undefined;
    }
    if (Array.isArray(list)) list.splice(index, 1);
  }
  return validate(pruned) ? pruned : out;
}

/** Whether the response schema takes a value for a field of the touched record (at the root, or under the one field that wraps it). */
export function stampFits(catalog: Catalog, schemaPointer: string): StampFits {
  const registry = catalog.registry;
  return (wrapper, key, value) => {
    const root = objectShape(registry, "response", schemaPointer);
    const at = wrapper === undefined ? schemaPointer : root?.properties[wrapper];
    const shape = at === undefined ? undefined : wrapper === undefined ? root : objectShape(registry, "response", at);
    const field = shape?.properties[key];
    if (shape === undefined || field === undefined) return false;
    return value === undefined ? !shape.required.includes(key) : registry.validatorAt("response", field)(value);
  };
}
