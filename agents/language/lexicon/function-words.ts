/*
 * Words that carry no operation and no value: stop words, courtesies, references to earlier results, and the
 * words that frame a reply ("Sure, it's ...").
 */

/** Words that say nothing about which operation is meant. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but if of to in on at by for with from into onto about as is are was were be been being am do does did " +
    "i me my mine we us our you your it its this that these those there here he she they them their his her " +
    "please can could would will shall should may might must let lets let's i'd i'm i'll id im ill want wants wanted like " +
    "need needs needed some any all just also too very so then than now what which who whom whose when where how why " +
    "tell give know help thanks thank hi hello hey okay ok sure yes no not one ones thing things get got have has had " +
    "e g eg e.g etc via per up out over against possible possibly"
  ).split(/\s+/),
);

/** Words kept although they look like stop words: they decide the operation. */
export const KEEP_WORDS: ReadonlySet<string> = new Set(["get", "give", "show", "tell", "find", "list", "search", "new", "add"]);

/** Words that start sentences and are not names (a capitalised one is no proper name there). */
export const SENTENCE_STARTERS: readonly string[] = [
  "i", "please", "can", "could", "would", "what", "whats", "what's", "how", "when", "where", "which", "who", "is", "are", "do", "does",
  "then", "and", "also", "after", "first", "next", "finally", "now", "book", "order", "convert", "send", "translate", "play", "plan",
  "give", "tell", "show", "find", "look", "list", "my", "our", "the", "a", "an", "it", "its", "it's", "thanks", "thank", "yes", "no",
  "sure", "okay", "ok", "hi", "hello", "hey", "use", "make", "set", "remind", "id", "api", "go", "any",
];

/** Small words that may join the capitalised words of one name ("Bank of England", "Rio de Janeiro"). */
export const NAME_JOINERS: readonly string[] = ["of", "de", "la", "le", "du", "van", "von", "der", "del", "at", "on", "in", "the", "and"];

/** Phrases of courtesy that ask for nothing ("Go ahead and ...", "Can you take care of it?"). */
export const COURTESY_PHRASES: readonly string[] = [
  "go ahead", "take care of it", "take care of that", "if you can", "if possible", "if you could", "when you get a chance", "when you can",
  "for me", "thanks in advance", "thank you", "any chance",
];

/** Words that make a clause a courtesy when nothing else is said ("Thanks!", "Quick task:"). */
export const COURTESY_WORDS: readonly string[] = [
  "take", "care", "handle", "it", "that", "this", "thank", "thanks", "great", "perfect", "please", "now", "quick", "task", "mind", "possible",
  "chance", "trying", "looking", "hoping", "next", "more", "finally", "lastly", "go", "ahead",
];

/** Words that point at an earlier result ("the top result", "the new one"): they say nothing about the tool. */
export const REFERENCE_WORDS: readonly string[] = [
  "first", "top", "second", "third", "last", "result", "results", "match", "matches", "new", "saved", "again", "previous", "earlier", "one",
  "ones", "check", "was", "trying", "looking", "hoping", "chance", "possible", "mind", "quick", "task", "take", "care", "go", "ahead",
];

/** Words of a clause that points back at what the earlier steps found ("open the first one", "delete it"). */
export const BACK_REFERENCES: readonly string[] = ["first", "top", "second", "third", "last", "its", "it", "them", "the new", "the saved", "again", "there"];

/** Ordinal words and the position they pick in a list of `n` (`last` -> n - 1). */
export const ORDINALS: ReadonlyArray<{ words: readonly string[]; position: (n: number) => number }> = [
  { words: ["first", "1st", "top"], position: () => 0 },
  { words: ["second", "2nd"], position: () => 1 },
  { words: ["third", "3rd"], position: () => 2 },
  { words: ["last", "final"], position: (n) => n - 1 },
];

/** Phrases of a reply that point at an earlier result instead of giving a value ("just take the first one"). */
export const RESULT_REFERENCES = {
  /** An ordinal and one of these nouns after it ("the first result"). */
  ordinals: ["first", "top", "last", "second", "third"],
  nouns: ["one", "result", "match", "item", "entry", "offer", "option"],
  /** "the previous step", "the earlier search". */
  before: ["previous", "earlier", "last"],
  after: ["step", "result", "call", "answer", "search"],
  phrases: ["one you got", "one you just got", "one you found", "one you just found", "from the result", "from the results"],
} as const;

/** Openings of a reply that frame its value ("Sure,", "Oops, sorry", "Let's go with"). */
export const REPLY_OPENERS: readonly string[] = [
  "sure", "ok", "okay", "yes", "yeah", "yep", "of course", "certainly", "right", "well", "oh", "hmm", "no problem", "sorry about that", "sorry",
  "oops", "apologies", "my bad",
];

/** Phrases before a reply's value ("it's", "please use", "I'd like"). */
export const REPLY_LEADS: readonly string[] = [
  "it's", "its", "it is", "that's", "thats", "that is", "this is", "use", "please use", "let's say", "lets say", "let's use", "lets use", "make it",
  "call it", "i'd like", "id like", "i want", "i need", "go with", "try", "let's go with", "lets go with", "we can use",
];

/** Words that negate what follows ("not in stock", "without tax"). */
export const NEGATIONS: readonly string[] = ["not", "no", "without", "exclude", "excluding", "don't", "dont"];

/** Words that end a phrase value ("the bank and then ..." stops at "and"). */
export const PHRASE_BREAKS: readonly string[] = [
  "and", "then", "but", "or", "with", "for", "from", "to", "in", "on", "at", "by", "please", "so", "that", "which", "who", "whose", "where",
  "when", "while", "if", "because", "since", "until", "sorted", "under", "over", "below", "above", "between", "before", "after", "also", "using",
];

/** Whole answers that give no input at all ("None", "N/A"): read as an empty argument object. */
export const EMPTY_INPUT_WORDS: readonly string[] = ["none", "null", "n/a", "no input", "nothing"];
