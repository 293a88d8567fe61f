import { isObject } from "../../specs/json-object.js";
/** The mark that replaces a secret. */
export const REDACTED = "[redacted]";

/** Keys that hold a secret (as the run store judges them: API keys, secrets, tokens, passwords, authorization, credentials). */
const SECRET_KEY = /(api[-_]?key|secret|(^|[-_])token$|^token|access[-_]?token|auth[-_]?token|password|passwd|authorization|credential|bearer)/i;

/** Secret keys that exports also blank: other tokens, private keys and PIN codes. */
const MORE_SECRET_KEYS = /((refresh|session|id|csrf|xsrf|otp|reset|verification)[-_]?token|private[-_]?key|pin[-_]?code)$/i;

/**
 * Last words of keys that describe a secret rather than hold it (`tokenType`, `tokenUrl`, `secretName`,
 * `passwordLength`, `token_expires_in`): their values are kept.
 */
const DESCRIPTOR_WORDS = new Set([
  "type", "kind", "scheme", "schemes", "url", "uri", "endpoint", "expiry", "expires", "expiration", "in", "at", "ttl", "lifetime",
  "length", "hint", "policy", "required", "name", "format", "location", "header", "prefix", "count", "id", "status", "enabled",
  "strength", "scope", "scopes", "set", "valid", "changed", "updated", "created",
]);

/** The words of a key: `tokenType`, `token_type`, `token-type` -> token, type. */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

/** Whether a key names a value that is a secret (an API key, token, password or authorization value). */
export function isSecretKey(key: string): boolean {
  if (!SECRET_KEY.test(key) && !MORE_SECRET_KEYS.test(key)) return false;
  const words = keyWords(key);
  return words.length < 2 || !DESCRIPTOR_WORDS.has(words[words.length - 1] as string);
}

/**
 * Words that are never secrets even under a secret key, and never scrubbed from text: authentication scheme
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
  return t.length >= MIN_TEXT_SECRET && !COMMON_WORDS.has(t.toLowerCase());
}

/** The redacted form of a secret key's value, recording the secret found. */
function redactValue(value: string | number, into: Set<string>): string | number {
  const text = String(value);
  if (text.trim() === "" || text === REDACTED || COMMON_WORDS.has(text.trim().toLowerCase())) return value;
  const auth = AUTH_VALUE.exec(text.trim());
  if (auth) {
    const credential = auth[2] as string;
    if (COMMON_WORDS.has(credential.trim().toLowerCase()) || credential === REDACTED) return value;
    into.add(credential);
    return `${auth[1] as string} ${REDACTED}`;
  }
  into.add(text);
  return REDACTED;
}

/** A copy of a value with the values of secret keys blanked (booleans and objects are walked, never blanked). */
function redactAll(value: unknown, into: Set<string> = new Set()): unknown {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = (typeof x === "string" || typeof x === "number") && isSecretKey(k) ? redactValue(x, into) : walk(x);
      return out;
    }
    return v;
  };
  return walk(value);
}

/** The secrets a value holds under secret keys (an authorization value's credential, without its scheme word). */
export function secretValues(original: unknown, into: Set<string> = new Set()): Set<string> {
  redactAll(original, into);
  return into;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Replaces every whole occurrence of the secrets in the strings of a value (keys untouched), in their plain and
 * JSON-escaped spellings, so a secret found under one key does not survive in an instruction, an answer or the
 * text of an observation. Short values and common words (`Bearer`, `true`) are never searched for.
 */
export function scrubStrings(value: unknown, secrets: Iterable<string>): unknown {
  const spellings = new Set<string>();
  for (const s of secrets) {
    if (!scrubbable(s)) continue;
    spellings.add(s);
    spellings.add(JSON.stringify(s).slice(1, -1));
  }
  if (spellings.size === 0) return value;
  const pattern = new RegExp(
    [...spellings]
      .sort((a, b) => b.length - a.length)
      .map((s) => `(?<![A-Za-z0-9])${escapeRegExp(s)}(?![A-Za-z0-9])`)
      .join("|"),
    "g",
  );
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return v.replace(pattern, REDACTED);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value);
}

/**
 * A copy of an exported value without secrets: the values of secret keys are blanked (API keys, tokens,
 * passwords, authorization values after their scheme word, refresh, session and id tokens, private keys; not
 * keys that describe a secret, as `tokenType`, nor common words, as `Bearer`), then
 * those values, and any `known` secrets (a toolset's
 * credentials), are blanked wherever else they appear in the value's strings. Returns the copy and the secrets
 * found, so values exported beside it (the tools) can be scrubbed the same way.
 */
export function redactRecord<T>(value: T, known: Iterable<string> = []): { value: T; secrets: Set<string> } {
  const secrets = new Set<string>();
  const redacted = redactAll(value, secrets);
  for (const k of known) if (k.trim() !== "" && !COMMON_WORDS.has(k.trim().toLowerCase())) secrets.add(k);
  return { value: scrubStrings(redacted, secrets) as T, secrets };
}

const EXAMPLE_KEYS = new Set(["example", "examples", "default", "const", "enum"]);

function collectPrimitives(value: unknown, into: Set<string>): void {
  if (value === null || value === undefined) return;
  if (typeof value !== "object") into.add(String(value));
  else if (Array.isArray(value)) for (const v of value) collectPrimitives(v, into);
  else for (const v of Object.values(value)) collectPrimitives(v, into);
}

/**
 * A copy of a schema, a tool list or an OpenAPI document without the example values of secret fields:
 * `example(s)`, `default`, `const` and `enum` are dropped from the schemas of properties and parameters with
 * secret-looking names and from `format: password` schemas, and example objects are passed through
 * the same redaction. Returns the copy and the values dropped (secrets to scrub from text elsewhere).
 */
export function redactSchemaSecrets<T>(value: T): { value: T; secrets: Set<string> } {
  const secrets = new Set<string>();
  const walk = (node: unknown, secret: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (!isObject(node)) return node;
    const secretHere = secret || node["format"] === "password" || (typeof node["name"] === "string" && typeof node["in"] === "string" && isSecretKey(node["name"]));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (secretHere && EXAMPLE_KEYS.has(k)) {
        collectPrimitives(v, secrets);
        continue;
      }
      if (k === "properties" && isObject(v)) {
        const props: Record<string, unknown> = {};
        for (const [name, schema] of Object.entries(v)) props[name] = walk(schema, isSecretKey(name));
        out[k] = props;
      } else if ((k === "example" || k === "examples" || k === "default") && !secretHere) {
        out[k] = redactAll(v, secrets);
      } else out[k] = walk(v, secretHere && (k === "schema" || k === "items"));
    }
    return out;
  };
  return { value: walk(value, false) as T, secrets };
}
