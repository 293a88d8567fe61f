/**
 * Writes a synthetic OpenAPI 3.0 document with many operations, for measuring `toolsim spec check` (and
 * loading) on huge specs:
 *
 *   node --import tsx bench/huge-spec.ts [--operations 50000] [--out /tmp/huge-spec.json]
 *   /usr/bin/time -v node bin/toolsim.js spec check /tmp/huge-spec.json
 *
 * (`npm run bench -- spec` does both and prints the figures.)
 *
 * Five operations per resource (list, create, read, replace, delete), each resource with its own schemas
 * (an entity with patterns, enums, formats, nested objects and lists; an input as `allOf` of the entity's
 * base; a page of entities), all of them using shared schemas (`User`, `Address`, `Money`, `Error`) and
 * shared parameters and responses by `$ref`, as generated API descriptions do.
 */
import { writeFileSync } from "node:fs";

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : fallback;
}

/** The document of a spec with `operations` operations (rounded up to a multiple of five). */
export function hugeSpec(operations: number): Record<string, unknown> {
  const resources = Math.ceil(operations / 5);
  const schemas: Record<string, unknown> = {
    Money: { type: "object", required: ["amount", "currency"], properties: { amount: { type: "number", minimum: 0 }, currency: { type: "string", pattern: "^[A-Z]{3}$" } } },
    Address: {
      type: "object",
      properties: { line1: { type: "string", maxLength: 200 }, city: { type: "string" }, postalCode: { type: "string", pattern: "^[0-9A-Z -]{3,10}$" }, country: { type: "string", minLength: 2, maxLength: 2 } },
    },
    User: { type: "object", required: ["id", "email"], properties: { id: { type: "string", format: "uuid" }, email: { type: "string", format: "email" }, name: { type: "string" }, address: { $ref: "#/components/schemas/Address" } } },
    Error: { type: "object", required: ["code", "message"], properties: { code: { type: "integer" }, message: { type: "string" } } },
  };
  const paths: Record<string, unknown> = {};
  for (let r = 0; r < resources; r++) {
    const name = `Res${r}`;
    schemas[`${name}Base`] = {
      type: "object",
      required: ["name"],
      properties: {
        name: { type: "string", minLength: 1, maxLength: 100 },
        status: { type: "string", enum: ["active", "paused", "archived"] },
        tags: { type: "array", items: { type: "string", pattern: "^[a-z0-9-]{1,32}$" }, maxItems: 20 },
        price: { $ref: "#/components/schemas/Money" },
        address: { $ref: "#/components/schemas/Address" },
        metadata: { type: "object", additionalProperties: { type: "string" } },
        [`field${r % 17}`]: { type: "integer", format: "int32", minimum: 0, maximum: 1000 + r },
      },
    };
    schemas[name] = {
      allOf: [
        { $ref: `#/components/schemas/${name}Base` },
        { type: "object", required: ["id", "createdAt"], properties: { id: { type: "string", pattern: `^r${r}-[0-9]+$` }, createdAt: { type: "string", format: "date-time" }, owner: { $ref: "#/components/schemas/User" } } },
      ],
    };
    schemas[`${name}Page`] = { type: "object", required: ["items"], properties: { items: { type: "array", items: { $ref: `#/components/schemas/${name}` } }, next: { type: "string", nullable: true } } };
    const ref = (s: string): { $ref: string } => ({ $ref: `#/components/schemas/${s}` });
    const json = (schema: unknown): unknown => ({ "application/json": { schema } });
    paths[`/res${r}`] = {
      get: {
        operationId: `list${name}`,
        summary: `List resources of kind ${r}`,
        parameters: [{ $ref: "#/components/parameters/Limit" }, { $ref: "#/components/parameters/Offset" }, { name: "status", in: "query", schema: { type: "string", enum: ["active", "paused", "archived"] } }, { name: "q", in: "query", schema: { type: "string", maxLength: 50 } }],
        responses: { "200": { description: "A page", content: json(ref(`${name}Page`)) }, default: { $ref: "#/components/responses/Error" } },
      },
      post: {
        operationId: `create${name}`,
        requestBody: { required: true, content: json(ref(`${name}Base`)) },
        responses: { "201": { description: "Created", content: json(ref(name)) }, "400": { $ref: "#/components/responses/Error" } },
      },
    };
    paths[`/res${r}/{id}`] = {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", pattern: `^r${r}-[0-9]+$` } }],
      get: { operationId: `get${name}`, responses: { "200": { description: "The resource", content: json(ref(name)) }, "404": { $ref: "#/components/responses/NotFound" } } },
      put: {
        operationId: `replace${name}`,
        requestBody: { required: true, content: json(ref(`${name}Base`)) },
        responses: { "200": { description: "Replaced", content: json(ref(name)) }, "404": { $ref: "#/components/responses/NotFound" } },
      },
      delete: { operationId: `delete${name}`, responses: { "204": { description: "Deleted" }, "404": { $ref: "#/components/responses/NotFound" } } },
    };
  }
  return {
    openapi: "3.0.3",
    info: { title: `Huge synthetic API (${resources * 5} operations)`, version: "1.0.0" },
    paths,
    components: {
      schemas,
      parameters: {
        Limit: { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
        Offset: { name: "offset", in: "query", schema: { type: "integer", minimum: 0 } },
      },
      responses: {
        Error: { description: "An error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        NotFound: { description: "Not found", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      },
    },
  };
}

if (process.argv[1]?.endsWith("huge-spec.ts")) {
  const operations = Number(option("--operations", "50000"));
  const out = option("--out", "/tmp/huge-spec.json");
  writeFileSync(out, JSON.stringify(hugeSpec(operations)));
  console.log(`wrote ${out}: ${Math.ceil(operations / 5) * 5} operations`);
}
