import type { Catalog } from "./catalog.js";
import { singular } from "../words.js";
import type { ParameterBinding, Tool } from "./tool.js";

/** How an operation touches a resource collection inferred from paths (`/pets` and `/pets/{petId}`). */
export interface ResourceRoute {
  kind: "collection" | "item";
  /** The collection's path template, e.g. `/users/{userId}/posts`. */
  collection: string;
  /** The item's id parameter (kind `item`). */
  idParam?: ParameterBinding;
  /** Candidate names of the id field, best first (`petId`, `id`, `pet_id`). */
  idHints: string[];
}

const routesByCatalog = new WeakMap<Catalog, Map<string, ResourceRoute | undefined>>();

function parentOf(path: string): { parent: string; last: string } {
  const i = path.lastIndexOf("/");
  return { parent: i <= 0 ? "/" : path.slice(0, i), last: path.slice(i + 1) };
}

function idHints(collection: string, paramName?: string): string[] {
  const noun = singular(parentOf(collection).last.replace(/[{}]/g, ""));
  const hints = [paramName, "id", `${noun}Id`, `${noun}_id`, paramName?.replace(/Id$|_id$/i, "")].filter((h): h is string => !!h);
  return [...new Set(hints)];
}

/** The resource route of every tool of a catalog, or undefined for operations that are not CRUD on a collection. */
export function resourceRoute(catalog: Catalog, tool: Tool): ResourceRoute | undefined {
  let routes = routesByCatalog.get(catalog);
  if (!routes) {
    routes = inferRoutes(catalog);
    routesByCatalog.set(catalog, routes);
  }
  return routes.get(tool.name);
}

function inferRoutes(catalog: Catalog): Map<string, ResourceRoute | undefined> {
  const collections = new Map<string, string | undefined>(); // template -> id param name
  for (const tool of catalog.tools) {
    const { parent, last } = parentOf(tool.operation.path);
    if (/^\{[^}]+\}$/.test(last) && parent !== "/" && !/\{[^}]+\}$/.test(parent)) collections.set(parent, last.slice(1, -1));
  }
  // A path with POST and GET (create and list) is a collection even without an item route; a POST alone
  // (`/translate`, `/auth/login`) is an action, not a resource.
  const methodsByPath = new Map<string, Set<string>>();
  for (const tool of catalog.tools) {
    const set = methodsByPath.get(tool.operation.path) ?? new Set<string>();
    set.add(tool.operation.method);
    methodsByPath.set(tool.operation.path, set);
  }
  for (const [path, methods] of methodsByPath) {
    if (methods.has("post") && methods.has("get") && !/\}$/.test(path) && !collections.has(path)) collections.set(path, undefined);
  }
  const routes = new Map<string, ResourceRoute | undefined>();
  for (const tool of catalog.tools) {
    const path = tool.operation.path;
    const { parent, last } = parentOf(path);
    const method = tool.operation.method;
    if (/^\{[^}]+\}$/.test(last) && collections.has(parent) && ["get", "put", "patch", "delete"].includes(method)) {
      const name = last.slice(1, -1);
      const idParam = tool.parameters.find((p) => p.in === "path" && p.name === name);
      if (idParam) {
        routes.set(tool.name, { kind: "item", collection: parent, idParam, idHints: idHints(parent, name) });
        continue;
      }
    }
    if (collections.has(path) && (method === "get" || method === "post")) {
      routes.set(tool.name, { kind: "collection", collection: path, idHints: idHints(path, collections.get(path)) });
      continue;
    }
    routes.set(tool.name, undefined);
  }
  return routes;
}

/** A singleton resource: a path without an id parameter that is read and updated (`GET` and `PUT`/`PATCH /me`). */
export interface SingletonRoute {
  /** The path template, e.g. `/me` or `/users/{userId}/settings`. */
  path: string;
  /** The tool that reads it (its answer is the resource's first value when the state has none). */
  read: Tool;
}

const singletonsByCatalog = new WeakMap<Catalog, Map<string, SingletonRoute>>();

/**
 * The singleton a tool reads or updates, or undefined: its path ends in a literal segment, has GET and PUT
 * or PATCH, and is no collection (no POST on it, no item path below it).
 */
export function singletonRoute(catalog: Catalog, tool: Tool): SingletonRoute | undefined {
  let singletons = singletonsByCatalog.get(catalog);
  if (!singletons) {
    singletons = inferSingletons(catalog);
    singletonsByCatalog.set(catalog, singletons);
  }
  return singletons.get(tool.name);
}

function inferSingletons(catalog: Catalog): Map<string, SingletonRoute> {
  const byPath = new Map<string, Map<string, Tool>>();
  for (const tool of catalog.tools) {
    const methods = byPath.get(tool.operation.path) ?? new Map<string, Tool>();
    methods.set(tool.operation.method, tool);
    byPath.set(tool.operation.path, methods);
  }
  const out = new Map<string, SingletonRoute>();
  for (const [path, methods] of byPath) {
    const read = methods.get("get");
    if (!read || /\}$/.test(path) || path === "/" || methods.has("post") || !(methods.has("put") || methods.has("patch"))) continue;
    if (catalog.tools.some((t) => resourceRoute(catalog, t)?.collection === path)) continue;
    const route = { path, read };
    for (const m of ["get", "put", "patch"]) {
      const tool = methods.get(m);
      if (tool) out.set(tool.name, route);
    }
  }
  return out;
}

