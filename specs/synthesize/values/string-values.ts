import type { Faker } from "@faker-js/faker";
import { compileLinear, type LinearPattern } from "../../load/patterns/linear-pattern.js";
import type { Json } from "../../json-object.js";
import { kindValue } from "./kind-values.js";
import { AIRPORTS, CITIES } from "../world/world-data.js";
import { valueKindOf } from "../../value-kinds.js";
import { REFERENCE_DATE } from "../world/simulated-today.js";

/**
 * Strings by meaning: a generated string for a field, by its format or by its name and the names around it
 * (dates in range, people and companies, places of the world, codes, free text as sentences), fitted to the
 * schema's lengths and pattern. Used by `realistic-value.ts`.
 */

/** The range synthesized dates are drawn from, around the simulated today (`REFERENCE_DATE`). */
const PAST_FROM = new Date("2019-01-01T00:00:00Z");
const FUTURE_TO = new Date("2027-12-31T00:00:00Z");

/** A spec's pattern as a linear-time matcher (null when it cannot be compiled). */
export function regexOf(pattern: string): LinearPattern | null {
  const compiled = compileLinear(pattern);
  return compiled.ok ? compiled.pattern : null;
}

/** A generated string and whether it may be shortened or lengthened (free text) without losing its meaning. */
export interface Text {
  value: string;
  free?: boolean;
  /** Other renderings of the same value, tried in order when a pattern or length rejects `value`. */
  alternatives?: string[];
}

function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function pickDate(f: Faker, snake: string): Date {
  if (/(birth|dob)/.test(snake)) return f.date.birthdate({ mode: "age", min: 18, max: 80 });
  if (/(expir|expires|due|deadline|until|valid_to|end|renew|next|scheduled|future)/.test(snake)) {
    return f.date.between({ from: REFERENCE_DATE, to: FUTURE_TO });
  }
  return f.date.between({ from: PAST_FROM, to: REFERENCE_DATE });
}

/** A date in the requested form, with the other usual renderings (for patterns such as `MM/DD/YYYY`). */
function dateValue(f: Faker, snake: string, format: "date" | "date-time" | "time"): Text {
  const d = pickDate(f, snake);
  const iso = d.toISOString();
  const [y, m, day] = [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10)];
  const time = iso.slice(11, 19);
  const dates = [`${y}-${m}-${day}`, `${m}/${day}/${y}`, `${day}/${m}/${y}`, `${y}/${m}/${day}`, `${day}.${m}.${y}`, `${y}${m}${day}`];
  const dateTimes = [isoSeconds(d), iso, `${y}-${m}-${day}T${time}`, `${y}-${m}-${day} ${time}`, `${y}-${m}-${day}T${time}+00:00`];
  if (format === "time") return { value: `${time}Z`, alternatives: [time, time.slice(0, 5)] };
  if (format === "date") return { value: dates[0] as string, alternatives: [...dates.slice(1), ...dateTimes] };
  return { value: dateTimes[0] as string, alternatives: [...dateTimes.slice(1), ...dates] };
}

function titleCase(s: string): string {
  return s.replace(/\b([a-z])/g, (m) => m.toUpperCase());
}

/** An English sentence (faker's lorem is Latin, which reads as filler). */
function sentence(f: Faker, parents: string): string {
  if (PRODUCT_PARENTS.test(parents)) return f.commerce.productDescription();
  const pick = f.number.int({ min: 0, max: 2 });
  if (pick === 0) return f.hacker.phrase();
  if (pick === 1) return `${f.company.catchPhrase()}.`;
  return f.commerce.productDescription();
}

const PERSON_PARENTS = /(user|person|people|customer|author|owner|member|contact|employee|staff|profile|account|client|patient|student|teacher|driver|passenger|player|artist|guest|sender|recipient|assignee|reporter|creator|buyer|seller|doctor|manager|admin)/;
const COMPANY_PARENTS = /(company|companies|organization|organisation|org|employer|business|brand|vendor|merchant|supplier|publisher|manufacturer|agency|firm|partner)/;
const PRODUCT_PARENTS = /(product|item|goods|article|sku|offer|order_line|line_item|merchandise)/;
const PLACE_PARENTS = /(address|location|place|venue|geo|billing|shipping|residence|headquarters)/;
/** Holders of foods: an ingredient's name is a food (`chickpeas`), a recipe's or a dish's a dish. */
const INGREDIENT_PARENTS = /(ingredient|grocer|produce|pantry|foodstuff|nutrient_source)/;
const DISH_PARENTS = /(recipe|dish|meal|menu|course|entree|food)/;

/** A food, when the field's holder holds foods. */
function foodName(f: Faker, holder: string): string | undefined {
  if (INGREDIENT_PARENTS.test(holder)) return f.food.ingredient();
  if (DISH_PARENTS.test(holder)) return f.food.dish();
  return undefined;
}

/** A city the world knows (so that its country, coordinates and time zone can follow it). */
function worldCity(f: Faker): string {
  return f.helpers.arrayElement(CITIES).name;
}

/** The title of a work: a song's, an album's, a book's (real titles), or two words for the others. */
function workTitle(f: Faker, noun: string): string {
  if (/(song|track)/.test(noun)) return f.music.songName();
  if (/album/.test(noun)) return f.music.album();
  if (/(book|novel)/.test(noun)) return f.book.title();
  return titleCase(`${f.word.adjective()} ${f.word.noun()}`);
}

function nameFor(f: Faker, snake: string, parents: string): string {
  const head = snake.replace(/_?name$/, "");
  if (head !== "" && head !== "display" && head !== "full") {
    if (PERSON_PARENTS.test(head)) return f.person.fullName();
    if (COMPANY_PARENTS.test(head)) return f.company.name();
    if (PRODUCT_PARENTS.test(head)) return f.commerce.productName();
    if (/airport/.test(head)) return f.helpers.arrayElement(AIRPORTS).name;
    if (/(city|town)/.test(head)) return f.location.city();
    if (/country/.test(head)) return f.location.country();
    if (/(street)/.test(head)) return f.location.street();
    if (/(pet|animal|dog|cat)/.test(head)) return f.animal.petName();
    if (/(file)/.test(head)) return f.system.fileName();
    if (/(host|domain)/.test(head)) return f.internet.domainName();
    if (/(bank)/.test(head)) return `${f.location.city()} Bank`;
    if (/(song|track|album|book|movie|film|show|podcast|episode)/.test(head)) return workTitle(f, head);
    return titleCase(`${f.word.adjective()} ${f.word.noun()}`);
  }
  if (snake === "display_name" || snake === "full_name" || snake === "fullname") return f.person.fullName();
  const last = parents.split(" ").pop() ?? "";
  if (PERSON_PARENTS.test(last)) return f.person.fullName();
  if (COMPANY_PARENTS.test(last)) return f.company.name();
  if (PRODUCT_PARENTS.test(last)) return f.commerce.productName();
  const food = foodName(f, last);
  if (food !== undefined) return food;
  if (/airport/.test(last)) return f.helpers.arrayElement(AIRPORTS).name;
  if (/(city|cities|town)/.test(last)) return f.location.city();
  if (/(country|countries)/.test(last)) return f.location.country();
  if (/(pet|animal|dog|cat)/.test(last)) return f.animal.petName();
  if (/(categor|tag|genre|department|topic|label)/.test(last)) return titleCase(f.commerce.department());
  if (/(song|track|album|book|movie|film|show|podcast|episode|playlist)/.test(last)) return workTitle(f, last);
  if (/(team|group|project|app|application|repo|repository|workspace|channel|room|space|board|list|plan|product)/.test(last)) {
    return titleCase(`${f.word.adjective()} ${f.word.noun()}`);
  }
  if (last === "") return f.person.fullName();
  return titleCase(`${f.word.adjective()} ${f.word.noun()}`);
}

/** What an API's own status message says (`message`, `status_text` beside the data), not a chat message. */
const STATUS_MESSAGES = ["Request processed successfully.", "OK", "Success", "The request was completed.", "Results retrieved successfully.", "Operation completed."];
/** A data provider's disclaimer. */
const DISCLAIMERS = [
  "Data is provided as is, without warranty of any kind.",
  "For informational purposes only; verify before relying on it.",
  "Information may be incomplete or out of date.",
  "Not for operational use. Check official sources before acting on this data.",
];
/** Holders whose `message` or `text` is something a person wrote (a chat line, a mail), not the API's status. */
const WRITTEN_PARENTS = /(chat|conversation|thread|inbox|mail|sms|comment|post|reply|replies|notification|review|feedback|ticket|note|tweet|status_update|message)s?$/;

const RIGHTS = ["All rights reserved", "CC BY 4.0", "CC BY-SA 4.0", "CC0 1.0 (public domain)", "No known copyright restrictions", "Use with permission"];
const LANGUAGE_CODES = ["en", "fr", "de", "es", "it", "pt", "nl", "ja", "zh", "ko", "sv", "pl"];
const LOCALES = ["en-US", "en-GB", "fr-FR", "de-DE", "es-ES", "it-IT", "pt-BR", "ja-JP", "nl-NL"];
const STATUSES = ["active", "pending", "completed", "inactive", "approved"];

export function idText(f: Faker, snake: string, s: Json): string {
  const maxLength = typeof s["maxLength"] === "number" ? s["maxLength"] : Infinity;
  const minLength = typeof s["minLength"] === "number" ? s["minLength"] : 0;
  if (/(uuid|guid)/.test(snake) && maxLength >= 36) return f.string.uuid();
  if (/(^|_)(code|promo|coupon|voucher)$/.test(snake)) {
    return f.string.alphanumeric({ length: Math.min(Math.max(8, minLength), maxLength), casing: "upper" });
  }
  if (/(^|_)(number|no|num)$/.test(snake)) {
    return f.string.numeric({ length: Math.min(Math.max(8, minLength), maxLength), allowLeadingZeros: false });
  }
  const length = Math.min(Math.max(12, minLength), maxLength);
  return f.string.alphanumeric({ length, casing: "lower" });
}

/** A realistic string by format; undefined for formats it does not know (the field's name decides then). */
export function stringByFormat(f: Faker, format: string, snake: string): Text | undefined {
  switch (format) {
    case "date":
    case "date-time":
    case "time":
      return dateValue(f, snake, format);
    case "datetime":
    case "date_time":
    case "timestamp":
    case "iso8601":
    case "iso-8601":
    case "rfc3339":
      return dateValue(f, snake, "date-time");
    case "email":
    case "idn-email":
      return { value: f.internet.email().toLowerCase() };
    case "uri":
    case "url":
    case "iri":
    case "uri-reference":
    case "iri-reference":
      return { value: urlFor(f, snake) };
    case "hostname":
    case "idn-hostname":
      return { value: f.internet.domainName() };
    case "ipv4":
      return { value: f.internet.ipv4() };
    case "ipv6":
      return { value: f.internet.ipv6() };
    case "uuid":
      return { value: f.string.uuid() };
    case "byte":
      return { value: Buffer.from(f.word.words({ count: { min: 2, max: 5 } })).toString("base64") };
    case "password":
      return { value: f.internet.password({ length: 14 }) };
    case "phone":
      return { value: f.phone.number({ style: "international" }) };
    case "duration":
      return { value: `PT${f.number.int({ min: 1, max: 59 })}M` };
    case "int32":
    case "int64":
    case "integer":
      return { value: String(f.number.int({ min: 1, max: 99999 })) };
    case "float":
    case "double":
    case "decimal":
    case "number":
      return { value: f.number.float({ min: 1, max: 1000, fractionDigits: 2 }).toFixed(2) };
    case "currency":
      return { value: f.finance.currencyCode() };
    case "country":
    case "country-code":
      return { value: f.location.countryCode("alpha-2") };
    case "language":
      return { value: f.helpers.arrayElement(LANGUAGE_CODES) };
    case "color":
      return { value: f.color.rgb() };
    default:
      return undefined; // by name: the caller's next step
  }
}

function urlFor(f: Faker, snake: string): string {
  if (/(avatar|profile_(image|picture|photo|pic))/.test(snake)) return f.image.avatar();
  if (/(image|img|photo|picture|pic|thumbnail|thumb|logo|icon|banner|cover|poster|artwork)/.test(snake)) {
    return `https://picsum.photos/seed/${f.string.alphanumeric(8)}/640/480`;
  }
  if (/(video|audio|media|file|download|attachment|document|pdf)/.test(snake)) {
    return `${f.internet.url({ appendSlash: false })}/files/${f.system.fileName()}`;
  }
  return f.internet.url({ appendSlash: false });
}

function countryText(f: Faker, snake: string, s: Json): string {
  const maxLength = typeof s["maxLength"] === "number" ? s["maxLength"] : Infinity;
  const pattern = typeof s["pattern"] === "string" ? s["pattern"] : "";
  if (maxLength <= 2 || /\{2\}|alpha.?2|iso.?2/.test(pattern + snake) || (/code/.test(snake) && maxLength !== 3)) {
    return f.location.countryCode("alpha-2");
  }
  if (maxLength === 3 || /\{3\}|alpha.?3|iso.?3/.test(pattern + snake)) return f.location.countryCode("alpha-3");
  return f.location.country();
}

type StringRule = readonly [test: (snake: string, parents: string) => boolean, gen: (f: Faker, snake: string, s: Json, parents: string) => Text];
const t = (re: RegExp) => (snake: string): boolean => re.test(snake);
const maxLengthOf = (s: Json): number => (typeof s["maxLength"] === "number" ? s["maxLength"] : Infinity);

/** Rules by field name, in priority order: the first whose test matches the snake_case name wins. */
const STRING_RULES: readonly StringRule[] = [
  [t(/(^|_)(uuid|guid)$/), (f) => ({ value: f.string.uuid() })],
  [(n) => /(^|_)e_?mail(_address|_addr)?$/.test(n) || /^e_?mail/.test(n), (f) => ({ value: f.internet.email().toLowerCase() })],
  [
    t(/(^|_)(phone|mobile|telephone|tel|fax|cell|msisdn)(_number|_no|_num)?$/),
    (f, _n, s) => ({ value: maxLengthOf(s) < 15 ? f.string.numeric(Math.min(10, maxLengthOf(s))) : f.phone.number({ style: "international" }) }),
  ],
  // A person's names, whoever the person is (`learnerFirstName`, `owner_last_name`).
  [(n, parents) => /(^|_)(first|given|fore)_?name$/.test(n) || (/^(first|given)$/.test(n) && /name$/.test(parents)), (f) => ({ value: f.person.firstName() })],
  [(n, parents) => /^(last|family|sur)$/.test(n) && /name$/.test(parents), (f) => ({ value: f.person.lastName() })],
  [(n, parents) => /^(middle)$/.test(n) && /name$/.test(parents), (f) => ({ value: f.person.middleName() })],
  [t(/(^|_)(last|family|sur)_?name$/), (f) => ({ value: f.person.lastName() })],
  [t(/(^|_)middle_?name$/), (f) => ({ value: f.person.middleName() })],
  [t(/(^|_)(user_?name|login|handle|screen_name|nick_?name|nick|alias)$/), (f) => ({ value: f.internet.username() })],
  [
    t(/(^|_)(full_?name|display_name|contact_name|author|customer_name|person_name|owner_name|recipient_name|sender_name|assignee|reporter)$/),
    (f) => ({ value: f.person.fullName() }),
  ],
  [
    (n, parents) => /(^|_)(job_?title|occupation|profession)$/.test(n) || (n === "title" && /job|position|employ/.test(parents)),
    (f) => ({ value: f.person.jobTitle() }),
  ],
  [
    t(/(^|_)(company|organization|organisation|org|employer|business|brand|publisher|manufacturer|vendor|merchant|supplier)(_name)?$/),
    (f) => ({ value: f.company.name() }),
  ],
  [t(/(^|_)(avatar|profile_(image|picture|photo|pic))(_url|_uri|_link)?$/), (f) => ({ value: f.image.avatar() })],
  [t(/(^|_)(image|img|photo|picture|pic|thumbnail|thumb|logo|icon|banner|cover|poster|artwork)(_url|_uri|_link|_src|_href)?$/), (f, n) => ({ value: urlFor(f, n) })],
  [
    (n) => /(^|_)(url|uri|link|href|website|homepage|web_site|site|endpoint|callback|webhook)(_url|_uri)?$/.test(n) || /_(url|uri|link|href)$/.test(n),
    (f, n) => ({ value: urlFor(f, n) }),
  ],
  [t(/(^|_)(domain|hostname|host)(_name)?$/), (f) => ({ value: f.internet.domainName() })],
  [t(/(^|_)ip(_address|_addr|v4)?$/), (f) => ({ value: f.internet.ipv4() })],
  [t(/(^|_)mac(_address)?$/), (f) => ({ value: f.internet.mac() })],
  [t(/(^|_)(user_agent)$/), (f) => ({ value: f.internet.userAgent() })],
  [t(/(^|_)(birth_?day|birth_?date|date_of_birth|dob)$/), (f, n) => dateValue(f, n, "date")],
  [
    t(/(_at|_on|_date|_time|_datetime|_timestamp|_modified|_updated|_update|_changed|_created)$|^(date|time|datetime|timestamp|created|updated|modified|deleted|published|expires|expiry|expiration|last_seen|last_login|last_update|lastmod|changed|dob)$/),
    (f, n, s) => {
      if (/(^|_)time$/.test(n) && !/date/.test(n) && maxLengthOf(s) < 20) return dateValue(f, n, "time");
      const dateOnly = (/(_on|date|day)$/.test(n) && !/datetime$/.test(n)) || n === "dob";
      return dateValue(f, n, dateOnly ? "date" : "date-time");
    },
  ],
  // Any other name the audit reads as a moment something happened (`lastPing`, `last_heartbeat`, `synced_at`) is one.
  [(n) => valueKindOf(n) === "stamp", (f, n) => dateValue(f, n, "date-time")],
  [t(/(^|_)currency(_code|_iso)?$/), (f) => ({ value: f.finance.currencyCode() })],
  [(n) => /(^|_)country(_code|_iso|_iso2|_iso3|_name)?$/.test(n) || n === "nationality", (f, n, s) => ({ value: countryText(f, n, s) })],
  [t(/(^|_)(city|town|locality|municipality)(_name)?$/), (f) => ({ value: worldCity(f) })],
  [
    (n, parents) => /(^|_)(province|region|county|state_name|state_code|state_province)$/.test(n) || (n === "state" && PLACE_PARENTS.test(parents)),
    (f, n, s) => ({ value: /code/.test(n) || maxLengthOf(s) <= 3 ? f.location.state({ abbreviated: true }) : f.location.state() }),
  ],
  [t(/(^|_)(street|street_address|address_?line_?[12]?|address_?[12]|line_?[12])$/), (f) => ({ value: f.location.streetAddress() })],
  [
    t(/(^|_)(address|full_address|mailing_address|billing_address|shipping_address)$/),
    (f) => ({ value: `${f.location.streetAddress()}, ${f.location.city()}, ${f.location.state({ abbreviated: true })} ${f.location.zipCode("#####")}` }),
  ],
  [t(/(^|_)(zip|zip_?code|postal_?code|post_?code|postal|postcode)$/), (f) => ({ value: f.location.zipCode("#####") })],
  [t(/(^|_)(lat|latitude)$/), (f) => ({ value: f.location.latitude({ precision: 6 }).toFixed(6) })],
  [t(/(^|_)(lon|lng|long|longitude)$/), (f) => ({ value: f.location.longitude({ precision: 6 }).toFixed(6) })],
  [t(/(^|_)(time_?zone|tz)$/), (f) => ({ value: f.location.timeZone() })],
  [t(/(^|_)locale$/), (f) => ({ value: f.helpers.arrayElement(LOCALES) })],
  [
    t(/(^|_)(language|lang)(_code|_iso)?$/),
    (f, n, s) => ({ value: /code|iso/.test(n) || n === "lang" || maxLengthOf(s) <= 5 ? f.helpers.arrayElement(LANGUAGE_CODES) : f.location.language().name }),
  ],
  [
    t(/(^|_)(colou?r)(_code|_hex)?$/),
    (f, n, s) => ({ value: /hex|code/.test(n) || maxLengthOf(s) <= 7 || typeof s["pattern"] === "string" ? f.color.rgb() : f.color.human() }),
  ],
  [t(/(^|_)(password|passwd|pwd|passphrase)$/), (f) => ({ value: f.internet.password({ length: 14 }) })],
  [
    t(/(^|_)(token|api_?key|access_key|secret|secret_key|client_secret|hash|checksum|signature|sha|sha1|sha256|md5|etag|nonce)$/),
    (f, _n, s) => ({ value: f.string.hexadecimal({ length: Math.min(32, maxLengthOf(s)), casing: "lower", prefix: "" }) }),
  ],
  [t(/(^|_)slug$/), (f) => ({ value: f.helpers.slugify(f.word.words({ count: { min: 2, max: 4 } })).toLowerCase() })],
  [t(/(^|_)(mime_?type|content_?type|media_?type)$/), (f) => ({ value: f.system.mimeType() })],
  [t(/(^|_)(file_?name|filename)$/), (f) => ({ value: f.system.fileName() })],
  [t(/(^|_)(file_?path|directory|dir|folder)$/), (f) => ({ value: f.system.filePath() })],
  [t(/(^|_)(version|semver)$/), (f) => ({ value: f.system.semver() })],
  [t(/(^|_)(gender|sex)$/), (f) => ({ value: f.person.sex() })],
  [t(/(^|_)(currency_symbol)$/), (f) => ({ value: f.finance.currencySymbol() })],
  [t(/(^|_)(iban)$/), (f) => ({ value: f.finance.iban() })],
  [t(/(^|_)(bic|swift|swift_code)$/), (f) => ({ value: f.finance.bic() })],
  [t(/(^|_)(account_number|card_number|credit_card)$/), (f) => ({ value: f.finance.accountNumber(10) })],
  [
    t(/(^|_)(title|headline|subject|caption|heading)$/),
    (f, _n, _s, parents) => {
      if (/(book|novel)/.test(parents)) return { value: f.book.title() };
      if (/(job|position|employ)/.test(parents)) return { value: f.person.jobTitle() };
      const food = foodName(f, parents.split(" ").pop() ?? "");
      if (food !== undefined) return { value: titleCase(food) };
      return { value: titleCase(`${f.word.adjective()} ${f.word.noun()}`), free: true };
    },
  ],
  [t(/(^|_)name$|_name$/), (f, n, _s, parents) => ({ value: nameFor(f, n, parents) })],
  [t(/(^|_)disclaimer$/), (f) => ({ value: f.helpers.arrayElement(DISCLAIMERS) })],
  // Airport codes: IATA's three letters (a real airport's), ICAO's four (GPS codes are ICAO's).
  [t(/(^|_)(iata|iata_code)$/), (f, _n, s) => (maxLengthOf(s) >= 3 ? { value: f.helpers.arrayElement(AIRPORTS).iata } : { value: f.string.alpha({ length: Math.max(1, maxLengthOf(s)), casing: "upper" }) })],
  [t(/(^|_)(icao|icao_code|gps_code)$/), (f, _n, s) => ({ value: f.string.alpha({ length: Math.min(4, maxLengthOf(s)), casing: "upper" }) })],
  // A page cursor (`next`, `previous`): an opaque token, as APIs hand them out.
  [t(/^(next|previous|prev|next_cursor|prev_cursor|previous_cursor|cursor|next_page_token|page_token|continuation_token)$/), (f) => ({ value: f.string.alphanumeric({ length: 24 }) })],
  // The API's own status beside its data (`{"airports": [...], "message": ...}`); a chat's or a mail's message is written text.
  [
    (n, parents) => /^(message|msg|status_message|status_text|result_message)$/.test(n) && !WRITTEN_PARENTS.test(parents.split(" ").pop() ?? ""),
    (f) => ({ value: f.helpers.arrayElement(STATUS_MESSAGES) }),
  ],
  [
    t(/(description|summary|bio|biography|about|details|comment|comments|message|text|body|content|note|notes|remark|remarks|overview|excerpt|abstract|reason|instructions|review|feedback|answer|question|caption|story|explanation)$/),
    (f, _n, _s, parents) => ({ value: sentence(f, parents), free: true }),
  ],
  [t(/(^|_)(rights|license|licence|copyright|usage_rights)$/), (f) => ({ value: f.helpers.arrayElement(RIGHTS) })],
  [
    t(/(disclaimer|phrase|hint|error|error_message|template|status_text|status_text_detailed|purpose|traditions|tradition|info|additional_info|fact|tip|advice|meaning|definition|quote|verse|lyrics|joke|significance|history|origin|trivia)$/),
    (f, _n, _s, parents) => ({ value: sentence(f, parents), free: true }),
  ],
  // Angles, radio frequencies and speeds kept in strings (`he_heading_deg: "274"`, `frequency_mhz: "118.700"`).
  [t(/(^|_)(deg|degrees|heading|bearing|azimuth|course|direction_deg|wind_deg)$/), (f) => ({ value: String(f.number.int({ min: 0, max: 359 })) })],
  [t(/(^|_)(mhz|frequency_mhz)$/), (f) => ({ value: f.number.float({ min: 108, max: 136.975, fractionDigits: 3 }).toFixed(3) })],
  [t(/(^|_)(khz|hz|kts|knots|mph|kmh|kph|kg|kgs|lb|lbs)$/), (f) => ({ value: String(f.number.int({ min: 1, max: 500 })) })],
  // A size class kept in a string (`nbrOfEmployeesInterval: "50-99"`) is a range of numbers.
  [t(/(^|_)(employees|turnover|revenue|sales|size|staff|headcount)(_[a-z]+)?_(interval|range|class|band)$/), (f, n) => ({ value: f.helpers.arrayElement(/employees|staff|headcount|size/.test(n) ? ["1-4", "5-9", "10-19", "20-49", "50-99", "100-199", "200-499"] : ["0-1M", "1M-10M", "10M-50M", "50M-100M"]) })],
  // A rating kept in a string (`rating: "4.9"`, a driver's or a passenger's) is one on a five-star scale.
  [t(/(^|_)(rating|average_rating|avg_rating|stars|star_rating|user_rating)$/), (f) => ({ value: f.number.float({ min: 3, max: 5, fractionDigits: 1 }).toFixed(1) })],
  // Quantities kept in strings (`numberEmployees: "250"`, `elevation_ft: "1240"`) are numbers.
  [
    t(/(^|_)(count|number_of_\w+|num_\w+|\w+_count|total|ft|feet|meters|metres|km|miles|percent|percentage|pct|ratio|turnover|net_turnover|earnings|revenue|income|profit|assets|equity|capital|share_capital|liabilities|sales|clicks|impressions|views|rpm|marks|score|employees|number_employees|height|width|weight|elevation|elevation_ft|altitude|population|age|duration|seconds|minutes|hours)$|percent$|employees$|^kpi_|^(pl|bs)_/),
    (f, n) => ({ value: /percent|pct|ratio|kpi/.test(n) ? f.number.float({ min: 0, max: 100, fractionDigits: 1 }).toFixed(1) : String(f.number.int({ min: 1, max: /(turnover|earnings|revenue|income|profit|assets|equity|capital|liabilities|sales|impressions|views|population)/.test(n) ? 5_000_000 : 5000 })) }),
  ],
  [t(/(^|_)(content_partner|partner|provider|source_name|institution|sponsor|operator|carrier|issuer|holder|company_holder|insurer|lender|bank)$/), (f) => ({ value: f.company.name() })],
  [t(/(^|_)(collection|library|museum|archive|school|university|college|academy)$/), (f, n) => ({ value: `${f.location.city()} ${/school|university|college|academy/.test(n) ? titleCase(n.split("_").pop() ?? "School") : titleCase(n.split("_").pop() ?? "Collection")}` })],
  [t(/(^|_)(commune|district|municipality|neighbourhood|neighborhood|suburb|borough|location|place|venue)$/), (f) => ({ value: worldCity(f) })],
  [t(/(^|_)(doi)$/), (f) => ({ value: `10.${f.number.int({ min: 1000, max: 9999 })}/${f.string.alphanumeric({ length: 8, casing: "lower" })}` })],
  [t(/(^|_)(wikipedia|wiki|wiki_url|source_url|reference_url|more_info)$/), (f) => ({ value: f.internet.url() })],
  [t(/(^|_)(permission|permissions|scope|scopes|grant|grants)$/), (f) => ({ value: `${f.helpers.arrayElement(["read", "write", "manage", "delete", "create"])}:${f.helpers.arrayElement(["users", "dashboards", "reports", "files", "settings", "projects", "orders"])}` })],
  [t(/(^|_)(direction)$/), (f) => ({ value: f.helpers.arrayElement(["up", "down"]) })],
  [t(/(^|_)(discriminator)$/), (f) => ({ value: f.string.numeric(4) })],
  [t(/(^|_)(level|severity|priority)$/), (f) => ({ value: f.helpers.arrayElement(["low", "medium", "high"]) })],
  [t(/(^|_)(tag|keyword|label|topic|hashtag|genre|category|department)$/), (f) => ({ value: f.word.noun(), free: true })],
  [t(/(^|_)(word|words|query|q|search|term|search_term|keywords|text_query)$/), (f) => ({ value: f.word.noun(), free: true })],
  [t(/(^|_)status$/), (f) => ({ value: f.helpers.arrayElement(STATUSES) })],
  [t(/(^|_)(month)$/), (f) => ({ value: f.date.month() })],
  [t(/(^|_)(weekday|day_of_week)$/), (f) => ({ value: f.date.weekday() })],
  [t(/(^|_)(year)$/), (f) => ({ value: String(f.number.int({ min: 1995, max: 2025 })) })],
  [
    t(/(^|_)(price|amount|cost|fee|total|balance|salary|subtotal|tax|revenue|budget)$/),
    (f) => ({ value: f.number.float({ min: 1, max: 500, fractionDigits: 2 }).toFixed(2) }),
  ],
  // An HTTP status beside the data (`status_code: "200"`), not an identifier.
  [t(/^(status_code|http_status|http_status_code|http_code|response_code|status_code_http)$/), (_f, _n, s) => ({ value: maxLengthOf(s) >= 3 ? "200" : "OK" })],
  [(n) => /(^|_)(id|identifier|key|ref|reference|code|number|no|num)$/.test(n) || /_id$/.test(n), (f, n, s) => ({ value: idText(f, n, s) })],
  [t(/(^|_)(role)$/), (f) => ({ value: f.helpers.arrayElement(["admin", "editor", "viewer", "member"]) })],
  [t(/(^|_)(type|kind)$/), (f, n, _s, parents) => ({ value: kindValue(f, n, parents) })],
  [t(/(^|_)(symbol|ticker)$/), (f) => ({ value: f.string.alpha({ length: 4, casing: "upper" }) })],
];

const ruleCache = new Map<string, number>();

/** The first rule whose test matches a snake_case name (with its parents), if any. */
export function ruleOf(snake: string, parents: string): StringRule | undefined {
  if (snake === "") return undefined;
  const key = `${snake}|${parents}`;
  let index = ruleCache.get(key);
  if (index === undefined) {
    index = STRING_RULES.findIndex(([test]) => test(snake, parents));
    if (ruleCache.size > 50_000) ruleCache.clear();
    ruleCache.set(key, index);
  }
  return STRING_RULES[index];
}

/**
 * Any other string: one real noun (a field whose meaning nothing says gets a plain word, never a phrase of
 * random words, which reads as nonsense), or a short token for a name that is itself an abbreviation (`op`, `clk`).
 */
export function genericString(f: Faker, snake: string): Text {
  if (/^[a-z]{1,3}$/.test(snake)) return { value: f.string.alphanumeric({ length: 6, casing: "lower" }) };
  return { value: f.word.noun(), free: true };
}

export function fitString(text: Text, s: Json, f: Faker): string | undefined {
  const fitted = fitOne(text, s, f);
  if (fitted !== undefined || !text.alternatives) return fitted;
  for (const alternative of text.alternatives) {
    const v = fitOne({ value: alternative }, s, f);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** Length in code points (what JSON Schema's `minLength`/`maxLength` count). */
function lengthOf(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      n--;
      i++;
    }
  }
  return n;
}

function fitOne(text: Text, s: Json, f: Faker): string | undefined {
  let value = text.value;
  const minLength = typeof s["minLength"] === "number" ? s["minLength"] : 0;
  const maxLength = typeof s["maxLength"] === "number" ? s["maxLength"] : Infinity;
  if (lengthOf(value) > maxLength) {
    if (!text.free) return undefined;
    const words = value.split(" ");
    value = "";
    for (const w of words) {
      const candidate = value === "" ? w : `${value} ${w}`;
      if (candidate.length > maxLength) break;
      value = candidate;
    }
    if (value === "") value = words[0]?.slice(0, maxLength) ?? "";
    value = value.replace(/[\s.,;:]+$/, "");
  }
  if (lengthOf(value) < minLength) {
    if (!text.free) return undefined;
    let guard = 0;
    while (value.length < minLength && guard++ < 200) value = `${value} ${f.word.sample()}`.trim();
    if (value.length > maxLength) value = value.slice(0, maxLength);
    if (lengthOf(value) < minLength) return undefined;
  }
  if (typeof s["pattern"] === "string") {
    const re = regexOf(s["pattern"]);
    if (!re || !re.test(value)) return undefined;
  }
  return value;
}
