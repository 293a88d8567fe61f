import { parseLenientJson } from "./lenient-json.js";

/**
 * Finding the JSON value in a model's text: the whole text, fenced blocks (```json ... ```), then every balanced
 * `{...}` / `[...]` in the text; each candidate is read by the forgiving reader of `lenient-json.ts`.
 */

/** The outcome of {@link parseLooseJson}: the first value found, or why nothing was. */
export type LooseJson = { ok: true; value: unknown; from: "text" | "fence" | "span" } | { ok: false; error: string };

const FENCE = /```[ \t]*([\w+-]*)[ \t]*\r?\n?([\s\S]*?)```/g;

/** A candidate read by the one forgiving JSON reader (`lenient-json.ts`: smart quotes, trailing commas, single quotes...). */
function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  const t = text.trim();
  if (t === "") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(t) as unknown };
  } catch {
    // not strict JSON: a structure (an object or a list) may still be read leniently; prose may not
  }
  if (!/^(?:`{3}[\w+-]*\s*)?[[{]/.test(t)) return { ok: false };
  const parsed = parseLenientJson(t);
  if (!parsed.ok) return { ok: false };
  // Text after the value is chatter in a whole answer, not in a candidate span: a candidate is the value alone.
  if (parsed.value.repairs.some((r) => r.startsWith("ignored text after the value"))) return { ok: false };
  return { ok: true, value: parsed.value.value };
}

/** The balanced JSON-looking spans of a text (string-aware), in order of their start. */
export function jsonSpans(text: string, max = 8): string[] {
  const spans: string[] = [];
  for (let start = 0; start < text.length && spans.length < max; start++) {
    const open = text[start];
    if (open !== "{" && open !== "[") continue;
    const end = matchingClose(text, start);
    if (end < 0) continue;
    spans.push(text.slice(start, end + 1));
    start = end;
  }
  return spans;
}

function matchingClose(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{") stack.push("}");
    else if (c === "[") stack.push("]");
    else if (c === "}" || c === "]") {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** The first JSON value in a model's text: whole text, then fenced blocks, then balanced spans. */
export function parseLooseJson(text: string): LooseJson {
  const whole = tryParse(text);
  if (whole.ok) return { ok: true, value: whole.value, from: "text" };
  for (const m of text.matchAll(FENCE)) {
    const inner = m[2] ?? "";
    const parsed = tryParse(inner);
    if (parsed.ok) return { ok: true, value: parsed.value, from: "fence" };
    for (const span of jsonSpans(inner)) {
      const p = tryParse(span);
      if (p.ok) return { ok: true, value: p.value, from: "fence" };
    }
  }
  for (const span of jsonSpans(text)) {
    const parsed = tryParse(span);
    if (parsed.ok) return { ok: true, value: parsed.value, from: "span" };
  }
  const shown = text.trim().slice(0, 80).replace(/\s+/g, " ");
  return { ok: false, error: text.trim() === "" ? "the answer is empty" : `no JSON value found in the answer ("${shown}${text.trim().length > 80 ? "..." : ""}")` };
}
