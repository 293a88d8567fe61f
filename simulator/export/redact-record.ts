import { redactSecrets } from "../run-store.js";

/** The mark that replaces a secret. */
export const REDACTED = "[redacted]";

/** Secret keys that exports also blank, beyond those of {@link redactSecrets}: other tokens and private keys. */
const MORE_SECRET_KEYS = /((refresh|session|id|csrf|xsrf|otp|reset|verification)[-_]?token|private[-_]?key|pin[-_]?code)$/i;

/** {@link redactSecrets} plus {@link MORE_SECRET_KEYS}. */
function redactAll(value: unknown): unknown {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[k] = MORE_SECRET_KEYS.test(k) && x !== null && typeof x !== "object" ? REDACTED : walk(x);
      return out;
    }
    return v;
  };
  return walk(redactSecrets(value));
}

/** Secret values shorter than this are not searched for in free text (too likely to hit ordinary words or numbers). */
const MIN_TEXT_SECRET = 4;

/** The values that redaction replaced in a value: the secrets it holds under secret-looking keys. */
export function secretValues(original: unknown, redacted: unknown = redactAll(original), into: Set<string> = new Set()): Set<string> {
  if (redacted === REDACTED && original !== REDACTED && original !== null && typeof original !== "object") {
    into.add(String(original));
    return into;
  }
  if (Array.isArray(original) && Array.isArray(redacted)) {
    original.forEach((v, i) => secretValues(v, redacted[i], into));
  } else if (original !== null && typeof original === "object" && redacted !== null && typeof redacted === "object") {
    const r = redacted as Record<string, unknown>;
    for (const [k, v] of Object.entries(original)) secretValues(v, r[k], into);
  }
  return into;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Replaces every whole occurrence of the secrets in the strings of a value (keys untouched), in their plain and
 * JSON-escaped spellings, so a secret found under one key does not survive in an instruction, an answer or the
 * text of an observation.
 */
export function scrubStrings(value: unknown, secrets: Iterable<string>): unknown {
  const spellings = new Set<string>();
  for (const s of secrets) {
    if (s.trim().length < MIN_TEXT_SECRET || /^(true|false|null)$/i.test(s)) continue;
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
 * A copy of an exported value without secrets: {@link redactSecrets} blanks the values of secret-looking keys
 * (API keys, tokens, passwords, authorization; exports add refresh, session and id tokens and private keys), then
 * those values, and any `known` secrets (a toolset's
 * credentials), are blanked wherever else they appear in the value's strings. Returns the copy and the secrets
 * found, so values exported beside it (the tools) can be scrubbed the same way.
 */
export function redactRecord<T>(value: T, known: Iterable<string> = []): { value: T; secrets: Set<string> } {
  const redacted = redactAll(value);
  const secrets = secretValues(value, redacted);
  for (const k of known) secrets.add(k);
  return { value: scrubStrings(redacted, secrets) as T, secrets };
}

/** Whether a key names a secret (as {@link redactSecrets} decides). */
export function isSecretKey(key: string): boolean {
  return (redactAll({ [key]: "x" }) as Record<string, unknown>)[key] === REDACTED;
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
 * secret-looking names and from `format: password` schemas, and example objects are passed through
 * {@link redactSecrets}. Returns the copy and the values dropped (secrets to scrub from text elsewhere).
 */
export function redactSchemaSecrets<T>(value: T): { value: T; secrets: Set<string> } {
  const secrets = new Set<string>();
  const walk = (node: unknown, secret: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (!isPlainObject(node)) return node;
    const secretHere = secret || node["format"] === "password" || (typeof node["name"] === "string" && typeof node["in"] === "string" && isSecretKey(node["name"]));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (secretHere && EXAMPLE_KEYS.has(k)) {
        collectPrimitives(v, secrets);
        continue;
      }
      if (k === "properties" && isPlainObject(v)) {
        const props: Record<string, unknown> = {};
        for (const [name, schema] of Object.entries(v)) props[name] = walk(schema, isSecretKey(name));
        out[k] = props;
      } else if ((k === "example" || k === "examples" || k === "default") && !secretHere) {
        const before = secretValues(v);
        for (const s of before) secrets.add(s);
        out[k] = redactAll(v);
      } else out[k] = walk(v, secretHere && (k === "schema" || k === "items"));
    }
    return out;
  };
  return { value: walk(value, false) as T, secrets };
}
