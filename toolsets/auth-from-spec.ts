import type { Catalog } from "../specs/catalog.js";
import type { ToolsetAuth } from "./toolset.js";

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The toolset `auth` a spec calls for: the first security scheme its operations use that the simulation can
 * check (an apiKey in a header or the query, or HTTP bearer / OAuth2 / OpenID tokens), with one invented
 * demo credential. Undefined when no operation is secured that way.
 */
export function authFromSpec(catalog: Catalog, slug: string): ToolsetAuth | undefined {
  const doc = catalog.spec.document as unknown as Json;
  const schemes = isObject(doc["components"]) && isObject(doc["components"]["securitySchemes"]) ? doc["components"]["securitySchemes"] : {};
  const used = new Set(catalog.tools.flatMap((t) => t.security.flat()));
  for (const name of used) {
    const s = schemes[name];
    if (!isObject(s)) continue;
    if (s["type"] === "apiKey" && (s["in"] === "header" || s["in"] === "query") && typeof s["name"] === "string") {
      return { type: "apiKey", in: s["in"], name: s["name"], credentials: [`demo-${slug}-key`] };
    }
    if ((s["type"] === "http" && String(s["scheme"]).toLowerCase() === "bearer") || s["type"] === "oauth2" || s["type"] === "openIdConnect") {
      return { type: "bearer", credentials: [`demo-${slug}-token`] };
    }
  }
  return undefined;
}
