/*
 * Names of parameters and fields and what they say about their values: free text, generic labels, aliases,
 * languages, countries, counts.
 */

/** Names of free-text parameters (`title`, `message`, `q`): a value may be any words. */
export const FREE_TEXT_NAMES: readonly string[] = [
  "name", "title", "label", "subject", "summary", "description", "message", "text", "note", "comment", "content", "q", "query", "displayname",
  "fullname",
];

/** Generic field names: another record's `name` or `status` is no value of this parameter. */
export const GENERIC_KEYS: readonly string[] = [
  "name", "title", "description", "type", "status", "label", "summary", "text", "message", "note", "comment", "content", "kind", "category",
  "value", "state", "mode",
];

/** Names that mean the same value (`lat` and `latitude`), without separators. */
export const KEY_ALIASES: Readonly<Record<string, string>> = {
  lat: "latitude", lng: "longitude", lon: "longitude", long: "longitude", zip: "postalcode", zipcode: "postalcode", postcode: "postalcode",
};

/** Short or vague names (`from`, `lat`) whose question borrows the start of their description. */
export const VAGUE_NAME_LENGTH = 4;

/** The last words of id names besides `id` that the offline assistant also reads as ids (`issueKey`). */
export const ID_LIKE_WORDS: readonly string[] = ["key"];

/** Words of names that are no id although they end like one (`apiKey`, `accessKey`: credentials). */
export const CREDENTIAL_WORDS: readonly string[] = ["api", "access", "secret", "private", "public", "auth"];

/** Names of language parameters (without separators). */
export const LANGUAGE_NAMES: readonly string[] = ["lang", "language", "locale", "hl", "languagecode", "langcode", "acceptlanguage"];

/** Names of parameters that are a language when their description says so (`source`, `to`). */
export const LANGUAGE_END_NAMES: readonly string[] = ["source", "target", "from", "to", "sourcelang", "targetlang", "fromlang", "tolang", "sourcelanguage", "targetlanguage", "fromlanguage", "tolanguage"];

/** Description phrases of language codes. */
export const LANGUAGE_DESCRIPTIONS: readonly string[] = ["iso 639", "bcp 47", "bcp47", "language code", "language tag", "locale code", "locale tag"];

/** Names of country parameters (without separators). */
export const COUNTRY_NAMES: readonly string[] = ["country", "countrycode", "countries", "countrycodes", "market"];

/** Description phrases of country codes. */
export const COUNTRY_DESCRIPTIONS: readonly string[] = ["iso 3166", "alpha-2"];

/** Words in names or descriptions of currency codes. */
export const CURRENCY_WORDS: readonly string[] = ["currency", "currencies", "iso 4217", "base", "symbol"];

/** Words of names whose values are e-mails, links, times and dates. */
export const KIND_NAME_WORDS = {
  email: ["email", "e-mail", "mail"],
  url: ["url", "uri", "link", "href", "website"],
  time: ["time"],
  date: ["date", "day", "birthday", "dob"],
} as const;

/** Nouns counted by an integer parameter ("5 days", "2 copies"): the value is said before them. */
export const COUNT_NOUNS: readonly string[] = [
  "days", "hours", "minutes", "weeks", "months", "years", "nights", "people", "persons", "guests", "adults", "children", "kids", "infants",
  "passengers", "servings", "portions", "seats", "rooms", "tickets", "items", "results", "copies", "pages", "words", "sentences", "questions",
  "stops", "players",
];

/** Words that start the names of the two ends of a range or a trip (`minPrice`, `fromDate`). */
export const RANGE_STARTS: readonly string[] = ["min", "max", "start", "end", "from", "to"];

/** Words of names that say little as a value's last word (`bookId` -> not "id"). */
export const WEAK_HEADS: readonly string[] = ["id", "ids", "name", "type", "date", "time", "code"];

/** Coordinate axes by the last word of a name (`fromLat`, `longitude`). */
export const COORDINATE_WORDS = { lat: ["lat", "latitude"], lon: ["lon", "lng", "long", "longitude"] } as const;

/** Prefixes of coordinate names that say which end they are (`fromLat`, `destLng`) and their cue words in text. */
export const COORDINATE_ENDS: ReadonlyArray<{ prefixes: readonly string[]; cues: readonly string[] }> = [
  { prefixes: ["from", "origin", "start", "source", "begin"], cues: ["from", "origin", "starting at", "starting point", "start point"] },
  { prefixes: ["to", "destination", "end", "target", "dest"], cues: ["to", "destination", "end point", "ending point"] },
  { prefixes: [""], cues: ["at", "near", "around", "coordinate", "coordinates", "location", "point", "of"] },
];

/** Names of a search tool's query parameter (a quoted title goes there). */
export const QUERY_NAMES: readonly string[] = ["q", "query", "search", "keyword", "keywords", "term", "terms", "text", "name", "title"];

/** Words of names that make a boolean parameter's words ("is open", "has pool", "include tax"). */
export const BOOLEAN_PREFIXES: readonly string[] = ["is", "has", "only", "include", "show"];

/** Argument names that are plumbing rather than part of a user's goal (paging, formats, keys, tracing), in snake case. */
export const PLUMBING_NAMES: readonly string[] = [
  "limit", "offset", "page", "page_size", "per_page", "pagesize", "perpage", "page_token", "next_token", "cursor", "start", "skip", "top",
  "fields", "expand", "embed", "include_fields", "format", "output", "callback", "jsonp", "pretty", "api_key", "apikey", "key", "token",
  "access_token", "sig", "signature", "nonce", "idempotency_key", "request_id", "trace_id", "correlation_id", "version", "api_version", "v",
  "debug", "dir", "direction", "timestamp", "ts", "client_id", "session", "session_id",
];
