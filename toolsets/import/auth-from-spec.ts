import type { Catalog } from "../../specs/catalog/catalog.js";
import type { ToolsetAuth } from "../toolset.js";
import { isObject, type Json } from "../../specs/json-object.js";

/** The security schemes of a document (`components.securitySchemes`), by name. */
export function securitySchemes(document: unknown): Json {
  const doc = isObject(document) ? document : {};
  return isObject(doc["components"]) && isObject(doc["components"]["securitySchemes"]) ? doc["components"]["securitySchemes"] : {};
}

/** Whether a security scheme carries an API key the simulation can check (in a header or the query). */
function isApiKeyScheme(s: Json): boolean {
  return s["type"] === "apiKey" && (s["in"] === "header" || s["in"] === "query") && typeof s["name"] === "string";
}

/** Whether a security scheme carries a bearer token (HTTP bearer, OAuth2, OpenID Connect). */
function isTokenScheme(s: Json): boolean {
  return (s["type"] === "http" && String(s["scheme"]).toLowerCase() === "bearer") || s["type"] === "oauth2" || s["type"] === "openIdConnect";
}

/**
 * The toolset `auth` a spec calls for: the first security scheme its operations use that the simulation can
 * check (an apiKey in a header or the query, or HTTP bearer / OAuth2 / OpenID tokens), with one invented
 * demo credential. With `prefer`, a used scheme that satisfies it wins over the others. Undefined when no
 * operation is secured that way.
 */
export function authFromSpec(catalog: Catalog, slug: string, prefer?: (scheme: Json) => boolean): ToolsetAuth | undefined {
  const schemes = securitySchemes(catalog.spec.document);
  const used = [...new Set(catalog.tools.flatMap((t) => t.security.flat()))];
  const ordered = prefer ? [...used.filter((n) => isObject(schemes[n]) && prefer(schemes[n] as Json)), ...used] : used;
  for (const name of ordered) {
    const s = schemes[name];
    if (!isObject(s)) continue;
    if (isApiKeyScheme(s)) return { type: "apiKey", in: s["in"] as "header" | "query", name: s["name"] as string, credentials: [`demo-${slug}-key`] };
    if (isTokenScheme(s)) return { type: "bearer", credentials: [`demo-${slug}-token`] };
  }
  return undefined;
}

/** What a public-apis `Auth` value asks of a built spec: an API key (in a given header, if the value names one) or a token. */
export type AuthNeed = { kind: "apiKey"; header?: string; label: string } | { kind: "bearer"; label: string };

/**
 * The credentials a public-apis `Auth` value calls for: `apiKey` -> an API key, `X-Mashape-Key` -> an API key
 * in that header, `OAuth` -> a bearer token. Undefined for no auth (and for `User-Agent`, which is not a credential).
 */
export function authNeed(auth: string): AuthNeed | undefined {
  const a = auth.trim();
  if (/^x-mashape-key$/i.test(a)) return { kind: "apiKey", header: "X-Mashape-Key", label: a };
  if (/^api[-_ ]?key$/i.test(a)) return { kind: "apiKey", label: a };
  if (/oauth/i.test(a)) return { kind: "bearer", label: a };
  return undefined;
}

/** Whether a security scheme satisfies a need: an apiKey scheme (with the named header) for a key, a token scheme for OAuth. */
export function schemeMeets(need: AuthNeed, scheme: Json): boolean {
  if (need.kind === "bearer") return isTokenScheme(scheme);
  if (!isApiKeyScheme(scheme)) return false;
  return need.header === undefined || (scheme["in"] === "header" && String(scheme["name"]).toLowerCase() === need.header.toLowerCase());
}

/** The names of the schemes of a spec that meet a need and that some operation requires. */
export function schemesMeeting(catalog: Catalog, need: AuthNeed): string[] {
  const schemes = securitySchemes(catalog.spec.document);
  const used = new Set(catalog.tools.flatMap((t) => t.security.flat()));
  return [...used].filter((n) => isObject(schemes[n]) && schemeMeets(need, schemes[n] as Json));
}

/** How a need reads in messages: `an API key (public-apis Auth: apiKey)`. */
export function describeNeed(need: AuthNeed): string {
  const what = need.kind === "bearer" ? "an OAuth token" : need.header !== undefined ? `an API key in the ${need.header} header` : "an API key";
  return `${what} (public-apis Auth: ${need.label})`;
}

/**
 * Adds a security scheme that meets a need to an OpenAPI document (in place) and requires it: at the top level,
 * and on operations whose own non-empty `security` does not already require a scheme that meets it
 * (operations marked public with `security: []` stay public). Returns a sentence saying what was added.
 */
export function addAuthScheme(document: Json, need: AuthNeed): string {
  const components = isObject(document["components"]) ? document["components"] : (document["components"] = {});
  const schemes = isObject(components["securitySchemes"]) ? components["securitySchemes"] : (components["securitySchemes"] = {});
  const base = need.kind === "bearer" ? "BearerAuth" : "ApiKeyAuth";
  let name = base;
  for (let n = 2; name in schemes; n++) name = `${base}${n}`;
  const header = need.kind === "apiKey" ? (need.header ?? "X-Api-Key") : undefined;
  schemes[name] =
    need.kind === "bearer"
      ? { type: "http", scheme: "bearer", description: "OAuth access token, sent as `Authorization: Bearer <token>`." }
      : { type: "apiKey", in: "header", name: header, description: "The API key." };
  const meets = (req: unknown): boolean => isObject(req) && Object.keys(req).some((k) => isObject(schemes[k]) && schemeMeets(need, schemes[k] as Json));
  const requirement = { [name]: [] as string[] };
  const top = document["security"];
  document["security"] = Array.isArray(top) && top.length > 0 ? (top.some(meets) ? top : [requirement, ...top]) : [requirement];
  const paths = isObject(document["paths"]) ? document["paths"] : {};
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const op of Object.values(item)) {
      if (!isObject(op) || !Array.isArray(op["security"]) || op["security"].length === 0) continue;
      if (!op["security"].some(meets)) op["security"] = [requirement, ...op["security"]];
    }
  }
  const what = need.kind === "bearer" ? `an HTTP bearer security scheme "${name}"` : `an apiKey security scheme "${name}" (header ${header})`;
  return `added ${what} and required it: the API needs ${describeNeed(need)} and the spec declared none`;
}
