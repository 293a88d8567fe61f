import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { hostname } from "node:os";
import type { Context, Hono } from "hono";
import { PRISM, problem, problemResponse, TOOLSIM } from "./problem-response.js";
import { bodyKind, bodyReadProblem, incomingOf, readBody } from "./request-body.js";
import { DEFAULT_SESSION, MAX_SESSION_ID_LENGTH, type Eviction, type SessionStates } from "./sessions.js";
import type { ProblemDetails } from "../../specs/call/problem-details.js";

/** The path prefix of the admin routes. */
export const ADMIN_PREFIX = "/__toolsim/";

/** The largest body of an admin request (they hold at most a session id). */
export const ADMIN_BODY_LIMIT = 16 * 1024;

/** The admin routes and the methods they answer (a known route with another method gets a 405 with `Allow`). */
const ADMIN_ROUTES: Record<string, string[]> = {
  "/__toolsim/health": ["GET", "HEAD"],
  "/__toolsim/state": ["GET", "HEAD"],
  "/__toolsim/sessions": ["GET", "HEAD"],
  "/__toolsim/reset": ["POST"],
};

/** Whether a path is an admin route's (CORS never applies to them). */
export function isAdminPath(path: string): boolean {
  return path === "/__toolsim" || path.startsWith(ADMIN_PREFIX);
}

/** What the admin routes read and change on the server. */
export interface AdminHost {
  readonly sessions: SessionStates;
  /** The health answer (nothing secret: no upstream URLs, no credentials). */
  health(): Record<string, unknown>;
  /** The served API names. */
  apiNames(): string[];
  /** Resets what a reset of everything resets besides sessions (rate windows, cassette, fault counter). */
  resetAll(): void;
}

/** Settings of the admin routes. */
export interface AdminOptions {
  /** The token that state, sessions and reset need (`X-Toolsim-Admin-Token`). */
  adminToken?: string;
  /**
   * Host names (of the `Host` header) the admin routes answer besides loopback names, IP addresses and this
   * machine's name: what a client reaching the server by another name (a container's service name) uses.
   */
  allowedHosts?: readonly string[];
}

/** Compares a presented secret with the expected one in constant time. */
function sameSecret(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The host name of a `Host` header value (without port; IPv6 literals keep their brackets off). */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]") < 0 ? undefined : h.indexOf("]"));
  const colon = h.lastIndexOf(":");
  return colon < 0 ? h : h.slice(0, colon);
}

/**
 * Whether a `Host` header names this server in a way no web page can borrow: a loopback name, an IP address (DNS
 * rebinding needs a DNS name), this machine's name, or an allowed name.
 */
function isTrustedHost(host: string, allowed: ReadonlySet<string>): boolean {
  const name = hostName(host);
  if (name === "") return false;
  if (isIP(name) !== 0) return true;
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  return allowed.has(name);
}

/** Why a request to an admin route comes from a web page (cross origin), or undefined when it does not. */
function crossOrigin(c: Context): string | undefined {
  const origin = c.req.header("origin");
  if (origin === undefined) {
    const site = c.req.header("sec-fetch-site");
    return site !== undefined && site !== "same-origin" && site !== "none" ? `Sec-Fetch-Site: ${site}` : undefined;
  }
  const host = c.req.header("host");
  let originHost: string | undefined;
  try {
    originHost = origin === "null" ? undefined : new URL(origin).host.toLowerCase();
  } catch {
    originHost = undefined;
  }
  return originHost !== undefined && host !== undefined && originHost === host.trim().toLowerCase() ? undefined : `Origin: ${origin.slice(0, 100)}`;
}

/** The problem of a request to a session that was evicted (also answered by the API routes). */
export function evictedProblem(session: string, eviction: Eviction): ReturnType<typeof problem> {
  const shown = session.length > 64 ? `${session.slice(0, 63)}…` : session;
  return problem(
    410,
    `${TOOLSIM}session-evicted`,
    "Session evicted",
    `The state of session "${shown}" was evicted at ${new Date(eviction.at).toISOString()} to make room: this server keeps at most ${eviction.maxSessions} sessions (--max-sessions). ` +
      `Its data is gone; reset the session (POST /__toolsim/reset with {"session": "..."}) to start it again from the fixtures.`,
  );
}

/** The problem of a session id longer than any the API routes take (the admin routes name the same sessions). */
function longSession(session: string): ProblemDetails {
  return problem(400, `${TOOLSIM}bad-session`, "Bad Request", `The session id is ${session.length} characters long; at most ${MAX_SESSION_ID_LENGTH} are accepted.`);
}

/**
 * Mounts the admin routes (`/__toolsim/health`, `state`, `sessions`, `reset`) on an app. None of them answers a
 * web page: a request from another origin (an `Origin` that is not the server itself, a cross-site
 * `Sec-Fetch-Site`) is refused with a 403, and, without an admin token, so is a `Host` a page could borrow
 * through DNS rebinding. `reset` takes JSON bodies only (415 otherwise), of at most {@link ADMIN_BODY_LIMIT}
 * bytes (413). With an admin token, state, sessions and reset need it (401); health tells nothing secret.
 */
export function mountAdminRoutes(app: Hono, host: AdminHost, options: AdminOptions): void {
  const allowed = new Set([hostname().toLowerCase(), ...(options.allowedHosts ?? []).map((h) => hostName(h))]);
  app.use("/__toolsim/*", async (c, next) => {
    const why = crossOrigin(c);
    if (why !== undefined) {
      return problemResponse(problem(403, `${TOOLSIM}admin-cross-origin`, "Forbidden", `The admin routes do not answer web pages of other origins (${why}).`));
    }
    const hostHeader = c.req.header("host");
    if (options.adminToken === undefined && hostHeader !== undefined && !isTrustedHost(hostHeader, allowed)) {
      return problemResponse(
        problem(
          403,
          `${TOOLSIM}admin-host`,
          "Forbidden",
          `The admin routes answer requests to this server by a loopback name or an IP address, not ${hostHeader.slice(0, 100)} (a page could reach them through DNS rebinding); allow that name with serve --allow-host, or set --admin-token.`,
        ),
      );
    }
    if (options.adminToken === undefined || c.req.path === "/__toolsim/health") return next();
    if (sameSecret(c.req.header("x-toolsim-admin-token"), options.adminToken)) return next();
    return problemResponse(
      problem(401, `${TOOLSIM}admin-token`, "Admin token required", "The admin routes of this server need its admin token in an X-Toolsim-Admin-Token header (serve --admin-token)."),
      { "www-authenticate": 'Toolsim-Admin-Token realm="__toolsim"' },
    );
  });
  app.get("/__toolsim/health", (c) => c.json(host.health()));
  app.get("/__toolsim/sessions", (c) => c.json({ sessions: host.sessions.list(), maxSessions: host.sessions.limit, evicted: host.sessions.evictedCount }));
  app.get("/__toolsim/state", (c) => {
    const session = c.req.query("session") ?? c.req.header("x-toolsim-session") ?? DEFAULT_SESSION;
    const api = c.req.query("api");
    if (api !== undefined && !host.apiNames().includes(api)) return problemResponse(problem(404, `${TOOLSIM}unknown-api`, "Unknown API", `No API named "${api}"; served: ${host.apiNames().join(", ")}.`));
    if (session.length > MAX_SESSION_ID_LENGTH) return problemResponse(longSession(session));
    const eviction = host.sessions.evictionOf(session);
    if (eviction) return problemResponse(evictedProblem(session, eviction));
    return c.json({ session, apis: host.sessions.snapshot(session, api) });
  });
  app.post("/__toolsim/reset", async (c) => {
    let session = c.req.query("session") ?? c.req.header("x-toolsim-session");
    const type = c.req.header("content-type");
    const read = await readBody(c.req.raw, ADMIN_BODY_LIMIT, incomingOf(c.env));
    if (!read.ok) {
      const { details, headers } = bodyReadProblem(read);
      return problemResponse(details, headers);
    }
    if (read.bytes !== undefined || type !== undefined) {
      if (type === undefined || bodyKind(type) !== "json") {
        return problemResponse(problem(415, `${PRISM}INVALID_CONTENT_TYPE`, "Invalid content type", `The admin routes take JSON bodies only (Content-Type: application/json); got ${type ?? "none"}.`));
      }
    }
    if (read.bytes !== undefined) {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.from(read.bytes).toString("utf8"));
      } catch (e) {
        return problemResponse(problem(400, `${TOOLSIM}bad-request`, "Bad Request", `The request body is not valid JSON: ${(e as Error).message}`));
      }
      const keys = body !== null && typeof body === "object" && !Array.isArray(body) ? Object.keys(body) : undefined;
      const given = keys !== undefined ? (body as { session?: unknown }).session : undefined;
      if (keys === undefined || keys.some((k) => k !== "session") || (given !== undefined && typeof given !== "string")) {
        return problemResponse(problem(400, `${TOOLSIM}bad-request`, "Bad Request", 'The body of a reset is {} (everything) or {"session": "<id>"}.'));
      }
      if (typeof given === "string") session ??= given;
    }
    if (session !== undefined && session.length > MAX_SESSION_ID_LENGTH) return problemResponse(longSession(session));
    if (session !== undefined) return c.json({ reset: host.sessions.reset(session), all: false });
    const reset = host.sessions.reset();
    host.resetAll();
    return c.json({ reset, all: true });
  });
  app.all("/__toolsim/*", (c) => {
    const allow = ADMIN_ROUTES[c.req.path];
    const trimmed = c.req.path.replace(/\/+$/, "");
    // `/__toolsim/health/` is no route (its method would not say why): a 404 naming the route meant.
    if (allow === undefined && trimmed !== c.req.path && ADMIN_ROUTES[trimmed] !== undefined) {
      return problemResponse(problem(404, `${TOOLSIM}unknown-admin-route`, "Unknown admin route", `${c.req.path} is not an admin route; did you mean ${trimmed}?`), {}, c.req.method === "HEAD");
    }
    if (allow !== undefined) {
      return problemResponse(
        problem(405, `${PRISM}NO_METHOD_MATCHED_ERROR`, "Route resolved, but no method matched", `${c.req.path} answers ${allow.join(", ")}, not ${c.req.method}.`),
        { allow: allow.join(", ") },
        c.req.method === "HEAD",
      );
    }
    return problemResponse(problem(404, `${TOOLSIM}unknown-admin-route`, "Unknown admin route", `${c.req.method} ${c.req.path} is not an admin route; see GET /__toolsim/health, GET /__toolsim/state, GET /__toolsim/sessions, POST /__toolsim/reset.`));
  });
}
