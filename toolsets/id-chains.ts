import type { Catalog } from "../specs/catalog/catalog.js";
import { selectResponse } from "../specs/call/select-response.js";
import { inlineSchema, toolArgumentsSchema } from "../specs/catalog/tool-schema.js";
import type { Tool } from "../specs/catalog/tool.js";
import { isObject } from "../specs/json-object.js";
import { isIdName, singular } from "../specs/words.js";

export { isIdName };

function norm(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}


/** An id an operation needs that no other operation returns. */
export interface MissingId {
  tool: Tool;
  /** The argument that takes the id. */
  argument: string;
}

/** The words of an identifier or path: `listBookReviews` -> list, book, review. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => singular(w.toLowerCase()));
}

/** What one operation's responses return: property names, and for each `id`-like property the words around it. */
interface Returned {
  names: Set<string>;
  /** Words of the context of every bare `id` property (operation, path, enclosing properties). */
  idContexts: string[][];
}

function collect(schema: unknown, context: string[], out: Returned, depth: number): void {
  if (!isObject(schema) || depth > 6) return;
  for (const key of ["allOf", "oneOf", "anyOf"] as const) {
    const list = schema[key];
    if (Array.isArray(list)) for (const s of list) collect(s, context, out, depth + 1);
  }
  if (schema["items"] !== undefined) collect(schema["items"], context, out, depth + 1);
  if (isObject(schema["additionalProperties"])) collect(schema["additionalProperties"], context, out, depth + 1);
  const props = schema["properties"];
  if (!isObject(props)) return;
  for (const [name, sub] of Object.entries(props)) {
    out.names.add(norm(name));
    out.names.add(singular(norm(name))); // `post_ids` returns a `post_id`
    if (/^(id|uuid|guid|key|code|slug)$/i.test(name)) out.idContexts.push(context);
    collect(sub, [...context, ...words(name)], out, depth + 1);
  }
}

function returnedBy(catalog: Catalog, tool: Tool): Returned {
  const out: Returned = { names: new Set(), idContexts: [] };
  const base = [...words(tool.name), ...words(tool.operation.path)];
  const statuses = tool.responses.filter((s) => /^2/.test(s));
  for (const status of statuses.length > 0 ? statuses : [undefined]) {
    const selected = selectResponse(catalog, tool, status !== undefined && /^\d{3}$/.test(status) ? Number(status) : undefined);
    if (selected.schemaPointer === undefined) continue;
    collect(inlineSchema(catalog.registry, "response", selected.schemaPointer), base, out, 0);
  }
  return out;
}

/** The id-like arguments an operation needs: its path parameters and required arguments with id-like names, unless enumerated. */
function neededIds(catalog: Catalog, tool: Tool): string[] {
  const args = toolArgumentsSchema(catalog, tool);
  const props = isObject(args["properties"]) ? args["properties"] : {};
  // Path parameters are always required, so the required arguments cover them.
  return tool.required.filter((arg) => {
    const schema = props[arg];
    return isIdName(arg) && !(isObject(schema) && (Array.isArray(schema["enum"]) || schema["const"] !== undefined));
  });
}

function provides(returned: Returned, arg: string): boolean {
  const n = norm(arg);
  if (returned.names.has(n)) return true;
  const argWords = words(arg);
  const nouns = argWords.slice(0, -1);
  if (nouns.length === 0) return returned.idContexts.length > 0 || returned.names.has("id");
  const noun = nouns[nouns.length - 1] as string;
  return returned.idContexts.some((ctx) => ctx.includes(noun) || ctx.some((w) => w.length >= 4 && noun.length >= 4 && (w.startsWith(noun) || noun.startsWith(w))));
}

/**
 * ToolAlpaca's rule for toolsets: an id an operation needs (a path parameter or required argument named
 * like `bookId`) must be returned by some other operation (a search, list or create), or a user could
 * never supply it. Returns the ids no other operation's success response carries.
 */
export function findMissingIds(catalog: Catalog): MissingId[] {
  const returned = new Map(catalog.tools.map((t) => [t, returnedBy(catalog, t)] as const));
  const missing: MissingId[] = [];
  for (const tool of catalog.tools) {
    for (const arg of neededIds(catalog, tool)) {
      const found = catalog.tools.some((other) => other !== tool && provides(returned.get(other) as Returned, arg));
      if (!found) missing.push({ tool, argument: arg });
    }
  }
  return missing;
}
