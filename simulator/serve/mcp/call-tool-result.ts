import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The `_meta` keys of toolsim's tool results: the simulated HTTP status and where the answer came from. */
export const RESULT_META = { status: "dev.toolsim/status", source: "dev.toolsim/source", violations: "dev.toolsim/violations" } as const;

/** A simulated API's answer to one call, as a tool result is made from it. */
export interface ToolAnswer {
  status: number;
  /** The parsed JSON body, the text of a textual body, base64 of a binary one (see `binary`), or undefined. */
  body: unknown;
  contentType?: string;
  /** Which responder answered (`state`, `schema`, `validation`, ...). */
  source?: string;
  /** The body is base64 of bytes (an image, a file). */
  binary?: boolean;
  /** The validation issues of a refused call (serve's `sl-violations`), kept when the API's error body has its own shape. */
  violations?: unknown[];
  /** The body as it was sent, when it was JSON (its text block then need not serialize it again). */
  text?: string;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whether an HTTP status is a failed call (a client or server error, or no answer at all). */
export function isErrorStatus(status: number): boolean {
  return status >= 400 || status < 100;
}

/**
 * An answer as MCP's `CallToolResult`: the body as one JSON text block (text as it is, images as image blocks),
 * `structuredContent` for a successful JSON object body, and `isError: true` with the problem details for an
 * error status (never a protocol error). A tool that declares an output schema and gets a success body that is
 * not an object (the real API broke its spec) is an error result that says so, since clients reject such a
 * result. An operation that declares its own error shape answers in it (as over REST); `_meta` carries the HTTP
 * status, the answer's source and, for a refused call, its validation issues.
 */
export function callToolResult(answer: ToolAnswer, options: { outputSchema?: boolean } = {}): CallToolResult {
  const meta = {
    [RESULT_META.status]: answer.status,
    ...(answer.source !== undefined ? { [RESULT_META.source]: answer.source } : {}),
    ...(answer.violations !== undefined && answer.violations.length > 0 ? { [RESULT_META.violations]: answer.violations } : {}),
  };
  const isError = isErrorStatus(answer.status);
  const json = answer.contentType === undefined || /json/i.test(answer.contentType);
  const body = answer.body;
  if (!isError && options.outputSchema === true && !(json && isObject(body))) {
    const problem = {
      type: "https://toolsim.dev/problems/invalid-response",
      title: "Invalid response",
      status: 502,
      detail: `The API answered ${answer.status} with ${body === undefined || body === "" ? "no body" : "a body that is not a JSON object"}, but the tool declares an output schema.`,
    };
    return { content: [{ type: "text", text: JSON.stringify(problem) }], isError: true, _meta: meta };
  }
  let content: CallToolResult["content"];
  if (body === undefined || body === null || body === "") {
    content = [{ type: "text", text: isError ? `HTTP ${answer.status}` : `No content (HTTP ${answer.status}).` }];
    if (body === null && json) content = [{ type: "text", text: "null" }];
  } else if (answer.binary === true && typeof body === "string" && /^(image|audio)\//i.test(answer.contentType ?? "")) {
    const mimeType = (answer.contentType ?? "").split(";")[0]?.trim() ?? "";
    content = [/^image\//i.test(mimeType) ? { type: "image", data: body, mimeType } : { type: "audio", data: body, mimeType }];
  } else {
    content = [{ type: "text", text: typeof body === "string" && (!json || answer.binary === true) ? body : (answer.text ?? JSON.stringify(body)) }];
  }
  return {
    content,
    ...(!isError && json && isObject(body) ? { structuredContent: body } : {}),
    ...(isError ? { isError: true } : {}),
    _meta: meta,
  };
}
