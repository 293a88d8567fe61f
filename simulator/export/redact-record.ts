import { redactSecrets } from "../run-store.js";

/** The mark that replaces a secret. */
export const REDACTED = "[redacted]";

/** Secret values shorter than this are not searched for in free text (too likely to hit ordinary words or numbers). */
const MIN_TEXT_SECRET = 4;

/** The values that {@link redactSecrets} replaced in a value: the secrets it holds under secret-looking keys. */
export function secretValues(original: unknown, redacted: unknown = redactSecrets(original), into: Set<string> = new Set()): Set<string> {
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
 * (API keys, tokens, passwords, authorization), then those values, and any `known` secrets (a toolset's
 * credentials), are blanked wherever else they appear in the value's strings. Returns the copy and the secrets
 * found, so values exported beside it (the tools) can be scrubbed the same way.
 */
export function redactRecord<T>(value: T, known: Iterable<string> = []): { value: T; secrets: Set<string> } {
  const redacted = redactSecrets(value);
  const secrets = secretValues(value, redacted);
  for (const k of known) secrets.add(k);
  return { value: scrubStrings(redacted, secrets) as T, secrets };
}
