/*
 * Field names of API results and how an answer says them: which fields name a record, which matter, which are
 * noise, units, and how a yes/no field is said ("the email is verified", "it is a holiday", not "the holiday is yes").
 */

/** Fields that name a record (what it is called). */
export const NAME_FIELDS: readonly string[] = ["title", "name", "displayName", "fullName", "headline", "subject"];

/** Fields that can stand for an item of a list when it has no name. */
export const LABEL_FIELDS: readonly string[] = [...NAME_FIELDS, "label", "event", "summary", "text", "translation", "word", "ingredient", "city", "symbol", "code"];

/** Labels said in quotes when they are several words ("Leaving home"), unless they are proper names. */
export const QUOTED_LABEL_FIELDS: readonly string[] = ["title", "name", "label", "headline", "summary", "subject", "text"];

/** Words of field names whose values an answer gives first (`totalPrice`, `status`, `startsAt`). */
export const IMPORTANT_FIELD_WORDS: readonly string[] = [
  "status", "state", "total", "count", "price", "amount", "result", "rate", "temperature", "temp", "condition", "date", "start", "end", "due",
  "score", "balance", "quantity", "duration", "distance", "time", "summary", "severity", "level", "category", "genre", "type", "author", "artist",
  "currency", "country", "city", "location", "email", "stock", "serving", "servings", "calorie", "calories", "description", "translation", "language",
  "open", "holiday",
];

/** Fields an answer never says (bookkeeping, links, paging), by their name without separators, lower case. */
export const NOISE_FIELDS: readonly string[] = [
  "createdat", "updatedat", "timestamp", "etag", "href", "link", "links", "self", "version", "avatarurl", "coverurl", "imageurl", "generatedat",
  "observedat", "cursor", "next", "page", "offset", "limit",
];

/** Prefixes of noise fields (`thumbnailUrl`, `thumbnails`). */
export const NOISE_FIELD_PREFIXES: readonly string[] = ["thumbnail"];

/** Fields that identify a record besides `...Id` names. */
export const ID_LIKE_FIELDS: readonly string[] = ["reference", "code"];

/** Keys of the list that holds a result's records (`{items: [...]}`): generic, they name nothing. */
export const LIST_HOLDER_FIELDS: readonly string[] = ["items", "results", "data", "records", "entries", "hits", "matches", "list"];

/** Fields of a nested record that say where a result is about (`location: {name: "Lisbon"}`). */
export const PLACE_FIELD_WORDS: readonly string[] = ["location", "place", "city", "address", "station", "area", "venue"];

/** Free-text fields: their values are quoted inside a sentence. */
export const FREE_TEXT_FIELDS: readonly string[] = [
  "description", "text", "message", "note", "notes", "comment", "summary", "title", "headline", "subject", "bio", "content", "caption", "reason",
  "coverletter",
];

/** Units by the last word of a numeric field (`fatG` -> "g", `durationMinutes` -> "minutes"). */
export const FIELD_UNITS: Readonly<Record<string, string>> = {
  g: "g", mg: "mg", kg: "kg", km: "km", m: "m", ml: "ml", kcal: "kcal", pct: "%", percent: "%", minutes: "minutes", seconds: "seconds", hours: "hours",
  days: "days", ms: "ms", c: "°C", f: "°F", kmh: "km/h", mph: "mph", hpa: "hPa", mm: "mm", cm: "cm",
};

/** Last words of fields of a parent record that take the parent's noun (`price.amount` -> "price amount", `temp.max` -> "max temp"). */
export const PARENT_NOUN_FIELDS: readonly string[] = ["name", "value", "min", "max", "code", "id", "type", "amount", "total", "unit", "units", "text"];

/** Words of the request that say nothing about which facts it wants. */
export const REQUEST_FILLER_WORDS: readonly string[] = [
  "the", "and", "for", "with", "can", "you", "please", "show", "get", "tell", "find", "what", "which", "from", "into", "then", "also", "this", "that",
  "want", "need", "like", "would", "could", "look", "check", "give", "me", "my",
];

/** First words of yes/no fields and how a sentence says them (`isOpen` -> "it is open", `hasPool` -> "it has a pool"). */
export const BOOLEAN_FIELD_PREFIXES: Readonly<Record<string, "is" | "has" | "can">> = { is: "is", has: "has", can: "can", was: "is", should: "is", allows: "can", supports: "has" };

/** What a yes/no field whose words are no adjective or noun is said as ("the marketing opt in setting is on"). */
export const BOOLEAN_SETTING = { noun: "setting", on: "on", off: "off" } as const;
