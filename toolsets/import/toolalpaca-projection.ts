import { HTTP_METHODS, toolNameFor } from "../../specs/catalog/catalog.js";
import type { HttpMethod } from "../../specs/catalog/tool.js";
import { isObject } from "../../specs/json-object.js";

/*
 * ToolAlpaca names its functions in `Function_Projection`: `{functionName: [path, method]}`. The golden answers call
 * those names (`current_get` for `GET /current`, `CountryCountryInfo` for an operationId), which follow no rule a
 * reader of the spec alone could apply. The import writes each name into its operation's `operationId`, so the
 * catalog's tool is called exactly what the dataset calls it.
 */

type Json = Record<string, unknown>;

/** What naming the operations by `Function_Projection` did. */
export interface ProjectionReport {
  /** Functions whose operation had another name before (`get_current` -> `current_get`), as `old -> new`. */
  renamed: string[];
  /** Functions of the projection with no operation at their path and method (left as they were). */
  unmatched: string[];
  /** Functions whose name is not a valid tool name for chat models, with the name the tool gets instead. */
  unsafe: Array<{ name: string; tool: string }>;
  /** Other operations renamed because their own name was taken by a function of the projection. */
  displaced: string[];
}

const SAFE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function normPath(p: string): string {
  const t = p.trim();
  return (t.startsWith("/") ? t : `/${t}`).replace(/\/+$/, "") || "/";
}

/** The operation of a document at a path and method (the path compared without trailing slashes), if any. */
function findOperation(paths: Json, path: string, method: string): { path: string; op: Json } | undefined {
  const m = method.trim().toLowerCase();
  if (!(HTTP_METHODS as readonly string[]).includes(m)) return undefined;
  const exact = paths[path];
  if (isObject(exact) && isObject(exact[m])) return { path, op: exact[m] as Json };
  const wanted = normPath(path);
  for (const [p, item] of Object.entries(paths)) {
    if (normPath(p) === wanted && isObject(item) && isObject(item[m])) return { path: p, op: item[m] as Json };
  }
  return undefined;
}

/**
 * Names the operations of an OpenAPI document (in place) by a `Function_Projection` map: each function's name
 * becomes the `operationId` of the operation at its path and method. An operation outside the projection whose
 * name would be taken by a function is renamed `<name>_op`. Returns what was renamed and what did not match.
 */
export function applyFunctionProjection(document: Json, projection: unknown): ProjectionReport {
  const report: ProjectionReport = { renamed: [], unmatched: [], unsafe: [], displaced: [] };
  const paths = isObject(document["paths"]) ? document["paths"] : undefined;
  if (!isObject(projection) || paths === undefined) return report;
  const projected = new Set<Json>();
  const names = new Set<string>();
  for (const [name, target] of Object.entries(projection)) {
    const [path, method] = Array.isArray(target) ? target : [];
    const found = typeof path === "string" && typeof method === "string" ? findOperation(paths, path, method) : undefined;
    if (!found) {
      report.unmatched.push(`${name} (${typeof path === "string" && typeof method === "string" ? `${method.toUpperCase()} ${path}` : JSON.stringify(target)})`);
      continue;
    }
    const before = toolNameFor(String(method).toLowerCase() as HttpMethod, found.path, typeof found.op["operationId"] === "string" ? found.op["operationId"] : undefined);
    found.op["operationId"] = name;
    projected.add(found.op);
    const tool = toolNameFor(String(method).toLowerCase() as HttpMethod, found.path, name);
    names.add(tool);
    if (!SAFE_NAME.test(name)) report.unsafe.push({ name, tool });
    if (before !== tool) report.renamed.push(`${before} -> ${tool}`);
  }
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op) || projected.has(op)) continue;
      const own = toolNameFor(method, path, typeof op["operationId"] === "string" ? op["operationId"] : undefined);
      if (!names.has(own)) continue;
      let free = `${own}_op`;
      for (let n = 2; names.has(free); n++) free = `${own}_op${n}`;
      op["operationId"] = free;
      names.add(free);
      report.displaced.push(`${method.toUpperCase()} ${path}: ${own} -> ${free}`);
    }
  }
  return report;
}

/** The tool a function of the projection is called by (its name, made model-safe as the catalog does). */
export function projectedToolName(name: string, report: ProjectionReport): string {
  return report.unsafe.find((u) => u.name === name)?.tool ?? name;
}
