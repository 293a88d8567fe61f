import { isSecretKey } from "../../export/redact-record.js";

/*
 * The evidence a final answer carries: the facts the solution's calls returned (values in their response bodies
 * that neither the instruction nor the call's own arguments gave) found in the answer's text. ToolAlpaca's sets
 * have no reference answers, so a rule judge can only ask whether the answer reports what the calls found: for
 * every tool of the golden answer whose successful calls returned facts, at least one of them in the answer. A call
 * whose result only fed a later call (a search for the id a get then needs) is a lookup, not something to report.
 */

/** One value a call returned. */
export type Fact = string | number;

/** The response verdict by evidence, with what it rests on. */
export interface ResponseEvidence {
  verdict: "Yes" | "No" | "n/a";
  /** Why, in a few words (which tools' facts are missing, or why nothing could be checked). */
  reason: string;
  /** Per gold tool with facts: how many facts it returned and which were found in the answer (at most 5). */
  tools: Array<{ tool: string; facts: number; found: Fact[] }>;
}

/** A call of the solution as the rule judge reads it. */
export interface EvidenceCall {
  name: string;
  arguments: unknown;
  status?: number;
  body?: unknown;
}

const MAX_FACTS = 60;
const MAX_FACT_LENGTH = 160;
const GENERIC = new Set(["true", "false", "null", "none", "n/a", "ok", "success", "successful", "yes", "no", "string", "application/json", "bearer", "basic"]);

/** Keys of identifiers (`id`, `roleId`, `user_id`, `uuid`): bookkeeping, not what an answer reports. */
const ID_KEY = /^(id|ID|Id|uuid|UUID|guid|GUID|_id)$|[a-z0-9](Id|ID|Uuid|UUID)$|[_-](id|ID|uuid|UUID)$/;

/**
 * The scalar values of a body (strings and numbers), in document order, at most {@link MAX_FACTS}; values under keys
 * that hold secrets (tokens, keys, passwords) or identifiers are not facts an answer has to repeat, and are left out.
 */
export function factsOf(body: unknown): Fact[] {
  const out: Fact[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (out.length >= MAX_FACTS || depth > 10) return;
    if (typeof v === "number" && Number.isFinite(v)) out.push(v);
    else if (typeof v === "string") {
      const t = v.trim();
      if (t.length >= 2 && t.length <= MAX_FACT_LENGTH && !GENERIC.has(t.toLowerCase())) out.push(t);
    } else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) if (!isSecretKey(k) && !ID_KEY.test(k)) walk(x, depth + 1);
  };
  walk(body, 0);
  return out;
}

function normalizeText(s: string): string {
  return s
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/\s+/g, " ");
}

/** The numbers written in a text (`1,234.5`, `-3`, `77.33`), with the decimals each was written with. */
function numbersIn(text: string): Array<{ value: number; decimals: number }> {
  const out: Array<{ value: number; decimals: number }> = [];
  for (const m of text.matchAll(/-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/g)) {
    const raw = m[0].replace(/,/g, "");
    const value = Number(raw);
    if (Number.isFinite(value)) out.push({ value, decimals: raw.includes(".") ? (raw.split(".")[1] as string).length : 0 });
  }
  return out;
}

/** Whether a text states a fact: a string as written (words bounded when short), a number as written or rounded. */
export function mentions(text: string, fact: Fact, numbers = numbersIn(text)): boolean {
  if (typeof fact === "number") {
    return numbers.some((n) => n.value === fact || (n.decimals > 0 && Math.abs(n.value - fact) <= 0.5 * 10 ** -n.decimals + 1e-12) || (n.decimals === 0 && !Number.isInteger(fact) && Math.round(fact) === n.value && Math.abs(fact) >= 10));
  }
  const f = normalizeText(fact);
  const t = normalizeText(text);
  if (/^-?\d+(\.\d+)?$/.test(f)) return mentions(text, Number(f), numbers);
  if (f.length <= 3) return new RegExp(`(^|[^a-z0-9])${f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^a-z0-9])`).test(t);
  return t.includes(f);
}

/** Every scalar of a body (identifiers included), as text. */
function scalarsOf(body: unknown, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 10 || out.size > 500) return out;
  if (typeof body === "string" || typeof body === "number") {
    const t = String(body).trim();
    if (t.length >= 2) out.add(t.toLowerCase());
  } else if (Array.isArray(body)) for (const x of body) scalarsOf(x, out, depth + 1);
  else if (body !== null && typeof body === "object") for (const x of Object.values(body)) scalarsOf(x, out, depth + 1);
  return out;
}

/**
 * The successful calls whose results a later call used as an argument value the instruction did not give (lookups: a
 * search for the id a get needs).
 */
function lookupSteps(calls: readonly EvidenceCall[], instruction: string): Set<EvidenceCall> {
  const out = new Set<EvidenceCall>();
  calls.forEach((c, i) => {
    if (c.status === undefined || c.status < 200 || c.status >= 300) return;
    const returned = scalarsOf(c.body);
    if (returned.size === 0) return;
    const used = calls.slice(i + 1).some((later) => {
      const args = scalarsOf(typeof later.arguments === "string" ? safeParse(later.arguments) : later.arguments);
      // A value the instruction gives came from the user, not from the earlier result.
      return [...args].some((a) => returned.has(a) && !mentions(instruction, a));
    });
    if (used) out.add(c);
  });
  return out;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether a fact was given to the call rather than found by it: it is in the instruction or in the call's arguments. */
function given(fact: Fact, instruction: string, args: unknown): boolean {
  if (mentions(instruction, fact)) return true;
  const argText = typeof args === "string" ? args : JSON.stringify(args ?? {});
  return typeof fact === "string" ? normalizeText(argText).includes(normalizeText(fact)) : mentions(argText, fact);
}

/**
 * Judges a final answer by evidence: `Yes` when, for every tool of the golden answer whose successful (2xx) calls
 * returned facts, the answer states at least one of them; `No` without a final answer, when the solution made no
 * successful call of a golden tool, or when a tool's facts are all missing; `n/a` when there is no golden call or
 * the golden tools' calls returned nothing to check.
 */
export function responseEvidence(goldTools: readonly string[], calls: readonly EvidenceCall[], final: string | undefined, instruction: string): ResponseEvidence {
  const tools = [...new Set(goldTools)];
  if (tools.length === 0) return { verdict: "n/a", reason: "the golden answer calls no tool", tools: [] };
  if (final === undefined || final.trim() === "") return { verdict: "No", reason: "no final answer", tools: [] };
  const ok = calls.filter((c) => tools.includes(c.name) && c.status !== undefined && c.status >= 200 && c.status < 300);
  if (ok.length === 0) return { verdict: "No", reason: "no successful call of a golden tool: the answer cannot report what the calls return", tools: [] };
  const numbers = numbersIn(final);
  const report: ResponseEvidence["tools"] = [];
  const steps = lookupSteps(calls, instruction);
  for (const tool of tools) {
    const mine = ok.filter((x) => x.name === tool);
    // A tool whose every call only fed a later call (a search for the id a get needs) has nothing the answer must report.
    if (mine.every((c) => steps.has(c))) continue;
    const facts: Fact[] = [];
    for (const c of mine) if (!steps.has(c)) for (const f of factsOf(c.body)) if (!given(f, instruction, c.arguments) && !facts.includes(f)) facts.push(f);
    if (facts.length === 0) continue;
    report.push({ tool, facts: facts.length, found: facts.filter((f) => mentions(final, f, numbers)).slice(0, 5) });
  }
  if (report.length === 0) return { verdict: "n/a", reason: "the golden tools' calls returned no facts to look for (beyond identifiers, secrets and what was given)", tools: [] };
  const missing = report.filter((r) => r.found.length === 0).map((r) => r.tool);
  return missing.length === 0
    ? { verdict: "Yes", reason: `the answer states what ${report.map((r) => r.tool).join(", ")} returned`, tools: report }
    : { verdict: "No", reason: `the answer states nothing ${missing.join(", ")} returned`, tools: report };
}
