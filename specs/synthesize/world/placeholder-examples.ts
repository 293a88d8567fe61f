import { isObject, type Json } from "../../json-object.js";
import { deriveSeed } from "../../seed.js";
import { isPlausible, valueKindOf } from "../../value-kinds.js";

/**
 * A spec's examples sometimes hold a placeholder where a value goes (`email: XXXXXXXXXXX`, `email:
 * new-business-email`, `websites: [website-1]`, `url: <Webhook URL, https>`): an answer made from them would show
 * it. Such values of fields whose names say they are e-mails, URLs or phone numbers are replaced, once, when the
 * spec is read, by values of that kind made from the placeholder's words (`new.business@example.com`,
 * `https://www.example.com/website-1`). A property example with its own pattern, enum or format is left as it is.
 */

type Kind = "email" | "url" | "phone";
const KINDS = new Set<string>(["email", "url", "phone"]);

/** The words of a placeholder as a slug (`<Webhook URL, https>` -> `webhook-url-https`); empty for a mask (`XXXX`). */
function slugOf(text: string, joiner: string): string {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const kept = words.filter((w) => !/^(.)\1*$/.test(w) || w.length < 3);
  return kept.join(joiner).slice(0, 40);
}

/** A value of a kind made from a placeholder. */
function plausibleFor(kind: Kind, placeholder: string): string {
  switch (kind) {
    case "email":
      return `${slugOf(placeholder.replace(/\bemail\b|\be-mail\b/gi, ""), ".") || "contact"}@example.com`;
    case "url":
      return `https://www.example.com/${slugOf(placeholder.replace(/\burl\b|\bhttps?\b/gi, ""), "-")}`.replace(/\/$/, "");
    case "phone":
      return `+1 202 555 ${String(100 + (deriveSeed(0, placeholder) % 900)).padStart(4, "0")}`;
  }
}

/** The replacement of a value under a field name, when the name says its kind and the value is no value of it. */
function replacement(name: string, value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const kind = valueKindOf(name);
  if (kind === undefined || !KINDS.has(kind) || isPlausible(kind, value, name) !== false) return undefined;
  return plausibleFor(kind as Kind, value);
}

/** Replaces the placeholders of an example value in place (fields named for e-mails, URLs and phones; lists of them). */
function cleanValue(value: unknown, depth: number): void {
  if (depth > 32) return;
  if (Array.isArray(value)) {
    for (const v of value) cleanValue(v, depth + 1);
    return;
  }
  if (!isObject(value)) return;
  for (const [k, v] of Object.entries(value)) {
    if (Array.isArray(v) && v.every((x) => typeof x === "string")) {
      // A list named for its kind (`websites`, `emails`): each item judged by the singular name.
      const singular = k.replace(/ies$/, "y").replace(/s$/, "");
      const replaced = v.map((x) => replacement(singular, x) ?? x);
      if (replaced.some((x, i) => x !== v[i])) value[k] = replaced;
    } else if (typeof v === "string") {
      const r = replacement(k, v);
      if (r !== undefined) value[k] = r;
    } else cleanValue(v, depth + 1);
  }
}

/** Replaces placeholder values in a spec document's examples, in place (see above). */
export function replacePlaceholderExamples(doc: unknown, depth = 0): void {
  if (depth > 64) return;
  if (Array.isArray(doc)) {
    for (const v of doc) replacePlaceholderExamples(v, depth + 1);
    return;
  }
  if (!isObject(doc)) return;
  const properties = doc["properties"];
  if (isObject(properties)) {
    for (const [name, p] of Object.entries(properties)) {
      if (!isObject(p) || p["pattern"] !== undefined || p["enum"] !== undefined || p["format"] !== undefined) continue;
      const r = replacement(name, p["example"]);
      if (r !== undefined && (typeof p["maxLength"] !== "number" || r.length <= p["maxLength"])) p["example"] = r;
    }
  }
  for (const [k, v] of Object.entries(doc as Json)) {
    if ((k === "example" || k === "value") && (isObject(v) || Array.isArray(v))) cleanValue(v, 0);
    else if (k === "examples" && Array.isArray(v)) for (const x of v) cleanValue(x, 0);
    if (typeof v === "object" && v !== null) replacePlaceholderExamples(v, depth + 1);
  }
}
