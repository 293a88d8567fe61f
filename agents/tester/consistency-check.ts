import { checkBindings, type ResourceLookup } from "../../specs/respond/bindings/binding-check.js";
import { bindingsOf, type EffectBinding } from "../../specs/respond/bindings/bindings.js";
import { answerRecords, nounOfOperation } from "../../specs/respond/world/entity-memory.js";
import { singularNoun } from "../../specs/singular-noun.js";
import { sameValue } from "../../specs/respond/bindings/binding-values.js";
import type { AgentContext } from "../roles/agent-context.js";
import type { CallRecord, EpisodeTranscript } from "../roles/roles.js";
import { isObject } from "../../specs/json-object.js";
import { entityContradictions } from "./entity-contradictions.js";

/**
 * The tester's `consistency` stage: a checker, written apart from the responders, of whether the world an
 * episode observed holds together.
 * - Each successful observation against its call's bindings (a forecast for the city asked, holidays of the
 *   year asked, search results that mention the query, a cancelled booking that says so, order lines priced
 *   as the books the episode saw).
 * - Each successful observation against the world (`entity-contradictions.ts`): its places, journeys, money,
 *   languages and lists hang together.
 * - One id is one person: an id shows the e-mail (or username) it showed before, unless a call set it.
 * - Observations against the state the episode built: a record read after a write holds what was written
 *   (and what an action left), a deleted record is not read back.
 * - Each final answer against the observations it cites: a number it gives for a field the observations
 *   name is one of that field's observed values.
 * Reasons name the call, its tool, the field, the argument and both values (`calls[2] "getForecast": field
 * "location.name" = "Lisbon" where argument "city" = "Amsterdam"`), so the run's funnel groups them by tool
 * and field.
 */

type Json = Record<string, unknown>;

const q = (v: unknown): string => {
  const s = JSON.stringify(v === undefined ? null : v) ?? "null";
  return s.length > 80 ? `${s.slice(0, 77)}..."` : s;
};

function ok(rec: CallRecord): boolean {
  return rec.result.status >= 200 && rec.result.status <= 299 && rec.result.source !== "route" && rec.result.source !== "validation";
}

function argsOf(rec: CallRecord): Json {
  if (isObject(rec.call.arguments)) return rec.call.arguments;
  if (typeof rec.call.arguments === "string") {
    try {
      const parsed: unknown = JSON.parse(rec.call.arguments);
      return isObject(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  return {};
}

/** What the checker knows of one record: its last observed fields, the fields a write set (and by which call), whether it was deleted. */
interface Known {
  fields: Json;
  written: Map<string, { value: unknown; by: number }>;
  deleted?: number;
}

/** The `consistency` stage's reasons for an episode (empty when its world holds together). */
export function checkConsistency(episode: EpisodeTranscript, ctx?: AgentContext): string[] {
  const reasons: string[] = [];
  const known = new Map<string, Known>();
  const people = new Map<string, { value: string; by: number }>();
  const keyOf = (toolset: string, noun: string, id: string): string => `${toolset}\u0000${noun}\u0000${id}`;
  episode.calls.forEach((rec, i) => {
    if (!ok(rec)) return;
    const entry = ctx?.toolbox.get(rec.call.name);
    const toolset = rec.toolset ?? entry?.toolset.name ?? "";
    const op = rec.result.operation ?? entry?.tool.operation;
    if (!op) return;
    const args = argsOf(rec);
    const body = rec.result.body;
    const where = `calls[${i}] ${q(rec.call.name)}`;
    // The call's bindings.
    if (entry) {
      const bindings = bindingsOf(entry.toolset.catalog, entry.tool);
      const lookup: ResourceLookup = (collection, id) => known.get(keyOf(toolset, singularNoun(collection.slice(collection.lastIndexOf("/") + 1)), id))?.fields;
      for (const v of checkBindings(bindings, args, body, lookup)) {
        if (v.resource) reasons.push(`${where}: field ${q(v.field)} = ${q(v.actual)} where ${q(v.resource.path)} (argument ${q(v.argument)}) has ${q(v.resource.field)} = ${q(v.expected)} (reference at ${v.at})`);
        else if (v.argument !== undefined) reasons.push(`${where}: field ${q(v.field)} = ${q(v.actual)} where argument ${q(v.argument)} = ${q(v.expected)} (${v.binding.kind}${v.at !== "" ? ` at ${v.at}` : ""})`);
        else reasons.push(`${where}: field ${q(v.field)} = ${q(v.actual)} where it should be ${q(v.expected)} (${v.binding.kind})`);
      }
    }
    // What a reader sees wrong inside the answer: a place in another country than its city, a flight landing where
    // it left or before it left, a record listed twice...
    for (const c of entityContradictions({ toolset, tool: rec.call.name, method: op.method, path: op.path, args, bodyArgs: new Set(), status: rec.result.status, body })) {
      reasons.push(`${where}: field ${q(c.field)} = ${q(c.actual)} where it should be ${q(c.expected)} (${c.rule}${c.argument !== undefined ? `, argument ${q(c.argument)}` : ""})`);
    }
    // One id is one person: the e-mail or username an id showed is the one it shows again, unless this call sets it.
    for (const r of answerRecords(body, op)) {
      for (const f of ["email", "username"]) {
        const said = r.record[f];
        if (typeof said !== "string") continue;
        const seen = people.get(`${toolset}\u0000${r.id}\u0000${f}`);
        const sets = typeof args[f] === "string" && (args[f] as string).toLowerCase() === said.toLowerCase();
        if (seen !== undefined && seen.value.toLowerCase() !== said.toLowerCase() && !sets) reasons.push(`${where}: ${q(r.noun)} ${q(r.id)} has ${f} ${q(said)} where calls[${seen.by}] showed ${q(seen.value)} for that id`);
        people.set(`${toolset}\u0000${r.id}\u0000${f}`, { value: said, by: i });
      }
    }
    // The state the episode built.
    const method = op.method.toLowerCase();
    const noun = nounOfOperation(op);
    const lastParam = /\{([^}]+)\}(?:\/[^/{}]+)?$/.exec(op.path)?.[1];
    const targetId = lastParam !== undefined ? args[lastParam] : undefined;
    const records = answerRecords(body, op);
    if (method === "delete" && !records.some((r) => r.pointer === "") && (typeof targetId === "string" || typeof targetId === "number")) {
      const k = keyOf(toolset, noun, String(targetId));
      known.set(k, { fields: known.get(k)?.fields ?? {}, written: new Map(), deleted: i });
      return;
    }
    const isWrite = method !== "get" && method !== "head";
    const sent = isObject(rec.result.request?.body) ? (rec.result.request?.body as Json) : {};
    const effects = entry ? bindingsOf(entry.toolset.catalog, entry.tool).filter((b): b is EffectBinding => b.kind === "effect") : [];
    for (const r of records) {
      const k = keyOf(toolset, r.noun, r.id);
      const prior = known.get(k);
      if (prior?.deleted !== undefined && !isWrite) {
        reasons.push(`${where}: answered ${q(r.noun)} ${q(r.id)} which calls[${prior.deleted}] deleted`);
        continue;
      }
      if (prior && !isWrite) {
        for (const [field, w] of prior.written) {
          if (!(field in r.record) || r.record[field] === null || typeof r.record[field] === "object") continue;
          if (field in args && sameValue(r.record[field], args[field])) continue;
          if (!sameValue(r.record[field], w.value)) {
            reasons.push(`${where}: field ${q(field)} of ${q(r.noun)} ${q(r.id)} = ${q(r.record[field])} where calls[${w.by}] ${q(episode.calls[w.by]?.call.name)} left it ${q(w.value)}`);
          }
        }
      }
      const written = new Map(prior?.written ?? []);
      if (isWrite && r.pointer === "") {
        for (const [f, v] of Object.entries(sent)) if (v !== null && typeof v !== "object" && f in r.record) written.set(f, { value: r.record[f], by: i });
        for (const e of effects) {
          const f = e.field.split(".").pop() ?? e.field;
          if (f in r.record) written.set(f, { value: r.record[f], by: i });
        }
      }
      const scalars: Json = {};
      for (const [f, v] of Object.entries(r.record)) if (v === null || typeof v !== "object") scalars[f] = v;
      known.set(k, { fields: { ...(prior?.fields ?? {}), ...scalars }, written });
    }
  });
  reasons.push(...answerNumbers(episode), ...answerWords(episode));
  return reasons;
}

/** Words of a field name (`unitPrice` -> `unit price`). */
function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase()
    .trim();
}

const NUMBER = /-?\d[\d,]*(?:\.\d+)?/g;

/**
 * A final answer's numbers against the observations it cites: where the answer names an observed numeric
 * field (`price`) and gives a number right after it, the number is one of the values observed anywhere (or
 * said by the user); a number no observation has is named with the field and the observed values.
 */
function answerNumbers(episode: EpisodeTranscript): string[] {
  const reasons: string[] = [];
  const finals = episode.ends.map((e, r) => ({ r, text: e.kind === "final" ? e.text : undefined }));
  const userText = episode.dialogue.filter((m) => m.role === "user").map((m) => (typeof m.content === "string" ? m.content : "")).join(" ");
  for (const { r, text } of finals) {
    if (text === undefined) continue;
    const fields = new Map<string, { values: number[]; call: number; tool: string }>();
    const all = new Set<number>();
    episode.calls.forEach((rec, i) => {
      if (rec.request !== r || !ok(rec)) return;
      const visit = (v: unknown, key: string | undefined, depth: number): void => {
        if (depth > 8) return;
        if (Array.isArray(v)) v.forEach((x) => visit(x, key, depth + 1));
        else if (isObject(v)) for (const [k, x] of Object.entries(v)) visit(x, k, depth + 1);
        else if (typeof v === "number" && key !== undefined) {
          all.add(v);
          const w = words(key);
          if (w.length < 3 || /(^| )(id|count|total|number|page|size|limit|offset|year|index)$/.test(w)) return;
          const f = fields.get(w) ?? { values: [], call: i, tool: rec.call.name };
          f.values.push(v);
          fields.set(w, f);
        } else if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v)) all.add(Number(v));
      };
      visit(rec.result.body, undefined, 0);
    });
    if (fields.size === 0) continue;
    const lower = text.toLowerCase();
    for (const [w, f] of fields) {
      if (!lower.includes(w)) continue;
      const mention = new RegExp(`\\b${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "g");
      for (const hit of lower.matchAll(mention)) {
        const at = hit.index ?? 0;
        const after = text.slice(at + w.length, at + w.length + 24);
        const m = /^[^.;\n\d-]{0,14}?(?:is|of|:|=|was|at)?\s*[^\d\s-]{0,3}\s*(-?\d[\d,]*(?:\.\d+)?)(?![\d:/-]|\.\d)/.exec(after);
        if (m?.[1] !== undefined) {
          const n = Number(m[1].replace(/,/g, ""));
          const said = [...userText.matchAll(NUMBER)].some((u) => Number(u[0].replace(/,/g, "")) === n);
          if (Number.isFinite(n) && !all.has(n) && !said && !f.values.some((v) => Math.abs(v - n) < 0.005)) {
            reasons.push(`requests[${r}] final answer: field ${q(w)} = ${q(n)} where calls[${f.call}] ${q(f.tool)} has ${q(f.values.slice(0, 3))}`);
          }
        }
      }
    }
  }
  return reasons;
}

/** A short value of a field, compared without case, quotes or separators (`in_review` ~ `In review`). */
function plain(v: string): string {
  return v.toLowerCase().replace(/["'“”‘’]/g, "").replace(/[_\s-]+/g, " ").trim();
}

/**
 * A final answer's words against the observations it cites: where the answer says what an observed text field
 * holds (`the status is confirmed`) and that field is a short value (a status, a code, a name; not free text),
 * the value is one the observations have for that field (or said by the user); another is named with the field
 * and the observed values.
 */
function answerWords(episode: EpisodeTranscript): string[] {
  const reasons: string[] = [];
  const userText = plain(episode.dialogue.filter((m) => m.role === "user").map((m) => (typeof m.content === "string" ? m.content : "")).join(" "));
  episode.ends.forEach((end, r) => {
    if (end.kind !== "final") return;
    const fields = new Map<string, { values: Set<string>; call: number; tool: string }>();
    const keys = new Set<string>();
    episode.calls.forEach((rec, i) => {
      if (rec.request !== r || !ok(rec)) return;
      const visit = (v: unknown, key: string | undefined, depth: number): void => {
        if (depth > 8) return;
        if (key !== undefined) keys.add(words(key));
        if (Array.isArray(v)) v.forEach((x) => visit(x, key, depth + 1));
        else if (isObject(v)) for (const [k, x] of Object.entries(v)) visit(x, k, depth + 1);
        else if (typeof v === "string" && key !== undefined && v.length <= 40 && v.split(/\s+/).length <= 4) {
          const w = words(key);
          if (w.length < 4 || /(^| )(id|url|uri|href|link|description|summary|text|content|note|notes|message|title|name)$/.test(w)) return;
          const f = fields.get(w) ?? { values: new Set<string>(), call: i, tool: rec.call.name };
          f.values.add(plain(v));
          fields.set(w, f);
        }
      };
      visit(rec.result.body, undefined, 0);
    });
    const lower = end.text.toLowerCase();
    for (const [w, f] of fields) {
      if (!lower.includes(`the ${w} `)) continue;
      const mention = new RegExp(`\\bthe ${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} (?:is|was) (?:now )?"?([^",;.()]{1,40}?)"?(?=[,;.()]|$| and | but )`, "g");
      for (const hit of lower.matchAll(mention)) {
        const said = plain(hit[1] ?? "");
        if (said === "" || /^(not|no|none|unknown|empty|null|missing|set|the same)\b/.test(said)) continue;
        // Another field said in words (`the email is verified` for `emailVerified: true`).
        if (keys.has(`${w} ${said}`) || keys.has(`${said} ${w}`) || keys.has(`is ${w} ${said}`)) continue;
        const agrees = [...f.values].some((v) => v === said || v.includes(said) || said.includes(v)) || userText.includes(said);
        if (!agrees) reasons.push(`requests[${r}] final answer: field ${q(w)} = ${q(said)} where calls[${f.call}] ${q(f.tool)} has ${q([...f.values].slice(0, 3))}`);
      }
    }
  });
  return reasons;
}
