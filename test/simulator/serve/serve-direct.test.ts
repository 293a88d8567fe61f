import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import { createServeApp, type ServeOptions } from "../../../simulator/serve/serve-app.js";
import type { Responder } from "../../../specs/respond/responder.js";
import { bundledToolsetsDir } from "../../../toolsets/load-toolset.js";

// API requests skip the Hono app when none of it applies (no CORS, no admin or mounted path): what they are answered
// must not change with the road they take.

const KEY = { "x-api-key": "demo-key-123" };

async function bookstore(options: Partial<ServeOptions> = {}): Promise<{ app: ReturnType<typeof createServeApp>; logged: string[] }> {
  const loaded = await loadServedApis([join(bundledToolsetsDir(), "bookstore.yaml")]);
  if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join("; "));
  const logged: string[] = [];
  return { app: createServeApp({ apis: loaded.apis, log: (line) => logged.push(line), ...options }), logged };
}

const failing: Responder = {
  name: "failing",
  respond: () => {
    throw new TypeError("a responder bug");
  },
};

describe("serve: API requests with and without the Hono app", () => {
  for (const cors of [false, true]) {
    it(`a bug while answering is a 500 problem, logged with its stack, and the server answers on (cors ${cors})`, async () => {
      const { app, logged } = await bookstore({ cors, responders: [failing] });
      try {
        const response = await app.fetch(new Request("http://toolsim.local/books/bk-1001", { headers: KEY }));
        expect(response.status).toBe(500);
        expect(response.headers.get("content-type")).toBe("application/problem+json");
        expect(await response.json()).toMatchObject({ status: 500, type: "https://toolsim.dev/problems/internal-error" });
        expect(logged.some((l) => l.includes("internal error: TypeError: a responder bug") && l.includes("    at "))).toBe(true);
        const health = await app.fetch(new Request("http://127.0.0.1/__toolsim/health"));
        expect(health.status).toBe(200);
      } finally {
        await app.close();
      }
    });
  }

  it("a percent-encoded admin path is still the admin route", async () => {
    const { app } = await bookstore();
    try {
      for (const path of ["/__toolsim/health", "/%5F%5Ftoolsim/health"]) {
        const response = await app.fetch(new Request(`http://127.0.0.1${path}`));
        expect(response.status, path).toBe(200);
        expect(await response.json(), path).toMatchObject({ status: "ok" });
      }
    } finally {
      await app.close();
    }
  });

  it("HEAD is answered as GET without a body, with or without CORS", async () => {
    for (const cors of [false, true]) {
      const { app } = await bookstore({ cors });
      try {
        const get = await app.fetch(new Request("http://toolsim.local/books/bk-1001", { headers: KEY }));
        const head = await app.fetch(new Request("http://toolsim.local/books/bk-1001", { method: "HEAD", headers: KEY }));
        expect(head.status).toBe(get.status);
        expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
        expect(await head.text()).toBe("");
        expect((await get.json()) as unknown).toMatchObject({ id: "bk-1001" });
      } finally {
        await app.close();
      }
    }
  });
});
