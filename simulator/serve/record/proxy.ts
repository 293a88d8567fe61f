/** Request headers not forwarded upstream (hop-by-hop, or toolsim's own). */
const HOP_BY_HOP = new Set([
  "host",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "proxy-authorization",
  "proxy-connection",
  "accept-encoding",
  "x-toolsim-session",
]);

/** Response headers not passed back (hop-by-hop, or describing an encoding fetch already undid). */
const RESPONSE_HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-encoding", "content-length", "trailer", "upgrade"]);

/** The upstream's answer to a forwarded request. */
export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

// The URL of a request to the real API is built one way for serve and for the real-API responder.
export { upstreamUrl } from "../../../specs/respond/upstream.js";

/**
 * Forwards a request to the real API and reads its whole answer. Throws on network errors and timeouts
 * (the caller answers 502/504).
 */
export async function forward(
  fetchImpl: typeof fetch,
  url: string,
  request: { method: string; headers: Headers; body: Uint8Array | undefined },
  timeoutMs: number,
  signal: AbortSignal,
): Promise<UpstreamAnswer> {
  const headers = new Headers();
  request.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) headers.set(name, value);
  });
  const timeout = AbortSignal.timeout(timeoutMs);
  const res = await fetchImpl(url, {
    method: request.method,
    headers,
    ...(request.body !== undefined && request.method !== "GET" && request.method !== "HEAD" ? { body: request.body } : {}),
    redirect: "manual",
    signal: AbortSignal.any([timeout, signal]),
  });
  const body = new Uint8Array(await res.arrayBuffer());
  const out = new Headers();
  res.headers.forEach((value, name) => {
    if (!RESPONSE_HOP_BY_HOP.has(name)) out.append(name, value);
  });
  return { status: res.status, headers: out, body };
}
