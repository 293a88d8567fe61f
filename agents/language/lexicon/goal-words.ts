/*
 * Words for reading an operation's summary as a user's goal: verbs and the kind of goal they say, verbs a user says
 * instead, and the small words around an object (determiners, prepositions, articles).
 */

/** What kind of thing an operation does for a user, as far as phrasing a request goes. */
export type GoalKind = "get" | "list" | "search" | "create" | "update" | "delete" | "check" | "action";

/** Verbs of operation summaries and the kind of goal they say (`fetch` -> get, `book` -> create). */
export const VERB_KINDS: Readonly<Record<string, GoalKind>> = {
  get: "get", retrieve: "get", fetch: "get", obtain: "get", read: "get", return: "get", show: "get", view: "get", "look up": "get", describe: "get", load: "get",
  list: "list", browse: "list", enumerate: "list",
  search: "search", find: "search", query: "search", discover: "search", locate: "search",
  create: "create", add: "create", new: "create", make: "create", register: "create", post: "create", submit: "create", place: "create",
  apply: "create", book: "create", send: "create", upload: "create", schedule: "create", define: "create", insert: "create", invite: "create", open: "create",
  update: "update", edit: "update", modify: "update", change: "update", replace: "update", patch: "update", set: "update", rename: "update", mark: "update", move: "update",
  delete: "delete", remove: "delete", cancel: "delete", withdraw: "delete", archive: "delete", revoke: "delete", unsubscribe: "delete", close: "delete",
  check: "check", verify: "check", validate: "check", test: "check",
};

/** Verbs that are not CRUD but read naturally as a user's request. */
export const ACTION_VERBS: ReadonlySet<string> = new Set([
  "convert", "translate", "detect", "activate", "deactivate", "sign", "refresh", "calculate", "compute", "estimate", "suggest", "rank", "compare",
  "summarize", "summarise", "generate", "play", "pause", "stop", "start", "turn", "lock", "unlock", "reprice", "re-price", "confirm", "approve",
  "reject", "subscribe", "follow", "unfollow", "like", "share", "download", "export", "import", "sync", "reset", "log", "track", "transfer", "pay",
  "order", "reserve", "rate", "review", "tag", "assign", "resolve", "reply", "forward", "archive", "restore", "shorten", "analyze", "analyse",
  "classify", "recognize", "identify", "predict", "recommend", "lookup", "look", "run", "execute", "perform", "trigger", "invoke", "process",
  "publish", "unpublish", "enable", "disable", "attach", "detach", "request", "issue", "merge", "split", "copy", "clone", "duplicate", "count",
  "render", "print", "scan", "decode", "encode", "parse", "authenticate", "authorize", "login", "logout", "scrape", "crawl", "append", "grant",
  "notify", "ping", "upgrade", "downgrade", "renew", "extend", "accept", "decline", "submit", "mute", "unmute", "block", "unblock", "star",
  "unstar", "pin", "unpin", "watch", "unwatch", "bookmark", "vote", "register", "deploy", "build", "install", "uninstall", "save", "sort", "filter",
]);

/** Determiners that show the word before them is a verb ("Returns a list", "Book an offer"). */
export const GOAL_DETERMINERS: readonly string[] = [
  "a", "an", "the", "my", "your", "our", "their", "its", "all", "one", "some", "every", "each", "any", "this", "that", "these", "those", "multiple",
  "several", "new", "existing", "specific", "given", "current",
];

/** Endings of nouns that name a process ("Forward geocoding", "Dictionary lookup"): the description says the goal better. */
export const PROCESS_NOUN_ENDINGS: readonly string[] = [
  "ing", "lookup", "search", "conversion", "translation", "detection", "recognition", "analysis", "classification", "prediction", "recommendation",
  "completion", "autocomplete", "suggestion",
];

/** Verbs of API summaries and the everyday verb a user says instead (`retrieve` -> get). */
export const API_VERB_SYNONYMS: Readonly<Record<string, string>> = { retrieve: "get", fetch: "get", obtain: "get", return: "get", read: "get", query: "search", post: "create", patch: "update", new: "create", lookup: "look up", view: "get", load: "get" };

/** Verbs a user could say instead of a goal's verb (`get` -> `look up`, `pull up`). */
export const VERB_VARIANTS: Readonly<Partial<Record<string, readonly string[]>>> = {
  get: ["get", "look up", "pull up", "fetch", "show me"],
  list: ["list", "show me"],
  find: ["find", "search for", "look for"],
  search: ["find", "search for", "look for"],
  create: ["create", "make", "set up"],
  update: ["update", "change", "edit"],
  modify: ["update", "change"],
  edit: ["edit", "update"],
  delete: ["delete", "remove"],
  remove: ["remove", "delete"],
  check: ["check", "find out"],
};

/** Words after a word ending in -s that show it is a plural noun, not a verb ("Rates of exchange"). */
export const THIRD_PERSON_BREAKS: readonly string[] = ["of", "for", "in", "at", "by", "between", "from", "to", "on", "with", "per", "and", "or"];

/** Particles of phrasal verbs (`look up`, `sign in`), and the verbs that take them. */
export const PARTICLES: readonly string[] = ["up", "out", "in", "off", "on"];
export const PARTICLE_VERBS: readonly string[] = ["look", "sign", "log", "check", "find", "turn", "set", "pick", "clean", "opt"];

/** Prepositions after an object's head noun ("forecast for a city": the head is `forecast`). */
export const OBJECT_HEAD_BREAKS: readonly string[] = ["of", "for", "in", "at", "between", "by", "on", "from", "to", "with", "near", "about"];

/** First words of an object that already has its article (or needs none: a number, a preposition, "whether"). */
export const OBJECT_ARTICLE_STARTS: readonly string[] = [
  "a", "an", "the", "my", "your", "our", "their", "its", "all", "some", "any", "every", "each", "one", "two", "whether", "to", "for", "on", "from",
  "with", "into", "at", "in",
];

/** Definite first words of an object (`the`, a possessive). */
export const POSSESSIVE_STARTS: readonly string[] = ["the", "my", "your", "our", "their", "its"];

/** First words of an object of a process noun that mark it as a thing of its own ("Geocoding a place"). */
export const LIST_ARTICLE_STARTS: readonly string[] = ["a", "an", "the", "my", "your"];

/** First words of a noun phrase that is something new each time ("random joke", "new password"): said with "a". */
export const FRESH_WORDS: readonly string[] = ["random", "new"];

/** First words of a noun phrase that already has its article. */
export const NOUN_PHRASE_ARTICLES: readonly string[] = ["the", "my", "your", "a", "an", "all", "every", "each", "some"];
