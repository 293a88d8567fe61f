import { redactBody, redactQuery, redactRequestHeaders, responseHeadersOf, secretValues, type HttpExchange } from "./http-cassette.js";

/** The request side of an exchange to record, as the server received it. */
export interface ExchangeRequest {
  /** The served API's name. */
  api: string;
  req: Request;
  /** The path below the API's prefix. */
  rel: string;
  query: URLSearchParams;
  /** The body as text (null: none). */
  text: string | null;
  /** Lower-case names that carry credentials (the API's security schemes). */
  secretNames: ReadonlySet<string>;
  /** Values that are secret wherever they appear (the credentials the API accepts). */
  known?: readonly string[];
}

/** The response side of an exchange to record: its body as text, or as bytes when it is not textual. */
export interface ExchangeResponse {
  status: number;
  headers: Headers;
  body: string | { base64: string };
}

/**
 * An exchange as `serve --record` writes it, with secrets redacted: secret headers and query parameters, the
 * values of secret fields of JSON and url-encoded bodies (request and response: `webhookToken`, `client_secret`,
 * `x-api-key`...), and every such value, and the API's credentials, wherever else they appear in the exchange.
 */
export function exchangeRecord(request: ExchangeRequest, response: ExchangeResponse, source: string): HttpExchange {
  const { req, query, text, secretNames } = request;
  const contentType = req.headers.get("content-type");
  const secrets = [...secretValues(req.headers, query, secretNames, { text, contentType }), ...(request.known ?? [])];
  const body = response.body;
  return {
    api: request.api,
    request: {
      method: req.method,
      path: request.rel,
      query: redactQuery(query, secretNames),
      headers: redactRequestHeaders(req.headers, secretNames),
      body: text === null ? null : redactBody(text, contentType, secrets, secretNames),
    },
    response: {
      status: response.status,
      headers: responseHeadersOf(response.headers, secrets),
      ...(typeof body === "string" ? { body: body === "" ? "" : redactBody(body, response.headers.get("content-type"), secrets, secretNames) } : { body: body.base64, bodyEncoding: "base64" as const }),
    },
    source,
    recordedAt: new Date().toISOString(),
  };
}
