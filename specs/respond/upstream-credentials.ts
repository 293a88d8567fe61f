import type { Catalog } from "../catalog/catalog.js";
import { securityRequirements, securitySchemes, type SecurityScheme } from "../catalog/security-requirements.js";
import type { Tool } from "../catalog/tool.js";

/**
 * The credentials toolsim presents to a real API. They go into the outgoing request only: never into a tool
 * result, a journal or a recording (answers are scrubbed of their values too).
 */
export interface UpstreamCredentials {
  /** By security scheme name (`components.securitySchemes`): an API key, a bearer token, or `user:password` for HTTP basic. */
  schemes?: Record<string, string>;
  /** For every scheme not named in `schemes`. */
  default?: string;
  /** Headers sent with every request (an auth header the spec does not declare). */
  headers?: Record<string, string>;
  /**
   * Where `default` goes for an operation whose spec declares no security at all (a toolset's `auth`): an API key
   * in a header or query parameter, or a bearer token.
   */
  fallback?: { type: "apiKey" | "bearer"; in?: "header" | "query"; name?: string };
}

/** Where credentials are put: the outgoing request's headers, query and cookies. */
export interface CredentialTarget {
  headers: Headers;
  query: URLSearchParams;
  cookies: string[];
}

function put(scheme: SecurityScheme, value: string, target: CredentialTarget): string[] {
  if (scheme.type === "apiKey") {
    const name = scheme.paramName ?? "";
    if (scheme.in === "query") target.query.set(name, value);
    else if (scheme.in === "cookie") target.cookies.push(`${name}=${encodeURIComponent(value)}`);
    else target.headers.set(name, value);
    return [value];
  }
  if (scheme.type === "mutualTLS") return [];
  const kind = scheme.type === "http" ? (scheme.scheme ?? "bearer") : "bearer";
  if (kind === "basic") {
    const encoded = value.includes(":") ? Buffer.from(value, "utf8").toString("base64") : value;
    target.headers.set("authorization", `Basic ${encoded}`);
    return [value, encoded];
  }
  const word = kind === "bearer" ? "Bearer" : kind.charAt(0).toUpperCase() + kind.slice(1);
  target.headers.set("authorization", `${word} ${value}`);
  return [value];
}

/**
 * Puts the credentials an operation needs into an outgoing request: the first of its security alternatives for
 * which every scheme has a value (by name, else `default`); for a spec without security schemes, `default` by
 * `fallback`; `headers` always. Returns the secret values sent (to scrub from the answer).
 */
export function applyCredentials(catalog: Catalog, tool: Tool, credentials: UpstreamCredentials | undefined, target: CredentialTarget): string[] {
  if (!credentials) return [];
  const sent: string[] = [];
  for (const [name, value] of Object.entries(credentials.headers ?? {})) {
    target.headers.set(name, value);
    sent.push(value);
  }
  const valueFor = (scheme: SecurityScheme): string | undefined => credentials.schemes?.[scheme.name] ?? credentials.default;
  const alternatives = securityRequirements(catalog, tool);
  for (const alternative of alternatives) {
    if (!alternative.schemes.every(({ scheme }) => scheme.type === "mutualTLS" || valueFor(scheme) !== undefined)) continue;
    for (const { scheme } of alternative.schemes) {
      const value = valueFor(scheme);
      if (value !== undefined) sent.push(...put(scheme, value, target));
    }
    return sent.filter((v) => v.length >= 4);
  }
  const fallback = credentials.fallback;
  if (alternatives.length === 0 && securitySchemes(catalog).size === 0 && fallback && credentials.default !== undefined) {
    const scheme: SecurityScheme =
      fallback.type === "bearer" ? { name: "toolset", type: "http", scheme: "bearer" } : { name: "toolset", type: "apiKey", in: fallback.in ?? "header", paramName: fallback.name ?? "X-Api-Key" };
    sent.push(...put(scheme, credentials.default, target));
  }
  return sent.filter((v) => v.length >= 4);
}
