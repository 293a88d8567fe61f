import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SchemaDialect } from "../../../specs/load/loaded-spec.js";
import { SchemaRegistry } from "../../../specs/catalog/schema-registry.js";
import { synthesize } from "../../../specs/synthesize/synthesize.js";

type Json = Record<string, unknown>;

// Arbitrary JSON Schemas that are satisfiable by construction (overlapping oneOf branches, formats under
// tight lengths and small domains under uniqueItems are avoided), in OpenAPI 3.0 or 3.1 form.

const NAMES = ["id", "name", "email", "createdAt", "price", "tags", "status", "city", "description", "count", "url", "title", "value", "kind", "items"];
const FORMATS = ["date", "date-time", "email", "uri", "uuid", "ipv4", "hostname", "byte"];
const PATTERNS = ["^[a-z]{3,8}$", "^[A-Z]{2}-\\d{3}$", "^\\d{4}$", "^(red|green|blue)$", "^[a-f0-9]{6}$"];

const stringSchema: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ minLength: fc.nat(5), extra: fc.option(fc.nat(20), { nil: undefined }) }).map(({ minLength, extra }) => ({
    type: "string",
    ...(minLength > 0 ? { minLength } : {}),
    ...(extra !== undefined ? { maxLength: minLength + extra } : {}),
  })),
  fc.constantFrom(...FORMATS).map((format) => ({ type: "string", format })),
  fc.constantFrom(...PATTERNS).map((pattern) => ({ type: "string", pattern })),
  fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }).map((values) => ({ type: "string", enum: values })),
);

const integerSchema = fc
  .record({ min: fc.option(fc.integer({ min: -50, max: 50 }), { nil: undefined }), span: fc.option(fc.nat(200), { nil: undefined }), multipleOf: fc.option(fc.integer({ min: 2, max: 5 }), { nil: undefined }), exclusive: fc.boolean() })
  .map(({ min, span, multipleOf, exclusive }) => {
    const s: Json = { type: "integer" };
    if (min !== undefined) s["minimum"] = min;
    if (min !== undefined && span !== undefined) s["maximum"] = min + span + (multipleOf ?? 1) * 2 + (exclusive ? 2 : 0);
    if (multipleOf !== undefined) s["multipleOf"] = multipleOf;
    if (exclusive && min !== undefined) s["exclusiveMinimum"] = true; // 3.0 form; rewritten for 3.1 below
    return s;
  });

const numberSchema = fc
  .record({ min: fc.option(fc.double({ min: -100, max: 100, noNaN: true }), { nil: undefined }), span: fc.double({ min: 0.5, max: 500, noNaN: true }) })
  .map(({ min, span }) => (min === undefined ? { type: "number" } : { type: "number", minimum: min, maximum: min + span }));

const leaf = fc.oneof(stringSchema, integerSchema, numberSchema, fc.constant({ type: "boolean" }));

/** Large domains only: fit for `uniqueItems`. */
const uniqueFriendly: fc.Arbitrary<Json> = fc.oneof(fc.constant({ type: "string" }), fc.constant({ type: "integer" }), fc.constantFrom(...FORMATS.filter((f) => f !== "byte")).map((format) => ({ type: "string", format })));

const schemaArb: fc.Arbitrary<Json> = fc.letrec<{ schema: Json; object: Json; array: Json; composite: Json }>((tie) => ({
  schema: fc.oneof({ depthSize: "small", maxDepth: 4 }, leaf, leaf, tie("object"), tie("array"), tie("composite"), fc.constant({ $ref: "#/components/schemas/Tree" })),
  object: fc
    .record({
      props: fc.uniqueArray(fc.tuple(fc.constantFrom(...NAMES), tie("schema"), fc.boolean()), { selector: (t) => t[0], maxLength: 4 }),
      closed: fc.boolean(),
      minProps: fc.nat(2),
    })
    .map(({ props, closed, minProps }) => {
      const s: Json = { type: "object", properties: Object.fromEntries(props.map(([n, sch]) => [n, sch])) };
      const required = props.filter(([, , r]) => r).map(([n]) => n);
      if (required.length > 0) s["required"] = required;
      if (closed) s["additionalProperties"] = false;
      if (minProps > 0 && (!closed || props.length >= minProps)) s["minProperties"] = minProps;
      return s;
    }),
  array: fc
    .record({ items: fc.oneof(tie("schema"), uniqueFriendly), min: fc.nat(3), extra: fc.nat(3), unique: fc.boolean() })
    .map(({ items: raw, min, extra, unique }) => {
      const items = raw as Json;
      const friendly = !("$ref" in items) && (items["type"] === "string" || items["type"] === "integer") && items["enum"] === undefined && items["maxLength"] === undefined && items["pattern"] === undefined && items["maximum"] === undefined;
      return { type: "array", items, ...(min > 0 ? { minItems: min } : {}), maxItems: min + extra, ...(unique && friendly ? { uniqueItems: true } : {}) };
    }),
  composite: fc.oneof(
    // allOf: object parts with distinct properties.
    fc.tuple(tie("schema"), tie("schema")).map(([a, b]) => ({
      allOf: [
        { type: "object", required: ["left"], properties: { left: a } },
        { type: "object", properties: { right: b, count: { type: "integer", minimum: 0 } } },
      ],
    })),
    // oneOf: branches of types that cannot overlap.
    fc.tuple(stringSchema, fc.constantFrom({ type: "integer" }, { type: "boolean" }), tie("object")).map(([s, other, obj]) => ({
      oneOf: [s, other, { ...obj, type: "object" }],
    })),
    // oneOf: objects told apart by a required discriminator.
    fc.tuple(tie("schema"), tie("schema")).map(([a, b]) => ({
      oneOf: [
        { type: "object", required: ["kind"], properties: { kind: { type: "string", enum: ["a"] }, payload: a } },
        { type: "object", required: ["kind", "payload"], properties: { kind: { type: "string", enum: ["b"] }, payload: b } },
      ],
    })),
    // anyOf: anything goes.
    fc.tuple(tie("schema"), tie("schema")).map(([a, b]) => ({ anyOf: [a, b] })),
  ),
})).schema;

/** Makes a schema nullable, in the dialect's own way. */
function nullable(schema: Json, dialect: SchemaDialect): Json {
  if (dialect === "3.0") return { ...schema, nullable: true };
  if (typeof schema["type"] === "string" && schema["enum"] === undefined) return { ...schema, type: [schema["type"], "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

/** Rewrites 3.0-only keywords for 3.1 (boolean exclusive bounds), recursively. */
function to31(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(to31);
  if (typeof node !== "object" || node === null) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = to31(v);
  if (out["exclusiveMinimum"] === true && typeof out["minimum"] === "number") {
    out["exclusiveMinimum"] = out["minimum"];
    delete out["minimum"];
  }
  return out;
}

function documentOf(root: Json, dialect: SchemaDialect, nullRoot: boolean): Json {
  const tree: Json = {
    type: "object",
    required: ["label"],
    properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Tree" } }, parent: { $ref: "#/components/schemas/Tree" } },
  };
  const rootSchema = nullRoot ? nullable(root, dialect) : root;
  const schemas = { Root: rootSchema, Tree: tree };
  return {
    openapi: dialect === "3.1" ? "3.1.0" : "3.0.3",
    info: { title: "property", version: "1" },
    paths: {},
    components: { schemas: dialect === "3.1" ? to31(schemas) : schemas },
  };
}

describe("synthesize: property", () => {
  it("every synthesized value of an arbitrary satisfiable schema validates", () => {
    fc.assert(
      fc.property(schemaArb, fc.constantFrom<SchemaDialect>("3.0", "3.1"), fc.boolean(), fc.integer({ min: 0, max: 2 ** 31 }), (root, dialect, nullRoot, seed) => {
        const registry = new SchemaRegistry(documentOf(root, dialect, nullRoot), dialect);
        const result = synthesize(registry, "response", "/components/schemas/Root", { seed });
        const validate = registry.validatorAt("response", "/components/schemas/Root");
        const ok = validate(result.value);
        if (!ok || !result.valid) {
          throw new Error(`invalid value ${JSON.stringify(result.value)} for ${JSON.stringify(root)} (${dialect}): ${JSON.stringify(validate.errors)}`);
        }
        // Same seed, same value.
        expect(JSON.stringify(synthesize(registry, "response", "/components/schemas/Root", { seed }).value)).toBe(JSON.stringify(result.value));
      }),
      { seed: 42, numRuns: 300 },
    );
  });
});
