/**
 * A `Request` made in-process for the serve app (the MCP bridge's call of an operation), light to make: method,
 * URL, headers and a text body are plain fields, and the body is read from the string without a stream (as
 * @hono/node-server's requests read theirs from the socket). Anything else a `Request` has (its stream `body`,
 * `signal`, `clone()`, ...) comes from a real `Request` made the first time it is asked for.
 */
class InProcessRequest {
  #real: Request | undefined;
  #used = false;

  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: Headers,
    private readonly payload: string | undefined,
  ) {}

  /** The full `Request` (made once, on first use of what the light fields do not cover). */
  real(): Request {
    this.#real ??= new Request(this.url, { method: this.method, headers: this.headers, ...(this.payload !== undefined ? { body: this.payload } : {}) });
    return this.#real;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false);
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.real().body;
  }

  get signal(): AbortSignal {
    return this.real().signal;
  }

  /** The body's text, read once (as a `Request`'s). */
  private take(): string {
    if (this.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    return this.payload ?? "";
  }

  text(): Promise<string> {
    try {
      return Promise.resolve(this.take());
    } catch (e) {
      return Promise.reject(e as Error);
    }
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.text().then((text) => {
      const bytes = Buffer.from(text, "utf8");
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    });
  }

  bytes(): Promise<Uint8Array> {
    return this.arrayBuffer().then((b) => new Uint8Array(b));
  }

  json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown);
  }
}

// The rest of a Request, from the real one.
for (const key of ["cache", "credentials", "destination", "duplex", "integrity", "keepalive", "mode", "redirect", "referrer", "referrerPolicy"]) {
  Object.defineProperty(InProcessRequest.prototype, key, {
    get(this: InProcessRequest) {
      return (this.real() as unknown as Record<string, unknown>)[key];
    },
  });
}
for (const key of ["blob", "clone", "formData"]) {
  Object.defineProperty(InProcessRequest.prototype, key, {
    value(this: InProcessRequest) {
      if (this.bodyUsed) {
        const unusable = new TypeError("Body is unusable: Body has already been read");
        if (key === "clone") throw unusable;
        return Promise.reject(unusable);
      }
      return (this.real() as unknown as Record<string, () => unknown>)[key]?.();
    },
  });
}
Object.setPrototypeOf(InProcessRequest.prototype, Request.prototype);

/**
 * A light in-process `Request` (a `Request` to every reader: `instanceof Request` holds, also after
 * @hono/node-server has put its own subclass in place of the global `Request` when a server started).
 */
export function inProcessRequest(method: string, url: string, headers: Headers, body?: string): Request {
  if (Object.getPrototypeOf(InProcessRequest.prototype) !== globalThis.Request.prototype) Object.setPrototypeOf(InProcessRequest.prototype, globalThis.Request.prototype);
  return new InProcessRequest(method, url, headers, body) as unknown as Request;
}
