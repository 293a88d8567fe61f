/** Escapes one JSON pointer segment (RFC 6901). */
export function escapeSegment(segment: string | number): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Builds a JSON pointer from segments: `["paths", "/pets", "get"]` -> `/paths/~1pets/get`. */
export function toPointer(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => "/" + escapeSegment(s)).join("");
}

/** Splits a JSON pointer (with or without a leading `#`) into unescaped segments. */
export function fromPointer(pointer: string): string[] {
  const p = pointer.startsWith("#") ? decodeURIComponent(pointer.slice(1)) : pointer;
  if (p === "") return [];
  return p
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The URI-fragment form of a pointer, as used in `$ref`s: `#/paths/~1pets~1%7Bid%7D`. */
export function toFragment(pointer: string): string {
  return "#" + fromPointer(pointer).map((s) => "/" + encodeURIComponent(escapeSegment(s))).join("");
}

/** The value at a pointer in a document, or undefined. */
export function getAt(doc: unknown, pointer: string): unknown {
  let node: unknown = doc;
  for (const seg of fromPointer(pointer)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}
