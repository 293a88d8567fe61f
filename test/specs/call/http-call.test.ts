import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../specs/catalog/load-catalog.js";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import { acceptsMediaType, argumentsFromHttp, requestMediaTypes, validateHttpCall, type HttpCallInput } from "../../../specs/call/http-call.js";
import { OperationRouter } from "../../../specs/call/operation-router.js";
import { securityRequirements } from "../../../specs/catalog/security-requirements.js";

const schema = (type: string, extra: object = {}): object => ({ type, ...extra });

async function catalogOf(paths: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Catalog> {
  const loaded = await loadCatalog({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths, ...extra });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.value;
}

const ok = { "200": { description: "ok" } };

function input(parts: Partial<HttpCallInput> & { headers?: Record<string, string> } = {}): HttpCallInput {
  const headers = parts.headers ?? {};
  return { pathParams: parts.pathParams ?? {}, query: parts.query ?? new URLSearchParams(), header: (n) => headers[n], ...(parts.body !== undefined ? { body: parts.body } : {}) };
}

describe("OperationRouter", () => {
  it("prefers literal segments, then patterned ones, then parameters, with backtracking", async () => {
    const catalog = await catalogOf({
      "/files/{name}": { get: { operationId: "byName", parameters: [{ name: "name", in: "path", required: true, schema: schema("string") }], responses: ok } },
      "/files/{id}.json": { get: { operationId: "asJson", parameters: [{ name: "id", in: "path", required: true, schema: schema("string") }], responses: ok } },
      "/files/latest": { get: { operationId: "latest", responses: ok } },
      "/geo/{position}.{ext}": {
        get: { operationId: "reverseGeocode", parameters: [{ name: "position", in: "path", required: true, schema: schema("string") }, { name: "ext", in: "path", required: true, schema: schema("string", { enum: ["json", "xml"] }) }], responses: ok },
      },
      "/files/latest/meta": { put: { operationId: "putMeta", responses: ok } },
      "/files/{name}/meta": { get: { operationId: "getMeta", parameters: [{ name: "name", in: "path", required: true, schema: schema("string") }], responses: ok } },
    });
    const router = OperationRouter.of(catalog);
    const name = (m: ReturnType<OperationRouter["match"]>): string => (m.kind === "match" ? `${m.tool.name} ${JSON.stringify(m.params)}` : m.kind);
    expect(name(router.match("GET", "/files/latest"))).toBe("latest {}");
    // A parameter's text may hold the literal that follows it: the last literal separates (an extension comes last).
    expect(name(router.match("GET", "/files/archive.tar.json"))).toBe('asJson {"id":"archive.tar"}');
    expect(name(router.match("GET", "/geo/37.33,-121.89.json"))).toBe('reverseGeocode {"position":"37.33,-121.89","ext":"json"}');
    expect(name(router.match("GET", "/files/report.json"))).toBe('asJson {"id":"report"}');
    expect(name(router.match("GET", "/files/a%20b"))).toBe('byName {"name":"a b"}');
    expect(name(router.match("GET", "/files/latest/"))).toBe("latest {}");
    // The literal branch (/files/latest/meta) has no GET: the router backtracks to the parameter branch.
    expect(name(router.match("GET", "/files/latest/meta"))).toBe('getMeta {"name":"latest"}');
    expect(router.match("DELETE", "/files/latest/meta")).toEqual({ kind: "method-not-allowed", allow: ["PUT", "GET"] });
    expect(router.match("GET", "/nothing")).toEqual({ kind: "not-found" });
    expect(router.match("GET", "/files//meta")).toEqual({ kind: "not-found" });
    expect(name(router.match("HEAD", "/files/latest"))).toBe("latest {}");
  });
});

describe("argumentsFromHttp and validateHttpCall", () => {
  it("deserializes query, path, header and cookie parameters by style", async () => {
    const catalog = await catalogOf({
      "/items/{ids}": {
        get: {
          operationId: "getItems",
          parameters: [
            { name: "ids", in: "path", required: true, schema: { type: "array", items: schema("integer") } },
            { name: "tag", in: "query", schema: { type: "array", items: schema("string") } },
            { name: "csv", in: "query", explode: false, schema: { type: "array", items: schema("string") } },
            { name: "pipes", in: "query", style: "pipeDelimited", schema: { type: "array", items: schema("string") } },
            { name: "filter", in: "query", style: "deepObject", schema: { type: "object", properties: { min: schema("integer"), max: schema("integer") } } },
            { name: "page", in: "query", schema: { type: "object", properties: { size: schema("integer"), number: schema("integer") } } },
            { name: "X-Trace", in: "header", schema: schema("string") },
            { name: "X-Flags", in: "header", schema: { type: "array", items: schema("string") } },
            { name: "theme", in: "cookie", schema: schema("string") },
          ],
          responses: ok,
        },
      },
    });
    const tool = catalog.get("getItems");
    if (!tool) throw new Error("no tool");
    const query = new URLSearchParams("tag=a&tag=b&csv=x,y&pipes=p|q&filter[min]=1&filter[max]=9&size=10&number=2&ignored=1");
    const { args, issues } = argumentsFromHttp(catalog, tool, input({ pathParams: { ids: "1,2,3" }, query, headers: { "x-trace": "t-1", "x-flags": "a, b", cookie: "theme=dark; other=1" } }));
    expect(issues).toEqual([]);
    expect(args).toEqual({
      ids: ["1", "2", "3"],
      tag: ["a", "b"],
      csv: ["x", "y"],
      pipes: ["p", "q"],
      filter: { min: "1", max: "9" },
      page: { size: "10", number: "2" },
      "X-Trace": "t-1",
      "X-Flags": ["a", "b"],
      theme: "dark",
    });
    const checked = validateHttpCall(catalog, tool, input({ pathParams: { ids: "1,2,3" }, query }));
    expect(checked.ok && checked.value.args).toMatchObject({ ids: [1, 2, 3], filter: { min: 1, max: 9 }, page: { size: 10, number: 2 } });
  });

  it("spreads a flat body into arguments, wraps others, and locates body errors in the body", async () => {
    const pet = { type: "object", required: ["name"], additionalProperties: false, properties: { name: schema("string"), age: schema("integer") } };
    const catalog = await catalogOf({
      "/pets/{id}": {
        put: {
          operationId: "putPet",
          parameters: [{ name: "id", in: "path", required: true, schema: schema("integer") }],
          requestBody: { required: true, content: { "application/json": { schema: pet }, "application/merge-patch+json": { schema: pet } } },
          responses: ok,
        },
      },
      "/tags": { post: { operationId: "postTags", requestBody: { content: { "application/json": { schema: { type: "array", items: schema("string") } } } }, responses: ok } },
    });
    const put = catalog.get("putPet");
    const tags = catalog.get("postTags");
    if (!put || !tags) throw new Error("no tool");
    expect(requestMediaTypes(catalog, put)).toEqual(["application/json", "application/merge-patch+json"]);
    expect(acceptsMediaType(requestMediaTypes(catalog, put), "application/json; charset=utf-8")).toBe(true);
    expect(acceptsMediaType(["application/*"], "application/xml")).toBe(true);
    expect(acceptsMediaType(requestMediaTypes(catalog, put), "text/plain")).toBe(false);

    const good = validateHttpCall(catalog, put, input({ pathParams: { id: "7" }, body: { name: "Tom", age: 2 } }));
    expect(good.ok && good.value.body).toEqual({ name: "Tom", age: 2 });
    expect(good.ok && good.value.args["id"]).toBe(7);

    const bad = validateHttpCall(catalog, put, input({ pathParams: { id: "x" }, body: { age: "old", colour: "red", id: 3 } }));
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.problem.status).toBe(422);
    const where = bad.errors.map((e) => e.location.join("."));
    expect(where).toEqual(expect.arrayContaining(["path.id", "body.id", "body.colour", "body.name", "body.age"]));
    expect(where.some((w) => w.startsWith("arguments"))).toBe(false);

    const notObject = validateHttpCall(catalog, put, input({ pathParams: { id: "1" }, body: ["Tom"] }));
    expect(!notObject.ok && notObject.errors[0]).toMatchObject({ location: ["body"], code: "type" });

    const wrapped = validateHttpCall(catalog, tags, input({ body: ["a", 1] }));
    expect(!wrapped.ok && wrapped.errors.map((e) => e.location.join("."))).toEqual(["body.1"]);
    expect(validateHttpCall(catalog, tags, input({ body: ["a"] })).ok).toBe(true);
  });
});

describe("securityRequirements", () => {
  it("reads an operation's alternatives with their scopes, the document's by default, and public operations", async () => {
    const catalog = await catalogOf(
      {
        "/a": { get: { operationId: "a", responses: ok } },
        "/b": { get: { operationId: "b", security: [], responses: ok } },
        "/c": { get: { operationId: "c", security: [{ OAuth: ["read", "write"] }, { Key: [], Bearer: [] }], responses: ok } },
        "/d": { get: { operationId: "d", security: [{ Key: [] }, {}], responses: ok } },
        "/e": { get: { operationId: "e", security: [{ Undeclared: [] }], responses: ok } },
      },
      {
        security: [{ Key: [] }],
        components: {
          securitySchemes: {
            Key: { type: "apiKey", in: "query", name: "api_key" },
            Bearer: { type: "http", scheme: "Bearer" },
            OAuth: { type: "oauth2", flows: { implicit: { authorizationUrl: "https://x/auth", scopes: { read: "r", write: "w" } } } },
          },
        },
      },
    );
    const req = (name: string): unknown => securityRequirements(catalog, catalog.get(name) ?? (undefined as never));
    expect(req("a")).toEqual([{ schemes: [{ scheme: { name: "Key", type: "apiKey", in: "query", paramName: "api_key" }, scopes: [] }] }]);
    expect(req("b")).toEqual([]);
    expect(req("c")).toEqual([
      { schemes: [{ scheme: { name: "OAuth", type: "oauth2" }, scopes: ["read", "write"] }] },
      { schemes: [{ scheme: { name: "Key", type: "apiKey", in: "query", paramName: "api_key" }, scopes: [] }, { scheme: { name: "Bearer", type: "http", scheme: "bearer" }, scopes: [] }] },
    ]);
    expect(req("d")).toEqual([]);
    expect(req("e")).toEqual([]);
  });
});

describe("arrays of objects over HTTP: the request toHttpRequest writes reads back as the same arguments", () => {
  it("query (exploded and not), header and path arrays whose items are objects or arrays", async () => {
    const { toHttpRequest } = await import("../../../specs/call/http-request.js");
    const filter = { $ref: "#/components/schemas/Filter" };
    const catalog = await catalogOf(
      {
        "/things/{keys}": {
          get: {
            operationId: "listThings",
            parameters: [
              { name: "keys", in: "path", required: true, schema: { type: "array", items: { type: "array", items: { type: "integer" } } } },
              { name: "filters", in: "query", schema: { type: "array", items: filter } },
              { name: "order", in: "query", style: "form", explode: false, schema: { type: "array", items: filter } },
              { name: "X-Scopes", in: "header", schema: { type: "array", items: filter } },
              { name: "tags", in: "query", schema: { type: "array", items: { type: "string" } } },
            ],
            responses: ok,
          },
        },
      },
      { components: { schemas: { Filter: { type: "object", required: ["field"], properties: { field: { type: "string" }, value: { type: "string" } } } } } },
    );
    const tool = catalog.get("listThings");
    if (!tool) throw new Error("no tool");
    const args = {
      keys: [[1, 2], [3]],
      filters: [{ field: "state", value: "open, closed" }, { field: "owner", value: "me" }],
      order: [{ field: "date", value: "desc" }],
      "X-Scopes": [{ field: "a" }, { field: "b", value: "c" }],
      tags: ["x", "y"],
    };
    const http = toHttpRequest(tool, args);
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(http.query)) for (const x of Array.isArray(v) ? v : [v]) query.append(k, x);
    const segment = decodeURIComponent(http.path.split("/").pop() as string);
    const checked = validateHttpCall(catalog, tool, input({ pathParams: { keys: segment }, query, headers: Object.fromEntries(Object.entries(http.headers).map(([k, v]) => [k.toLowerCase(), v])) }));
    expect(checked.ok, JSON.stringify(checked.ok ? null : checked.errors)).toBe(true);
    if (checked.ok) expect(checked.value.args).toEqual(args);
  });
});

describe("a parameter that is one value or a list (oneOf a string and an array)", () => {
  it("takes one value and several, as the spec means, and still refuses what fits neither", async () => {
    const responseTime = { name: "responseTime", in: "query", schema: { oneOf: [{ type: "string", minLength: 1 }, { type: "array", items: { type: "string" } }] } };
    const count = { name: "count", in: "query", schema: { oneOf: [{ type: "integer" }, { type: "array", items: { type: "integer" } }] } };
    const catalog = await catalogOf({ "/responses": { get: { operationId: "listResponses", parameters: [responseTime, count], responses: ok } } });
    const tool = catalog.get("listResponses");
    if (!tool) throw new Error("no tool");
    const check = (q: string): boolean => validateHttpCall(catalog, tool, input({ query: new URLSearchParams(q) })).ok;
    expect(check("responseTime=__gte__2017-03-14T07:30:00Z__")).toBe(true);
    expect(check("responseTime=a&responseTime=b")).toBe(true);
    expect(check("count=3")).toBe(true);
    expect(check("count=3&count=4")).toBe(true);
    expect(check("count=three")).toBe(false);
  });
});

describe("numbers sent as text", () => {
  it("are decimal numbers: hex, binary, Infinity and 1e309 are refused where they stand, 5, -2.5, +5 and 1e3 taken", async () => {
    const height = { name: "height", in: "query", schema: { type: "integer" } };
    const ratio = { name: "ratio", in: "query", schema: { type: "number" } };
    const ids = { name: "ids", in: "query", schema: { type: "array", items: { type: "integer" } } };
    const catalog = await catalogOf({
      "/barcode": { get: { operationId: "encode", parameters: [height, ratio, ids], responses: ok } },
      "/messages": { post: { operationId: "deleteMessage", requestBody: { content: { "application/json": { schema: { type: "object", properties: { message_id: { type: "integer" } } } } } }, responses: ok } },
    });
    const tool = catalog.get("encode");
    if (!tool) throw new Error("no tool");
    const errors = (q: string): string[] => {
      const r = validateHttpCall(catalog, tool, input({ query: new URLSearchParams(q) }));
      return r.ok ? [] : r.errors.map((e) => `${e.location.join(".")} ${e.message}`);
    };
    for (const bad of ["0x10", "0b11", "Infinity", "-Infinity", "1e309", "NaN"]) expect(errors(`height=${encodeURIComponent(bad)}`), bad).toEqual(["query.height must be integer"]);
    expect(errors("ratio=0x1")).toEqual(["query.ratio must be number"]);
    expect(errors("ids=1&ids=0x2")).toEqual(["query.ids must be array"]);
    for (const good of ["5", "-2", "+5", "1e3"]) expect(errors(`height=${encodeURIComponent(good)}`), good).toEqual([]);
    expect(errors("ratio=-2.5&ids=1&ids=2")).toEqual([]);
    const del = catalog.get("deleteMessage");
    if (!del) throw new Error("no tool");
    const infinite = validateHttpCall(catalog, del, input({ body: JSON.parse('{"message_id":1e309}') }));
    expect(infinite.ok).toBe(false);
  });
});
