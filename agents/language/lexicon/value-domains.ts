/*
 * What an argument or an API is about, told by stems of words in its description or in the API's name and
 * description (`currenc` meets "currency" and "currencies", `translat` "translate" and "translation"). The
 * offline user picks values from the pools of the matching domain. Stems match anywhere in a word.
 */

/** Stems of the domains the offline user knows values for. */
export const DOMAIN_STEMS = {
  /** A date that looks back (a history, published articles, a birth) rather than ahead. */
  past: ["histor", "series", "past", "oldest", "newest", "publish", "since", "rates of", "birth", "born", "created"],
  birth: ["birth", "dob"],
  address: ["address"],
  cityOrRegion: ["city", "region", "country"],
  airport: ["airport", "iata"],
  iata: ["iata"],
  subdivision: ["subdivision", "iso 3166-2"],
  countryCode: ["iso 3166-1", "alpha-2"],
  currencyCode: ["currenc", "iso 4217"],
  exchange: ["currency", "exchange", "rate"],
  language: ["language", "iso 639", "lang"],
  stock: ["stock", "ticker", "symbol", "quote", "compan"],
  isbn: ["isbn"],
  music: ["music", "song", "album", "artist"],
  dictionary: ["dictionar", "translat"],
  translation: ["translat", "language"],
  detection: ["detect"],
  calendar: ["event", "calendar", "agenda"],
  appointment: ["event", "calendar", "agenda", "appointment"],
  glossary: ["glossar"],
  playlist: ["playlist"],
  scene: ["scene"],
  book: ["book"],
  reminder: ["remind", "task", "todo"],
} as const;

/** The domain of a search and the stems that tell it, in order (the first match picks the search words). */
export const SEARCH_DOMAINS: ReadonlyArray<{ domain: string; stems: readonly string[] }> = [
  { domain: "stocks", stems: ["symbol", "stock", "ticker", "quote", "equit"] },
  { domain: "news", stems: ["article", "news", "headline"] },
  { domain: "food", stems: ["recipe", "dish", "meal", "food"] },
  { domain: "jobs", stems: ["job", "posting", "vacanc", "career"] },
  { domain: "music", stems: ["music", "song", "track", "album", "artist", "catalogue"] },
  { domain: "events", stems: ["event", "calendar", "agenda", "appointment"] },
  { domain: "books", stems: ["book", "title", "library"] },
];

/** Words of a place search's description that make `q` a city ("location", "cities"... as whole words). */
export const PLACE_QUERY_WORDS: readonly string[] = ["location", "locations", "city", "place", "places", "town", "towns"];
