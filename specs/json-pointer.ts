/** Escapes one JSON pointer segment (RFC 6901). */
export function escapeSegment(segment: string | number): string {
  const s = typeof segment === "string" ? segment : String(segment);
  if (s.indexOf("~") < 0 && s.indexOf("/") < 0) return s;
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Builds a JSON pointer from segments: `["paths", "/pets", "get"]` -> `/paths/~1pets/get`. */
export function toPointer(segments: ReadonlyArray<string | number>): string {
  let out = "";
  for (const s of segments) out += "/" + escapeSegment(s);
  return out;
}

function unescapeSegment(s: string): string {
  return s.indexOf("~") < 0 ? s : s.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Splits a JSON pointer (with or without a leading `#`) into unescaped segments. */
export function fromPointer(pointer: string): string[] {
  const p = pointer.startsWith("#") ? decodeURIComponent(pointer.slice(1)) : pointer;
  if (p === "") return [];
  const parts = p.slice(1).split("/");
  for (let i = 0; i < parts.length; i++) parts[i] = unescapeSegment(parts[i] as string);
  return parts;
}

const fragments = new Map<string, string>();

/** The URI-fragment form of a pointer, as used in `$ref`s: `#/paths/~1pets~1%7Bid%7D`. */
export function toFragment(pointer: string): string {
  let hit = fragments.get(pointer);
  if (hit === undefined) {
    hit = "#" + fromPointer(pointer).map((s) => "/" + encodeURIComponent(escapeSegment(s))).join("");
    if (fragments.size > 20_000) fragments.clear();
    fragments.set(pointer, hit);
  }
  return hit;
}

/** The value at a pointer in a document, or undefined. */
export function getAt(doc: unknown, pointer: string): unknown {
  if (pointer === "") return doc;
  if (pointer.charCodeAt(0) !== 47 /* "/" */) {
    let node: unknown = doc;
    for (const seg of fromPointer(pointer)) {
      if (node === null || typeof node !== "object") return undefined;
      node = (node as Record<string, unknown>)[seg];
    }
    return node;
  }
  // A plain pointer: walked segment by segment without splitting it first.
  let node: unknown = doc;
  let start = 1;
  const length = pointer.length;
  while (true) {
    let end = pointer.indexOf("/", start);
    if (end < 0) end = length;
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[unescapeSegment(pointer.slice(start, end))];
    if (end === length) return node;
    start = end + 1;
  }
}
