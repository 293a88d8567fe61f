import type { NameRule } from "../word-patterns.js";
import type { SpanKind } from "../text-facts.js";

/*
 * Cues: words in a request that point at the value of a parameter ("in Paris" -> a city, "by Maren Sollberg"
 * -> an author, "under $25" -> a maximum). Which parameters a cue is for is a rule over the words of their
 * names (whole words only: `sortBy` is no `by`).
 */

/** Words before a value that make it the value of parameters the rule names, if the value is of one of the kinds. */
export interface ValueCue {
  names: NameRule;
  /** Words (or patterns, for `raw`) just before the value. */
  before: readonly string[];
  raw?: boolean;
  kinds: readonly SpanKind[];
}

/** The cue words before values, by the parameters they point at. */
export const VALUE_CUES: readonly ValueCue[] = [
  {
    names: { names: ["city", "location", "place", "town", "address", "destination", "region", "area", "where", "geo", "country", "venue"], notIds: true },
    before: ["in", "at", "near", "around", "for", "to"],
    kinds: ["quoted", "proper"],
  },
  { names: { names: ["base", "basecurrency"] }, before: ["relative to", "against", "versus", "vs", "base", "based on", "in terms of"], kinds: ["code3"] },
  {
    names: { names: ["from", "source", "origin", "base", "sell", "fromcurrency", "sourcecurrency", "basecurrency", "sourcelang", "sourcelanguage"] },
    before: ["from", "\\d[\\d.,]*"],
    raw: true,
    kinds: ["code3", "lang", "code2", "proper", "quoted"],
  },
  {
    names: { names: ["to", "target", "destination", "quote", "buy", "tocurrency", "targetcurrency", "quotecurrency", "symbol", "symbols", "targetlang", "targetlanguage"] },
    before: ["to", "into", "in"],
    kinds: ["code3", "lang", "code2", "proper", "quoted"],
  },
  {
    names: { names: ["author", "artist", "creator", "composer", "director", "owner", "organizer", "organiser", "host", "writer", "performer"], only: ["by"], notIds: true },
    before: ["by", "from", "of"],
    kinds: ["quoted", "proper"],
  },
  { names: { names: ["q", "query", "search", "keyword", "keywords", "term", "terms", "text", "phrase", "topic"] }, before: ["about", "for", "called", "named", "titled", "on", "matching", "mentioning", "with"], kinds: ["quoted", "proper"] },
  { names: { names: ["name", "title", "label", "subject", "summary"] }, before: ["called", "named", "titled", "entitled"], kinds: ["quoted"] },
  {
    names: { names: ["start", "from", "since", "after", "begin", "checkin", "departure", "depart", "startdate", "fromdate", "starttime", "startat", "startsat"] },
    before: ["from", "since", "after", "starting", "beginning", "on", "at"],
    kinds: ["datetime", "date"],
  },
  {
    names: { names: ["end", "to", "until", "before", "checkout", "return", "enddate", "todate", "endtime", "endat", "endsat", "due", "deadline"] },
    before: ["to", "until", "through", "till", "before", "by", "ending", "due"],
    kinds: ["datetime", "date"],
  },
  { names: { names: ["date", "day", "when", "time"], only: ["at"] }, before: ["on", "for", "at", "of"], kinds: ["date", "datetime"] },
];

/** Words before a number that make it a lower bound ("over 20", "at least 3"). */
export const MIN_CUES: readonly string[] = ["over", "above", "more than", "at least", "from", "minimum", "min", "starting at", "no less than"];

/** Words before a number that make it an upper bound ("under $25", "up to 5"). */
export const MAX_CUES: readonly string[] = ["under", "below", "less than", "at most", "up to", "maximum", "max", "cheaper than", "no more than", "within"];

/** Words before a year ("in 2024", "for 2025"). */
export const YEAR_CUES: readonly string[] = ["in", "for", "of", "during", "year"];

/** Free-text parameters (by the head word of their name) and the words that introduce their value ("remind me to call the bank"). */
export const PHRASE_CUES: ReadonlyArray<{ names: NameRule; cues: readonly string[]; maxWords: number }> = [
  {
    names: { names: ["message", "text", "note", "content", "reminder", "task", "comment", "body", "description", "memo"], notIds: true },
    cues: ["remind me to", "reminder to", "remind me that", "remind me about", "reminder about", "reminder for", "saying", "that says", "to say", "with the message", "with the text", "note that", "note saying"],
    maxWords: 8,
  },
  { names: { only: ["name", "title", "label", "subject", "summary", "headline"] }, cues: ["called", "named", "titled", "entitled"], maxWords: 6 },
  { names: { only: ["q", "query", "search", "keyword", "keywords", "term", "terms", "phrase", "topic"] }, cues: ["about", "mentioning", "matching", "containing", "with the words", "titled", "called"], maxWords: 5 },
];

/** Cues that introduce a search text only when it is quoted (`find recipes for "curry"`). */
export const QUOTED_QUERY_CUES: readonly string[] = ["for", "on", "search", "find", "look up"];

/** Names of search-text parameters (`q`, `query`, `keywords`). */
export const SEARCH_TEXT_NAMES: readonly string[] = ["q", "query", "search", "keyword", "keywords", "term", "terms", "phrase", "topic", "text"];

/** Words between a parameter's name and its value ("city is Paris", "number: 5", "named X"). */
export const VALUE_FILLERS: readonly string[] = [
  "is", "are", "was", "be", "should", "must", "will", "of", "to", "for", "as", "at", "in", "on", "with", "named", "called", "titled", "equal",
  "set", "the", "a", "an", "my", "its", "number", "no", "no.", "#", "please", "use",
];

/** Words that say a value follows its name (after "the <name>" a bare word is the head noun, unless one of these stands between). */
export const VALUE_SEPARATORS: readonly string[] = ["is", "are", "was", "be", "named", "called", "titled", "to", "as", "equal"];

/** Determiners after which a word is the head noun of a compound ("the ingredient substitutes"). */
export const DETERMINERS: readonly string[] = ["the", "a", "an", "some", "this", "that", "my", "your"];

/** Words that introduce the value of a compound's anchor ("substitutes for buttermilk"). */
export const COMPOUND_LINKS: readonly string[] = ["for", "of", "about"];

/** Words between a resource and its id ("order with ID ord-1", "book number 12", "event #3"). */
export const ID_LEADS: readonly string[] = ["with", "id", "number", "no", "no.", "#", ":"];
