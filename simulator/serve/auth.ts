import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import type { Catalog } from "../../specs/catalog/catalog.js";
import { securityRequirements, securitySchemes, type SecurityAlternative, type SecurityScheme } from "../../specs/catalog/security-requirements.js";
import type { Tool } from "../../specs/catalog/tool.js";
import type { ToolsetAuth } from "../../toolsets/toolset.js";
import { parseRate, type Rate } from "./rate-limits.js";
import { isObject } from "../../specs/json-object.js";

/** A credential the simulated API accepts. */
export interface Credential {
  /** The secret: an API key, a bearer token, or `user:password` for HTTP basic auth. */
  value: string;
  /** The scopes it grants (absent: every scope). */
  scopes?: string[];
  /** Only valid for this security scheme (absent: any scheme). */
  scheme?: string;
  /** Only valid for this API (absent: every served API). */
  api?: string;
  /** Its own rate limit and quota (override the server's). */
  rateLimit?: Rate;
  quota?: Rate;
  /** A name for logs and the admin routes (never the secret). */
  label?: string;
}

/**
 * Reads a credentials file (YAML or JSON): a list, or `{credentials: [...]}`, of secrets (strings) or
 * objects `{key|token|value, scopes?, scheme?, api?, rateLimit?: "60/min", quota?: "1000/day", label?}`.
 */
export async function loadCredentials(path: string): Promise<{ ok: true; value: Credential[] } | { ok: false; message: string }> {
  let data: unknown;
  try {
    data = parseYaml(await readFile(path, "utf8"));
  } catch (e) {
    return { ok: false, message: `cannot read credentials ${path}: ${(e as Error).message.split("\n")[0]}` };
  }
  const list = Array.isArray(data) ? data : isObject(data) && Array.isArray(data["credentials"]) ? data["credentials"] : undefined;
  if (!list) return { ok: false, message: `${path}: expected a list of credentials, or {credentials: [...]}` };
  const out: Credential[] = [];
  for (const [i, raw] of list.entries()) {
    if (typeof raw === "string" && raw !== "") {
      out.push({ value: raw });
      continue;
    }
    if (!isObject(raw)) return { ok: false, message: `${path}: credential ${i} must be a string or an object` };
    const value = raw["key"] ?? raw["token"] ?? raw["value"];
    if (typeof value !== "string" || value === "") return { ok: false, message: `${path}: credential ${i} needs a "key" (or "token")` };
    const c: Credential = { value };
    if (raw["scopes"] !== undefined) {
      if (!Array.isArray(raw["scopes"]) || !raw["scopes"].every((s) => typeof s === "string")) return { ok: false, message: `${path}: credential ${i}: "scopes" must be a list of strings` };
      c.scopes = raw["scopes"] as string[];
    }
    for (const field of ["scheme", "api", "label"] as const) {
      if (raw[field] === undefined) continue;
      if (typeof raw[field] !== "string") return { ok: false, message: `${path}: credential ${i}: "${field}" must be a string` };
      c[field] = raw[field];
    }
    for (const field of ["rateLimit", "quota"] as const) {
      if (raw[field] === undefined) continue;
      const rate = typeof raw[field] === "string" ? parseRate(raw[field]) : undefined;
      if (!rate) return { ok: false, message: `${path}: credential ${i}: "${field}" must look like 60/min or 1000/day` };
      c[field] = rate;
    }
    out.push(c);
  }
  return { ok: true, value: out };
}

/** What the auth check reads from a request. */
export interface AuthRequest {
  header(name: string): string | null | undefined;
  query: URLSearchParams;
}

/** The auth check's verdict: the identity that rate limits and quotas count against, or a 401/403. */
export type AuthOutcome =
  | { ok: true; identity: string; credential?: Credential }
  | { ok: false; status: 401 | 403; detail: string; challenge: string };

/** An API's auth settings: the credentials it accepts (none: any presented value is accepted, as Prism does). */
export interface ApiAuth {
  credentials: Credential[];
  /** The toolset's `auth`: enforced when the spec declares no security schemes. */
  toolsetAuth?: ToolsetAuth;
}

type Failure = { kind: "missing" | "invalid" | "scope"; scheme: SecurityScheme; scopes?: string[] };

function cookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The credential a request presents for a scheme (basic auth: `user:password`), if any. */
function presented(scheme: SecurityScheme, req: AuthRequest): string | undefined {
  if (scheme.type === "apiKey") {
    const name = scheme.paramName ?? "";
    const v = scheme.in === "query" ? req.query.get(name) : scheme.in === "cookie" ? cookie(req.header("cookie"), name) : req.header(name.toLowerCase());
    return v === null || v === undefined || v === "" ? undefined : v;
  }
  if (scheme.type === "mutualTLS") return "";
  const auth = req.header("authorization");
  if (!auth) return undefined;
  const sp = auth.indexOf(" ");
  const word = (sp < 0 ? auth : auth.slice(0, sp)).toLowerCase();
  const value = sp < 0 ? "" : auth.slice(sp + 1).trim();
  const wanted = scheme.type === "http" ? (scheme.scheme ?? "bearer") : "bearer";
  if (word !== wanted || value === "") return undefined;
  if (wanted === "basic") {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    return decoded.includes(":") ? decoded : value;
  }
  return value;
}

function describeScheme(s: SecurityScheme): string {
  if (s.type === "apiKey") return `an API key in ${s.in} "${s.paramName}"`;
  if (s.type === "http" && s.scheme === "basic") return "HTTP basic credentials (Authorization: Basic ...)";
  if (s.type === "http" && s.scheme !== "bearer") return `an Authorization: ${s.scheme} credential`;
  return "a bearer token (Authorization: Bearer ...)";
}

function challengeOf(failures: readonly Failure[]): string {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const f of failures) {
    const s = f.scheme;
    let c: string;
    if (s.type === "apiKey") c = `ApiKey realm="toolsim", in="${s.in}", name="${s.paramName}"`;
    else if (s.type === "http" && s.scheme !== "bearer") c = `${(s.scheme ?? "basic").replace(/^./, (x) => x.toUpperCase())} realm="toolsim"`;
    else if (f.kind === "scope") c = `Bearer realm="toolsim", error="insufficient_scope", scope="${(f.scopes ?? []).join(" ")}"`;
    else if (f.kind === "invalid") c = `Bearer realm="toolsim", error="invalid_token"`;
    else c = `Bearer realm="toolsim"`;
    if (!seen.has(c)) out.push(c);
    seen.add(c);
  }
  return out.join(", ");
}

/** The scheme name of a toolset's further key `name` (`auth.keys`): its value is accepted there only. */
export function toolsetKeyScheme(name: string): string {
  return `toolset:${name}`;
}

/** A toolset's `auth` as a security requirement (for specs that declare none): its key, and each of its further `keys`. */
function toolsetRequirement(auth: ToolsetAuth): SecurityAlternative {
  const scheme: SecurityScheme =
    auth.type === "bearer"
      ? { name: "toolset", type: "http", scheme: "bearer" }
      : { name: "toolset", type: "apiKey", in: auth.in ?? "header", paramName: auth.name ?? "X-Api-Key" };
  const more: SecurityScheme[] =
    auth.type === "apiKey" ? Object.keys(auth.keys ?? {}).filter((k) => k !== auth.name).map((k) => ({ name: toolsetKeyScheme(k), type: "apiKey", in: auth.in ?? "header", paramName: k })) : [];
  return { schemes: [scheme, ...more].map((s) => ({ scheme: s, scopes: [] })) };
}

/** Whether a scheme carries the credential of a toolset's `auth` (the same kind, place and name). */
function carriesToolsetCredential(scheme: SecurityScheme, auth: ToolsetAuth): boolean {
  if (auth.type === "bearer") return scheme.type === "http" && (scheme.scheme ?? "bearer") === "bearer";
  return scheme.type === "apiKey" && scheme.paramName === (auth.name ?? "X-Api-Key") && scheme.in === (auth.in ?? "header");
}

/** The security alternatives enforced for an operation: the spec's, else the toolset's `auth`. */
export function enforcedRequirements(catalog: Catalog, tool: Tool, auth: ApiAuth): SecurityAlternative[] {
  const declared = securityRequirements(catalog, tool);
  if (declared.length > 0 || securitySchemes(catalog).size > 0 || !auth.toolsetAuth) return declared;
  return [toolsetRequirement(auth.toolsetAuth)];
}

/**
 * Whether the value a scheme carries is the API's to check (`auth.checkedBy: "api"`: API-Bank's tokens, issued
 * at run time by GetUserToken or RegisterUser): it must be present, and then reaches the API, which accepts or
 * refuses it as it does.
 */
function checkedByApi(scheme: SecurityScheme, auth: ApiAuth): boolean {
  return auth.toolsetAuth?.checkedBy === "api" && carriesToolsetCredential(scheme, auth.toolsetAuth);
}

/**
 * Checks a request against an operation's security alternatives: any alternative whose schemes all
 * present an accepted credential grants access. With no configured credentials any presented value is
 * accepted (Prism's behaviour), as is any value of a credential the API checks itself (`checkedBy: "api"`). A known credential lacking a required OAuth2 scope is a 403; anything
 * else is a 401 with a `WWW-Authenticate` challenge.
 */
export function checkAuth(alternatives: readonly SecurityAlternative[], auth: ApiAuth, req: AuthRequest): AuthOutcome {
  if (alternatives.length === 0) return { ok: true, identity: "anonymous" };
  const configured = auth.credentials.length > 0;
  const failures: Failure[] = [];
  let scopeOnly = false;
  for (const alternative of alternatives) {
    let identity: string | undefined;
    let credential: Credential | undefined;
    let failure: Failure | undefined;
    for (const { scheme, scopes } of alternative.schemes) {
      const value = presented(scheme, req);
      if (value === undefined) {
        failure = { kind: "missing", scheme };
        break;
      }
      if (configured && scheme.type !== "mutualTLS" && !checkedByApi(scheme, auth)) {
        const c = auth.credentials.find((x) => x.value === value && (x.scheme === undefined || x.scheme === scheme.name));
        if (!c) {
          failure = { kind: "invalid", scheme };
          break;
        }
        const lacking = c.scopes === undefined ? [] : scopes.filter((s) => !c.scopes?.includes(s));
        if (lacking.length > 0) {
          failure = { kind: "scope", scheme, scopes: lacking };
          break;
        }
        credential ??= c;
      }
      identity ??= value;
    }
    if (!failure) return { ok: true, identity: credential?.label ?? `key:${identity ?? ""}`, ...(credential ? { credential } : {}) };
    if (failure.kind === "scope") scopeOnly = true;
    failures.push(failure);
  }
  const scopeFailure = failures.find((f) => f.kind === "scope");
  if (scopeOnly && scopeFailure) {
    return {
      ok: false,
      status: 403,
      detail: `The credential lacks the scope${(scopeFailure.scopes ?? []).length === 1 ? "" : "s"} this operation requires: ${(scopeFailure.scopes ?? []).join(", ")}.`,
      challenge: challengeOf([scopeFailure]),
    };
  }
  const invalid = failures.find((f) => f.kind === "invalid");
  const detail = invalid
    ? `Invalid credentials: ${describeScheme(invalid.scheme)} was given but is not accepted.`
    : `Missing credentials: this operation requires ${failures.map((f) => describeScheme(f.scheme)).filter((d, i, all) => all.indexOf(d) === i).join(" or ")}.`;
  return { ok: false, status: 401, detail, challenge: challengeOf(failures) };
}
