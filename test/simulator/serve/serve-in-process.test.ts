import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import { createServeApp } from "../../../simulator/serve/serve-app.js";
import { bundledToolsetsDir } from "../../../toolsets/load-toolset.js";

// The library's server without a socket: `createServeApp(...).fetch(request)` with a `Request` made in-process,
// which carries its body without a Content-Length header.

const BOOK = { isbn: "9780000000071", title: "A Field Guide to Urban Birds", authors: ["Hana Kowalczyk"], genre: "science-fiction", price: 12.5 };

async function bookstore(bodyLimit?: number): Promise<ReturnType<typeof createServeApp>> {
  const loaded = await loadServedApis([join(bundledToolsetsDir(), "bookstore.yaml")]);
  if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join("; "));
  return createServeApp({ apis: loaded.apis, log: () => undefined, ...(bodyLimit !== undefined ? { bodyLimit } : {}) });
}

describe("createServeApp(...).fetch with an in-process Request", () => {
  it("reads the body of a Request that has no Content-Length", async () => {
    const app = await bookstore();
    try {
      const request = new Request("http://toolsim.local/books", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "demo-key-123" }, body: JSON.stringify(BOOK) });
      expect(request.headers.get("content-length")).toBeNull();
      const response = await app.fetch(request);
      const body = (await response.json()) as Record<string, unknown>;
      expect(response.status, JSON.stringify(body)).toBe(201);
      expect(body).toMatchObject(BOOK);
      const read = await app.fetch(new Request(`http://toolsim.local/books/${String(body["id"])}`, { headers: { "x-api-key": "demo-key-123" } }));
      expect(await read.json()).toMatchObject({ id: body["id"], title: BOOK.title });
    } finally {
      await app.close();
    }
  });

  it("holds such a body to the body limit (413)", async () => {
    const app = await bookstore(64);
    try {
      const response = await app.fetch(new Request("http://toolsim.local/books", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "demo-key-123" }, body: JSON.stringify(BOOK) }));
      expect(response.status).toBe(413);
    } finally {
      await app.close();
    }
  });
});
