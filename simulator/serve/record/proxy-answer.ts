import type { Tool } from "../../../specs/catalog/tool.js";
import type { ValidationIssue } from "../../../specs/call/problem-details.js";
import { validateResponse } from "../../../specs/call/validate-response.js";
import { displayUrl, upstreamProblem } from "../../../specs/respond/upstream.js";
import { exchangeRequestOf, type ApiRuntime } from "../api-runtime.js";
import { exchangeRecord } from "./exchange-record.js";
import { isTextual, type HttpRecorder } from "./http-cassette.js";
import { problem, problemResponse, TOOLSIM, type HeaderMap } from "../problem-response.js";
import { forward, upstreamUrl } from "./proxy.js";
import { bodyText } from "../request-body.js";
import { violationsHeader } from "../violations-header.js";

/** What answering in proxy mode needs from the server. */
export interface ProxyHost {
  /** The fetch that reaches the real API (default the global one). */
  fetch: typeof fetch | undefined;
  /** Time allowed to the real API. */
  timeoutMs: number;
  /** Ends pending upstream requests when the server stops. */
  signal: AbortSignal;
  log: (line: string) => void;
  recorder: HttpRecorder | undefined;
}

/**
 * The answer of proxy mode: the request forwarded to the real API (502/504 problems when it cannot be reached),
 * its answer passed back with `x-toolsim-source: http`, checked against the spec (`sl-violations` and a log line
 * when it does not match, or when the request is no operation of the spec), and recorded when recording.
 */
export async function proxyAnswer(
  host: ProxyHost,
  req: Request,
  rt: ApiRuntime,
  rel: string,
  search: string,
  query: URLSearchParams,
  tool: Tool | undefined,
  bytes: Uint8Array | undefined,
  extra: HeaderMap,
  head: boolean,
): Promise<Response> {
  const base = rt.api.upstream;
  if (base === undefined) {
    return problemResponse(problem(502, `${TOOLSIM}no-upstream`, "Bad Gateway", `No upstream URL for ${rt.api.name}: start serve with --upstream URL.`), extra, head);
  }
  const url = upstreamUrl(base, rel, search);
  let answer;
  try {
    answer = await forward(host.fetch ?? fetch, url, { method: req.method, headers: req.headers, body: bytes }, host.timeoutMs, host.signal);
  } catch (e) {
    // The same 502/504 problem as the real-API responder's (specs/respond/upstream.ts).
    const failure = upstreamProblem(e, base, host.timeoutMs);
    host.log(`toolsim serve: ${req.method} ${displayUrl(upstreamUrl(base, rel, ""))} failed: ${failure.detail ?? failure.title}`);
    return problemResponse(failure, extra, head);
  }
  const headers = new Headers(answer.headers);
  for (const [k, v] of Object.entries(extra)) headers.set(k, v);
  headers.set("x-toolsim-source", "http");
  const contentType = answer.headers.get("content-type");
  if (tool) {
    let body: unknown;
    const text = answer.body.length > 0 ? Buffer.from(answer.body).toString("utf8") : undefined;
    let issues: ValidationIssue[];
    if (text !== undefined && contentType !== null && /json/i.test(contentType)) {
      try {
        body = JSON.parse(text);
        issues = validateResponse(rt.api.catalog, tool, answer.status, body, contentType);
      } catch {
        issues = [{ location: ["response", "body"], code: "parse", message: "the upstream's JSON body does not parse", severity: "Error" }];
      }
    } else issues = validateResponse(rt.api.catalog, tool, answer.status, undefined, contentType ?? undefined).filter((i) => i.code === "status");
    if (issues.length > 0) {
      headers.set("sl-violations", violationsHeader(issues));
      host.log(`toolsim serve: ${req.method} ${rt.prefix}${rel} -> ${answer.status}: the real API's answer does not match the spec (${issues.length}): ${issues.slice(0, 3).map((i) => `${i.location.join(".")} ${i.message}`).join("; ")}`);
    }
  } else {
    headers.set("sl-violations", violationsHeader([{ location: ["request"], code: "no-operation", message: `${req.method} ${rel} is not an operation of the spec`, severity: "Warning" }]));
  }
  if (host.recorder) {
    const body = isTextual(contentType) ? Buffer.from(answer.body).toString("utf8") : { base64: Buffer.from(answer.body).toString("base64") };
    host.recorder.record(exchangeRecord(exchangeRequestOf(req, rt, rel, query, bodyText(bytes)), { status: answer.status, headers: answer.headers, body }, "http"));
  }
  const nullBody = head || answer.status === 204 || answer.status === 304 || answer.body.length === 0;
  return new Response(nullBody ? null : answer.body, { status: answer.status, headers });
}
