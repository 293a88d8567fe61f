import type { Rng } from "../../specs/seed.js";
import { seededFaker } from "../../specs/synthesize/values/realistic-value.js";
import { operationGoal } from "./operation-goal.js";
import type { ArgumentInfo } from "../assistant/tool-arguments.js";
import type { ToolboxEntry } from "../roles/toolbox.js";
import { identifierWords, singular } from "../language/words.js";
import { patternTest } from "../../specs/load/patterns/linear-pattern.js";
import { isObject } from "../../specs/json-object.js";
import { bindingsOf } from "../../specs/respond/bindings/bindings.js";
import { TERMS } from "../../specs/synthesize/world/world-terms.js";
import { valueKindOf } from "../../specs/value-kinds.js";
import { DOMAIN_STEMS, PLACE_QUERY_WORDS, SEARCH_DOMAINS } from "../language/lexicon/value-domains.js";
import { VALUE_NAMES } from "../language/lexicon/names.js";
import { anyStem, anyWord } from "../language/word-patterns.js";

/** The domain tests of the lexicon, compiled once. */
const DOMAIN = Object.fromEntries(Object.entries(DOMAIN_STEMS).map(([k, stems]) => [k, anyStem(stems)])) as Record<keyof typeof DOMAIN_STEMS, RegExp>;
const PLACE_QUERY = anyWord(PLACE_QUERY_WORDS, "");
const PERSON_ROLE = anyStem(VALUE_NAMES.personRoles);

/** Whether a name is one of a list of the lexicon. */
function has(names: readonly string[], name: string): boolean {
  return names.includes(name);
}

/*
 * Realistic values for the offline user's plans, by what an argument means (its name, description, pattern,
 * format and the operation it belongs to): a persona for the user's own details (name, e-mail, password),
 * places with coordinates and country, codes (currencies, airports, countries, languages, time zones),
 * dates around the reference date, numbers near the spec's example, and small pools of the texts people
 * type (event titles, reminders, search words by domain). Every value is drawn from the caller's `rng`.
 */

/** The user of an episode: one person, whose details every step that needs them shares. */
export interface Persona {
  first: string;
  last: string;
  full: string;
  email: string;
  phone: string;
  username: string;
  password: string;
  newPassword: string;
  birthDate: string;
}

/** A place with coordinates (4 decimals) and its country (ISO 3166-1 alpha-2). */
export interface Place {
  city: string;
  country: string;
  countryName: string;
  lat: number;
  lon: number;
  airport: string;
  timezone: string;
  address: string;
  /** Its state or province, where addresses name one (`IL`, `ON`). */
  region?: string;
}

/** What the values of one plan share: the persona, and the place each coordinate prefix or city argument chose. */
export interface ValueContext {
  persona: Persona;
  /** Places chosen so far in the current step, by coordinate prefix (`""`, `from`, `to`) or `city`. */
  places: Map<string, Place>;
}

export const PLACES: readonly Place[] = [
  { city: "Lisbon", country: "PT", countryName: "Portugal", lat: 38.7223, lon: -9.1393, airport: "LIS", timezone: "Europe/Lisbon", address: "Rua Augusta 24, Lisbon" },
  { city: "Porto", country: "PT", countryName: "Portugal", lat: 41.1496, lon: -8.611, airport: "OPO", timezone: "Europe/Lisbon", address: "Avenida dos Aliados 100, Porto" },
  { city: "Berlin", country: "DE", countryName: "Germany", lat: 52.52, lon: 13.405, airport: "BER", timezone: "Europe/Berlin", address: "Alexanderplatz 1, Berlin" },
  { city: "Munich", country: "DE", countryName: "Germany", lat: 48.1351, lon: 11.582, airport: "MUC", timezone: "Europe/Berlin", address: "Marienplatz 8, Munich" },
  { city: "Paris", country: "FR", countryName: "France", lat: 48.8566, lon: 2.3522, airport: "CDG", timezone: "Europe/Paris", address: "5 Avenue Anatole France, Paris" },
  { city: "Lyon", country: "FR", countryName: "France", lat: 45.764, lon: 4.8357, airport: "LYS", timezone: "Europe/Paris", address: "20 Place Bellecour, Lyon" },
  { city: "London", country: "GB", countryName: "United Kingdom", lat: 51.5074, lon: -0.1278, airport: "LHR", timezone: "Europe/London", address: "221B Baker Street, London" },
  { city: "Manchester", country: "GB", countryName: "United Kingdom", lat: 53.4808, lon: -2.2426, airport: "MAN", timezone: "Europe/London", address: "1 Piccadilly Gardens, Manchester" },
  { city: "Madrid", country: "ES", countryName: "Spain", lat: 40.4168, lon: -3.7038, airport: "MAD", timezone: "Europe/Madrid", address: "Puerta del Sol 1, Madrid" },
  { city: "Barcelona", country: "ES", countryName: "Spain", lat: 41.3874, lon: 2.1686, airport: "BCN", timezone: "Europe/Madrid", address: "Passeig de Gràcia 92, Barcelona" },
  { city: "Rome", country: "IT", countryName: "Italy", lat: 41.9028, lon: 12.4964, airport: "FCO", timezone: "Europe/Rome", address: "Piazza Navona 45, Rome" },
  { city: "Milan", country: "IT", countryName: "Italy", lat: 45.4642, lon: 9.19, airport: "MXP", timezone: "Europe/Rome", address: "Via Montenapoleone 8, Milan" },
  { city: "Amsterdam", country: "NL", countryName: "Netherlands", lat: 52.3676, lon: 4.9041, airport: "AMS", timezone: "Europe/Amsterdam", address: "Damrak 70, Amsterdam" },
  { city: "Vienna", country: "AT", countryName: "Austria", lat: 48.2082, lon: 16.3738, airport: "VIE", timezone: "Europe/Vienna", address: "Stephansplatz 3, Vienna" },
  { city: "Dublin", country: "IE", countryName: "Ireland", lat: 53.3498, lon: -6.2603, airport: "DUB", timezone: "Europe/Dublin", address: "12 Grafton Street, Dublin" },
  { city: "Copenhagen", country: "DK", countryName: "Denmark", lat: 55.6761, lon: 12.5683, airport: "CPH", timezone: "Europe/Copenhagen", address: "Nyhavn 17, Copenhagen" },
  { city: "Stockholm", country: "SE", countryName: "Sweden", lat: 59.3293, lon: 18.0686, airport: "ARN", timezone: "Europe/Stockholm", address: "Drottninggatan 53, Stockholm" },
  { city: "New York", country: "US", countryName: "United States", lat: 40.7128, lon: -74.006, airport: "JFK", timezone: "America/New_York", address: "350 Fifth Avenue, New York", region: "NY" },
  { city: "San Francisco", country: "US", countryName: "United States", lat: 37.7749, lon: -122.4194, airport: "SFO", timezone: "America/Los_Angeles", address: "221 Market Street, San Francisco", region: "CA" },
  { city: "Chicago", country: "US", countryName: "United States", lat: 41.8781, lon: -87.6298, airport: "ORD", timezone: "America/Chicago", address: "233 South Wacker Drive, Chicago", region: "IL" },
  { city: "Toronto", country: "CA", countryName: "Canada", lat: 43.6532, lon: -79.3832, airport: "YYZ", timezone: "America/Toronto", address: "290 Bremner Boulevard, Toronto", region: "ON" },
  { city: "Montreal", country: "CA", countryName: "Canada", lat: 45.5019, lon: -73.5674, airport: "YUL", timezone: "America/Toronto", address: "1000 Rue Sherbrooke, Montreal", region: "QC" },
  { city: "Tokyo", country: "JP", countryName: "Japan", lat: 35.6762, lon: 139.6503, airport: "HND", timezone: "Asia/Tokyo", address: "1-1 Marunouchi, Tokyo" },
  { city: "Sydney", country: "AU", countryName: "Australia", lat: -33.8688, lon: 151.2093, airport: "SYD", timezone: "Australia/Sydney", address: "1 Macquarie Street, Sydney", region: "NSW" },
];

const CURRENCIES = ["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "SEK", "NOK", "DKK", "PLN", "CNY", "INR", "BRL", "MXN", "NZD", "SGD"];
const LANGUAGES = ["en", "de", "fr", "es", "it", "pt", "nl", "ja", "pl", "sv", "pt-BR", "en-GB", "en-US", "es-MX", "fr-CA", "de-AT"];
const LOCALES = ["en-GB", "en-US", "de-DE", "fr-FR", "es-ES", "pt-BR", "it-IT", "nl-NL", "ja-JP", "en-CA", "fr-CA", "de-CH"];
const SUBDIVISIONS = ["DE-BY", "DE-BE", "DE-NW", "FR-75", "FR-67", "ES-MD", "ES-CT", "US-CA", "US-NY", "GB-SCT", "IT-RM", "NL-NH", "AT-9", "CA-QC", "AU-NSW"];
const FLIGHT_NUMBERS = ["TP538", "LH1175", "BA472", "AF1025", "IB3101", "KL1392", "U24512", "FR8372", "LX1820", "SK1466", "DL405", "UA901"];
const TICKERS = ["AAPL", "MSFT", "NVDA", "TSLA", "AMZN", "SAP", "ASML", "SIE.DE", "NESN.SW", "NWRB", "TM", "SHEL"];
const COMPANIES = ["apple", "microsoft", "siemens", "nvidia", "tesla", "nestle", "toyota", "shell", "northwind", "airbus", "spotify", "adidas"];

/** Texts people type, by what they are for. */
const TEXTS: Record<string, readonly string[]> = {
  eventTitle: ["Lunch with Priya", "Dentist appointment", "Team standup", "Quarterly review", "Yoga class", "Coffee with Marco", "Project kickoff", "Parent-teacher meeting", "Flat viewing", "Haircut", "Dinner with the Okafors", "Budget planning"],
  eventDescription: ["Discuss the conference talk.", "Bring the signed contract.", "Agenda: roadmap and hiring.", "Bring the slides and the demo laptop.", "Catch up after the holidays.", "Review the draft budget."],
  eventLocation: ["Café Lumen", "Room 4.12", "Canteen, 3rd floor", "Main library", "City Dental Clinic", "Studio 5", "Central Station, platform 3", "Online"],
  reminder: ["Call the plumber", "Renew the passport", "Water the plants", "Buy a birthday gift for Lena", "Send the invoice", "Book the car service", "Pay the electricity bill", "Return the library books", "Pick up the dry cleaning", "Email the landlord"],
  glossary: ["Support desk terms", "Legal terms", "Marketing glossary", "Product names", "Medical terms", "Onboarding vocabulary", "Finance terms", "Travel phrases"],
  playlist: ["Road Trip 2025", "Sunday Morning Jazz", "Focus Beats", "Workout Mix", "Rainy Day Acoustic", "Dinner Party", "Summer Evenings", "Deep Work"],
  playlistDescription: ["Windows down.", "Songs for slow mornings.", "No lyrics, just focus.", "For the long drive south.", "Upbeat and loud.", "Quiet songs for late evenings."],
  scene: ["Leaving home", "Movie night", "Good morning", "Bedtime", "Reading corner", "Dinner time", "Away on holiday", "Wake up gently"],
  coverLetter: ["I would love to work with retail data.", "I have five years of experience in this field and would be glad to join your team.", "Your mission speaks to me and my skills fit the role well.", "I am excited about the chance to grow with your company."],
  publisher: ["Meridian Academic", "Harbor Press", "Northlight Books", "Bluebird Publishing", "Atlas & Co.", "Juniper House"],
  bookSubtitle: ["Sparrows, Swifts and the City", "A Practical Guide", "Stories from the Coast", "Notes on a Changing World", "An Introduction"],
  bookDescription: ["An illustrated guide to the birds that live among us in towns and cities.", "A gripping story of a family and the sea.", "A short history of the ideas that shaped modern science.", "Recipes and stories from a small Italian kitchen."],
  reason: ["Change of plans", "Found a better option", "Booked by mistake", "Illness in the family"],
};

/** Search words by the domain of the search. */
const SEARCH_WORDS: Readonly<Record<string, readonly string[]>> = {
  stocks: COMPANIES,
  news: ["heat wave AND Spain", "electric cars", "interest rates", "World Cup", "housing prices", "climate summit", "AI regulation", "wildfires", "rail strike", "election", "space telescope", "inflation"],
  food: ["curry", "lasagna", "pancakes", "ramen", "risotto", "chili", "tacos", "lentil soup", "banana bread", "paella"],
  jobs: ["data analyst", "nurse", "software engineer", "product manager", "accountant", "barista", "electrician", "teacher", "ux designer"],
  music: ["night ferry", "blue in green", "jazz piano", "moonlight", "summer", "harbour lights", "slow dance", "northern lights"],
  events: ["dentist", "lunch", "standup", "review", "gym", "birthday", "dinner", "meeting"],
  books: ["lighthouse", "birds", "garden", "history", "ocean", "mountains", "science", "cooking"],
};

/** Search words by the domain of the search (its stems in the lexicon), in the lexicon's order. */
const SEARCHES: ReadonlyArray<{ test: RegExp; words: readonly string[] }> = SEARCH_DOMAINS.map(({ domain, stems }) => ({ test: anyStem(stems), words: SEARCH_WORDS[domain] ?? [] }));

const INGREDIENTS = ["buttermilk", "eggs", "butter", "sour cream", "heavy cream", "honey", "cornstarch", "baking powder", "yogurt", "brown sugar", "white wine", "shallots"];
const COOKING = ["chickpeas", "spinach", "tomatoes", "rice", "chicken", "mushrooms", "lentils", "garlic", "coconut milk", "potatoes", "tofu", "salmon"];
const ALLERGENS = ["peanuts", "shellfish", "walnuts", "milk", "eggs", "sesame", "soy"];
const GENRES = ["jazz", "rock", "pop", "classical", "hip hop", "electronic", "folk", "soul", "blues"];
const WORDS: Record<string, readonly string[]> = {
  en: ["bank", "light", "spring", "house", "book", "run", "table", "bright", "fair", "match"],
  de: ["Bank", "Haus", "Zeit", "Schloss", "Buch", "Licht", "Kiefer", "Gericht"],
  fr: ["avocat", "livre", "temps", "banque", "maison", "lumière"],
  es: ["banco", "tiempo", "casa", "libro", "luz", "muñeca"],
  it: ["banca", "tempo", "casa", "libro", "luce", "pesca"],
  pt: ["banco", "manga", "casa", "livro", "tempo", "luz"],
};
const SENTENCES = ["Where is the nearest pharmacy?", "How much does this cost?", "The meeting is moved to Thursday.", "Could you send me the invoice?", "Thank you for your help.", "The train leaves at nine.", "Please keep the receipt.", "Is breakfast included?"];
const FOREIGN_SENTENCES = ["Où est la gare ?", "Wie spät ist es?", "¿Dónde está el baño?", "Obrigado pela ajuda.", "Dov'è il museo?", "Goedemorgen, hoe gaat het?", "Where is the nearest pharmacy?", "Jag vill ha en kaffe, tack.", "Ich hätte gern die Rechnung."];

// ------------------------------------------------------------------------------------------------ persona

function slug(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
}

const PASSWORD_WORDS = ["river", "harbour", "maple", "copper", "falcon", "meadow", "cedar", "silver", "ember", "willow", "orbit", "summit"];

function password(rng: Rng): string {
  const a = rng.pick(PASSWORD_WORDS);
  const b = rng.pick(PASSWORD_WORDS.filter((w) => w !== a));
  return `${a}-${b.charAt(0).toUpperCase()}${b.slice(1)}-${rng.int(10, 99)}`;
}

/** The user of an episode: a seeded person with coherent name, e-mail, phone, user name and passwords. */
export function makePersona(rng: Rng): Persona {
  const f = seededFaker(rng.int(0, 0x7fffffff));
  const first = f.person.firstName();
  const last = f.person.lastName();
  const domain = rng.pick(["example.com", "example.com", "mail.example.com", "example.org"]);
  const email = rng.chance(0.7) ? `${slug(first)}.${slug(last)}@${domain}` : `${slug(first).charAt(0)}${slug(last)}@${domain}`;
  const phone = `+${rng.pick(["1", "44", "49", "33", "351", "34", "39"])} ${rng.int(200, 999)} ${rng.int(100, 999)} ${rng.int(1000, 9999)}`;
  const username = rng.pick([`${slug(first)}.${slug(last)}`, `${slug(first)}_${rng.int(10, 99)}`, `${slug(first).charAt(0)}${slug(last)}`]).slice(0, 30);
  const pw = password(rng);
  let pw2 = password(rng);
  if (pw2 === pw) pw2 = `${pw}-2`;
  const birth = `${rng.int(1958, 2003)}-${String(rng.int(1, 12)).padStart(2, "0")}-${String(rng.int(1, 28)).padStart(2, "0")}`;
  return { first, last, full: `${first} ${last}`, email, phone, username, password: pw, newPassword: pw2, birthDate: birth };
}

/** A new value context for a plan (one persona for the episode). */
export function newValueContext(rng: Rng): ValueContext {
  return { persona: makePersona(rng), places: new Map() };
}

// ------------------------------------------------------------------------------------------------ dates

const DAY = 86_400_000;
const REFERENCE = Date.UTC(2025, 5, 1, 12);

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whether a date argument looks back (a history, published articles, a birth) rather than ahead (a trip, an event, a due date). */
function looksBack(text: string): boolean {
  return DOMAIN.past.test(text);
}

function dateTime(ms: number, example: unknown, rng: Rng): string {
  const day = isoDate(ms);
  const time = `${String(rng.int(8, 19)).padStart(2, "0")}:${rng.pick(["00", "15", "30", "45"])}:00`;
  const offset = typeof example === "string" ? (/([+-]\d{2}:\d{2})$/.exec(example)?.[1] ?? "Z") : "Z";
  return `${day}T${time}${offset}`;
}

/** Whether an argument bounds a range of stamps of what already happened (`start_time` over rides' `requested_at`). */
export function boundsPastStamps(entry: ToolboxEntry, arg: ArgumentInfo): boolean {
  return bindingsOf(entry.toolset.catalog, entry.tool).some((b) => b.kind === "range" && b.arg === arg.name && valueKindOf(b.field.split(/[.[\]]/).filter((p) => p !== "").pop() ?? "") === "stamp");
}

function dateValue(entry: ToolboxEntry, arg: ArgumentInfo, text: string, rng: Rng, persona: Persona): string {
  if (DOMAIN.birth.test(text)) return persona.birthDate;
  const offset = looksBack(text) || boundsPastStamps(entry, arg) ? -rng.int(3, 400) : rng.int(1, 200);
  const ms = REFERENCE + offset * DAY;
  return arg.format === "date-time" ? dateTime(ms, arg.examples[0], rng) : isoDate(ms);
}

// ------------------------------------------------------------------------------------------------ numbers

function decimalsOf(n: number): number {
  const s = String(n);
  const dot = s.indexOf(".");
  return dot < 0 ? 0 : s.length - dot - 1;
}

/** Rounds a number the way people write amounts: 2 significant digits for large ones, the example's decimals otherwise. */
function niceNumber(v: number, example: number, integer: boolean): number {
  if (integer || decimalsOf(example) === 0) {
    const abs = Math.abs(v);
    const unit = abs >= 10_000 ? 1000 : abs >= 1000 ? 100 : abs >= 200 ? 10 : abs >= 40 ? 5 : 1;
    return Math.round(v / unit) * unit;
  }
  const d = decimalsOf(example);
  // Prices ending in .99 keep the ending.
  if (d === 2 && /\.(99|95)$/.test(example.toFixed(2))) return Math.max(0, Math.floor(v)) + Number(example.toFixed(2).slice(-3));
  return Number(v.toFixed(Math.min(d, 2)));
}

function bounded(arg: ArgumentInfo, v: number): number | undefined {
  const s = arg.schema;
  const min = typeof s["minimum"] === "number" ? s["minimum"] : undefined;
  const max = typeof s["maximum"] === "number" ? s["maximum"] : undefined;
  if (min !== undefined && v < min) return undefined;
  if (max !== undefined && v > max) return undefined;
  if (typeof s["exclusiveMinimum"] === "number" && v <= s["exclusiveMinimum"]) return undefined;
  if (typeof s["exclusiveMaximum"] === "number" && v >= s["exclusiveMaximum"]) return undefined;
  return v;
}

/** A number near the spec's example (a half to three times it, nicely rounded), within the schema's bounds. */
function numberNear(arg: ArgumentInfo, key: string, rng: Rng): number | undefined {
  const integer = arg.type === "integer";
  const example = arg.examples.find((e): e is number => typeof e === "number");
  const s = arg.schema;
  const min = typeof s["minimum"] === "number" ? s["minimum"] : undefined;
  const max = typeof s["maximum"] === "number" ? s["maximum"] : undefined;
  if (/(^|_)year$/.test(key)) return bounded(arg, 2025 + rng.int(-1, 1));
  // Small ranges (days 1-14, a brightness 0-100): any value in the range, rounded.
  if (min !== undefined && max !== undefined && max - min <= 100) {
    const step = max - min >= 50 ? 5 : 1;
    const v = integer || decimalsOf(example ?? 1) === 0 ? min + step * rng.int(0, Math.floor((max - min) / step)) : Number((min + rng.next() * (max - min)).toFixed(1));
    return bounded(arg, v);
  }
  if (example === undefined) return undefined;
  for (let i = 0; i < 4; i++) {
    const wide = /amount|sum|quantity|total/.test(key);
    const factor = rng.pick(wide ? [0.2, 0.4, 0.5, 0.6, 0.75, 0.8, 1.2, 1.25, 1.5, 2, 2.5, 3, 4] : [0.5, 0.6, 0.75, 0.8, 0.9, 1.1, 1.2, 1.25, 1.5, 2]);
    const v = niceNumber(example * factor, example, integer);
    const ok = bounded(arg, integer ? Math.round(v) : v);
    if (ok !== undefined && ok !== 0) return ok;
  }
  return undefined;
}

// ------------------------------------------------------------------------------------------------ shapes

/** A value of the same shape as an example id (`off_8Hq2LmZx4T` -> `off_3Kd9TqL2aP`): the prefix kept, the rest redrawn by character class. */
export function sameShape(example: string, rng: Rng): string {
  const prefix = /^([A-Za-z]+[-_])(?=.*\d)/.exec(example)?.[1] ?? "";
  const rest = example.slice(prefix.length);
  const lower = "abcdefghijkmnpqrstuvwxyz";
  const upper = "ABCDEFGHJKLMNPQRSTUVWXYZ";
  let out = "";
  for (const c of rest) {
    if (/[0-9]/.test(c)) out += String(rng.int(0, 9));
    else if (/[a-z]/.test(c)) out += lower.charAt(rng.int(0, lower.length - 1));
    else if (/[A-Z]/.test(c)) out += upper.charAt(rng.int(0, upper.length - 1));
    else out += c;
  }
  // Hex-looking ids stay hex.
  if (/^[0-9a-f-]{8,}$/.test(rest) && /[a-f]/.test(rest) && /\d/.test(rest)) out = [...rest].map((c) => (/[0-9a-f]/.test(c) ? "0123456789abcdef".charAt(rng.int(0, 15)) : c)).join("");
  return prefix + out;
}

function isbn13(rng: Rng): string {
  const digits = [9, 7, 8, ...Array.from({ length: 9 }, () => rng.int(0, 9))];
  const sum = digits.reduce((a, d, i) => a + d * (i % 2 === 0 ? 1 : 3), 0);
  return [...digits, (10 - (sum % 10)) % 10].join("");
}

// ------------------------------------------------------------------------------------------------ places

function placeFor(ctx: ValueContext, key: string, rng: Rng, country?: string): Place {
  let place = ctx.places.get(key);
  // A tool of one country's addresses (a US address to verify) takes a place of that country.
  if (!place || (country !== undefined && place.country !== country)) {
    // Two ends of a trip or a distance are two places.
    const taken = new Set([...ctx.places.values()].map((p) => p.city));
    const options = PLACES.filter((p) => !taken.has(p.city) && (country === undefined || p.country === country));
    place = rng.pick(options.length > 0 ? options : PLACES.filter((p) => country === undefined || p.country === country));
    ctx.places.set(key, place);
  }
  return place;
}

/** The country a tool's addresses are in, when its name or description says (`verifyUSAddress`, "meets USPS standards"). */
function addressCountry(entry: ToolboxEntry): string | undefined {
  const words = `${identifierWords(entry.name).join(" ")} ${entry.description}`;
  return /\b(us|usa|u\.s\.?|usps|united states)\b/i.test(words) && /\b(address|addresses|zip|usps)\b/i.test(words) ? "US" : undefined;
}

function coordinatePrefix(words: readonly string[]): string | undefined {
  const last = words[words.length - 1] ?? "";
  if (!has(VALUE_NAMES.coordinate, last)) return undefined;
  return words.slice(0, -1).join(" ");
}

// ------------------------------------------------------------------------------------------------ the value

/** What an argument is about, in lower-case words: its name, description, the operation's goal and the toolset. */
function about(entry: ToolboxEntry, arg: ArgumentInfo): { key: string; words: string[]; text: string; domain: string } {
  const words = identifierWords(arg.name);
  const goal = operationGoal(entry.tool);
  const domain = `${entry.toolset.name} ${entry.toolset.title} ${entry.toolset.category ?? ""} ${entry.name} ${goal.object} ${goal.noun}`.toLowerCase();
  return { key: words.join("_"), words, text: `${words.join(" ")} ${arg.description}`.toLowerCase(), domain };
}

function patternOf(arg: ArgumentInfo): string {
  const p = arg.schema["pattern"];
  if (typeof p === "string") return p;
  const items = arg.schema["items"];
  return isObject(items) && typeof items["pattern"] === "string" ? items["pattern"] : "";
}

function pickSome(rng: Rng, pool: readonly string[], max: number, avoid: readonly unknown[] = []): string[] {
  const n = rng.int(1, max);
  const out: string[] = [];
  const options = pool.filter((x) => !avoid.includes(x));
  for (let i = 0; i < 20 && out.length < n && out.length < options.length; i++) {
    const v = rng.pick(options);
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

/** The persona's value for an argument about the user (e-mail, password, name, phone), if it is one. */
export function personaValue(arg: ArgumentInfo, p: Persona): unknown {
  const words = identifierWords(arg.name);
  const key = words.join("_");
  const last = words[words.length - 1] ?? "";
  if (arg.type !== undefined && arg.type !== "string") return undefined;
  if (arg.format === "email" || last === "email") return p.email;
  if (arg.format === "password" || /password$/.test(key)) return /^(new)/.test(key) ? p.newPassword : p.password;
  if (has(VALUE_NAMES.personFullName, key)) return p.full;
  if (key === "first_name" || key === "given_name") return p.first;
  if (key === "last_name" || key === "family_name" || key === "surname") return p.last;
  if (/(^|_)(phone|mobile)(_number)?$/.test(key)) return p.phone;
  return undefined;
}

/**
 * A realistic value for an argument by what it means, or undefined when nothing here knows it (the caller
 * falls back to examples, faker and synthesis). The caller validates the value against the schema.
 */
export function meaningfulValue(entry: ToolboxEntry, arg: ArgumentInfo, rng: Rng, ctx: ValueContext): unknown {
  const { key, words, text, domain } = about(entry, arg);
  const last = words[words.length - 1] ?? "";
  const p = ctx.persona;
  const pattern = patternOf(arg);
  const list = arg.type === "array";
  const one = (pool: readonly string[]): unknown => (list ? pickSome(rng, pool, 3) : rng.pick(pool));

  // The user's own details.
  const own = personaValue(arg, p);
  if (own !== undefined) return own;
  if (/(^|_)(user_?name|owner|handle|login)$/.test(key) && !/[A-Z]/.test(pattern)) return rng.chance(0.5) ? p.username : rng.pick(["listener", "maria.k", "dj_nova", "jazzfan42", "tom.b", "audio_ann"]);
  if (/refresh_token$|(^|_)token$/.test(key) && typeof arg.examples[0] === "string") return sameShape(arg.examples[0], rng);

  // Places and coordinates.
  const prefix = coordinatePrefix(words);
  if (prefix !== undefined && (arg.type === "number" || arg.type === undefined)) {
    const place = placeFor(ctx, `coord:${prefix}`, rng);
    return has(VALUE_NAMES.latitude, last) ? place.lat : place.lon;
  }
  const national = addressCountry(entry);
  if (key === "q" && DOMAIN.address.test(text)) return placeFor(ctx, "city", rng, national).address;
  if (has(VALUE_NAMES.city, key) || (key === "q" && PLACE_QUERY.test(text))) return placeFor(ctx, "city", rng, national).city;
  // An address's state: the state of its city (`Chicago` -> `IL`).
  if (/^(state|state_code|province)$/.test(key) && arg.type !== "integer" && arg.type !== "number" && (national !== undefined || DOMAIN.address.test(`${text} ${domain}`))) {
    const region = placeFor(ctx, "city", rng, national).region;
    if (region !== undefined) return region;
  }
  if (key === "location" && DOMAIN.cityOrRegion.test(text)) return rng.chance(0.6) ? placeFor(ctx, "city", rng).city : placeFor(ctx, "city", rng).countryName;
  if (key === "q" && DOMAIN.airport.test(text + domain)) return placeFor(ctx, "city", rng).city;
  if (DOMAIN.airport.test(text) || has(VALUE_NAMES.routeEnd, key)) {
    if (/^\^?\[A-Z\]\{3\}\$?$/.test(pattern) || DOMAIN.iata.test(text)) return placeFor(ctx, key === "destination" ? "to" : "from", rng).airport;
  }
  if (/flight_number$/.test(key)) return rng.pick(FLIGHT_NUMBERS);
  if (/time_?zone$|^tz$/.test(key)) return ctx.places.get("city")?.timezone ?? rng.pick(PLACES).timezone;
  if (DOMAIN.subdivision.test(text)) return rng.pick(SUBDIVISIONS);
  if (/(^|_)country(_code)?s?$|countries$/.test(key) || DOMAIN.countryCode.test(text)) {
    const city = ctx.places.get("city");
    if (list) return pickSome(rng, [...new Set(PLACES.map((x) => x.country))], 2);
    return city && rng.chance(0.8) ? city.country : rng.pick(PLACES).country;
  }

  // Codes (a number that talks about a currency, "amount of the source currency", is no code).
  const numeric = arg.type === "integer" || arg.type === "number";
  if (!numeric && DOMAIN.currencyCode.test(text) || (has(VALUE_NAMES.currencyEnd, key) && DOMAIN.exchange.test(domain))) return list ? pickSome(rng, CURRENCIES, 3) : rng.pick(CURRENCIES);
  if (/locale/.test(key)) return rng.pick(LOCALES.filter((l) => pattern === "" || patternTest(pattern, l)));
  if (/(^|_)(lang|language)$|display_language|^(source|target)$/.test(key) && (DOMAIN.language.test(text) || pattern.includes("[a-z]{2}"))) {
    const options = LANGUAGES.filter((l) => pattern === "" || patternTest(pattern, l));
    return options.length > 0 ? one(options) : undefined;
  }
  if (/(^|_)(symbol|ticker)s?$/.test(key) && DOMAIN.stock.test(domain + text)) return one(TICKERS);
  if (key === "isbn" || DOMAIN.isbn.test(text)) return isbn13(rng);

  // Dates.
  if (arg.format === "date" || arg.format === "date-time") return dateValue(entry, arg, `${text} ${domain}`, rng, p);

  // Numbers.
  if (arg.type === "integer" || arg.type === "number") {
    if (/(^|_)id$/.test(key)) return undefined;
    return numberNear(arg, key, rng);
  }
  // A number sent as text (`amount: "500"`, in cents, the example says): text of a number near the example's.
  if (arg.type === "string" && !has(VALUE_NAMES.idLast, last) && arg.examples.length > 0 && arg.examples.every((e) => typeof e === "number")) {
    const near = numberNear(arg, key, rng);
    return near === undefined ? undefined : String(near);
  }

  // Names of people who made something (a book's authors).
  if (/^(authors?|artists?|composers?|writers?)$/.test(key) && arg.in === "body") {
    const f = seededFaker(rng.int(0, 0x7fffffff));
    const names = Array.from({ length: rng.chance(0.25) ? 2 : 1 }, () => `${f.person.firstName()} ${f.person.lastName()}`);
    return list ? names : names[0];
  }

  // Texts people type.
  const texts = (pool: string): unknown => one(TEXTS[pool] ?? []);
  if (/ingredient/.test(key)) return /exclude/.test(key) ? pickSome(rng, ALLERGENS, 2) : /include/.test(key) ? pickSome(rng, COOKING, 3) : list ? pickSome(rng, COOKING, 2) : rng.pick(INGREDIENTS);
  if (key === "genre" && DOMAIN.music.test(domain)) return rng.pick(GENRES);
  if (key === "word" && DOMAIN.dictionary.test(domain)) return rng.pick(WORDS["en"] ?? []);
  if (key === "texts" || (key === "text" && DOMAIN.translation.test(domain))) {
    const pool = DOMAIN.detection.test(domain) ? FOREIGN_SENTENCES : SENTENCES;
    return list ? pickSome(rng, pool, 2) : rng.pick(pool);
  }
  if (has(VALUE_NAMES.title, key)) {
    if (DOMAIN.appointment.test(domain)) return texts("eventTitle");
    if (DOMAIN.glossary.test(domain)) return texts("glossary");
    if (DOMAIN.playlist.test(domain)) return texts("playlist");
    if (DOMAIN.scene.test(domain)) return texts("scene");
    if (DOMAIN.book.test(domain)) return seededFaker(rng.int(0, 0x7fffffff)).book.title();
  }
  if (has(VALUE_NAMES.noteText, key) && DOMAIN.reminder.test(domain)) return texts("reminder");
  if (key === "description") {
    if (DOMAIN.calendar.test(domain)) return texts("eventDescription");
    if (DOMAIN.playlist.test(domain)) return texts("playlistDescription");
    if (DOMAIN.book.test(domain)) return texts("bookDescription");
  }
  if (key === "location" && DOMAIN.calendar.test(domain)) return texts("eventLocation");
  if (/cover_letter/.test(key)) return texts("coverLetter");
  if (key === "publisher") return texts("publisher");
  if (key === "subtitle") return texts("bookSubtitle");
  if (has(VALUE_NAMES.searchText, key)) {
    for (const s of SEARCHES) if (s.test.test(domain)) return rng.pick(s.words);
    return undefined;
  }
  // Ids with a recognisable shape and no state to point into: another id of the same shape.
  const example = arg.examples.find((e): e is string => typeof e === "string");
  if (example !== undefined && has(VALUE_NAMES.idLast, last) && !/\s/.test(example) && /\d/.test(example)) return sameShape(example, rng);
  if (example !== undefined && pattern !== "" && !/\s/.test(example) && /\d/.test(example)) return sameShape(example, rng);
  return undefined;
}

/** Whether a leaf of an object example is about the person (the persona fills it). */
function personLeaf(name: string, parents: readonly string[], p: Persona): unknown {
  const key = identifierWords(name).join("_");
  if (key === "email") return p.email;
  if (has(VALUE_NAMES.leafFullName, key) || (key === "name" && parents.some((x) => PERSON_ROLE.test(x.toLowerCase())))) return p.full;
  if (key === "first_name" || key === "given_name") return p.first;
  if (key === "last_name" || key === "family_name") return p.last;
  if (/(^|_)(phone|mobile)(_number)?$/.test(key)) return p.phone;
  if (/(^|_)(date_of_birth|birth_date|birthdate|dob)$/.test(key)) return p.birthDate;
  if (/(resume|cv)_url$/.test(key)) return `https://files.example.com/cv/${slug(p.first)}-${slug(p.last)}.pdf`;
  if (/linkedin_url$/.test(key)) return `https://social.example.com/in/${slug(p.first)}-${slug(p.last)}`;
  return undefined;
}

/**
 * An object (or list of objects) example with its leaves redrawn where they mean something known: the
 * persona's details, the place's address, another id of the same shape, a number near the example's.
 */
export function variedExample(entry: ToolboxEntry, argName: string, example: unknown, rng: Rng, ctx: ValueContext, idsFor: (name: string) => readonly unknown[] = () => []): unknown {
  const place = placeFor(ctx, "city", rng);
  const walk = (v: unknown, name: string, parents: readonly string[]): unknown => {
    if (Array.isArray(v)) {
      // Mostly one item: a user lists one passenger, one order line, one action.
      const kept = v.length > 1 && v.some(isObject) && rng.chance(0.75) ? v.slice(0, 1) : v;
      const items = kept.map((x) => walk(x, singular(name), parents));
      // A list of references (`bookId`s) holds each thing once.
      return items.filter((x, i) => !isObject(x) || items.findIndex((y) => JSON.stringify(y) === JSON.stringify(x)) === i);
    }
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k, [...parents, name])]));
    const person = personLeaf(name, parents, ctx.persona);
    if (person !== undefined && typeof person === typeof v) return person;
    const key = identifierWords(name).join("_");
    if (typeof v === "string") {
      if (/^(line1|line_1|street|address_line1|address)$/.test(key)) return place.address.split(",")[0];
      if (key === "city") return place.city;
      if (has(VALUE_NAMES.country, key) && /^[A-Z]{2}$/.test(v)) return place.country;
      if (/^(postal_code|zip|zip_code|postcode)$/.test(key)) return sameShape(v, rng);
      if (/passport/.test(key)) return sameShape(v, rng);
      if (/(^|_)id$/.test(key)) {
        const ids = idsFor(name);
        if (ids.length > 0) return rng.pick(ids);
      }
    }
    if (typeof v === "number") {
      if (has(VALUE_NAMES.quantity, key)) return rng.int(1, 3);
      if (has(VALUE_NAMES.level, key)) return 10 * rng.int(1, 10);
      if (/color_temperature/.test(key)) return 100 * rng.int(22, 65);
      if (/target_temperature|temperature/.test(key)) return 17 + 0.5 * rng.int(0, 14);
    }
    if (typeof v === "boolean" && has(VALUE_NAMES.switch, key)) return rng.chance(0.7);
    return v;
  };
  return walk(example, argName, [entry.name]);
}

/** Glossary entries `{source, target}` between two languages (undefined when the pool lacks one of them). */
export function termPairs(source: string, target: string, rng: Rng): Array<{ source: string; target: string }> | undefined {
  const s = source.slice(0, 2).toLowerCase();
  const t = target.slice(0, 2).toLowerCase();
  if (!TERMS.every((x) => x[s] !== undefined && x[t] !== undefined)) return undefined;
  const picked = pickSome(rng, TERMS.map((_, i) => String(i)), rng.chance(0.7) ? 1 : 2).map((i) => TERMS[Number(i)] as Record<string, string>);
  return picked.map((x) => ({ source: x[s] as string, target: x[t] as string }));
}

/** Words in the dictionary pool of a language (`pt-BR` -> the Portuguese words), for a word looked up from it. */
export function wordsOfLanguage(language: string): readonly string[] | undefined {
  return WORDS[language.slice(0, 2).toLowerCase()];
}
