import type { ResponseContext } from "../responder.js";
import { isObject, type Json } from "../../json-object.js";
import { singularNoun } from "../../singular-noun.js";
import { snakeName } from "../../snake-name.js";
import { answerRecords, recordId, type AnswerRecord } from "./entity-memory.js";

/**
 * Parts a record shares with the record it points at: a booking of an offer (`offerId`) flies that offer's
 * `outbound` and `inbound` at its `totalPrice`. The plain objects of a record (objects without an id of their
 * own) are remembered under its noun and id, and under the noun and id of each record it points at; a later
 * answer's record takes, by name, the parts remembered for it and for what it points at.
 */

const NS = "@parts:";
const REFERENCE = /^(.+?)(Id|ID|_id)$/;

/** The plain objects of a record, by key. */
function partsOf(record: Json, noun: string): Json | undefined {
  let out: Json | undefined;
  for (const [k, v] of Object.entries(record)) {
    if (!isObject(v) || Object.keys(v).length === 0 || recordId(v, noun) !== undefined) continue;
    (out ??= {})[k] = v;
  }
  return out;
}

/** The records a record points at: (noun, id) of each `xxxId` field (`offerId: off_1` -> offer off_1). */
function pointsAt(record: Json): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(record)) {
    const m = REFERENCE.exec(k);
    if (!m || (typeof v !== "string" && typeof v !== "number")) continue;
    out.push([singularNoun(snakeName(m[1] as string).split("_").pop() ?? ""), String(v)]);
  }
  return out;
}

/** Remembers the parts of a successful answer's records, for them and for what they point at. */
export function observeParts(ctx: ResponseContext, body: unknown): void {
  if (!isObject(body) && !Array.isArray(body)) return;
  for (const r of answerRecords(body, ctx.call.tool.operation)) {
    const parts = partsOf(r.record, r.noun);
    if (parts === undefined) continue;
    for (const [noun, id] of [[r.noun, r.id] as [string, string], ...pointsAt(r.record)]) {
      ctx.state.observe(`${NS}${noun}`, id, structuredClone(parts));
    }
  }
}

/** The parts an answer's record takes: those remembered for it, then for the records it points at (by key; only keys it has). */
export function rememberedParts(ctx: ResponseContext, r: AnswerRecord): Json | undefined {
  let out: Json | undefined;
  for (const [noun, id] of [[r.noun, r.id] as [string, string], ...pointsAt(r.record)]) {
    const known = ctx.state.observed(`${NS}${noun}`, id);
    if (!known) continue;
    for (const [k, v] of Object.entries(known)) if (isObject(r.record[k]) && (out === undefined || !(k in out))) (out ??= {})[k] = v;
  }
  return out;
}
