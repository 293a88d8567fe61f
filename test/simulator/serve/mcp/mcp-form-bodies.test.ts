import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { buildCatalog } from "../../../../specs/catalog/catalog.js";
import { loadSpec } from "../../../../specs/load/load-spec.js";
import { formFields, multipartBody } from "../../../../specs/call/form-fields.js";
import { startServe, type RunningServe } from "../../../../simulator/serve/start-serve.js";

// An operation that takes only a form (multipart or url-encoded) is called over MCP as a form: its fields reach
// the operation's validation and answer (the bridge used to send JSON text under a multipart type, a 400).

const running: RunningServe[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

function formSpec(mediaType: string): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Uploads", version: "1" },
    components: { schemas: { Entity: { type: "object", required: ["offset"], properties: { offset: { type: "integer" }, kind: { type: "string" } } } } },
    paths: {
      "/documents": {
        post: {
          operationId: "uploadDocument",
          requestBody: {
            required: true,
            content: {
              [mediaType]: {
                schema: {
                  type: "object",
                  required: ["title", "pages"],
                  properties: {
                    title: { type: "string" },
                    pages: { type: "integer" },
                    tags: { type: "array", items: { type: "string" } },
                    meta: { type: "object", properties: { lang: { type: "string" } } },
                    // Items and a value of no stated type: a `$ref`'d object, an `anyOf` of objects (Telegram's `reply_markup`).
                    entities: { type: "array", items: { $ref: "#/components/schemas/Entity" } },
                    markup: { anyOf: [{ type: "object", required: ["keyboard"], properties: { keyboard: { type: "array", items: { type: "string" } } } }, { type: "object", required: ["remove"], properties: { remove: { type: "boolean" } } }] },
                  },
                },
              },
            },
          },
          responses: {
            "201": {
              description: "Stored.",
              content: { "application/json": { schema: { type: "object", required: ["title", "pages"], properties: { id: { type: "integer" }, title: { type: "string" }, pages: { type: "integer" } } } } },
            },
          },
        },
      },
    },
  };
}

async function callOverMcp(mediaType: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const loaded = await loadSpec(formSpec(mediaType));
  if (!loaded.ok) throw new Error("spec");
  const server = await startServe({ apis: [{ name: "uploads", catalog: buildCatalog(loaded.value) }], port: 0, mcp: true, log: () => undefined });
  running.push(server);
  const client = new Client({ name: "form-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.mcpUrl as string)));
  try {
    const result = await client.callTool({ name: "uploadDocument", arguments: args });
    const content = result.content as Array<{ type: string; text?: string }>;
    return { isError: result.isError === true, text: content.map((c) => c.text ?? "").join("\n") };
  } finally {
    await client.close();
  }
}

describe("MCP tools of form operations", () => {
  for (const mediaType of ["multipart/form-data", "application/x-www-form-urlencoded"]) {
    it(`sends a ${mediaType} operation's arguments as its form: the fields are validated and answered`, async () => {
      const ok = await callOverMcp(mediaType, { title: "Annual report", pages: 12, tags: ["finance", "2025"], meta: { lang: "en" }, entities: [{ offset: 0, kind: "bold" }, { offset: 4 }], markup: { keyboard: ["yes", "no"] } });
      expect(ok.isError, ok.text).toBe(false);
      const one = await callOverMcp(mediaType, { title: "One entity", pages: 1, entities: [{ offset: 2 }], markup: { remove: true } });
      expect(one.isError, one.text).toBe(false);
      expect(ok.text).toContain('"title":"Annual report"');
      expect(ok.text).toContain('"pages":12');
      // A missing required field is the operation's own validation error, not a body that cannot be read.
      const missing = await callOverMcp(mediaType, { title: "No pages" });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/pages/);
      expect(missing.text).not.toMatch(/not valid multipart|cannot be read/);
    });
  }

  it("writes a multipart body with a boundary no field contains, the same for the same fields", () => {
    const fields = formFields({ a: "x", list: [1, 2], obj: { k: "v" }, gone: undefined, tricky: "--toolsim-form-boundary" });
    expect(fields).toEqual([["a", "x"], ["list", "1"], ["list", "2"], ["obj", '{"k":"v"}'], ["tricky", "--toolsim-form-boundary"]]);
    const body = multipartBody(fields);
    expect(body.contentType).toBe("multipart/form-data; boundary=toolsim-form-boundary-x");
    expect(body.text.startsWith("--toolsim-form-boundary-x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n")).toBe(true);
    expect(body.text.endsWith("--toolsim-form-boundary-x--\r\n")).toBe(true);
    expect(multipartBody(fields)).toEqual(body);
  });
});
