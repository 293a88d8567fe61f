import type { ProblemDetails } from "../call/problem-details.js";

/** Joins an upstream base URL (which may have a path) and a request path and query string. */
export function upstreamUrl(base: string, path: string, search: string): string {
  const b = base.endsWith("/") ? base.slice(0, -1) : base;
  const p = path.startsWith("/") ? path : `/${path}`;
  return `${b}${p}${search !== "" ? `?${search}` : ""}`;
}

/** A URL fit to show and write: no user name or password, query values replaced (a key may travel there). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    const query = new URLSearchParams();
    for (const k of u.searchParams.keys()) query.set(k, "…");
    u.search = query.toString() === "" ? "" : `?${query.toString().replace(/%E2%80%A6/g, "…")}`;
    const text = u.toString();
    return text.endsWith("/") && !url.endsWith("/") ? text.slice(0, -1) : text;
  } catch {
    return "(an invalid URL)";
  }
}

/** Whether an error of `fetch` is its time running out (rather than the network failing). */
export function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === "TimeoutError";
}

/** The cause of a failed `fetch`, in a few words: `connect ECONNREFUSED 127.0.0.1:9`, `getaddrinfo ENOTFOUND host`. */
export function networkCause(error: unknown): string {
  const e = error as { message?: unknown; cause?: unknown } | null;
  const cause = e?.cause as { message?: unknown; code?: unknown; errors?: unknown } | undefined;
  if (cause && typeof cause.message === "string" && cause.message !== "") return cause.message;
  if (cause && Array.isArray(cause.errors)) {
    const first = cause.errors.find((x): x is { message: string } => typeof (x as { message?: unknown } | null)?.message === "string");
    if (first) return first.message;
  }
  if (cause && typeof cause.code === "string") return cause.code;
  return typeof e?.message === "string" && e.message !== "" ? e.message : String(error);
}

/**
 * The problem details of a request the real API did not answer: 504 when it took too long, 502 when it could not
 * be reached (with the cause). `base` is shown without credentials.
 */
export function upstreamProblem(error: unknown, base: string, timeoutMs?: number): ProblemDetails {
  const shown = displayUrl(base);
  if (isTimeout(error)) {
    return {
      type: "https://toolsim.dev/problems/upstream-error",
      title: "Gateway Timeout",
      status: 504,
      detail: `The real API at ${shown} did not answer in time${timeoutMs !== undefined ? ` (${timeoutMs} ms)` : ""}.`,
    };
  }
  return {
    type: "https://toolsim.dev/problems/upstream-error",
    title: "Bad Gateway",
    status: 502,
    detail: `The real API at ${shown} could not be reached: ${networkCause(error)}.`,
  };
}
