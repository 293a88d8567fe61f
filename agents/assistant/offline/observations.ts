import { isObject, type Json } from "../../../specs/json-object.js";
import { GENERIC_KEYS } from "../../language/lexicon/names.js";
import { ORDINALS } from "../../language/lexicon/function-words.js";
import { anyWord } from "../../language/word-patterns.js";
import { coerce, idShapeMatches } from "./coerce-value.js";
import { succeeded, type History } from "./dialogue-history.js";
import type { OfflineToolbox } from "./offline-types.js";
import { idResource, isIdParam, normalizeKey } from "./param-traits.js";
import { exampleOf } from "./tool-params.js";
import type { OfflineToolSpec, Param } from "./offline-types.js";

/*
 * Observations: the records in earlier results (each object of each successful result, with where it sat), and
 * the value a parameter takes from them: a field of the same name, or the id of the resource the parameter names.
 */

/** One object of an earlier result. */
export interface ObsRecord {
  fields: Json;
  tool: string;
  /** The key of the array or object that held it (`books`, `items`...). */
  holder: string;
  /** Position in its array (0 for single objects). */
  position: number;
  /** How many siblings it had. */
  siblings: number;
  /** Recency rank: 0 is the newest result of the current request; earlier requests add 100. */
  age: number;
}

/** How a candidate value from the observations is scored (one record: what the weights are for). */
export const OBSERVATION_WEIGHTS = {
  /** A field of the parameter's own name. */
  sameKey: 3,
  /** The `id` of a record whose holder or tool names the parameter's resource. */
  relatedId: 2,
  /** A bare `id` parameter and a record of its resource. */
  relatedBareId: 2.5,
  /** Any record's `id`. */
  anyId: 1,
  /** Points per unit of strength. */
  strength: 10,
  /** Points lost per step of age (capped at 200 steps). */
  age: 0.5,
  /** Points lost by a weak candidate from an earlier request. */
  earlierRequest: 50,
  /** Points per value of the record the user's words mention. */
  mention: 4,
  /** The record at the position an ordinal names ("the second one"). */
  ordinal: 3,
  /** The first record, when no ordinal is said. */
  first: 1,
  /** Below this score a weak candidate (not of the current call's result) is no value. */
  threshold: 10,
} as const;

/** The records of a result body (objects anywhere in it, five levels deep). */
export function recordsOf(body: unknown, tool: string, age: number): ObsRecord[] {
  const out: ObsRecord[] = [];
  const walk = (v: unknown, holder: string, position: number, siblings: number, depth: number): void => {
    if (depth > 5) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, holder, i, v.length, depth + 1));
      return;
    }
    if (!isObject(v)) return;
    out.push({ fields: v, tool, holder, position, siblings, age });
    for (const [k, sub] of Object.entries(v)) if (typeof sub === "object" && sub !== null) walk(sub, k, 0, 1, depth + 1);
  };
  walk(body, "", 0, 1, 0);
  return out;
}

/** Every record of the dialogue's successful results, newest first. */
export function observations(history: History): ObsRecord[] {
  const out: ObsRecord[] = [];
  let age = 0;
  const ordered = [...history.requests].reverse();
  for (const req of ordered) {
    for (const call of [...req.calls].reverse()) {
      if (!succeeded(call) || call.result === undefined) continue;
      out.push(...recordsOf(call.result.body, call.name, age));
      age++;
    }
    age += 100;
  }
  return out;
}

/** Every scalar inside a value (arguments with nested objects and lists). */
export function scalarLeaves(v: unknown): unknown[] {
  if (Array.isArray(v)) return v.flatMap(scalarLeaves);
  if (isObject(v)) return Object.values(v).flatMap(scalarLeaves);
  return [v];
}

/** A string, number or boolean. */
export function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

const ORDINAL_RULES = ORDINALS.map((o) => ({ re: anyWord(o.words, ""), position: o.position }));
const GENERIC = new Set(GENERIC_KEYS);

/** The word stems of an observation record's holder key and tool name (remembered: both come from a small set). */
function holderStems(box: OfflineToolbox, holder: string, tool: string): readonly string[] {
  return box.holderStems.getOrCompute(`${holder} ${tool}`, (text) => box.lowerTokens(text).map((w) => box.stem(w)));
}

/** A record's own id: its `id`, else a field that reads as one (`@id`, `_id`, `ID`). */
function recordId(box: OfflineToolbox, r: ObsRecord): string | number | boolean | undefined {
  const id = r.fields["id"];
  if (isScalar(id)) return id;
  for (const [k, v] of Object.entries(r.fields)) if (isScalar(v) && normalizeKey(box, k) === "id") return v;
  return undefined;
}

/** A value for a parameter from earlier results: same key, or `id` of the resource the parameter names. */
export function fromObservations(box: OfflineToolbox, p: Param, tool: OfflineToolSpec, records: readonly ObsRecord[], userText: string, relaxed = false): { value: unknown; note: string } | undefined {
  if (records.length === 0) return undefined;
  const W = OBSERVATION_WEIGHTS;
  const key = normalizeKey(box, p.name);
  const isId = isIdParam(box, p);
  const resource = isId ? idResource(box, p, tool.name) : [];
  type Cand = { record: ObsRecord; value: unknown; strength: number };
  let cands: Cand[] = [];
  // Generic keys (`name`, `title`) of other things are not this parameter's value.
  const generic = GENERIC.has(key) && !isId;
  const example = exampleOf(p.schema);
  // A bare `id` is every record's key: it says which record only through the resource it names (below), or an
  // office's id would delete a patient.
  const sameKeys = !generic && !(isId && key === "id");
  for (const r of records) {
    if (sameKeys) {
      for (const [k, v] of Object.entries(r.fields)) {
        if (isScalar(v) && normalizeKey(box, k) === key) cands.push({ record: r, value: v, strength: W.sameKey });
      }
    }
    if (!isId && key !== "id") continue;
    const own = recordId(box, r);
    if (own === undefined) continue;
    if (isId && typeof example === "string" && typeof own === "string" && !idShapeMatches(example, own)) continue;
    const stems = holderStems(box, r.holder, r.tool);
    if (key !== "id") {
      const related = resource.length > 0 && resource.some((w) => stems.includes(w));
      cands.push({ record: r, value: own, strength: related ? W.relatedId : W.anyId });
    } else {
      const related = resource.some((w) => stems.includes(w));
      cands.push({ record: r, value: own, strength: related ? W.relatedBareId : W.anyId });
    }
  }
  // A value the parameter's pattern or format refuses is no candidate (a device id is no scene id).
  const strict = typeof p.schema["pattern"] === "string" || typeof p.schema["format"] === "string" || Array.isArray(p.schema["enum"]) || p.schema["const"] !== undefined;
  if (strict) cands = cands.filter((c) => coerce(box, c.value as string | number | boolean, p.schema) !== undefined);
  if (cands.length === 0) return undefined;
  const lower = userText.toLowerCase();
  let ordinal: number | undefined;
  for (const o of ORDINAL_RULES) {
    if (o.re.test(lower)) {
      ordinal = o.position(Math.max(1, cands[0]?.record.siblings ?? 1));
      break;
    }
  }
  const mention = (r: ObsRecord): number => {
    let n = 0;
    for (const v of Object.values(r.fields)) {
      if (typeof v === "string" && v.length >= 3 && lower.includes(v.toLowerCase())) n += 1 + Math.min(2, v.length / 20);
    }
    return n;
  };
  const scored = cands.map((c, i) => {
    let score = c.strength * W.strength - Math.min(c.record.age, 200) * W.age;
    if (c.record.age >= 100 && c.strength < W.relatedId) score -= W.earlierRequest;
    score += mention(c.record) * W.mention;
    if (ordinal !== undefined && c.record.position === Math.min(ordinal, c.record.siblings - 1)) score += W.ordinal;
    else if (c.record.position === 0) score += W.first;
    return { c, score, i };
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  const best = scored[0];
  if (!best) return undefined;
  if (!relaxed && best.c.strength < W.relatedId && best.c.record.age > 0 && best.score < W.threshold) return undefined;
  const value = coerce(box, best.c.value as string | number | boolean, p.schema) ?? (typeof best.c.value === "string" ? best.c.value : undefined);
  if (value === undefined) return undefined;
  return { value, note: `${p.name} from the ${best.c.record.tool} result` };
}
