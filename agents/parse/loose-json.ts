/**
 * Forgiving JSON extraction from model text: the whole text, fenced blocks (```json ... ```), then
 * every balanced `{...}` / `[...]` in the text, with a light repair of trailing commas and smart quotes.
 */

/** The outcome of {@link parseLooseJson}: the first value found, or why nothing was. */
export type LooseJson = { ok: true; value: unknown; from: "text" | "fence" | "span" } | { ok: false; error: string };

const FENCE = /```[ \t]*([\w+-]*)[ \t]*\r?\n?([\s\S]*?)```/g;

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  const t = text.trim();
  if (t === "") return { ok: false };
  for (const candidate of [t, repair(t)]) {
    try {
      return { ok: true, value: JSON.parse(candidate) as unknown };
    } catch {
      // try the next form
    }
  }
  return { ok: false };
}

/** Light repairs models need: smart quotes, trailing commas, a BOM. */
function repair(text: string): string {
  return text
    .replace(/^\uFEFF/, "")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/,\s*([}\]])/g, "$1");
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
