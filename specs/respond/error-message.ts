import type { ResponseContext } from "./responder.js";
import { cloneJson } from "../synthesize/synthesis-rules.js";
import { isObject, type Json } from "../json-object.js";

/**
 * Error bodies about the call that got them: an example written for another resource ("Book bk-9999 not
 * found" from a shared 404) does not name other ids. The requested id is the value of the operation's last
 * path parameter (`/orders/{orderId}`). A 404 (or 410) message naming an id-like token that is none of the
 * call's values (`bk-9999`, a uuid, a word shaped like the requested id: `ZZ9Z9Z` for `QX7K2P`, a number in
 * a not-found message for a numeric id) is written anew from the resource's noun
 * ("Order ord-50002 not found"); another error's message naming one id of the requested id's shape
 * (`rem-2001` for `rem-2004`) gets the requested id in its place. A synthesized 404 body's message field
 * gets the not-found sentence too. Each change
 * is kept only where the body still validates.
 */

const NOT_FOUND = /not\s+found|does\s*n[o']t\s+exist|no\s+such|unknown|could\s*n[o']t\s+find|cannot\s+find|can't\s+find/i;
const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
/** `bk-9999`, `ord_50002`, `usr-7f3a2`, uuids: a letter prefix, a separator and something with a digit. */
const ID_TOKEN = new RegExp(`${UUID}|\\b[A-Za-z]{1,12}[-_](?=[A-Za-z0-9]*\\d)[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*\\b`, "g");
const NUMBER_TOKEN = /\b\d+\b/g;
const MESSAGE_FIELDS = ["message", "detail", "error_description", "errorMessage", "error_message", "description", "msg"];

/** The id a call asks about (its last path parameter's value) and the noun of its resource (`Order`). */
function subjectOf(ctx: ResponseContext): { id: string; noun: string } | undefined {
  const path = ctx.call.tool.operation.path;
  const m = /\/([^/{}]+)\/\{([^}]+)\}$/.exec(path) ?? /\{([^}]+)\}$/.exec(path);
  if (!m) return undefined;
  const param = m.length === 3 ? m[2] : m[1];
  const binding = ctx.call.tool.parameters.find((p) => p.in === "path" && p.name === param);
  const raw = binding ? ctx.call.args[binding.arg] : undefined;
  if (raw === undefined || raw === null || typeof raw === "object") return undefined;
  const segment = m.length === 3 ? (m[1] ?? "") : (param ?? "").replace(/(Id|_id|ID)$/, "");
  return { id: String(raw), noun: nounOf(segment) };
}

function nounOf(segment: string): string {
  let word = segment.replace(/[-_]+/g, " ").trim();
  if (/ies$/.test(word)) word = word.slice(0, -3) + "y";
  else if (/(ss|sh|ch|x)es$/.test(word)) word = word.slice(0, -2);
  else if (/s$/.test(word) && !/ss$/.test(word)) word = word.slice(0, -1);
  word = word.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The kinds of characters of an id with a digit and a letter (`QX7K2P`: upper case and digits), else undefined. */
function shapeOf(id: string): string | undefined {
  if (!/\d/.test(id) || !/[A-Za-z]/.test(id) || /[^A-Za-z0-9_-]/.test(id)) return undefined;
  return [/[A-Z]/.test(id) ? "A" : "", /[a-z]/.test(id) ? "a" : "", /[-_]/.test(id) ? "-" : ""].join("");
}

/** The call's own values, as text: tokens equal to one of them are about this call. */
function callValues(ctx: ResponseContext): Set<string> {
  const out = new Set<string>();
  const add = (v: unknown): void => {
    if (v === null || v === undefined) return;
    if (typeof v === "object") Object.values(v as Json).forEach(add);
    else out.add(String(v));
  };
  add(ctx.call.args);
  add(ctx.call.body);
  return out;
}

/** A message that names other ids, rewritten about the requested one; undefined when it names none. */
function rewritten(text: string, subject: { id: string; noun: string }, own: Set<string>, status: number): string | undefined {
  const numericId = /^\d+$/.test(subject.id);
  const tokens = [...text.matchAll(ID_TOKEN)].map((m) => m[0]);
  if (numericId && NOT_FOUND.test(text)) tokens.push(...[...text.matchAll(NUMBER_TOKEN)].map((m) => m[0]));
  // Words shaped like the requested id (`ZZ9Z9Z` for a booking `QX7K2P`): as long, of the same kinds of characters, with a digit.
  const shape = shapeOf(subject.id);
  if (shape !== undefined) tokens.push(...text.split(/[^A-Za-z0-9_-]+/).filter((w) => w.length === subject.id.length && shapeOf(w) === shape));
  const foreign = [...new Set(tokens.filter((t) => t !== subject.id && !own.has(t)))];
  if (foreign.length === 0) return undefined;
  if (status === 404 || status === 410) return `${subject.noun} ${subject.id} not found`;
  // Another error: one token shaped like the requested id (`rem-2001` for `rem-2004`) stands for it.
  const prefix = /^[A-Za-z]+[-_]/.exec(subject.id)?.[0];
  const alike = prefix !== undefined ? foreign.filter((t) => t.startsWith(prefix)) : [];
  return alike.length === 1 && alike[0] !== undefined ? text.split(alike[0]).join(subject.id) : undefined;
}

/**
 * An error body (status 400 and above) made to be about the call: see the module comment. `synthesized`
 * says the body did not come from the spec's examples. Returns the same body when nothing changes.
 */
export function errorAboutCall(ctx: ResponseContext, status: number, body: unknown, validate: ((v: unknown) => boolean) | undefined, synthesized: boolean): unknown {
  if (status < 400 || !isObject(body)) return body;
  const subject = subjectOf(ctx);
  if (!subject) return body;
  const own = callValues(ctx);
  const out = cloneJson(body);
  let changed = false;
  const visit = (holder: Json, depth: number): void => {
    for (const [k, v] of Object.entries(holder)) {
      if (typeof v === "string") {
        // Sentences only: a field holding just an id (`deviceId`) names what it names.
        const next = synthesized && status === 404 && MESSAGE_FIELDS.includes(k) ? `${subject.noun} ${subject.id} not found` : /\s/.test(v.trim()) ? rewritten(v, subject, own, status) : undefined;
        if (next !== undefined && next !== v) {
          holder[k] = next;
          changed = true;
        }
      } else if (isObject(v) && depth < 2) visit(v, depth + 1);
    }
  };
  visit(out, 0);
  if (!changed) return body;
  return validate === undefined || validate(out) ? out : body;
}
