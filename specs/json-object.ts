/** A JSON object: what parsed JSON, schemas, arguments and bodies are read as. */
export type Json = Record<string, unknown>;

/** Whether a value is a plain JSON object (not null, not an array): the one check the whole tree shares. */
export function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A property name as a JSON Pointer segment (`~` -> `~0`, `/` -> `~1`). */
export function pointerSegment(name: string): string {
  return name.includes("~") || name.includes("/") ? name.replace(/~/g, "~0").replace(/\//g, "~1") : name;
}
