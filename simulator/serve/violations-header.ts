import type { ValidationIssue } from "../../specs/call/problem-details.js";

/** The longest `sl-violations` header toolsim sends (the full list is in the body). */
export const MAX_VIOLATIONS_HEADER = 2048;

/** The longest message of one issue in the header. */
const MAX_MESSAGE = 200;

/** Most issues in the header. */
const MAX_ISSUES = 5;

/**
 * JSON text with every character outside printable ASCII written as a `\uXXXX` escape: still the same JSON, and
 * a valid header value (Node refuses characters above U+00FF in headers, and clients read Latin-1 differently).
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Text of printable ASCII only. */
const PRINTABLE = /^[\x20-\x7e]*$/;

/** A header value made safe: printable ASCII only (other characters as `\uXXXX`), cut at `max` characters. */
export function asciiHeader(value: string, max = MAX_VIOLATIONS_HEADER): string {
  if (value.length <= max && PRINTABLE.test(value)) return value;
  const safe = value.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return safe.length > max ? `${safe.slice(0, max - 1)}~` : safe;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The `sl-violations` header of a list of issues (Prism's header): a JSON array of the first issues, ASCII only
 * and at most {@link MAX_VIOLATIONS_HEADER} characters whatever the messages hold (a 1,000-value enum, non-Latin
 * text): long messages are cut and issues that do not fit are left out; the body carries them all.
 */
export function violationsHeader(issues: readonly ValidationIssue[], max = MAX_VIOLATIONS_HEADER): string {
  // The array's JSON is its items' JSON between brackets, comma-separated: each item is written once.
  const parts: string[] = [];
  let length = 2;
  for (const issue of issues.slice(0, MAX_ISSUES)) {
    const part = asciiJson({ ...issue, location: issue.location.map((s) => clip(String(s), 100)), message: clip(issue.message, MAX_MESSAGE) });
    const next = length + part.length + (parts.length > 0 ? 1 : 0);
    if (next > max) break;
    parts.push(part);
    length = next;
  }
  // Even one issue does not fit (a huge location): name how many there are.
  if (parts.length === 0 && issues.length > 0) return asciiJson([{ location: ["request"], code: "many", message: `${issues.length} issues; see the body`, severity: "Error" }]);
  return `[${parts.join(",")}]`;
}
