import { PyException } from "./py.js";

/*
 * API-Bank's ToolSearcher (`apis/tool_search.py`, `lv3_apis/tool_search.py`): keywords in, the single best
 * matching API of its set out, as `{name, description, input_parameters, output_parameters}`; an API that
 * takes a token comes with GetUserToken first (`[GetUserToken, best]`, GetUserToken with its
 * `desc_for_search`, as the Python returns it). The authors rank by the cosine of MiniLM sentence embeddings
 * of the keywords and of `desc_for_search` (the API's name in words, then its description); no embedding
 * model ships here, so the ranking is lexical: BM25 over the same text with stemming, the name's words
 * weighted up, and the usual verbs of requests mapped to the verbs of API names (set/create -> add,
 * change -> modify, remove -> delete, check/find -> query). Keywords that name an API (`GetOccupationSalary`,
 * `tax calculator`) find it.
 */

/** One API as ToolSearcher returns it. */
export interface SearchableApi {
  name: string;
  description: string;
  input_parameters: Record<string, unknown>;
  output_parameters: Record<string, unknown>;
}

/** The name in words as API-Bank writes it (`GetUserToken` -> `get user token`). */
export function nameInWords(name: string): string {
  return [...name].map((c) => (c >= "A" && c <= "Z" ? ` ${c.toLowerCase()}` : c)).join("").trim();
}

/** API-Bank's `desc_for_search`: the name in words followed directly by the description. */
export function descForSearch(api: { name: string; description: string }): string {
  return nameInWords(api.name) + api.description;
}

const STOP = new Set("a an the of for to in on at by with and or is are be this that it its api apis which what from as into given user users s".split(" "));

const SYNONYMS: Record<string, string> = {
  set: "add",
  setup: "add",
  create: "add",
  make: "add",
  new: "add",
  schedul: "add",
  remov: "delet",
  eras: "delet",
  drop: "delet",
  chang: "modifi",
  updat: "modifi",
  edit: "modifi",
  alter: "modifi",
  reschedul: "modifi",
  modify: "modifi",
  check: "queri",
  find: "queri",
  look: "queri",
  show: "queri",
  view: "queri",
  retriev: "queri",
  fetch: "queri",
  calcul: "calcul",
  comput: "calcul",
  math: "calcul",
  arithmet: "calcul",
  reserv: "book",
  appoint: "appoint",
  regist: "regist",
  registr: "regist",
  creat: "add",
  sign: "regist",
  login: "token",
  authent: "token",
  remind: "remind",
  meet: "meet",
  agenda: "agenda",
  schedule: "agenda",
};

const SUFFIXES = ["ational", "ations", "ation", "ators", "ator", "ments", "ment", "ates", "ated", "ate", "ings", "ing", "ers", "er", "ors", "or", "ies", "ied", "es", "ed", "s", "e", "y"];

/** A light stemmer (calculate, calculator, calculation -> calcul; setting -> set), then the synonyms. */
/** The verbs API names start with (stemmed). */
const NAME_VERBS = new Set(["add", "delet", "modifi", "queri", "cancel", "get", "check", "record", "open", "regist", "book", "send", "play", "search", "forgot", "timed"]);

function stem(w: string): string {
  let s = w;
  for (const suffix of SUFFIXES) {
    if (s.length > suffix.length + 2 && s.endsWith(suffix)) {
      s = s.slice(0, -suffix.length) + (suffix === "ies" || suffix === "ied" || suffix === "y" ? "i" : "");
      if ((suffix === "ing" || suffix === "ed" || suffix === "er") && /([b-df-hj-np-tv-z])\1$/.test(s)) s = s.slice(0, -1);
      break;
    }
  }
  return SYNONYMS[s] ?? SYNONYMS[w] ?? s;
}

/** The search terms of a text: camel case split, lower-cased words, stop words out, stemmed. */
export function searchTerms(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "" && !STOP.has(w))
    .map(stem);
}

/** A lexical index of a set's APIs (see the module comment). */
export class ToolSearchIndex {
  private readonly docs: Array<{ api: SearchableApi; name: string[]; terms: Map<string, number>; length: number }>;
  private readonly df = new Map<string, number>();
  private readonly avgdl: number;

  constructor(readonly apis: readonly SearchableApi[]) {
    this.docs = apis.map((api) => {
      const name = searchTerms(api.name);
      const terms = new Map<string, number>();
      const all = [...name, ...name, ...searchTerms(api.description)];
      for (const t of all) terms.set(t, (terms.get(t) ?? 0) + 1);
      return { api, name, terms, length: all.length };
    });
    for (const d of this.docs) for (const t of d.terms.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.avgdl = this.docs.reduce((s, d) => s + d.length, 0) / Math.max(1, this.docs.length);
  }

  /** The APIs ranked for keywords, best first, with their scores. */
  rank(keywords: string): Array<{ api: SearchableApi; score: number }> {
    const query = [...new Set(searchTerms(keywords))];
    const compact = keywords.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
    const n = this.docs.length;
    return this.docs
      .map((d, i) => {
        let score = 0;
        for (const q of query) {
          const tf = d.terms.get(q) ?? 0;
          if (tf === 0) continue;
          const df = this.df.get(q) ?? 0;
          const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
          score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.length) / this.avgdl));
        }
        // Every word of the name asked for: that API is meant.
        const named = d.name.length > 0 && d.name.every((w) => query.includes(w));
        if (named) score += 2 + d.name.length;
        if (compact === d.api.name.toLowerCase()) score += 100;
        // A thing asked for without a verb ("alarm", "meeting"): the API that adds one, as the embeddings lean.
        if (score > 0 && !query.some((q) => NAME_VERBS.has(q)) && d.name[0] === "add") score += 0.5;
        return { api: d.api, score, i };
      })
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .map(({ api, score }) => ({ api, score }));
  }

  /** ToolSearcher's answer: the best API (with GetUserToken first when it takes a token). */
  search(keywords: unknown): unknown {
    if (typeof keywords !== "string") throw new PyException(`'${typeof keywords}' object has no attribute 'encode'`, "AttributeError");
    const best = this.rank(keywords)[0];
    if (!best) throw new PyException("'NoneType' object has no attribute 'copy'", "AttributeError");
    const out = { name: best.api.name, description: best.api.description, input_parameters: best.api.input_parameters, output_parameters: best.api.output_parameters };
    if ("token" in best.api.input_parameters) {
      const token = this.apis.find((a) => a.name === "GetUserToken");
      if (!token) throw new PyException("'ToolSearcher' object has no attribute 'get_user_token_api'", "AttributeError");
      return [{ name: token.name, description: token.description, input_parameters: token.input_parameters, output_parameters: token.output_parameters, desc_for_search: descForSearch(token) }, out];
    }
    return out;
  }
}

/** The API names a ToolSearcher output holds (a dict or a list of dicts), in order. */
export function foundApiNames(output: unknown): string[] {
  const list = Array.isArray(output) ? output : output !== null && typeof output === "object" ? [output] : [];
  return list.flatMap((x) => (x !== null && typeof x === "object" && typeof (x as Record<string, unknown>)["name"] === "string" ? [(x as Record<string, unknown>)["name"] as string] : []));
}
