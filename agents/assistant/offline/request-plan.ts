import { isObject, type Json } from "../../../specs/json-object.js";
import { stableStringify } from "../../../specs/stable-stringify.js";
import { COURTESY_WORDS, REFERENCE_WORDS, STOP_WORDS } from "../../language/lexicon/function-words.js";
import { QUERY_NAMES } from "../../language/lexicon/names.js";
import { lemma } from "../../language/inflect.js";
import { verbKindsOf } from "../../language/operation-words.js";
import { withoutCourtesy, withoutLooseParticles } from "../../language/phrasal.js";
import type { SpanKind } from "../../language/text-facts.js";
import { tokenize } from "../../language/tokenize.js";
import { succeeded, type Call, type History, type RequestView } from "./dialogue-history.js";
import { recordsOf, scalarLeaves, type ObsRecord } from "./observations.js";
import type { OfflineToolbox, ToolIndexView } from "./offline-types.js";
import { idResource, isIdParam, normalizeKey } from "./param-traits.js";
import { fillArguments } from "./slot-filling.js";
import { contentStems } from "./tool-index.js";
import { paramsOf, schemaType } from "./tool-params.js";
import type { OfflineToolSpec } from "./offline-types.js";
import { LEFTOVER_KINDS, preferLinkedTools, rankTools } from "./tool-ranking.js";
import { toolTraits } from "./tool-traits.js";

/*
 * The plan of a request: one tool per clause, in order; with a ToolSearcher (API-Bank's retrieve and plan
 * levels) each clause is first looked up in the catalogue; a step that needs an id nobody gave is preceded by a
 * search that can find it.
 */

/** One step of the plan. */
export interface Step {
  tool: OfflineToolSpec;
  clause: string;
  /** Inserted to find an id the next step needs. */
  implicit: boolean;
  /** Arguments decided when the step was planned (implicit searches, tool searches). */
  args?: Json;
  /** A ToolSearcher call for the clause. */
  search?: boolean;
}

/** A planned step and how its tool ranked (for the debug notes). */
export interface RankNote {
  clause: string;
  tool: string;
  score: number;
  runnerUp?: { tool: string; score: number };
}

/** Lemmas of the words that make a clause a courtesy. */
const COURTESY = new Set(COURTESY_WORDS.map((w) => lemma(w)));
const REFERENCE = new Set(REFERENCE_WORDS);

/** Whether a later clause asks for something (not "Can you take care of it?", "Thanks!" or "Go ahead"). */
function asksSomething(box: OfflineToolbox, clause: string): boolean {
  const stems = contentStems(box, withoutLooseParticles(withoutCourtesy(clause))).filter((w) => !COURTESY.has(w));
  return stems.length > 0;
}

/** Value kinds that say nothing about which tool is needed: they leave a ToolSearcher's keywords. */
const VALUE_KINDS = new Set<SpanKind>([...LEFTOVER_KINDS, "code3", "code2", "lang", "proper"]);

/** The words a ToolSearcher gets for a clause: its content words without values and courtesies, plus the nouns of earlier clauses. */
function searchKeywords(box: OfflineToolbox, clause: string, nouns: readonly string[]): string {
  const facts = box.factsOf(clause);
  let text = clause;
  for (const span of [...facts.spans].reverse()) if (VALUE_KINDS.has(span.kind)) text = text.slice(0, span.start) + " " + text.slice(span.end);
  text = withoutLooseParticles(withoutCourtesy(text));
  const words: string[] = [];
  for (const w of [...tokenize(text), ...nouns]) {
    const lower = w.toLowerCase();
    if (STOP_WORDS.has(lower) || REFERENCE.has(lower) || lower.length < 3 || /^\d/.test(lower) || words.includes(lower)) continue;
    words.push(lower);
  }
  return words.slice(0, 8).join(" ");
}

function searcherArguments(box: OfflineToolbox, searcher: OfflineToolSpec, keywords: string): Json {
  const params = paramsOf(box, searcher.parameters);
  const p = params.find((x) => x.required && schemaType(x.schema) !== "object") ?? params[0];
  return p ? { [p.name]: schemaType(p.schema) === "array" ? keywords.split(" ") : keywords } : {};
}

/** The names of the tools one ToolSearcher call found. */
function foundToolNames(call: Call): string[] {
  if (!succeeded(call)) return [];
  const out: string[] = [];
  for (const r of recordsOf(call.result?.body, call.name, 0)) {
    const name = r.fields["name"] ?? r.fields["api_name"] ?? r.fields["tool"];
    if (typeof name === "string" && !out.includes(name)) out.push(name);
  }
  return out;
}

/** Tools a ToolSearcher result describes (`[{name, description, parameters}]` anywhere in the body). */
export function discoveredTools(history: History, bound: readonly OfflineToolSpec[]): OfflineToolSpec[] {
  const known = new Set(bound.map((t) => t.name));
  const out: OfflineToolSpec[] = [];
  for (const req of history.requests) {
    for (const call of req.calls) {
      if (!succeeded(call) || !/tool/i.test(call.name)) continue;
      for (const r of recordsOf(call.result?.body, call.name, 0)) {
        const name = r.fields["name"] ?? r.fields["api_name"] ?? r.fields["tool"];
        if (typeof name !== "string" || known.has(name)) continue;
        const params = r.fields["parameters"] ?? r.fields["input_parameters"] ?? r.fields["input"];
        if (!isObject(params)) continue;
        known.add(name);
        const description = typeof r.fields["description"] === "string" ? r.fields["description"] : "";
        const schema = isObject(params["properties"]) ? params : { type: "object", properties: params };
        out.push({ name, description, parameters: schema });
      }
    }
  }
  return out;
}

/** The plan of the current request: a step per clause that asks for something, in order, and how each tool ranked. */
export function planSteps(box: OfflineToolbox, req: RequestView, tools: readonly OfflineToolSpec[], records: readonly ObsRecord[]): { steps: Step[]; notes: RankNote[] } {
  const searcher = tools.find((t) => toolTraits(box, t).searcher);
  const candidates = tools.filter((t) => !toolTraits(box, t).searcher);
  const index = box.index(candidates);
  const clauses = box.clauses(req.text, index.catalogVerbs());
  const nameStems = index.nameStems();
  const steps: Step[] = [];
  const notes: RankNote[] = [];
  // The field names of this request's results so far (`placeId` of a geocoding result): what a later step can take.
  const resultKeys = new Set(records.filter((r) => r.age < 100).flatMap((r) => Object.keys(r.fields).map((k) => normalizeKey(box, k))));
  for (const [i, clause] of clauses.entries()) {
    // "Thanks!", "Can you take care of it?", "Go ahead": courtesy, not a request of its own.
    if ((i > 0 || clauses.length > 1) && !asksSomething(box, clause)) continue;
    // Earlier clauses lend the resources they name ("books", "glossary"), not their verbs or values.
    const nouns = i > 0 ? tokenize(clauses.slice(0, i).join(" ")).filter((w) => nameStems.has(box.stem(w)) && verbKindsOf(box.stem(w)).length === 0) : [];
    // With a tool searcher, a clause is matched against the tools its own search found (API-Bank: retrieve, then call).
    let pool = candidates;
    let poolIndex: ToolIndexView = index;
    if (searcher) {
      const keywords = searchKeywords(box, clause, nouns) || searchKeywords(box, clause, []) || nouns.join(" ").toLowerCase();
      if (keywords.trim() === "") continue;
      const args = searcherArguments(box, searcher, keywords);
      const searchCall = req.calls.find((c) => c.name === searcher.name && stableStringify(c.args) === stableStringify(args));
      if (!searchCall) {
        steps.push({ tool: searcher, clause, implicit: false, args, search: true });
        break;
      }
      const found = new Set(foundToolNames(searchCall));
      const own = candidates.filter((t) => found.has(t.name));
      if (own.length > 0) {
        pool = own;
        poolIndex = box.index(own);
      }
    }
    if (pool.length === 0) continue;
    const ranked = rankTools(box, poolIndex, pool, clause, nouns.join(" "), i === 0 ? req : { ...req, replies: [] });
    preferLinkedTools(
      box,
      ranked,
      pool,
      clause,
      steps.filter((x) => x.search !== true).map((x) => x.tool),
      poolIndex,
      resultKeys,
    );
    const best = ranked[0];
    if (!best || best.bm25 <= 0) continue;
    let pick = best;
    // A later clause that lands on a planned tool usually means the next best one ("the details of the top article").
    if (steps.some((x) => x.tool.name === pool[best.tool]?.name)) {
      const runner = ranked.find((r) => r !== best && !steps.some((x) => x.tool.name === pool[r.tool]?.name));
      if (!runner || runner.score < 0.75 * best.score) continue;
      pick = runner;
    }
    const tool = pool[pick.tool];
    if (!tool) continue;
    steps.push({ tool, clause, implicit: false });
    const runner = ranked[1];
    const runnerTool = runner ? pool[runner.tool] : undefined;
    notes.push({ clause, tool: tool.name, score: pick.score, ...(runner && runnerTool ? { runnerUp: { tool: runnerTool.name, score: runner.score } } : {}) });
  }
  return { steps, notes };
}

/** The plan with implicit steps: a step that needs an id nobody gave is preceded by a search that can find it. */
export function withImplicitSearches(box: OfflineToolbox, steps: readonly Step[], req: RequestView, tools: readonly OfflineToolSpec[], userText: string, records: readonly ObsRecord[]): Step[] {
  const expanded: Step[] = [];
  const clauses = [...new Set(steps.map((s) => s.clause))];
  for (const step of steps) {
    if (step.search === true) {
      expanded.push(step);
      continue;
    }
    const fill = fillArguments(box, { tool: step.tool, request: req, userText, records, optional: true, clause: step.clause, others: clauses.filter((c) => c !== step.clause) });
    const missingIds = fill.missing.filter((p) => isIdParam(box, p));
    const firstMissing = missingIds[0];
    if (firstMissing && !toolTraits(box, step.tool).lister) {
      const resource = idResource(box, firstMissing, step.tool.name);
      // Values the step itself uses are not search terms ("replace a book ... genre mystery").
      const stepValues = new Set(scalarLeaves(fill.args).map((v) => stableStringify(v)));
      const lister = tools
        .filter((t) => t.name !== step.tool.name && toolTraits(box, t).lister && !toolTraits(box, t).searcher && !steps.some((x) => x.tool.name === t.name && x !== step))
        .map((t) => {
          const words = toolTraits(box, t).nameStems;
          const related = resource.filter((r) => words.includes(r)).length;
          const f = fillArguments(box, { tool: t, request: req, userText: step.clause, records: [], optional: true, clause: step.clause });
          let args = f.args;
          let fresh = Object.values(args).filter((v) => !stepValues.has(stableStringify(v))).length;
          if (fresh === 0) {
            // A quoted title or a proper name the step cannot use goes to the search's query parameter.
            const qp = paramsOf(box, t.parameters).find((p) => QUERY_NAMES.includes(p.name.toLowerCase()) && schemaType(p.schema) === "string" && args[p.name] === undefined);
            const span = req.facts.spans.find((x) => (x.kind === "quoted" || x.kind === "proper") && !stepValues.has(stableStringify(x.value)));
            if (qp && span) {
              args = { ...args, [qp.name]: String(span.value) };
              fresh = 1;
            }
          }
          return { t, related, f, args, fresh };
        })
        .filter((x) => x.related > 0 && x.f.missing.length === 0 && x.fresh > 0)
        .sort((a, b) => b.related - a.related || b.fresh - a.fresh)[0];
      if (lister && !expanded.some((s) => s.tool.name === lister.t.name)) expanded.push({ tool: lister.t, clause: step.clause, implicit: true, args: lister.args });
    }
    expanded.push(step);
  }
  return expanded;
}
