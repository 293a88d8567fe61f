import type { Catalog } from "../../specs/catalog/catalog.js";
import { securitySchemes } from "../../specs/catalog/security-requirements.js";
import { OperationRouter, type RouteMatch } from "../../specs/call/operation-router.js";
import type { Responder } from "../../specs/respond/responder.js";
import { toolsetKeyScheme, type ApiAuth, type Credential } from "./auth.js";
import type { ExchangeRequest } from "./record/exchange-record.js";
import type { ServedApi } from "./serve-options.js";

/** A served API with what serving it needs, worked out once. */
export interface ApiRuntime {
  api: ServedApi;
  /** `""` for a single API, else `/<name>`. */
  prefix: string;
  router: OperationRouter;
  auth: ApiAuth;
  /** Lower-case names of headers, query parameters and cookies that carry credentials. */
  secretNames: Set<string>;
  /** Paths of the spec's server URLs (`/v1`), accepted in front of operation paths. */
  basePaths: string[];
  /** The responders of simulated answers: the API's own behaviour (API-Bank's APIs) before the server's. */
  responders: Responder[];
}

/**
 * What serving an API needs, worked out once: its URL prefix, router, accepted credentials (the server's, then
 * the toolset's), the names that carry secrets, and its server base paths. Its responders are set by the app.
 */
export function apiRuntime(api: ServedApi, several: boolean, serverCredentials: readonly Credential[] = []): ApiRuntime {
  const credentials = [
    ...serverCredentials.filter((c) => c.api === undefined || c.api === api.name),
    ...(api.auth?.credentials ?? []).map((value) => ({ value, api: api.name })),
    // A toolset's further keys (an app id and an app key): each accepted in its own parameter only.
    ...Object.entries(api.auth?.keys ?? {}).map(([name, value]) => ({ value, api: api.name, scheme: toolsetKeyScheme(name) })),
  ];
  const secretNames = new Set<string>();
  for (const s of securitySchemes(api.catalog).values()) if (s.paramName) secretNames.add(s.paramName.toLowerCase());
  if (api.auth?.name) secretNames.add(api.auth.name.toLowerCase());
  for (const name of Object.keys(api.auth?.keys ?? {})) secretNames.add(name.toLowerCase());
  return {
    api,
    prefix: several ? `/${api.name}` : "",
    router: OperationRouter.of(api.catalog),
    auth: { credentials, ...(api.auth ? { toolsetAuth: api.auth } : {}) },
    secretNames,
    basePaths: serverBasePaths(api.catalog),
    responders: [],
  };
}

/** The operation a request path names, also with one of the spec's server base paths (`/v1`) stripped from it. */
export function routeIn(rt: ApiRuntime, method: string, rel: string): { match: RouteMatch; rel: string } {
  const match = rt.router.match(method, rel);
  if (match.kind !== "not-found") return { match, rel };
  for (const base of rt.basePaths) {
    if (rel.startsWith(base) && (rel.length === base.length || rel[base.length] === "/")) {
      const stripped = rel.slice(base.length) || "/";
      const again = rt.router.match(method, stripped);
      if (again.kind !== "not-found") return { match: again, rel: stripped };
    }
  }
  return { match, rel };
}

/** Splits a request URL into its path and query string without building a URL object. */
export function splitUrl(url: string): { path: string; search: string } {
  const scheme = url.indexOf("://");
  const start = scheme < 0 ? 0 : url.indexOf("/", scheme + 3);
  if (start < 0) return { path: "/", search: "" };
  const q = url.indexOf("?", start);
  const hash = url.indexOf("#", start);
  const end = hash < 0 ? url.length : hash;
  return q < 0 || q > end ? { path: url.slice(start, end), search: "" } : { path: url.slice(start, q), search: url.slice(q + 1, end) };
}

/** The paths of a spec's server URLs (`https://api.example.com/v1` -> `/v1`), without variables. */
function serverBasePaths(catalog: Catalog): string[] {
  const servers = (catalog.spec.document as { servers?: unknown }).servers;
  if (!Array.isArray(servers)) return [];
  const out = new Set<string>();
  for (const s of servers) {
    const url = typeof s === "object" && s !== null ? (s as { url?: unknown }).url : undefined;
    if (typeof url !== "string") continue;
    const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "").replace(/\{[^}]*\}/g, "").replace(/\/+$/, "");
    if (path.startsWith("/") && path.length > 1) out.add(path);
  }
  return [...out];
}

/** The request of an exchange as a recording keeps it (secret names and known credentials redacted when written). */
export function exchangeRequestOf(req: Request, rt: ApiRuntime, rel: string, query: URLSearchParams, text: string | null): ExchangeRequest {
  return { api: rt.api.name, req, rel, query, text, secretNames: rt.secretNames, known: rt.auth.credentials.map((c) => c.value) };
}
