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
  url: ["url", "uri", "link", "href", "website", "domain", "hostname"],
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

/** Names of a search's free-text parameter as the offline user fills it (`q`, `keywords`). */
export const SEARCH_PARAMETER_NAMES: readonly string[] = ["q", "query", "search", "keyword", "keywords", "term", "text"];

/** Names of parameters whose value is free text the user writes (never a value taken from a result). */
export const USER_TEXT_NAMES: readonly string[] = [
  "text", "texts", "title", "name", "description", "message", "note", "notes", "comment", "content", "body", "summary", "bio", "subject", "q",
  "query", "search", "keyword", "keywords",
];

/** Fields of a result item whose words a search text may take (`title`, `displayname`, lower case without separators). */
export const ITEM_TEXT_FIELDS: readonly string[] = ["title", "name", "displayname", "label", "summary"];

/** Last words of names whose values come from earlier results besides ids (`isbn`, `slug`, `symbol`). */
export const LINKABLE_LAST_WORDS: readonly string[] = ["code", "key", "slug", "symbol", "isbn", "reference", "ref", "uuid", "handle"];

/** Words of names that say which end of a pair an argument is (`startDate` / `endDate`, `origin` / `destination`). */
export const PAIR_END_WORDS = {
  start: ["start", "from", "since", "after", "begin", "begins", "check_in", "departure", "depart", "min", "earliest"],
  end: ["end", "to", "until", "before", "ends", "check_out", "return", "max", "latest"],
  source: ["from", "source", "origin", "departure", "src", "sender"],
  target: ["to", "target", "destination", "arrival", "dest", "recipient"],
} as const;

/** Names of the source and target language of a translation (`source_lang`, `toLanguage`). */
export const TRANSLATION_LANGUAGE_NAMES = {
  source: ["source", "sourcelang", "source_lang", "sourcelanguage", "source_language", "fromlang", "from_lang", "fromlanguage", "from_language"],
  target: ["target", "targetlang", "target_lang", "targetlanguage", "target_language", "tolang", "to_lang", "tolanguage", "to_language"],
} as const;

/** Names of the amount of a conversion (`amount: 250`), and of the currency it is converted from. */
export const CONVERSION_NAMES = {
  amount: ["amount", "sum", "value"],
  from: ["from", "source", "fromcurrency", "from_currency", "sourcecurrency", "source_currency", "base"],
} as const;

/**
 * Names (lower case, words joined by `_`) whose values the offline user knows by meaning: the person's details,
 * places, texts people type, counts and settings.
 */
export const VALUE_NAMES = {
  personFullName: ["display_name", "full_name", "contact_name", "customer_name", "candidate_name", "passenger_name"],
  leafFullName: ["full_name", "display_name"],
  personRoles: ["contact", "candidate", "passenger", "shipping", "billing", "customer", "recipient"],
  latitude: ["lat", "latitude"],
  coordinate: ["lat", "latitude", "lon", "lng", "long", "longitude"],
  city: ["city", "city_name", "town"],
  routeEnd: ["origin", "destination"],
  currencyEnd: ["base", "from", "to", "symbols"],
  title: ["title", "name", "summary", "subject"],
  noteText: ["text", "message", "note", "content", "body"],
  searchText: ["q", "query", "search", "keyword", "keywords", "term"],
  idLast: ["id", "ids", "uuid", "reference", "number", "code"],
  country: ["country", "country_code"],
  quantity: ["quantity", "qty", "count", "copies"],
  level: ["brightness", "volume", "position", "level"],
  switch: ["on", "locked", "enabled", "active"],
} as const;

/** Names of the id field of a record (`id`, `slug`), any case. */
export const RECORD_ID_FIELDS: readonly string[] = ["id", "uuid", "key", "slug"];
