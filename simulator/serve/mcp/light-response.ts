/** What the MCP bridge reads of a response: its text (when at hand without a stream) and its headers. */
export interface ResponseParts {
  /** The body's text, when the response holds it as a string; undefined otherwise (then read with `text()`). */
  text: string | undefined;
  header(name: string): string | null;
}

let cacheSymbol: symbol | undefined;

/** @hono/node-server's light `Response` keeps `[status, body, headers init]` under a `cache` symbol. */
function cacheOf(response: Response): unknown[] | undefined {
  if (cacheSymbol === undefined) {
    for (const symbol of Object.getOwnPropertySymbols(response)) if (symbol.description === "cache") cacheSymbol = symbol;
    if (cacheSymbol === undefined) return undefined;
  }
  const cached = (response as unknown as Record<symbol, unknown>)[cacheSymbol];
  return Array.isArray(cached) ? cached : undefined;
}

/**
 * The text and headers of a response, read from @hono/node-server's light `Response` as it keeps them (a string
 * body, a plain headers object) without building a stream or a `Headers`; any other response is read the
 * standard way.
 */
export function responseParts(response: Response): ResponseParts {
  const cached = cacheOf(response);
  const text = cached !== undefined && typeof cached[1] === "string" ? cached[1] : undefined;
  const init = cached?.[2];
  if (cached !== undefined && typeof init === "object" && init !== null && !(init instanceof Headers) && !Array.isArray(init)) {
    const plain = init as Record<string, unknown>;
    return {
      text,
      header(name) {
        const direct = plain[name];
        if (typeof direct === "string") return direct;
        for (const key of Object.keys(plain)) if (key.toLowerCase() === name) return String(plain[key]);
        return null;
      },
    };
  }
  // No headers object at hand (none given, or a Headers): the response's own (text/plain when it has a body).
  return { text, header: (name) => response.headers.get(name) };
}
