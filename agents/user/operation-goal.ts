import type { Tool } from "../../specs/catalog/tool.js";
import { articleFor, baseForm, identifierWords, isPlural, singular } from "../language/words.js";

import {
  type GoalKind,
  ACTION_VERBS,
  API_VERB_SYNONYMS,
  FRESH_WORDS,
  GOAL_DETERMINERS,
  LIST_ARTICLE_STARTS,
  NOUN_PHRASE_ARTICLES,
  OBJECT_ARTICLE_STARTS,
  OBJECT_HEAD_BREAKS,
  PARTICLE_VERBS,
  PARTICLES,
  POSSESSIVE_STARTS,
  PROCESS_NOUN_ENDINGS,
  THIRD_PERSON_BREAKS,
  VERB_KINDS,
  VERB_VARIANTS,
} from "../language/lexicon/goal-words.js";
import { endsWithAny, wholeWord, wordAtStart, wordThenSpace } from "../language/word-patterns.js";

export type { GoalKind };

const DETERMINERS = wholeWord(GOAL_DETERMINERS);
const PROCESS_NOUNS = endsWithAny(PROCESS_NOUN_ENDINGS);
const THIRD_PERSON_BREAK = wholeWord(THIRD_PERSON_BREAKS);
const PARTICLE = wholeWord(PARTICLES);
const HEAD_BREAK = wholeWord([...OBJECT_HEAD_BREAKS, "matching", "that", "whose", "nearest"]);
const ARTICLE_HEAD_BREAK = wholeWord(OBJECT_HEAD_BREAKS);
/** An object that already starts with an article, a possessive, a number or a preposition. */
const HAS_ARTICLE = wordAtStart([...OBJECT_ARTICLE_STARTS, "\\d"], "i", true);
const POSSESSIVE = wordThenSpace(POSSESSIVE_STARTS);
const INDEFINITE = wordThenSpace(["a", "an", "one"]);
const LIST_ARTICLE = wordThenSpace(LIST_ARTICLE_STARTS);
const DEFINITE_SEARCH = wordThenSpace(["the", "my"]);
const FRESH = wordAtStart(FRESH_WORDS);
const NOUN_PHRASE_ARTICLE = wordThenSpace(NOUN_PHRASE_ARTICLES);

/** An operation turned into a user's goal: a verb, its object, and the noun it is about. */
export interface OperationGoal {
  kind: GoalKind;
  /** The verb as the spec says it (`get`, `place`, `apply`), base form. */
  verb: string;
  /** Verbs a user could say instead, the spec's own verb included (`get`, `look up`, `pull up`). */
  verbs: string[];
  /** The object of the verb (`a recipe`, `the daily forecast`, `to a job`), may be empty. */
  object: string;
  /** The head noun, singular (`recipe`, `forecast`, `job`), empty when unknown. */
  noun: string;
  /** A definite noun phrase for "what's ...?" questions (reads of one thing), when the goal has one. */
  definite?: string;
}


function lowerWords(text: string): string {
  return text
    .split(" ")
    .map((w) => (/^[A-Z][a-z'’-]*$/.test(w) && w !== "I" ? w.toLowerCase() : w))
    .join(" ");
}

/** Drops trailing qualifiers that the argument values will say better: `of a recipe`, `for a city`, `by name`. */
const GENERIC_HEAD = /^(?:(?:the|a|an)\s+)?(?:information|info|details?|data|status|results?|summary|overview|metadata)$/i;

function stripGenericQualifiers(object: string): string {
  let out = object;
  for (let i = 0; i < 3; i++) {
    const next = out
      .replace(/\s+(of|for|in|at|by|between|on|from|within)\s+(a|an|one|two|some|any|the given|a given|a specific|given|multiple|several)\s+[\w-]+(\s+[\w-]+)?$/i, "")
      .replace(/\s+by\s+[\w-]+$/i, "")
      // "recommendations for similar anime based (on a specified anime)": the participle goes with its qualifier.
      .replace(/\s+(based|depending|given|according)$/i, "");
    // A generic head alone ("the information" of "Information on a Neblio address") says nothing: the qualifier stays.
    if (next === out || next.trim() === "" || GENERIC_HEAD.test(next.trim())) break;
    out = next;
  }
  return out.trim();
}

function isVerbLike(first: string, second: string | undefined): boolean {
  const w = first.toLowerCase();
  if (w in VERB_KINDS || ACTION_VERBS.has(w)) return true;
  // "Book an offer", "Re-price an offer": a word followed by an article or a possessive is a verb.
  return second !== undefined && DETERMINERS.test(second) && !/(ing|tion|s)$/i.test(w);
}

/** The base form of a summary's first word when it is a verb in the third person ("Returns", "Deletes", "Revalidates a"). */
function thirdPerson(first: string, second: string | undefined): string | undefined {
  if (!/^[A-Za-z-]+s$/.test(first) || /(ss|us|is)$/i.test(first)) return undefined;
  // "Fields that can be requested": a plural noun with its relative clause, not a verb.
  if (second !== undefined && /^(that|which|who|whose)$/i.test(second)) return undefined;
  if (second !== undefined && THIRD_PERSON_BREAK.test(second)) return undefined;
  const base = baseForm(first);
  if (base in VERB_KINDS) return base;
  return second !== undefined && DETERMINERS.test(second) && base.length > 2 ? base : undefined;
}

/**
 * The goal of a summary that heads a family of operations with a short name before a dash: `Halo 5 - Game Variant`
 * is the Halo 5 game variant, `Users - List all users` lists all users. Undefined for other summaries (a dash after
 * an imperative sets off an aside: `Get a user - requires admin`).
 */
function dashedHeading(sentence: string): string | undefined {
  const m = /^([^-—–,;:()]{1,40}?)\s[-—–]\s([^-—–,;:()]{1,60}?)[.\s]*$/.exec(sentence.trim());
  if (!m) return undefined;
  const family = (m[1] ?? "").trim();
  const operation = (m[2] ?? "").trim();
  const count = (t: string): number => t.split(/\s+/).length;
  if (count(family) > 4 || count(operation) > 6 || splitVerb(family) !== undefined) return undefined;
  return splitVerb(operation) !== undefined ? operation : `${family} ${operation}`;
}

/** Splits an imperative text into verb and object (`Look up a place` -> `look up` + `a place`). */
function splitVerb(text: string): { verb: string; object: string } | undefined {
  const words = text.split(/\s+/);
  let first = words[0];
  if (first === undefined) return undefined;
  const base = isVerbLike(first, words[1]) ? undefined : thirdPerson(first, words[1]);
  if (base !== undefined) first = base;
  else if (!isVerbLike(first, words[1])) return undefined;
  let verb = first.toLowerCase();
  let rest = words.slice(1);
  if (rest[0] !== undefined && PARTICLE.test(rest[0]) && PARTICLE_VERBS.includes(verb)) {
    verb = `${verb} ${rest[0].toLowerCase()}`;
    rest = rest.slice(1);
  }
  return { verb, object: rest.join(" ") };
}

/** First clause of a description sentence written in the third person (`Finds places matching X and returns Y` -> `find places matching X`). */
function fromDescription(description: string): { verb: string; object: string } | undefined {
  const sentence = (description.split(/(?<=[.!?])\s/)[0] ?? "").replace(/[.!?]$/, "");
  const clause = (sentence.split(/;|,|\s+and\s+|\s+—\s+|\s+-\s+|:/)[0] ?? "").trim();
  const words = clause.split(/\s+/);
  const first = words[0];
  if (first === undefined || !/^[A-Z][a-z-]+s$/.test(first)) return undefined;
  const base = baseForm(first);
  if (!(base in VERB_KINDS) && !ACTION_VERBS.has(base)) return undefined;
  return splitVerb([base, ...words.slice(1)].join(" "));
}

function headNoun(object: string): string {
  const words = object.replace(/[^\w\s'’-]/g, " ").trim().split(/\s+/);
  const cut = words.findIndex((w, i) => i > 0 && HEAD_BREAK.test(w));
  const head = (cut > 0 ? words[cut - 1] : words[words.length - 1]) ?? "";
  return singular(head.replace(/['’]s$/, "").toLowerCase());
}

/** "Get weather forecast" -> "the weather forecast", "Create event" -> "an event": summaries often drop articles. */
function withArticle(object: string, kind: GoalKind): string {
  if (object === "" || HAS_ARTICLE.test(object)) return object;
  if (kind === "list" || kind === "search" || kind === "check") return object;
  const words = object.split(/\s+/);
  const head = words.findIndex((w, i) => i > 0 && ARTICLE_HEAD_BREAK.test(w));
  const noun = (head > 0 ? words[head - 1] : words[words.length - 1]) ?? "";
  if (kind === "action") return object;
  if (kind === "create") return isPlural(noun) || /^[A-Z]/.test(object) ? object : `${articleFor(object)} ${object}`;
  return `the ${object}`;
}

function definiteOf(object: string): string {
  if (POSSESSIVE.test(object)) return object;
  if (INDEFINITE.test(object)) return object.replace(INDEFINITE, "the ");
  return `the ${object}`;
}

/** A fallback text from the operation itself: `getRecipeNutrition`, or `GET /recipes/{id}/nutrition`. */
function fallbackText(tool: Tool): string {
  const id = tool.operation.operationId;
  if (id !== undefined) return identifierWords(id).join(" ");
  const segments = tool.operation.path.split("/").filter((s) => s !== "" && !s.startsWith("{"));
  const isItem = /\}$/.test(tool.operation.path);
  const words = identifierWords(segments[segments.length - 1] ?? "items");
  const lastWord = words.pop() ?? "items";
  const noun = [...words, isItem || tool.operation.method === "post" ? singular(lastWord) : lastWord].join(" ");
  const byMethod: Record<string, string> = { get: isItem ? "get" : "list", post: "create", put: "update", patch: "update", delete: "delete" };
  return `${byMethod[tool.operation.method] ?? "call"} ${noun}`;
}

const goals = new WeakMap<Tool, OperationGoal>();

/** Turns a tool's summary (or description, or operationId) into the goal a user would state. */
export function operationGoal(tool: Tool): OperationGoal {
  let goal = goals.get(tool);
  if (!goal) {
    goal = goalOf(tool);
    goals.set(tool, goal);
  }
  return goal;
}

function goalOf(tool: Tool): OperationGoal {
  const full = tool.description.trim();
  const hasSummary = full !== "" && !/^[A-Z]+ \//.test(full);
  // The catalog description is "summary. description": the summary is the first sentence.
  const sentence = hasSummary ? (full.split(/(?<=[.!?])\s/)[0] ?? "") : "";
  // Summaries carry markup and asides ("Write table elements #### Examples", "Search X, allowing Y"): the first clause says the goal.
  const clause = dashedHeading(sentence) ?? (sentence.split(/\s*(?:[,;:(#[*`|]|\s-\s|\s—\s|\n)\s*/)[0] ?? "").replace(/[.\s]+$/, "").trim();
  const summary = hasSummary && clause.split(/\s+/).length <= 14 && clause !== "" ? clause : hasSummary && clause !== "" && tool.operation.operationId === undefined ? clause.split(/\s+/).slice(0, 8).join(" ") : fallbackText(tool);
  const rest = hasSummary ? full.slice(sentence.length).replace(/^[.\s]+/, "") : "";
  const method = tool.operation.method;

  // A summary asked as a question: "Is today a holiday?" -> "check whether today is a holiday".
  const question = /^(is|are|does|do|can|has|have|was|were)\s+((?:the|a|an|my|this|your)\s+\S+|\S+)\s+(.+)\?$/i.exec(summary);
  if (question) {
    const [, aux, subject, predicate] = question as unknown as [string, string, string, string];
    const object = `whether ${lowerWords(subject)} ${aux.toLowerCase()} ${lowerWords(predicate)}`;
    return { kind: "check", verb: "check", verbs: ["check", "find out"], object, noun: headNoun(predicate) };
  }

  // "Forward geocoding", "Dictionary lookup": the description says what it does better than the summary.
  const imperative = splitVerb(summary.replace(/\?$/, ""));
  const processNoun = PROCESS_NOUNS.test(summary) && summary.split(/\s+/).length <= 3 && !LIST_ARTICLE.test(imperative?.object ?? "");
  const described = processNoun || !hasSummary ? (fromDescription(rest) ?? fromDescription(summary)) : undefined;
  const split = described ?? imperative;
  if (split) {
    const raw = split.verb.toLowerCase();
    let verb = API_VERB_SYNONYMS[raw] ?? raw;
    let kind: GoalKind = VERB_KINDS[raw] ?? VERB_KINDS[verb] ?? (ACTION_VERBS.has(raw) || method !== "get" ? "action" : "get");
    let object = stripGenericQualifiers(lowerWords(split.object.trim())).replace(/^one\s/i, "a ");
    // "List or search offices" -> "offices"; "Search for airports" -> "airports".
    object = object.replace(/^or\s+\S+\s+/i, "");
    if (kind === "search") object = object.replace(/^for\s+/i, "");
    // "Returns a list of students", "Gets all events": a list.
    const listOf = /^(?:a |the |an? entire |the full )?(?:list|array|collection|set) of (?:all )?(.+)$|^all (?:the )?(.+)$/i.exec(object);
    if (listOf && (kind === "get" || kind === "search" || kind === "list" || (kind === "action" && method === "get"))) {
      object = (listOf[1] ?? listOf[2] ?? object).trim();
      kind = "list";
      verb = "list";
    }
    // A description's object carries its own filters ("places matching a free-form address"): the values say them.
    if (described !== undefined) object = object.replace(/\s+(matching|that|whose|which|with|where)\s.*$/i, "");
    if (kind === "search" && DEFINITE_SEARCH.test(object)) {
      return { kind, verb: "search", verbs: ["search", "look through"], object, noun: headNoun(object) };
    }
    if (kind === "get" && object === "") object = "the details";
    object = withArticle(object, kind);
    const verbs = [...new Set([verb, ...(VERB_VARIANTS[verb] ?? [])])];
    const goal: OperationGoal = { kind, verb, verbs, object, noun: headNoun(object) };
    if (kind === "get" && object !== "" && described === undefined) goal.definite = definiteOf(object);
    return goal;
  }

  // A noun phrase ("Latest exchange rates", "Daily forecast for a city"): get it.
  let object = stripGenericQualifiers(lowerWords(summary.replace(/\?$/, "")));
  if (FRESH.test(object)) object = `a ${object}`;
  else if (!NOUN_PHRASE_ARTICLE.test(object)) object = `the ${object}`;
  if (method === "get") {
    return { kind: "get", verb: "get", verbs: ["get", "look up", "check", "show me"], object, noun: headNoun(object), ...(/^a\s|^an\s/.test(object) ? {} : { definite: object }) };
  }
  const byMethod: Record<string, GoalKind> = { post: "create", put: "update", patch: "update", delete: "delete" };
  const kind = byMethod[method] ?? "action";
  const verb = kind === "create" ? "create" : kind === "update" ? "update" : kind === "delete" ? "delete" : "run";
  return { kind, verb, verbs: [...(VERB_VARIANTS[verb] ?? [verb])], object, noun: headNoun(object) };
}
