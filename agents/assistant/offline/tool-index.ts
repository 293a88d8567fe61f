import MiniSearch from "minisearch";
import { isPastForm } from "../../language/inflect.js";
import { CURRENCY_CODES } from "../../language/lexicon/codes.js";
import { KEEP_WORDS, STOP_WORDS } from "../../language/lexicon/function-words.js";
import { groupTerms, verbKindsOf } from "../../language/operation-words.js";
import { rewritePhrasal } from "../../language/phrasal.js";
import { tokenize } from "../../language/tokenize.js";
import { Memo } from "../../roles/memo.js";
import type { OfflineToolbox, ToolIndexView } from "./offline-types.js";
import { catalogVerbs, toolTraits } from "./tool-traits.js";
import { enumOf, paramsOf } from "./tool-params.js";
import type { OfflineToolSpec } from "./offline-types.js";

/*
 * The tool index: BM25 (minisearch) over each tool's split name, description and parameter names and enum values.
 * Every word is indexed as its stem plus the group terms of its verb kind and concepts, so "find" meets "list".
 */

interface ToolDoc {
  id: number;
  name: string;
  description: string;
  params: string;
}

/** The index terms of a token: its stem plus its group terms; stop words give nothing. */
export function processTerm(box: OfflineToolbox, term: string): string[] | null {
  if (CURRENCY_CODES.has(term)) return [term.toLowerCase(), "currency", "xmoney"];
  const lower = term.toLowerCase();
  if (STOP_WORDS.has(lower) && !KEEP_WORDS.has(lower)) return null;
  if (lower.length < 2 && !/^\d$/.test(lower)) return lower === "q" ? ["query"] : null;
  const s = box.stem(lower);
  // A past form describes, it does not ask: "orders I placed" is not "place an order".
  return [s, ...groupTerms(s, isPastForm(lower))];
}

/** The content words of a text, stemmed (no stop words). */
export function contentStems(box: OfflineToolbox, text: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(text)) {
    const lower = t.toLowerCase();
    if (STOP_WORDS.has(lower) && !KEEP_WORDS.has(lower)) continue;
    if (lower.length < 2) continue;
    out.push(box.stem(lower));
  }
  return out;
}

const EMPTY_SCORES: ReadonlyMap<number, number> = new Map();

/**
 * The pairs of adjacent words of a text that name things (`perform a reverse geocoding search` -> `perform revers`,
 * `revers geocod`), as stems: operation verbs (`search`, `get`) break a pair, their own rules weigh them.
 */
export function stemPairs(box: OfflineToolbox, text: string): Set<string> {
  const out = new Set<string>();
  let previous: string | undefined;
  for (const stem of contentStems(box, text)) {
    const naming = verbKindsOf(stem).length === 0;
    if (naming && previous !== undefined && previous !== stem) out.add(`${previous} ${stem}`);
    previous = naming ? stem : undefined;
  }
  return out;
}

/** BM25 over a list of tools, with the scores of query terms remembered. */
export class ToolIndex implements ToolIndexView {
  private readonly search: MiniSearch<ToolDoc>;
  /** The word stems of each tool's name, description and parameters. */
  readonly stems: Array<Set<string>>;
  private readonly scoreMemo = new Memo<string, ReadonlyMap<number, number>>(128);
  private readonly termMemo = new Memo<string, ReadonlyMap<number, number>>(2048);
  private holders: Map<string, number> | undefined;
  /** The pairs of adjacent content words of each tool's description. */
  readonly phrases: Array<Set<string>>;
  private phraseCounts: Map<string, number> | undefined;
  private verbs: string[] | undefined;
  private names: Set<string> | undefined;

  constructor(
    private readonly box: OfflineToolbox,
    readonly tools: readonly OfflineToolSpec[],
    /** The identity of the tool list (equal lists, equal keys). */
    readonly key: string,
  ) {
    this.search = new MiniSearch<ToolDoc>({
      fields: ["name", "description", "params"],
      storeFields: [],
      tokenize,
      processTerm: (term) => processTerm(box, term),
      searchOptions: {
        boost: { name: 2, description: 1, params: 0.6 },
        prefix: (term) => term.length >= 5,
        fuzzy: (term) => (term.length >= 7 ? 0.15 : false),
        combineWith: "OR",
        // Long descriptions are not penalised much: they are documentation, not noise.
        bm25: { k: 1.2, b: 0.3, d: 0.5 },
      },
    });
    this.stems = tools.map((t) => new Set(contentStems(box, `${t.name} ${rewritePhrasal(t.description)} ${paramsOf(box, t.parameters).map((p) => p.name).join(" ")}`)));
    this.phrases = tools.map((t) => stemPairs(box, rewritePhrasal(t.description)));
    this.search.addAll(
      tools.map((t, id) => ({
        id,
        name: t.name,
        description: rewritePhrasal(t.description),
        params: paramsOf(box, t.parameters)
          .map((p) => [p.name, ...(enumOf(p.schema) ?? []).filter((v): v is string => typeof v === "string")].join(" "))
          .join(" "),
      })),
    );
  }

  /**
   * BM25 score per tool index for a text (tools that do not match are absent); shared: do not change it.
   * The same scores as `search(rewritePhrasal(text))` with the index's options (OR over the query's terms: the
   * sum of each term's score, times the number of distinct terms that matched), computed from each term's
   * scores, which are remembered: the words of requests repeat, their combinations do not.
   */
  scores(text: string): ReadonlyMap<number, number> {
    if (text.trim() === "") return EMPTY_SCORES;
    return this.scoreMemo.getOrCompute(text, (t) => {
      const terms = tokenize(rewritePhrasal(t))
        .flatMap((term) => processTerm(this.box, term))
        .filter((term): term is string => !!term);
      const acc = new Map<number, { score: number; terms: string[] }>();
      for (const term of terms) {
        for (const [id, score] of this.termScores(term)) {
          const hit = acc.get(id);
          if (!hit) acc.set(id, { score, terms: [term] });
          else {
            hit.score = hit.score + score;
            if (!hit.terms.includes(term)) hit.terms.push(term);
          }
        }
      }
      const out = new Map<number, number>();
      for (const [id, { score, terms: matched }] of acc) out.set(id, score * (matched.length || 1));
      return out;
    });
  }

  /** The score of each tool for one processed query term (its exact, prefix and fuzzy matches). */
  private termScores(term: string): ReadonlyMap<number, number> {
    return this.termMemo.getOrCompute(term, (t) => {
      const out = new Map<number, number>();
      for (const r of this.search.search(t, { tokenize: (s) => [s], processTerm: (x) => x })) out.set(r.id as number, r.score);
      return out;
    });
  }

  /** How many tools of the index have a word stem. */
  stemHolders(w: string): number {
    if (!this.holders) {
      this.holders = new Map();
      for (const set of this.stems) for (const x of set) this.holders.set(x, (this.holders.get(x) ?? 0) + 1);
    }
    return this.holders.get(w) ?? 0;
  }

  /** How many tools of the index have a pair of adjacent content words in their description. */
  phraseHolders(pair: string): number {
    if (!this.phraseCounts) {
      this.phraseCounts = new Map();
      for (const set of this.phrases) for (const x of set) this.phraseCounts.set(x, (this.phraseCounts.get(x) ?? 0) + 1);
    }
    return this.phraseCounts.get(pair) ?? 0;
  }

  /** {@link catalogVerbs} of the tools. */
  catalogVerbs(): string[] {
    this.verbs ??= catalogVerbs(this.tools);
    return this.verbs;
  }

  /** The stems of the words of the tools' names. */
  nameStems(): ReadonlySet<string> {
    this.names ??= new Set(this.tools.flatMap((t) => toolTraits(this.box, t).nameStems));
    return this.names;
  }
}

/** No scores (an empty query). */
export const NO_SCORES: ReadonlyMap<number, number> = EMPTY_SCORES;
