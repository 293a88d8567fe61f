import { BACK_REFERENCES, REFERENCE_WORDS, STOP_WORDS } from "../../language/lexicon/function-words.js";
import { CHANGE_KINDS, READ_KINDS, type VerbKind } from "../../language/lexicon/verbs.js";
import { verbKindsOf } from "../../language/operation-words.js";
import { rewritePhrasal, verbSense } from "../../language/phrasal.js";
import type { Span, SpanKind } from "../../language/text-facts.js";
import { tokenize } from "../../language/tokenize.js";
import { anyWord } from "../../language/word-patterns.js";
import type { RequestView } from "./dialogue-history.js";
import type { OfflineToolbox, ToolIndexView } from "./offline-types.js";
import { idResource, isIdParam, normalizeKey } from "./param-traits.js";
import { fillArguments } from "./slot-filling.js";
import type { FillOutcome } from "./offline-types.js";
import { spanKey } from "./slot-values.js";
import { contentStems, NO_SCORES, stemPairs } from "./tool-index.js";
import { leafParams } from "./tool-params.js";
import type { OfflineToolSpec } from "./offline-types.js";
import { toolTraits } from "./tool-traits.js";
import type { Ranked } from "./offline-types.js";

export type { Ranked };

/*
 * Ranking tools for a clause of a request: BM25 over names, descriptions and parameters (the clause leads, earlier
 * clauses and replies help), then the evidence of words (a tool named after the thing asked for, words only one
 * tool knows, the kind of operation asked for), then how well the dialogue fills the leaders.
 */


/** The weights of the tool ranking, in one record (every number of the ranking is here). */
export const RANKING_WEIGHTS = {
  /** Weight of the earlier clauses' words (the clause's own BM25 counts 1). */
  context: 0.3,
  /** Weight of the replies' words. */
  replies: 0.2,
  /** Per word of the tool's name said in the clause (at most 2). */
  exactNameWord: 0.12,
  /** Per resource noun of the tool's name said in the clause (at most 2). */
  nameNoun: 0.2,
  /** The tool is named after the thing the clause's verb acts on. */
  headNoun: 0.2,
  /** A tool that changes things when the words ask for no change. */
  unaskedChange: -0.3,
  /** Any other kind of tool when the words ask for a change. */
  otherKindThanChange: -0.2,
  /** A tool that changes things when the words ask for a read ("fetch the blacklisted items" is no delete of them). */
  changeForRead: -0.4,
  /** Per word only one or two tools know (at most 2; with 4 tools or more). */
  distinctWord: 0.2,
  /** Per pair of adjacent words of the clause that only this tool's description (or one other's) has ("reverse geocoding"; at most 2). */
  phrase: 0.15,
  /** A reading tool that reads the way the clause asks ("search", "show"). */
  sameReadKind: 0.1,
  /** An id the user gave that the tool takes as an id. */
  takesGivenId: 0.15,
  /** Per typed value the tool has no place for (quoted texts and numbers: `leftoverWeak`); at most `leftoverCap`. */
  leftover: 0.1,
  leftoverWeak: 0.03,
  leftoverCap: 0.2,
  /** Per value of the user's the tool takes (at most 3). */
  fromText: 0.1,
  /** Per required value nobody gave (at most 3). */
  missing: -0.05,
  /** A ToolSearcher never answers a request itself. */
  searcher: -0.3,
  /** A list tool named after a plural resource the clause names. */
  pluralLister: 0.15,
  /** A get-by-id tool of a plural resource nobody gave an id of (when the clause searches; else `pluralById`). */
  pluralByIdSearch: -0.3,
  pluralById: -0.1,
  /** A read by id of a resource the clause asks for one of ("get a spin"), with no values given: it asks for the id. */
  singularById: 0.5,
  /** A tool that needs an id nobody gave while another takes the user's values. */
  needsUngivenId: -0.35,
  /** A tool that takes the id of what the earlier steps found, for a clause that points back at them. */
  linked: 0.3,
  /** How many leaders are re-ranked by filling them. */
  refill: 5,
} as const;

const W = RANKING_WEIGHTS;

/** Kinds of values that say nothing about the tool: they leave the query. */
export const LEFTOVER_KINDS = new Set<SpanKind>(["date", "datetime", "email", "url", "id", "quoted", "number", "time"]);
const QUOTED = /"[^"]*"|“[^”]*”/g;
/** "Open the first match", "delete it": a clause that points back at an earlier result. */
export const REFERS_BACK = anyWord(BACK_REFERENCES);
const REFERENCE = new Set(REFERENCE_WORDS);

function kindsOfWord(box: OfflineToolbox, w: string): readonly VerbKind[] {
  return verbKindsOf(box.stem(w));
}

/** Words right before a number that make it an id ("the spin with ID 15553", "order #42", "ticket no. 7"). */
const ID_BEFORE = /(?:\bid|#|\bno\.?|\bnumber)\s*[:#]?\s*$/i;

/** Whether a value of the clause is given as an id: an id, or a number the words call one. */
function givenAsId(clause: string, x: Span): boolean {
  return x.kind === "id" || (x.kind === "number" && ID_BEFORE.test(clause.slice(Math.max(0, x.start - 12), x.start)));
}

/** The tools ranked for a clause (remembered by the toolbox: a request's clauses are ranked again on every turn). */
export function rankTools(box: OfflineToolbox, index: ToolIndexView, tools: readonly OfflineToolSpec[], clause: string, context: string, req: RequestView): Ranked[] {
  const key = `${index.key}\u0002${clause}\u0002${context}\u0002${req.replies.map((r) => r.text).join("\u0003")}`;
  let ranked = box.rankings.get(key);
  if (!ranked) {
    ranked = computeRanking(box, index, tools, clause, context, req);
    box.rankings.set(key, ranked);
  }
  return ranked.map((r) => ({ ...r }));
}

function computeRanking(box: OfflineToolbox, index: ToolIndexView, tools: readonly OfflineToolSpec[], clause: string, context: string, req: RequestView): Ranked[] {
  // Values are not intent: quoted text, e-mails, dates, ids and numbers leave the query.
  const clauseFacts = box.factsOf(clause);
  let query = clause;
  for (const span of [...clauseFacts.spans].reverse()) {
    if (LEFTOVER_KINDS.has(span.kind)) query = query.slice(0, span.start) + " ".repeat(span.end - span.start) + query.slice(span.end);
  }
  // A nested value in parentheses ("(device ID dev-lock-01, set (on yes, brightness 60))") lists details, not the intent.
  query = withoutNestedValues(query);
  // "Show me devices": a plural resource that a list tool is named after asks for the list.
  const plurals = pluralResources(box, clause, index.nameStems());
  const singulars = clauseFacts.spans.length === 0 ? singularResources(box, clause, index.nameStems()) : new Set<string>();
  if (plurals.size > 0 && !clauseFacts.spans.some((x) => x.kind === "id") && tools.some((t) => toolTraits(box, t).lister && toolTraits(box, t).nameStems.some((w) => plurals.has(w)))) query += " list";
  const main = index.scores(verbSense(query));
  const ctx = context.trim() === "" ? NO_SCORES : index.scores(context);
  const replies = req.replies.length > 0 ? index.scores(req.replies.map((r) => r.text).join(" ")) : NO_SCORES;
  const ids = new Set([...main.keys(), ...ctx.keys()]);
  // Each source of words is normalised on its own: the clause leads, earlier clauses and replies help.
  const maxOf = (m: ReadonlyMap<number, number>): number => Math.max(0, ...m.values());
  const [maxMain, maxCtx, maxReplies] = [maxOf(main), maxOf(ctx), maxOf(replies)];
  const combined = (id: number): number =>
    (maxMain > 0 ? (main.get(id) ?? 0) / maxMain : 0) + (maxCtx > 0 ? (W.context * (ctx.get(id) ?? 0)) / maxCtx : 0) + (maxReplies > 0 ? (W.replies * (replies.get(id) ?? 0)) / maxReplies : 0);
  let max = 0;
  for (const id of ids) max = Math.max(max, combined(id));
  if (max <= 0) return [];
  const clauseWords = new Set(tokenize(clause).map((w) => w.toLowerCase()));
  const clauseStems = new Set(contentStems(box, clause.replace(QUOTED, " ")));
  const head = headNounOf(box, clause);
  const queryStems = new Set(contentStems(box, rewritePhrasal(query)).filter((w) => !box.isVerbOrConcept(w)));
  const clauseKinds = new Set(tokenize(rewritePhrasal(verbSense(withoutNestedValues(clause)))).flatMap((w) => (w.length > 4 && /ed$/i.test(w) ? [] : kindsOfWord(box, w))));
  const asksChange = CHANGE_KINDS.some((k) => clauseKinds.has(k));
  const readAsked = READ_KINDS.some((k) => clauseKinds.has(k));
  const clausePairs = stemPairs(box, rewritePhrasal(query));
  const out: Ranked[] = [];
  for (const id of ids) {
    const tool = tools[id];
    if (!tool) continue;
    const bm25 = combined(id);
    let score = bm25 / max;
    const traits = toolTraits(box, tool);
    const exact = traits.nameWords.filter((w) => w.length > 2 && clauseWords.has(w)).length;
    score += Math.min(2, exact) * W.exactNameWord;
    // The resource a tool is named after ("glossary" of getGlossary) says more than a verb ("look up"), and the
    // thing the request's verb acts on ("set up a scene") most.
    const nouns = traits.nameStems.filter((w) => w.length > 2 && verbKindsOf(w).length === 0 && clauseStems.has(w)).length;
    score += Math.min(2, nouns) * W.nameNoun;
    if (head !== undefined && traits.nameStems.includes(head)) score += W.headNoun;
    // Tools that change things are chosen only when the words ask for a change...
    const kind = traits.verbKind;
    if (kind !== undefined && CHANGE_KINDS.includes(kind) && !clauseKinds.has(kind)) score += W.unaskedChange + (!asksChange && readAsked ? W.changeForRead : 0);
    // ...and when the words ask for a change, tools of another kind step back.
    if (asksChange && (kind === undefined || !clauseKinds.has(kind))) score += W.otherKindThanChange;
    // Words that only one or two tools know ("daily") point at them.
    if (tools.length >= 4) {
      let distinct = 0;
      for (const w of queryStems) {
        const holders = index.stemHolders(w);
        if (holders > 0 && holders <= 2 && index.stems[id]?.has(w)) distinct++;
      }
      score += W.distinctWord * Math.min(2, distinct);
    }
    // Words said together as a tool's description says them ("perform a reverse geocoding search") point at it
    // more than the same words apart: a pair of words is a phrase, which bags of words do not see.
    let phrases = 0;
    for (const pair of clausePairs) {
      const holders = index.phraseHolders(pair);
      if (holders > 0 && holders <= 2 && holders < tools.length && index.phrases[id]?.has(pair)) phrases++;
    }
    score += W.phrase * Math.min(2, phrases);
    // A read that says how it reads ("search", "show") prefers tools that read that way.
    if ([...traits.verbKinds].some((k) => READ_KINDS.includes(k) && clauseKinds.has(k))) score += W.sameReadKind;
    out.push({ tool: id, score, bm25 });
  }
  out.sort((a, b) => b.score - a.score || a.tool - b.tool);
  // Re-rank the leaders by how well the dialogue fills them.
  const top = out.slice(0, W.refill);
  const fills = new Map<Ranked, FillOutcome>();
  const clauseKey = (x: Span): string => spanKey({ facts: clauseFacts, index: 0, space: "req", offset: 0 }, x);
  for (const r of top) {
    const tool = tools[r.tool];
    if (!tool) continue;
    const fill = fillArguments(box, { tool, request: { ...req, text: clause, facts: clauseFacts, replies: [] }, userText: clause, records: [], optional: true });
    fills.set(r, fill);
    // An id the user gave that this tool takes as an id ("the glossary 8c1f...") points at it.
    const idValues = new Set(
      leafParams(box, tool.parameters)
        .filter((q) => isIdParam(box, q))
        .map((q) => fill.args[q.name])
        .filter((v) => v !== undefined)
        .map(String),
    );
    if (clauseFacts.spans.some((x) => givenAsId(clause, x) && fill.used.has(clauseKey(x)) && idValues.has(String(x.value)))) r.score += W.takesGivenId;
    // Values the user gave that this tool has no place for count against it (typed values most).
    let leftover = 0;
    for (const x of clauseFacts.spans) {
      if (!LEFTOVER_KINDS.has(x.kind) || fill.used.has(clauseKey(x))) continue;
      leftover += x.kind === "quoted" || (x.kind === "number" && !givenAsId(clause, x)) ? W.leftoverWeak : W.leftover;
    }
    r.score -= Math.min(W.leftoverCap, leftover);
    // Tools that take the user's values score; tools that would need more than was said lose a little.
    r.score += W.fromText * Math.min(3, fill.fromText) + W.missing * Math.min(3, fill.missing.length);
    const traits = toolTraits(box, tool);
    if (traits.searcher) r.score += W.searcher;
    // "Get a spin": one of a resource, nothing given: its read by id (which asks for the id), not its list.
    if (singulars.size > 0 && !asksChange && traits.verbKind === "get" && !traits.lister && traits.nameStems.some((w) => singulars.has(w)) && fill.missing.some((q) => isIdParam(box, q))) r.score += W.singularById;
    // "Show me devices": a plural resource asks for a list, not for one item by an id nobody gave.
    if (plurals.size > 0 && traits.nameStems.some((w) => plurals.has(w))) {
      if (traits.lister) r.score += W.pluralLister;
      // "Look for places": a search, not a read of one place by an id nobody gave.
      else if (fill.missing.some((q) => isIdParam(box, q))) r.score += clauseKinds.has("search") ? W.pluralByIdSearch : W.pluralById;
    }
  }
  // A tool that needs an id nobody gave, while another takes the values the user did give ("the place nearest
  // to 43.65, -79.38" is a reverse geocoding, not a get by place id), steps back.
  const takes = [...fills.values()].some((f) => f.fromText >= 2 && f.missing.length === 0);
  if (takes && !REFERS_BACK.test(clause)) {
    for (const [r, f] of fills) if (f.fromText === 0 && f.missing.some((q) => isIdParam(box, q))) r.score += W.needsUngivenId;
  }
  out.sort((a, b) => b.score - a.score || a.tool - b.tool);
  return out;
}

/** A text without parenthesised groups that hold other groups or several values ("(device ID x, set (on yes))"). */
export function withoutNestedValues(text: string): string {
  let out = text;
  for (let i = 0; i < 3; i++) {
    const next = out.replace(/\(([^()]*)\)/g, (m: string, inner: string) => (/[,()]/.test(inner) || /\u0000/.test(inner) ? " \u0000 " : m));
    if (next === out) break;
    out = next;
  }
  return out.replace(/\u0000/g, " ");
}

const HEAD_SKIPS = new Set(["a", "an", "the", "my", "your", "new", "me", "some", "all", "of", "for", "up"]);

/** The stem of the thing the first verb of a clause acts on ("set up a scene ..." -> `scene`), if any. */
function headNounOf(box: OfflineToolbox, clause: string): string | undefined {
  const words = tokenize(rewritePhrasal(clause.replace(QUOTED, " "))).map((w) => w.toLowerCase());
  const at = words.findIndex((w) => kindsOfWord(box, w).length > 0);
  if (at < 0) return undefined;
  for (const w of words.slice(at + 1, at + 5)) {
    if (HEAD_SKIPS.has(w)) continue;
    if (kindsOfWord(box, w).length > 0 || STOP_WORDS.has(w)) return undefined;
    return box.stem(w);
  }
  return undefined;
}

/** The resources a clause names in the plural ("devices", "upcoming events"), as name stems of the tools. */
/** Words that pick which one of many ("a random recipe", "the latest post"): not a read of one by its id. */
const WHICH_ONE = /\b(random|latest|newest|new|next|first|last|top|popular|recent|nearest|closest|best|cheapest|any)\b/i;

/** Resources a tool is named after that the clause asks for one of, with an indefinite article ("get a spin"). */
function singularResources(box: OfflineToolbox, clause: string, nameStems: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  if (WHICH_ONE.test(clause)) return out;
  const words = tokenize(clause.replace(QUOTED, " ")).map((w) => w.toLowerCase());
  words.forEach((w, i) => {
    if (i === 0 || !/^an?$/.test(words[i - 1] ?? "") || w.length < 3 || /[^s]s$/.test(w) || STOP_WORDS.has(w)) return;
    const st = box.stem(w);
    if (nameStems.has(st) && verbKindsOf(st).length === 0) out.add(st);
  });
  return out;
}

function pluralResources(box: OfflineToolbox, clause: string, nameStems: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  // Quoted text is a value, not the resource asked for.
  for (const w of tokenize(clause.replace(QUOTED, " "))) {
    const lower = w.toLowerCase();
    if (lower.length < 4 || !/[^s]s$/.test(lower) || STOP_WORDS.has(lower)) continue;
    const st = box.stem(lower);
    if (nameStems.has(st) && verbKindsOf(st).length === 0) out.add(st);
  }
  return out;
}

/**
 * "Open the first match", "delete it": a clause that points at an earlier result without naming its resource
 * wants a tool that takes the id of what the earlier steps found (`getBook` after `listBooks`): such tools
 * move up (the ranking is changed in place).
 */
export function preferLinkedTools(
  box: OfflineToolbox,
  ranked: Ranked[],
  pool: readonly OfflineToolSpec[],
  clause: string,
  earlier: readonly OfflineToolSpec[],
  index: ToolIndexView,
  resultKeys: ReadonlySet<string> = new Set(),
): void {
  if ((earlier.length === 0 && resultKeys.size === 0) || !REFERS_BACK.test(clause)) return;
  const names = index.nameStems();
  const own = contentStems(box, clause).filter((w) => !REFERENCE.has(w) && verbKindsOf(w).length === 0 && names.has(w));
  if (own.length > 0) return;
  const earlierStems = new Set(earlier.flatMap((t) => toolTraits(box, t).nameStems));
  let changed = false;
  for (const r of ranked.slice(0, 4)) {
    const tool = pool[r.tool];
    if (!tool || earlier.includes(tool)) continue;
    const linked = leafParams(box, tool.parameters).some(
      (p) => p.required && isIdParam(box, p) && (idResource(box, p, tool.name).some((w) => earlierStems.has(w)) || (normalizeKey(box, p.name) !== "id" && resultKeys.has(normalizeKey(box, p.name)))),
    );
    if (linked) {
      r.score += W.linked;
      changed = true;
    }
  }
  if (changed) ranked.sort((a, b) => b.score - a.score || a.tool - b.tool);
}
