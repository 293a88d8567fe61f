import type { Catalog } from "./catalog.js";
import { derefNode } from "./catalog.js";
import { getAt } from "../json-pointer.js";
import type { Tool } from "./tool.js";
import { isObject } from "../json-object.js";

/** A security scheme of a spec (`components.securitySchemes`), reduced to what enforcing it needs. */
export interface SecurityScheme {
  /** The scheme's name in `components.securitySchemes`. */
  name: string;
  type: "apiKey" | "http" | "oauth2" | "openIdConnect" | "mutualTLS";
  /** apiKey: where the key travels and under which name. */
  in?: "header" | "query" | "cookie";
  paramName?: string;
  /** http: the authorization scheme, lower case (`bearer`, `basic`, `digest`...). */
  scheme?: string;
}

/** One alternative of an operation's security: every listed scheme is needed, with its scopes. */
export interface SecurityAlternative {
  schemes: Array<{ scheme: SecurityScheme; scopes: string[] }>;
}

/** The security schemes a spec declares, by name. */
export function securitySchemes(catalog: Catalog): Map<string, SecurityScheme> {
  let known = schemesOf.get(catalog);
  if (known) return known;
  known = new Map();
  const doc = catalog.spec.document as unknown;
  const declared = getAt(doc, "/components/securitySchemes");
  if (isObject(declared)) {
    for (const [name, raw] of Object.entries(declared)) {
      const { node } = derefNode(doc, raw, `/components/securitySchemes/${name}`);
      if (!isObject(node)) continue;
      const type = node["type"];
      if (type === "apiKey") {
        const where = node["in"];
        if ((where === "header" || where === "query" || where === "cookie") && typeof node["name"] === "string") known.set(name, { name, type, in: where, paramName: node["name"] });
      } else if (type === "http") {
        known.set(name, { name, type, scheme: typeof node["scheme"] === "string" ? node["scheme"].toLowerCase() : "bearer" });
      } else if (type === "oauth2" || type === "openIdConnect" || type === "mutualTLS") {
        known.set(name, { name, type });
      }
    }
  }
  schemesOf.set(catalog, known);
  return known;
}

const schemesOf = new WeakMap<Catalog, Map<string, SecurityScheme>>();
const requirementsOf = new WeakMap<Tool, SecurityAlternative[]>();

/**
 * The security alternatives of an operation (its own `security`, else the document's): any one of them
 * grants access; an empty list means the operation is public (also when one alternative is `{}`).
 * Requirements naming an undeclared scheme cannot be enforced and are left out.
 */
export function securityRequirements(catalog: Catalog, tool: Tool): SecurityAlternative[] {
  let known = requirementsOf.get(tool);
  if (known) return known;
  const doc = catalog.spec.document as unknown;
  const op = getAt(doc, tool.operation.pointer);
  const raw = isObject(op) && Array.isArray(op["security"]) ? op["security"] : isObject(doc) && Array.isArray(doc["security"]) ? doc["security"] : [];
  const schemes = securitySchemes(catalog);
  known = [];
  let open = false;
  for (const req of raw) {
    if (!isObject(req)) continue;
    const entries = Object.entries(req);
    if (entries.length === 0) {
      open = true;
      continue;
    }
    const alternative: SecurityAlternative = { schemes: [] };
    let enforceable = true;
    for (const [name, scopes] of entries) {
      const scheme = schemes.get(name);
      if (!scheme) {
        enforceable = false;
        break;
      }
      alternative.schemes.push({ scheme, scopes: Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === "string") : [] });
    }
    if (enforceable) known.push(alternative);
  }
  if (open) known = [];
  requirementsOf.set(tool, known);
  return known;
}

const secretNamesCache = new WeakMap<Catalog, ReadonlySet<string>>();

/** The lower-case names of the headers, query parameters and cookies that a catalog's security schemes declare. */
export function securityParamNames(catalog: Catalog): ReadonlySet<string> {
  let names = secretNamesCache.get(catalog);
  if (!names) {
    const out = new Set<string>();
    for (const s of securitySchemes(catalog).values()) if (s.paramName) out.add(s.paramName.toLowerCase());
    names = out;
    secretNamesCache.set(catalog, names);
  }
  return names;
}
