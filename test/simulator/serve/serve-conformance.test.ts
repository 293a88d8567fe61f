import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { connect } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildCatalog } from "../../../specs/catalog/catalog.js";
import { loadSpec } from "../../../specs/load/load-spec.js";
import { validateCall } from "../../../specs/call/validate-call.js";
import { toHttpRequest } from "../../../specs/call/http-request.js";
import { loadServedApis } from "../../../simulator/serve/load-apis.js";
import type { ServedApi } from "../../../simulator/serve/serve-app.js";
import { startServe, type RunningServe, type StartServeOptions } from "../../../simulator/serve/start-serve.js";
import { MAX_VIOLATIONS_HEADER } from "../../../simulator/serve/violations-header.js";
import { parseRate } from "../../../simulator/serve/rate-limits.js";

/**
 * HTTP answers that match the spec, each from the input a spec-driven fuzzer sent: toolsim's own 400/401/422/429 in
 * the media type the operation declares (problem+json only where it declares nothing), an `sl-violations` header
 * that stays ASCII and short (a non-Latin-1 enum, a 1,000-value enum), undeclared properties allowed where the
 * schema allows them, url-encoded, multipart and XML bodies parsed and validated, deep JSON and large bodies
 * refused with 400/413, and `constructor`, `toString` and `__proto__` taken as the names they are.
 */

const SPEC = join(fileURLToPath(new URL("../../fixtures/serve", import.meta.url)), "conformance.openapi.yaml");
const tmp = mkdtempSync(join(tmpdir(), "toolsim-conformance-"));
let api: ServedApi;
let enumApi: ServedApi;

/** A spec whose query parameter has a 1,000-value enum of long values (Prism-style header: 26 KB). */
function bigEnumSpec(): string {
  const values = Array.from({ length: 1000 }, (_, i) => `category-value-number-${String(i).padStart(4, "0")}`);
  const doc = {
    openapi: "3.0.3",
    info: { title: "Big enum", version: "1" },
    paths: {
      "/items": {
        get: {
          operationId: "listItems",
          parameters: [{ name: "category", in: "query", schema: { type: "string", enum: values } }],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "array", items: { type: "string" } } } } } },
        },
      },
    },
  };
  const path = join(tmp, "big-enum.json");
  writeFileSync(path, JSON.stringify(doc));
  return path;
}

beforeAll(async () => {
  const loaded = await loadServedApis([SPEC]);
  const big = await loadServedApis([bigEnumSpec()]);
  if (!loaded.ok || !big.ok) throw new Error("fixtures do not load");
  api = loaded.apis[0] as ServedApi;
  enumApi = big.apis[0] as ServedApi;
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const running: RunningServe[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start(options: Partial<StartServeOptions> = {}): Promise<RunningServe> {
  const server = await startServe({ apis: [api], port: 0, log: () => undefined, ...options });
  running.push(server);
  return server;
}

interface Answer {
  status: number;
  type: string | null;
  text: string;
  body: any;
  headers: Headers;
}

async function send(s: RunningServe, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(`${s.url}${path}`, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, type: res.headers.get("content-type"), text, body, headers: res.headers };
}

const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const violations = (h: Headers): Array<{ location: string[]; message: string; code?: string }> => JSON.parse(h.get("sl-violations") ?? "[]");

describe("toolsim serve: error answers in the media type the operation declares", () => {
  it("a 401 the operation declares as application/json (problem details fit its schema) is application/json, not problem+json", async () => {
    const s = await start();
    const r = await send(s, "/notes/1");
    expect(r.status).toBe(401);
    expect(r.type).toBe("application/json");
    expect(r.body).toMatchObject({ status: 401, title: "Invalid security scheme used" });
  });

  it("a 400 declared as application/json with its own error schema answers in that schema", async () => {
    const s = await start();
    const r = await send(s, "/notes", json({ title: "" }));
    expect(r.status).toBe(400);
    expect(r.type).toBe("application/json");
    expect(typeof r.body.message).toBe("string");
    expect(r.body.message).toContain("title");
  });

  it("Prefer: code= outside 200-599 is a status no answer has: a 404 naming it, even where `default` would take any code", async () => {
    const s = await start();
    for (const code of ["999", "100", "099", "600", "000"]) {
      const r = await send(s, "/notes", { headers: { prefer: `code=${code}` } });
      expect(r.status, code).toBe(404);
      expect(r.body.detail).toContain(String(Number(code)));
    }
    expect((await send(s, "/notes", { headers: { prefer: "code=503" } })).status).toBe(503);
    expect((await fetch(`${s.url}/__toolsim/health`)).status).toBe(200);
  });

  it("an invalid request of an operation that declares only `default` (application/json) gets its 422 in that media type", async () => {
    const s = await start();
    const r = await send(s, "/notes?lang=klingon");
    expect(r.status).toBe(422);
    expect(r.type).toBe("application/json");
    expect(r.body.message).toContain("lang");
  });

  it("XML-only and text-only declarations get XML and text; nothing declared gets problem+json", async () => {
    const s = await start();
    const xml = await send(s, "/legacy", { method: "POST", headers: { "content-type": "application/xml" }, body: "<closed><name>a</name><extra>1</extra></closed>" });
    expect(xml.status).toBe(400);
    expect(xml.type).toBe("application/xml");
    expect(xml.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><problem><type>.*<status>400<\/status>.*extra.*<\/problem>$/);
    const text = await send(s, "/documents/much-too-long", { method: "PUT", headers: { "content-type": "text/plain" }, body: "hello" });
    expect(text.status).toBe(400);
    expect(text.type).toBe("text/plain");
    expect(text.text).toMatch(/^Invalid request: .*docId/);
    const none = await send(s, "/closed", json({}));
    expect(none.status).toBe(422);
    expect(none.type).toBe("application/problem+json");
  });

  it("a 429 of the rate limit or quota follows the same rule: the declared media type (`default`), problem+json where nothing is declared", async () => {
    const s = await start({ rateLimit: parseRate("1/min"), quota: parseRate("100/day"), now: () => 1_000_000 });
    expect((await send(s, "/notes")).status).toBe(200);
    const limited = await send(s, "/notes");
    expect(limited.status).toBe(429);
    expect(limited.type).toBe("application/json");
    expect(limited.body.message).toMatch(/Rate limit exceeded: 1 requests per min/);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    // HEAD gets the status and headers, no body.
    const head = await send(s, "/notes", { method: "HEAD" });
    expect(head.status).toBe(429);
    expect(head.text).toBe("");
    const q = await start({ quota: parseRate("1/day"), now: () => 1_000_000 });
    expect((await send(q, "/closed", json({ name: "a" }))).status).toBe(201);
    const none = await send(q, "/closed", json({ name: "a" }));
    expect(none.status).toBe(429);
    expect(none.type).toBe("application/problem+json");
    expect(none.body).toMatchObject({ status: 429, title: "Too Many Requests" });
    expect(none.body.detail).toMatch(/^Quota exceeded: 1 requests per day/);
  });
});

describe("toolsim serve: the sl-violations header is ASCII and bounded", () => {
  it("a validation message with characters above U+00FF: a 422, not a 500; the header escapes them and still parses", async () => {
    const s = await start();
    const r = await send(s, "/notes?lang=%E4%B8%AD%E6%96%87");
    expect(r.status).toBe(422);
    const header = r.headers.get("sl-violations") ?? "";
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(violations(r.headers)[0]?.message).toContain("日本語");
    expect(r.body.message).toContain("日本語");
  });

  it("a 1,000-value enum: the header stays under 2 KB (Node's fetch reads it), the body holds the whole message", async () => {
    const s = await start({ apis: [enumApi] });
    const r = await send(s, "/items?category=nope");
    expect(r.status).toBe(422);
    const header = r.headers.get("sl-violations") ?? "";
    expect(header.length).toBeLessThanOrEqual(MAX_VIOLATIONS_HEADER);
    expect(violations(r.headers)[0]?.location).toEqual(["query", "category"]);
    expect(r.body.validation[0].message).toContain("category-value-number-0999");
    expect(r.body.validation[0].message.length).toBeGreaterThan(20_000);
  });
});

describe("toolsim serve: request bodies as the spec declares them", () => {
  it("an undeclared property is allowed where the schema does not forbid it (missing additionalProperties), refused where it does", async () => {
    const s = await start();
    const open = await send(s, "/notes", json({ title: "Hi", colour: "blue" }));
    expect(open.status).toBe(201);
    const closed = await send(s, "/closed", json({ name: "a", colour: "blue" }));
    expect(closed.status).toBe(422);
    expect(violations(closed.headers).map((v) => v.location.join("."))).toEqual(["body.colour"]);
  });

  it("a required body left out is a 422 naming the body, even where every property is optional; an empty object is a body", async () => {
    const s = await start();
    const none = await fetch(`${s.url}/settings`, { method: "PUT", headers: { "content-type": "application/json" } });
    expect(none.status).toBe(422);
    expect(violations(none.headers).map((v) => `${v.location.join(".")} ${v.code}`)).toEqual(["body required"]);
    expect((await send(s, "/settings", { ...json({}), method: "PUT" })).status).toBe(204);
    expect((await send(s, "/settings", { ...json({ theme: "dark" }), method: "PUT" })).status).toBe(204);
  });

  it("an operation whose path has a `#` (AWS's `/#CreateCluster`) is reached by the request toolsim makes of its call", async () => {
    const op = (id: string, required: string) => ({
      post: {
        operationId: id,
        requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: [required], properties: { [required]: { type: "string" } } } } } },
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { done: { type: "boolean" } } } } } } },
      },
    });
    const path = join(tmp, "fragment-paths.json");
    writeFileSync(path, JSON.stringify({ openapi: "3.0.3", info: { title: "Fragments", version: "1" }, paths: { "/": op("CreateCluster", "ClusterName"), "/#CreateParameterGroup": op("CreateParameterGroup", "ParameterGroupName") } }));
    const loaded = await loadServedApis([path]);
    if (!loaded.ok) throw new Error("fragment spec");
    const served = loaded.apis[0] as ServedApi;
    const tool = served.catalog.get("CreateParameterGroup");
    if (!tool) throw new Error("no tool");
    const request = toHttpRequest(tool, { ParameterGroupName: "pg1" });
    const s = await start({ apis: [served] });
    const res = await fetch(`${s.url}${request.path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request.body) });
    expect(res.status).toBe(200);
  });

  it("multipart/form-data: fields parsed, coerced to the schema's types, JSON parts decoded, then validated", async () => {
    const s = await start();
    const form = new FormData();
    form.append("title", "From a form");
    form.append("priority", "3");
    form.append("tags", "a");
    form.append("tags", "b");
    form.append("meta", JSON.stringify({ source: "upload" }));
    const ok = await send(s, "/notes", { method: "POST", body: form });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ title: "From a form", priority: 3, tags: ["a", "b"], meta: { source: "upload" } });
    const bad = new FormData();
    bad.append("title", "x");
    bad.append("priority", "high");
    const r = await send(s, "/notes", { method: "POST", body: bad });
    expect(r.status).toBe(400);
    expect(violations(r.headers).map((v) => v.location.join("."))).toEqual(["body.priority"]);
  });

  it("application/x-www-form-urlencoded: fields parsed, coerced and validated", async () => {
    const s = await start();
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const ok = await send(s, "/notes", { method: "POST", headers, body: "title=Encoded&priority=2&tags=x&tags=y" });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ title: "Encoded", priority: 2, tags: ["x", "y"] });
    const bad = await send(s, "/notes", { method: "POST", headers, body: "priority=0" });
    expect(bad.status).toBe(400);
    expect(violations(bad.headers).map((v) => v.location.join(".")).sort()).toEqual(["body.priority", "body.title"]);
    // A number's text is a decimal number: hex and Infinity are no priority.
    for (const text of ["0x2", "Infinity"]) {
      const hex = await send(s, "/notes", { method: "POST", headers, body: `title=T&priority=${text}` });
      expect(hex.status, text).toBe(400);
      expect(violations(hex.headers).map((v) => `${v.location.join(".")} ${v.message}`)).toEqual(["body.priority must be integer"]);
    }
  });

  it("XML: parsed (the root element's content), coerced and validated; malformed XML is a 400", async () => {
    const s = await start();
    const headers = { "content-type": "application/xml" };
    const ok = await send(s, "/notes", { method: "POST", headers, body: '<?xml version="1.0"?><note><title>In XML</title><priority>4</priority><tags>p</tags><tags>q</tags></note>' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ title: "In XML", priority: 4, tags: ["p", "q"] });
    const one = await send(s, "/notes", { method: "POST", headers, body: "<note><title>One tag</title><tags>only</tags></note>" });
    expect(one.body.tags).toEqual(["only"]);
    const invalid = await send(s, "/notes", { method: "POST", headers, body: "<note><priority>first</priority></note>" });
    expect(invalid.status).toBe(400);
    expect(violations(invalid.headers).map((v) => v.location.join(".")).sort()).toEqual(["body.priority", "body.title"]);
    const malformed = await send(s, "/notes", { method: "POST", headers, body: "<note><title>unclosed</note>" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain("not well-formed XML");
  });

  it("XML a schema calls a string is the text as sent, a word or a document", async () => {
    const s = await start();
    const headers = { "content-type": "application/xml" };
    expect((await send(s, "/files/bot.aiml", { method: "PUT", headers, body: "character" })).status).toBe(204);
    expect((await send(s, "/files/bot.aiml", { method: "PUT", headers, body: "<aiml><category/></aiml>" })).status).toBe(204);
  });

  it("JSON nested 2,000 and 100,000 levels deep: a 400 naming the limit, never a 500; the server stays up", async () => {
    const s = await start();
    for (const depth of [2000, 100_000]) {
      const body = `{"title":"deep","meta":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`;
      const r = await send(s, "/notes", { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/nested .* levels deep; at most 256/);
    }
    const arrays = await send(s, "/notes", { method: "POST", headers: { "content-type": "application/json" }, body: `{"title":"deep","tags":${"[".repeat(5000)}${"]".repeat(5000)}}` });
    expect(arrays.status).toBe(400);
    expect((await send(s, "/__toolsim/health")).status).toBe(200);
    // `call` (tool calls) refuses the same arguments the same way.
    const loaded = await loadSpec(SPEC);
    if (!loaded.ok) throw new Error("spec does not load");
    const catalog = buildCatalog(loaded.value);
    const deep = validateCall(catalog, "createNote", `{"title":"t","meta":${'{"a":'.repeat(2000)}1${"}".repeat(2000)}}`);
    expect(deep.ok).toBe(false);
    if (!deep.ok) expect(deep.problem).toMatchObject({ status: 400, detail: "arguments are nested more than 256 levels deep" });
  });

  it("a body over the limit is a 413 in the operation's declared media type, declared or streamed", async () => {
    const s = await start({ bodyLimit: 1024 });
    const big = JSON.stringify({ title: "x".repeat(5000) });
    const declared = await send(s, "/notes", { method: "POST", headers: { "content-type": "application/json" }, body: big });
    expect(declared.status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode(big.slice(i * 700, (i + 1) * 700)));
        controller.close();
      },
    });
    const chunked = await send(s, "/notes", { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it("a socket's body is read from the socket: none without a length or chunking, a chunked one whole, one cut short is dropped", async () => {
    const s = await start();
    const exchange = (request: string, end: boolean): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = connect(s.port, "127.0.0.1", () => {
          socket.write(request);
          if (!end) setTimeout(() => socket.destroy(), 50);
        });
        let text = "";
        socket.on("data", (d: Buffer) => {
          text += d.toString("utf8");
          if (/\r\n\r\n/.test(text)) socket.end();
        });
        socket.on("close", () => resolve(text));
        socket.on("error", reject);
      });
    // HTTP/1.1: a request with neither Content-Length nor Transfer-Encoding has no body (the operation requires one).
    const none = await exchange("POST /notes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n", true);
    expect(none).toMatch(/^HTTP\/1\.1 4(00|22) /);
    const body = JSON.stringify({ title: "chunked" });
    const chunks = [body.slice(0, 5), body.slice(5)].map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join("");
    const whole = await exchange(`POST /notes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunks}0\r\n\r\n`, true);
    expect(whole).toMatch(/^HTTP\/1\.1 201 /);
    expect(whole).toContain(`"title":"chunked"`);
    // The client goes away in the middle of a chunked body: no answer is owed, and the server goes on answering.
    const cut = await exchange(`POST /notes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"tit\r\n`, false);
    expect(cut).toBe("");
    expect((await send(s, "/__toolsim/health")).status).toBe(200);
    expect((await send(s, "/notes", json({ title: "after" }))).status).toBe(201);
  });

  it("`constructor`, `toString` and `__proto__` are just property names: serve accepts them as call does", async () => {
    const s = await start();
    const body = `{"title":"t","constructor":"c","toString":"s","__proto__":"p"}`;
    const r = await send(s, "/notes", { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ title: "t", constructor: "c", toString: "s" });
    const form = await send(s, "/notes", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "title=t&constructor=c&__proto__=p" });
    expect(form.status).toBe(201);
    const loaded = await loadSpec(SPEC);
    if (!loaded.ok) throw new Error("spec does not load");
    expect(validateCall(buildCatalog(loaded.value), "createNote", body).ok).toBe(true);
  });
});
