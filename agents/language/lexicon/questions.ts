/*
 * The assistant's questions as the offline user reads them: which words of a question point at which kind of
 * value, words that say nothing about the value asked for, and questions that only ask for a go-ahead.
 */

import { SEARCH_PARAMETER_NAMES } from "./names.js";

/** Kinds of value a question may point at. */
export type QuestionCueKind = "date" | "place" | "email" | "count" | "amount" | "search" | "id" | "name" | "language" | "currency";

/**
 * Question words (whole words) that point at a kind of value, and the words of argument names of that kind
 * (`when` -> `date`, `start`, `until`...). Kinds without `names` are told by the argument's type or name rules.
 */
export const QUESTION_CUES: ReadonlyArray<{ kind: QuestionCueKind; cues: readonly string[]; names?: readonly string[] }> = [
  { kind: "date", cues: ["when", "date", "day", "time"], names: ["date", "day", "time", "start", "end", "from", "to", "until", "since", "due", "at"] },
  {
    kind: "place",
    cues: ["where", "city", "location", "place", "country"],
    names: ["city", "location", "place", "country", "region", "address", "town", "destination", "origin", "lat", "lon", "latitude", "longitude", "area", "code"],
  },
  { kind: "email", cues: ["email", "e-mail"], names: ["email"] },
  { kind: "count", cues: ["how many", "how long", "number of"] },
  { kind: "amount", cues: ["how much", "amount", "price", "cost"], names: ["amount", "price", "cost", "budget", "sum", "value", "total", "salary"] },
  { kind: "search", cues: ["search", "looking for", "keyword", "keywords", "query", "term"], names: SEARCH_PARAMETER_NAMES },
  { kind: "id", cues: ["which", "id", "identifier", "number"] },
  { kind: "name", cues: ["name", "title", "called"], names: ["name", "title"] },
  { kind: "language", cues: ["language"], names: ["lang", "language", "locale", "target", "source"] },
  { kind: "currency", cues: ["currency", "currencies"], names: ["from", "to", "base", "currency", "symbols", "target", "source"] },
];

/** Words of a question (and of argument names and descriptions) that say nothing about which value is asked for. */
export const QUESTION_STOP_WORDS: readonly string[] = [
  "the", "a", "an", "of", "for", "to", "in", "on", "at", "and", "or", "is", "are", "be", "you", "your", "me", "my", "i", "it", "this", "that", "what",
  "which", "please", "could", "would", "can", "do", "does", "want", "like", "need", "tell", "give", "provide", "know", "let", "should", "with", "from",
  "by", "as", "parameter", "value", "required", "missing", "field", "argument", "use", "we", "us", "our", "have", "has", "just", "also", "so", "if",
  "any", "some", "then",
];

/** Openings of a question that only asks for a go-ahead ("Shall I book it?", "Is that okay?"). */
export const CONFIRMATION_OPENINGS: readonly string[] = [
  "shall i", "should i", "do you want me", "would you like me", "can i go ahead", "may i go ahead", "is it ok", "is it okay", "is it alright",
  "is it fine", "is that ok", "is that okay", "is that alright", "is that fine", "ok to", "okay to",
];

/** Words that ask for a go-ahead anywhere in a question ("Please confirm"). */
export const CONFIRMATION_WORDS: readonly string[] = ["confirm"];
