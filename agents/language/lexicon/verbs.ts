/*
 * Verbs as data: which kind of operation a word asks for, the verbs that start a clause, phrasal verbs and the
 * senses a word takes before a determiner. Inflected forms come from `compromise` (see `../inflect.ts`).
 */

/** What an operation does to its resource, as the words of a request ask for it. */
export type VerbKind = "search" | "get" | "create" | "update" | "delete";

/** The verbs (and nouns used as verbs) of each kind of operation: "find" meets "list" and "search". */
export const OPERATION_VERBS: Readonly<Record<VerbKind, readonly string[]>> = {
  search: ["search", "find", "list", "browse", "query", "filter", "discover", "explore"],
  get: ["get", "show", "detail", "details", "fetch", "retrieve", "read", "view", "display", "describe", "info", "information", "return", "returns", "open", "lookup"],
  create: ["create", "add", "new", "make", "register", "post", "insert", "submit", "schedule", "start", "put", "save", "reserve"],
  update: ["update", "change", "modify", "edit", "replace", "rename", "adjust", "patch", "set", "move", "reschedule"],
  delete: ["delete", "remove", "cancel", "withdraw", "erase", "drop", "clear", "unsubscribe", "discard", "unfollow", "unstar", "unwatch", "unlike", "unpin", "unregister", "unassign", "detach", "revoke"],
};

/** The kinds that change something (chosen only when the words ask for a change). */
export const CHANGE_KINDS: readonly VerbKind[] = ["create", "update", "delete"];

/** The kinds that read (a read that says how it reads prefers tools that read that way). */
export const READ_KINDS: readonly VerbKind[] = ["search", "get"];

/** How an answer speaks of an operation, by the first word of its name: what it did ("I created ...", "I found ..."). */
export type AnswerKind = "create" | "update" | "delete" | "list" | "get" | "action";

/** The first words of operation names and the kind of sentence their answer is. */
export const ANSWER_VERBS: Readonly<Record<string, AnswerKind>> = {
  create: "create", add: "create", new: "create", make: "create", register: "create", post: "create", insert: "create", submit: "create", schedule: "create", place: "create", apply: "create", book: "create", save: "create", upload: "create", invite: "create",
  update: "update", change: "update", modify: "update", edit: "update", replace: "update", rename: "update", set: "update", patch: "update", move: "update", mark: "update",
  delete: "delete", remove: "delete", cancel: "delete", withdraw: "delete", unsubscribe: "delete", archive: "delete", revoke: "delete", erase: "delete", clear: "delete",
  list: "list", search: "list", find: "list", browse: "list", query: "list", lookup: "get", look: "get",
  get: "get", fetch: "get", retrieve: "get", read: "get", show: "get", view: "get", describe: "get", check: "get", is: "get", has: "get",
};

/**
 * Past tenses an answer says differently from the verb's own (`login` -> "signed in", `new` -> "created");
 * every other verb's past tense comes from `compromise` (`cancel` -> "cancelled", `withdraw` -> "withdrew").
 */
export const ANSWER_PAST: Readonly<Record<string, string>> = {
  new: "created", login: "signed in", logout: "signed out", sign: "signed", patch: "updated", reprice: "re-priced", lookup: "looked up",
};

/** Verbs an answer says were done ("I converted ...", "I cancelled ..."); other operations are said as what was found. */
export const DONE_VERBS: readonly string[] = [
  "create", "add", "make", "register", "submit", "schedule", "place", "apply", "book", "save", "upload", "invite", "post", "insert", "new",
  "update", "change", "modify", "edit", "replace", "rename", "set", "patch", "move", "mark",
  "delete", "remove", "cancel", "withdraw", "unsubscribe", "archive", "revoke", "erase", "clear",
  "convert", "translate", "detect", "activate", "deactivate", "refresh", "login", "logout", "sign", "send", "reprice", "calculate", "compute",
  "estimate", "play", "pause", "turn", "lock", "unlock",
];

/** Words that are verbs when they start a tool's description ("Convert an amount ...", not "Currency rates ..."). */
export const DESCRIPTION_VERBS: readonly string[] = [
  "convert", "translate", "detect", "activate", "send", "check", "calculate", "compute", "book", "cancel", "play", "pause", "turn", "set",
  "subscribe", "rate", "follow", "track", "estimate", "geocode", "apply",
];

/** Words after a description's first word that make that word a verb ("Find a ...", "List all ..."). */
export const VERB_OBJECT_STARTS: readonly string[] = ["a", "an", "the", "to", "for", "my", "one", "all", "your", "its", "their", "some", "new", "up", "out", "off", "on"];

/** Words that start a clause of a request: a new clause after "and", a comma or a full stop begins with one. */
export const CLAUSE_VERBS: readonly string[] = [
  "find", "search", "look", "list", "show", "get", "give", "tell", "fetch", "pull", "retrieve", "display", "sign", "log", "create", "add", "make",
  "book", "place", "order", "register", "schedule", "set", "update", "change", "modify", "edit", "rename", "delete", "remove", "cancel", "withdraw",
  "check", "convert", "send", "translate", "compute", "calculate", "buy", "reserve", "post", "publish", "save", "mark", "move", "play", "pause",
  "turn", "read", "open", "close", "what", "which", "how", "when", "where", "who", "is", "are", "do", "does", "can", "could", "let", "also", "see",
  "view", "subscribe", "follow", "rate", "review", "replace", "put", "store", "upload", "download", "start", "stop", "i'd", "i would", "i want",
  "i need", "please",
];

/** Words after which a comma starts a new clause with one of the clause verbs ("..., show the first one"). */
export const CLAUSE_OBJECT_STARTS: readonly string[] = ["the", "a", "an", "my", "it", "its", "them", "all", "some", "me", "for", "up", "at", "through", "out"];

/** Words that join two operations of one request ("find X, then show Y"). */
export const CLAUSE_JOINERS: readonly string[] = [
  "after that", "afterwards", "and also", "once that is done", "once that's done", "once it is done", "once it's done", "when that is done",
  "when that's done", "finally",
];

/** A two-word verb and what it means to the tool index (`look up` is a read, `set up` a create). */
export interface PhrasalVerb {
  verb: string;
  /** The particle (or particles) after the verb. */
  particles: readonly string[];
  /** Whether a pronoun may stand between the verb and the particle ("sign me in"). */
  object?: boolean;
  /** The words it stands for in the index and in queries. */
  means: string;
  /** Whether the particle is kept after the meaning ("turn on" -> "switch on"). */
  keepParticle?: boolean;
}

/** Phrasal verbs that name an operation. Other phrasal verbs (`compromise` knows them) lose their particle. */
export const PHRASAL_VERBS: readonly PhrasalVerb[] = [
  { verb: "look", particles: ["up"], means: "lookup retrieve" },
  { verb: "look", particles: ["for"], means: "search" },
  { verb: "pull", particles: ["up"], means: "retrieve" },
  { verb: "set", particles: ["up"], means: "create" },
  { verb: "sign", particles: ["in", "into"], object: true, means: "login" },
  { verb: "log", particles: ["in", "into"], object: true, means: "login" },
  { verb: "sign", particles: ["up"], object: true, means: "register" },
  { verb: "sign", particles: ["out"], object: true, means: "logout" },
  { verb: "log", particles: ["out"], object: true, means: "logout" },
  { verb: "find", particles: ["out"], means: "check" },
  { verb: "turn", particles: ["on", "off"], means: "switch", keepParticle: true },
];

/** Fixed phrases read as other words before indexing and searching ("what's new" asks for the latest, it creates nothing). */
export const IDIOMS: Readonly<Record<string, string>> = {
  "what's new": "latest",
  "what is new": "latest",
  "whats new": "latest",
  "anything new": "latest",
};

/** A word that takes another sense after a determiner or at the start of a request ("place an order" creates one). */
export interface VerbSense {
  word: string;
  /** `before-determiner`: "place an order"; `after-determiner`: "the new one"; `imperative`: "book a table" at a clause start. */
  where: "before-determiner" | "after-determiner" | "imperative";
  /** The words it is read as. */
  means: string;
  /** Whether the word itself stays (before the meaning). */
  keep?: boolean;
}

/** Senses of words the index would otherwise read wrongly. */
export const VERB_SENSES: readonly VerbSense[] = [
  { word: "place", where: "before-determiner", means: "create" },
  { word: "new", where: "after-determiner", means: "created" },
  { word: "book", where: "imperative", means: "reserve", keep: true },
  // "Request a ride", "order a pizza": asking for one to be made (not "the status of my request").
  { word: "request", where: "imperative", means: "create", keep: true },
  { word: "order", where: "imperative", means: "create", keep: true },
];

/** The determiners of {@link VERB_SENSES} ("place an order", "the new one"). */
export const SENSE_DETERMINERS = {
  before: ["a", "an", "the", "my", "new", "another", "one"],
  after: ["the", "this", "that", "my", "your"],
  /** Words after which a verb is an imperative ("please book", "and book"). */
  imperative: ["to", "please", "you", "and", "then", "also", "me"],
} as const;

/** Verbs of a tool's description that make it a lister ("Searches books", "Lists events"). */
export const LISTER_VERBS: readonly string[] = ["search", "list", "lists", "find", "finds", "searches"];

/** Words of a tool's name that make it a lister (`listBooks`, `search_flights`), and "all". */
export const LIST_NAME_WORDS: readonly string[] = ["list", "search", "find", "query", "browse", "lookup", "filter", "all"];

/** Verbs a model writes before an action's name ("Action: use the getWeather tool"). */
export const ACTION_NAME_VERBS: readonly string[] = ["use", "call", "using", "calling", "invoke"];

/** Words before a parameter's noun that count it ("number of guests"). */
export const COUNT_WORDS: readonly string[] = ["number", "count", "amount"];
