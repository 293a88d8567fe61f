/** Prism (`@stoplight/prism-http`), the executor's peer: its loader and its in-process HTTP client. */
import { createLogger } from "@stoplight/prism-core";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { createClientFromOperations } from "@stoplight/prism-http/dist/client.js";
import type { HttpRequest } from "../specs/call/http-request.js";

/** The answer of one Prism request: its status, or the status of the problem it threw. */
export interface PrismAnswer {
  status: number;
  body: unknown;
}

/** The part of Prism's client the bench uses. */
export interface PrismClient {
  call(request: PreparedRequest): Promise<PrismAnswer>;
}

/** A request in the form Prism's client takes (built once, before timing). */
export interface PreparedRequest {
  url: string;
  input: { method: string; headers: Record<string, string>; body?: unknown };
}

/** Prism's loader: dereferences the spec and transforms every operation. */
export async function prismLoad(path: string): Promise<unknown[]> {
  return getHttpOperationsFromSpec(path);
}

/**
 * Prism's in-process client on a spec's operations: request validation, no security check, static mocks
 * (examples, else a static sample of the schema) unless `dynamic` (json-schema-faker on every call).
 */
export async function createPrismClient(path: string, options: { dynamic?: boolean } = {}): Promise<PrismClient> {
  const operations = await getHttpOperationsFromSpec(path);
  const logger = createLogger("bench", { level: "silent" });
  const client = createClientFromOperations(operations, {
    mock: { dynamic: options.dynamic ?? false },
    validateRequest: true,
    validateResponse: false,
    checkSecurity: false,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false,
    logger,
  });
  return {
    async call(request: PreparedRequest): Promise<PrismAnswer> {
      try {
        // The client's types want its own HttpMethod union; the method comes from the spec.
        const out = await client.request(request.url, request.input as Parameters<typeof client.request>[1]);
        return { status: out.status, body: out.data };
      } catch (e) {
        // With no 422/400 response in the spec Prism throws its problem (its HTTP server would send it).
        const status = (e as { status?: unknown }).status;
        if (typeof status === "number") return { status, body: e };
        throw e;
      }
    },
  };
}

/** The Prism form of a tool call's HTTP request: URL with query string, lower-case method, JSON body. */
export function prepareRequest(request: HttpRequest): PreparedRequest {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    if (Array.isArray(value)) for (const v of value) search.append(name, v);
    else search.append(name, value);
  }
  const qs = search.toString();
  const input: PreparedRequest["input"] = { method: request.method.toLowerCase(), headers: { ...request.headers } };
  if (request.body !== undefined) {
    input.body = request.body;
    input.headers["content-type"] ??= request.contentType ?? "application/json";
  }
  return { url: qs === "" ? request.path : `${request.path}?${qs}`, input };
}
