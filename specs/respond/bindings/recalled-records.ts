import { pointerSegment } from "../../json-object.js";
import { cloneJson } from "../../synthesize/synthesis-rules.js";
import { deriveSeed } from "../../seed.js";
import type { ResponseContext } from "../responder.js";
import { seededUuid } from "../fresh-id.js";
import { answerRecords, knownNatural, knownRecord, naturalRecords, NATURAL_FIELDS, type AnswerRecord } from "../world/entity-memory.js";
import { exampleRecord } from "../world/example-records.js";
import { isSessionOperation, knownSessionUser, sessionFields, sessionRecord } from "../world/session-user.js";
import { rememberedParts } from "../world/shared-parts.js";
import type { Edits } from "./answer-edits.js";

/**
 * Records an answer shows that are already known: what the episode showed or stored of them, or what the spec's
 * examples say of them. They keep what is known, so that one id means one record; a known record the call made
 * to differ is another record, with another id.
 */

type Json = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Records of the answer that the episode knows (the state's, or an earlier answer's) take their known
 * scalar fields, so that one id means one record across the episode. Returns the recalled records with the
 * pointers of the fields they took.
 */
export function recall(ctx: ResponseContext, out: unknown, edits: Edits): Array<{ record: AnswerRecord; pointers: Set<string> }> {
  const recalled: Array<{ record: AnswerRecord; pointers: Set<string> }> = [];
  // A store that knows nothing (a stateless call's) recalls nothing.
  if (ctx.state.isBlank) return recalled;
  for (const r of answerRecords(out, ctx.call.tool.operation)) {
    // The parts it shares with what it points at (a booking's itinerary is its offer's).
    const parts = rememberedParts(ctx, r);
    for (const [k, v] of Object.entries(parts ?? {})) if (JSON.stringify(r.record[k]) !== JSON.stringify(v)) edits.writeKey(r.record, k, `${r.pointer}/${pointerSegment(k)}`, cloneJson(v));
    const known = knownRecord(ctx, r.noun, r.id);
    if (!known || known === r.record) continue;
    const pointers = new Set<string>();
    for (const [k, v] of Object.entries(r.record)) {
      const kv = known[k];
      if (kv === undefined || (kv !== null && typeof kv === "object") || (v !== null && typeof v === "object")) continue;
      const pointer = `${r.pointer}/${pointerSegment(k)}`;
      pointers.add(pointer);
      if (kv !== v) edits.writeKey(r.record, k, pointer, kv);
      else edits.pinned.add(pointer);
    }
    if (pointers.size > 0) recalled.push({ record: r, pointers });
  }
  // An answer about the caller is the session's user (the one registered or logged in).
  const session = isSessionOperation(ctx) ? sessionRecord(out) : undefined;
  const known = session ? knownSessionUser(ctx) : undefined;
  const fields = session ? sessionFields(ctx, session.record) : undefined;
  if (session && fields) {
    for (const [k, v] of Object.entries(fields)) {
      const pointer = `${session.pointer}/${pointerSegment(k)}`;
      if (session.record[k] !== v) edits.writeKey(session.record, k, pointer, v);
      else edits.pinned.add(pointer);
    }
  } else if (session && known) {
    // Another person (a login with another e-mail): not the session user's id.
    const idKey = ["id", "uuid", "userId", "user_id"].find((k) => k in session.record);
    const next = idKey !== undefined && session.record[idKey] === known[idKey] ? anotherId(ctx, "user", session.record[idKey], session.pointer) : undefined;
    if (idKey !== undefined && next !== undefined) edits.writeKey(session.record, idKey, `${session.pointer}/${pointerSegment(idKey)}`, next);
  }
  // A thing named by a natural key keeps what earlier answers called it.
  for (const r of naturalRecords(out)) {
    const known = knownNatural(ctx, r);
    if (!known) continue;
    for (const f of NATURAL_FIELDS) {
      const kv = known[f];
      if (typeof kv !== "string" || typeof r.record[f] !== "string") continue;
      const pointer = `${r.pointer}/${pointerSegment(f)}`;
      if (kv !== r.record[f]) edits.writeKey(r.record, f, pointer, kv);
      else edits.pinned.add(pointer);
    }
  }
  return recalled;
}

/**
 * A new id in the shape of another, not known to the episode: a uuid for a uuid, else the same characters
 * class by class (digits for digits, letters for letters, hex stays hex) with the last ones changed, so that
 * a pattern the id fits (`^art_[A-Za-z0-9]{12}$`) still fits.
 */
export function anotherId(ctx: ResponseContext, noun: string, id: unknown, salt: string): unknown {
  for (let i = 0; i < 16; i++) {
    const seed = deriveSeed(ctx.seed, "another-id", salt, i);
    let candidate: unknown;
    if (typeof id === "number") candidate = Number.isInteger(id) ? id + 1 + (seed % 8999) : undefined;
    else if (typeof id === "string" && UUID.test(id)) candidate = seededUuid(seed);
    else if (typeof id === "string" && id.length > 0) {
      const hex = /^[0-9a-f-]+$/i.test(id.replace(/^[a-z]+_/i, ""));
      const chars = [...id];
      let changed = 0;
      for (let k = chars.length - 1, r = seed; k >= 0 && changed < 4; k--) {
        const c = chars[k] as string;
        const pick = (alphabet: string): string => alphabet[(r = deriveSeed(r, k)) % alphabet.length] as string;
        if (/[0-9]/.test(c)) chars[k] = pick("0123456789");
        else if (/[a-z]/.test(c)) chars[k] = pick(hex ? "abcdef" : "abcdefghijklmnopqrstuvwxyz");
        else if (/[A-Z]/.test(c)) chars[k] = pick(hex ? "ABCDEF" : "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
        else continue;
        changed++;
      }
      candidate = chars.join("");
    }
    if (candidate === undefined) return undefined;
    if (candidate !== id && recordOf(ctx, noun, String(candidate)) === undefined) return candidate;
  }
  return undefined;
}

/**
 * What the spec's examples say of a record the episode does not know, when the answer shows one of their ids (a
 * field example such as `id: 48213` is drawn often): recipe 48213 is the search example's Indian curry for 4.
 * A record the call made to differ from its example (a field a binding set to another value; the view the call
 * asked for, `servings=6`, differs by design) is another record: it gets another id, unless the call named it.
 */
export function recallExamples(ctx: ResponseContext, out: unknown, edits: Edits, named: ReadonlySet<string>, views: ReadonlyArray<{ pointer: string }>): void {
  const bound = new Set(edits.pinned);
  for (const e of edits.list) bound.add(e.pointer);
  for (const r of answerRecords(out, ctx.call.tool.operation)) {
    if (knownRecord(ctx, r.noun, r.id) !== undefined) continue;
    const example = exampleRecord(ctx.catalog, r.noun, r.id);
    if (example === undefined || example === r.record) continue;
    const writes: Array<[key: string, pointer: string, value: unknown]> = [];
    let refitted = false;
    for (const [k, v] of Object.entries(r.record)) {
      const kv = example[k];
      if (kv === undefined || kv === v || (v !== null && typeof v === "object")) continue;
      const pointer = `${r.pointer}/${pointerSegment(k)}`;
      if (views.some((view) => view.pointer === pointer)) continue;
      if (bound.has(pointer)) {
        refitted = true;
        break;
      }
      writes.push([k, pointer, kv]);
    }
    if (!refitted) for (const [k, pointer, kv] of writes) edits.writeKey(r.record, k, pointer, kv);
    else {
      const idKey = idKeyOf(r);
      if (idKey !== undefined && !named.has(`${r.pointer}/${pointerSegment(idKey)}`)) renumber(ctx, r, idKey, edits);
    }
  }
}

/** The field holding a record's id (`id`, `uuid`, `recipeId`), if it is one of its own. */
export function idKeyOf(r: AnswerRecord): string | undefined {
  return Object.keys(r.record).find((k) => String(r.record[k]) === r.id && (k === "id" || k === "uuid" || /id$/i.test(k)));
}

/** Gives a record another id than the one it has (a known record refitted to the call is another record). */
export function renumber(ctx: ResponseContext, r: AnswerRecord, idKey: string, edits: Edits): void {
  const next = anotherId(ctx, r.noun, r.record[idKey], r.pointer);
  if (next !== undefined) edits.writeKey(r.record, idKey, `${r.pointer}/${pointerSegment(idKey)}`, next);
}

/** What is known of a record: what the episode showed or stored, else what the spec's examples say of it. */
function recordOf(ctx: ResponseContext, noun: string, id: string): Json | undefined {
  return knownRecord(ctx, noun, id) ?? exampleRecord(ctx.catalog, noun, id);
}
