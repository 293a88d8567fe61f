import { setOwn } from "./own-property.js";
import { minPrefix, SecretScanner } from "./secret-scan.js";

/** The mark that replaces a secret, wherever toolsim writes one (stable: redacting it again changes nothing). */
export const REDACTED = "[redacted]";

/**
 * A placeholder of a secret: `[redacted]`, or `[redacted-N]` in journals and corpora, where the N-th distinct
 * secret of an episode gets N (so that two different secrets stay different, and nothing of them is written);
 * also the harness's `<credential:NAME>`, which stands for a key the harness supplies (never the key itself).
 */
export const PLACEHOLDER = /^(?:\[redacted(?:-\d+)?\]|<credential:[^<>\s]{1,200}>)$/;

/** Every placeholder in a text, for comparing texts whatever their placeholders' numbers. */
const PLACEHOLDERS = /\[redacted-\d+\]/g;

/** A text with numbered placeholders written as the plain one (`[redacted-2]` -> `[redacted]`). */
export function plainPlaceholders(text: string): string {
  return text.includes("[redacted-") ? text.replace(PLACEHOLDERS, REDACTED) : text;
}

/**
 * Numbers the distinct secrets of one episode in the order they are met: a new one gets one more than the highest
 * number met so far, placeholders already there (a replay of a redacted journal) included, so that redacting a
 * redacted episode numbers its secrets as the first redaction did.
 */
class Placeholders {
  private readonly of = new Map<string, string>();
  private max = 0;
  /** Notes a placeholder that is already there. */
  seen(placeholder: string): void {
    const n = Number(/^\[redacted-(\d+)\]$/.exec(placeholder)?.[1] ?? 0);
    if (n > this.max) this.max = n;
  }
  get(secret: string): string {
    let p = this.of.get(secret);
    if (p === undefined) {
      p = `[redacted-${++this.max}]`;
      this.of.set(secret, p);
    }
    return p;
  }
}

/** The words of a name: `webhookToken`, `client_secret`, `x-api-key` -> webhook token, client secret, x api key. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

/** Last words that hold a secret by themselves (`password`, `webhookToken`, `client_secret`, `Authorization`). */
const HOLDER_WORDS = new Set(["password", "passwd", "passphrase", "secret", "token", "credential", "credentials", "authorization", "bearer", "apikey", "cookie", "otp", "cvv", "cvc", "pin"]);

/** Words before `key` that make it a secret key (`apiKey`, `x-api-key`, `secret_key`, `Ocp-Apim-Subscription-Key`). */
const KEY_QUALIFIERS = new Set(["api", "access", "secret", "private", "subscription", "auth", "signing", "client", "master", "encryption", "app", "consumer", "license", "partner", "developer", "service", "account"]);

/** Words before `token` that make it a cursor, not a secret (`pageToken`, `nextToken`, `continuation_token`). */
const CURSOR_WORDS = new Set(["page", "next", "prev", "previous", "continuation", "cursor", "sync", "pagination", "start", "end", "resume", "delta"]);

/** Last words after a secret word that still name its value (`tokenValue`, `password_string`, `apiKeyRaw`). */
const VALUE_WORDS = new Set(["value", "string", "raw", "plain", "plaintext", "text"]);

/** Names judged so far: whether each is a secret by itself, and its lower-case form (for declared names). */
const cache = new Map<string, { secret: boolean; lower: string }>();

function judge(name: string): boolean {
  let words = nameWords(name);
  if (words.length > 1 && VALUE_WORDS.has(words[words.length - 1] as string)) words = words.slice(0, -1);
  const last = words[words.length - 1];
  const before = words[words.length - 2];
  if (last === undefined) return false;
  if (last === "key") return before !== undefined && KEY_QUALIFIERS.has(before);
  if (last === "code") return before === "pin";
  if (!HOLDER_WORDS.has(last)) return false;
  if (last === "token" && before !== undefined && CURSOR_WORDS.has(before)) return false;
  return true;
}

/**
 * Whether a name (a property, an argument, a parameter, a header) holds a secret, in any spelling: camelCase,
 * snake_case or kebab-case (`webhookToken`, `client_secret`, `x-api-key`, `apiKey`, `password`, `Authorization`),
 * or because a security scheme declares it (`extra`: lower-case names). Names that describe a secret rather than
 * hold it (`tokenType`, `tokenUrl`, `apiKeyName`, `passwordLength`), counts (`maxTokens`) and cursors
 * (`pageToken`) are not secrets.
 */
export function isSecretName(name: string, extra?: ReadonlySet<string>): boolean {
  let hit = cache.get(name);
  if (hit === undefined) {
    hit = { secret: judge(name), lower: name.toLowerCase() };
    if (cache.size < 10_000) cache.set(name, hit);
  }
  return hit.secret || (extra !== undefined && extra.size > 0 && extra.has(hit.lower));
}

/**
 * Words that are never secrets even under a secret name, and never scrubbed from text: authentication scheme
 * names (`"tokenType": "Bearer"`), literals and placeholders.
 */
const COMMON_WORDS = new Set([
  "bearer", "basic", "digest", "token", "apikey", "api-key", "api_key", "oauth", "oauth2", "jwt", "mac", "hmac", "negotiate", "none", "null",
  "true", "false", "undefined", "secret", "password", "passwd", "redacted", "[redacted]", "string", "default", "example", "required", "hidden",
]);

/** An authorization value: a scheme word, then the credential (only the credential is secret). */
const AUTH_VALUE = /^(Bearer|Basic|Digest|Token|ApiKey|Api-Key|JWT|OAuth|MAC|HOBA|Negotiate|AWS4-HMAC-SHA256)\s+(\S.*)$/i;

/** Secret values shorter than this are not searched for in free text (too likely to hit ordinary words or numbers). */
const MIN_TEXT_SECRET = 6;

/** Whether a secret value is distinctive enough to be blanked wherever it appears in text. */
function scrubbable(secret: string): boolean {
  const t = secret.trim();
  return t.length >= MIN_TEXT_SECRET && !COMMON_WORDS.has(t.toLowerCase()) && !PLACEHOLDER.test(t);
}

/** The redacted form of a secret name's value, recording the secret found. */
function redactValue(value: string | number, into: Set<string>, numbered?: Placeholders): string | number {
  const text = String(value);
  if (PLACEHOLDER.test(text)) {
    numbered?.seen(text);
    return value;
  }
  if (text.trim() === "" || COMMON_WORDS.has(text.trim().toLowerCase())) return value;
  const auth = AUTH_VALUE.exec(text.trim());
  if (auth) {
    const credential = auth[2] as string;
    if (PLACEHOLDER.test(credential)) numbered?.seen(credential);
    if (COMMON_WORDS.has(credential.trim().toLowerCase()) || PLACEHOLDER.test(credential)) return value;
    into.add(credential);
    return `${auth[1] as string} ${numbered ? numbered.get(credential) : REDACTED}`;
  }
  into.add(text);
  return numbered ? numbered.get(text) : REDACTED;
}

/** A copy of a value with the values of secret names blanked (booleans and objects are walked, never blanked). */
function redactAll(value: unknown, into: Set<string>, names?: ReadonlySet<string>, numbered?: Placeholders): unknown {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) setOwn(out, k, (typeof x === "string" || typeof x === "number") && isSecretName(k, names) ? redactValue(x, into, numbered) : walk(x));
      return out;
    }
    return v;
  };
  return walk(value);
}

/** The secrets a value holds under secret names (an authorization value's credential, without its scheme word). */
export function secretValues(original: unknown, into: Set<string> = new Set(), names?: ReadonlySet<string>): Set<string> {
  redactAll(original, into, names);
  return into;
}

/**
 * A scanner of the scrubbable secrets' spellings (plain and JSON-escaped), each standing for its secret, or
 * undefined when none is scrubbable.
 */
function secretPattern(secrets: Iterable<string>): SecretScanner | undefined {
  const spellings = new Map<string, string>();
  for (const s of secrets) {
    if (!scrubbable(s)) continue;
    if (!spellings.has(s)) spellings.set(s, s);
    const escaped = JSON.stringify(s).slice(1, -1);
    if (!spellings.has(escaped)) spellings.set(escaped, s);
  }
  if (spellings.size === 0) return undefined;
  return new SecretScanner([...spellings].map(([spelling, secret]) => ({ spelling, secret })));
}

/** Scrubs the strings of a value (keys untouched) with a secret pattern. */
function scrubWith(value: unknown, found: SecretScanner, numbered?: Placeholders): unknown {
  const replace = numbered ? (secret: string): string => numbered.get(secret) : (): string => REDACTED;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return found.replace(v, replace);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) setOwn(out, k, walk(x));
      return out;
    }
    return v;
  };
  return walk(value);
}

/** A text with every whole occurrence of the secrets blanked (short values and common words are left). */
export function scrubText(text: string, secrets: Iterable<string>): string {
  const found = secretPattern(secrets);
  return found ? found.replace(text, () => REDACTED) : text;
}

/**
 * Replaces every whole occurrence of the secrets in the strings of a value (keys untouched), in their plain and
 * JSON-escaped spellings, so a secret found under one name does not survive in an instruction, an answer or the
 * text of an observation. Short values and common words (`Bearer`, `true`) are never searched for.
 */
export function scrubStrings(value: unknown, secrets: Iterable<string>): unknown {
  const found = secretPattern(secrets);
  return found ? scrubWith(value, found) : value;
}

/**
 * A copy of a value without secrets: the values of secret names are blanked (API keys, tokens, passwords,
 * authorization values after their scheme word; not names that describe a secret, as `tokenType`, nor common
 * words, as `Bearer`), then those values, and any `known` secrets (a toolset's credentials), are blanked wherever
 * else they appear in the value's strings. `names`: lower-case names a security scheme declares. Returns the copy
 * and the secrets found, so values written beside it can be scrubbed the same way.
 */
export function redactRecord<T>(value: T, known: Iterable<string> = [], names?: ReadonlySet<string>): { value: T; secrets: Set<string> } {
  const secrets = new Set<string>();
  const redacted = redactAll(value, secrets, names);
  for (const k of known) if (k.trim() !== "" && !COMMON_WORDS.has(k.trim().toLowerCase())) secrets.add(k);
  return { value: scrubStrings(redacted, secrets) as T, secrets };
}

/** What is secret in what a run writes: names a security scheme declares, and values known to be secret. */
export interface SecretPolicy {
  /** Lower-case names of parameters, headers and properties that hold credentials (from security schemes). */
  names?: ReadonlySet<string>;
  /** Secret values (a toolset's accepted credentials): blanked wherever they appear. */
  known?: readonly string[];
}

/**
 * JSON texts of values that belong together (an episode's events), with secrets redacted as {@link redactRecord}
 * does, but numbered: the N-th distinct secret met becomes `[redacted-N]` wherever it appears (under its name, in
 * an instruction that mentions it, in an observation that echoes it), so two different secrets stay different
 * and a placeholder redacted again stays the same. Fast when there is nothing to redact (one serialization, no
 * copy); `redacted` tells whether anything was.
 */
export function redactJson(values: readonly unknown[], policy: SecretPolicy = {}): { texts: string[]; redacted: boolean } {
  // The common case first: no secret name among the keys and no known secret in the text (native serialization).
  const plain = values.map((v) => JSON.stringify(v));
  if (!plain.some((t) => hasSecretKey(t, policy.names)) && !(policy.known ?? []).some((k) => scrubbable(k) && plain.some((t) => t.includes(k.slice(0, minPrefix(k)))))) {
    return { texts: plain, redacted: false };
  }
  const found = new Set<string>();
  const names = policy.names;
  const numbered = new Placeholders();
  let blanked = false;
  const replacer = function (this: unknown, key: string, v: unknown): unknown {
    if (key !== "" && (typeof v === "string" || typeof v === "number") && !Array.isArray(this) && isSecretName(key, names)) {
      const r = redactValue(v, found, numbered);
      if (r !== v) blanked = true;
      return r;
    }
    return v;
  };
  const texts = values.map((v) => JSON.stringify(v, replacer));
  const secrets = [...found, ...(policy.known ?? [])].filter(scrubbable);
  if (secrets.length === 0) return { texts, redacted: blanked };
  // A secret's start is enough to look further (a text may cut it short).
  const starts = secrets.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]).map((s) => s.slice(0, minPrefix(s)));
  if (!texts.some((t) => starts.some((s) => t.includes(s)))) return { texts, redacted: blanked };
  // Some secret also appears elsewhere: scrub the strings (structurally, so escapes in the text do not hide it).
  const pattern = secretPattern(secrets);
  const scrub = (v: unknown): unknown => (pattern ? scrubWith(v, pattern, numbered) : v);
  return { texts: values.map((v) => JSON.stringify(scrub(redactAll(v, new Set(), names, numbered)))), redacted: true };
}

/**
 * Whether a JSON text has an object key that is a secret name: every `":` ends a key (inside a string the quote
 * would be escaped), whose start is the quote before it. A scan of the text, no parsing.
 */
function hasSecretKey(text: string, names?: ReadonlySet<string>): boolean {
  for (let end = text.indexOf('":'); end >= 0; end = text.indexOf('":', end + 2)) {
    if (text.charCodeAt(end - 1) === 92 /* \ */) continue;
    const start = text.lastIndexOf('"', end - 1);
    if (start >= 0 && end - start <= 81 && isSecretName(text.slice(start + 1, end), names)) return true;
  }
  return false;
}

const EXAMPLE_KEYS = new Set(["example", "examples", "default", "const", "enum"]);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function collectPrimitives(value: unknown, into: Set<string>): void {
  if (value === null || value === undefined) return;
  if (typeof value !== "object") into.add(String(value));
  else if (Array.isArray(value)) for (const v of value) collectPrimitives(v, into);
  else for (const v of Object.values(value)) collectPrimitives(v, into);
}

/**
 * A copy of a schema, a tool list or an OpenAPI document without the example values of secret fields:
 * `example(s)`, `default`, `const` and `enum` are dropped from the schemas of properties and parameters with
 * secret names and from `format: password` schemas, and example objects are passed through the same redaction.
 * Returns the copy and the values dropped (secrets to scrub from text elsewhere).
 */
export function redactSchemaSecrets<T>(value: T, names?: ReadonlySet<string>): { value: T; secrets: Set<string> } {
  const secrets = new Set<string>();
  const walk = (node: unknown, secret: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (!isPlainObject(node)) return node;
    const secretHere = secret || node["format"] === "password" || (typeof node["name"] === "string" && typeof node["in"] === "string" && isSecretName(node["name"], names));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (secretHere && EXAMPLE_KEYS.has(k)) {
        collectPrimitives(v, secrets);
        continue;
      }
      if (k === "properties" && isPlainObject(v)) {
        const props: Record<string, unknown> = {};
        for (const [name, schema] of Object.entries(v)) setOwn(props, name, walk(schema, isSecretName(name, names)));
        out[k] = props;
      } else if ((k === "example" || k === "examples" || k === "default") && !secretHere) {
        out[k] = redactAll(v, secrets, names);
      } else setOwn(out, k, walk(v, secretHere && (k === "schema" || k === "items")));
    }
    return out;
  };
  return { value: walk(value, false) as T, secrets };
}
