import type { SchemaRegistry } from "../../../specs/catalog/schema-registry.js";

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Keywords kept (as the tool schemas keep them), without formats that JSON Schema validators do not know. */
const KEEP = new Set([
  "type", "description", "enum", "const", "format", "default", "examples", "title",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
]);

/**
 * The formats JSON Schema validators know (JSON Schema's own and ajv-formats', which MCP clients validate
 * structured results with); others (`datetime`, `phone`) are left out, since clients warn about each of them.
 */
const PORTABLE_FORMATS = new Set([
  "date", "time", "date-time", "iso-time", "iso-date-time", "duration", "uri", "uri-reference", "uri-template", "url", "iri", "iri-reference",
  "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6", "regex", "uuid", "json-pointer", "json-pointer-uri-fragment",
  "relative-json-pointer", "byte", "int32", "int64", "float", "double", "password", "binary",
]);

/** Schema nodes an output schema may have (a few hundred kilobytes at most): past it, sub-schemas accept anything. */
export const MAX_OUTPUT_SCHEMA_NODES = 4000;

/**
 * A response schema as a self-contained JSON Schema for MCP clients: `$ref`s inlined, each one once per path
 * (a recursion accepts anything below it), vendor keywords and `writeOnly` properties left out, unknown formats
 * dropped, `oneOf` read as `anyOf`, and at most `maxNodes` schema nodes (beyond them, `{}`), so that a spec whose schemas reference each
 * other densely does not make a tool list of megabytes. Looser than the spec's schema where it was cut, never
 * stricter: what validates against the spec validates against it.
 */
export function boundedResponseSchema(registry: SchemaRegistry, pointer: string, maxNodes = MAX_OUTPUT_SCHEMA_NODES): Json {
  let budget = maxNodes;
  const inline = (node: unknown, refs: ReadonlySet<string>): Json => {
    if (!isObject(node)) return {};
    if (budget <= 0) return {};
    budget--;
    const ref = node["$ref"];
    if (typeof ref === "string") {
      if (!ref.startsWith("#") || refs.has(ref)) return typeof node["description"] === "string" ? { description: node["description"] } : {};
      const resolved = inline(registry.at("response", decodeURIComponent(ref.slice(1))), new Set(refs).add(ref));
      if (typeof node["description"] === "string" && resolved["description"] === undefined) resolved["description"] = node["description"];
      return resolved;
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) {
      if (!KEEP.has(k)) continue;
      if (k === "format" && (typeof v !== "string" || !PORTABLE_FORMATS.has(v))) continue;
      out[k] = v;
    }
    if (node["example"] !== undefined && out["examples"] === undefined) out["examples"] = [node["example"]];
    if (isObject(node["properties"])) {
      const props: Json = {};
      for (const [name, sub] of Object.entries(node["properties"])) {
        if (isObject(sub) && sub["writeOnly"] === true) continue;
        props[name] = inline(sub, refs);
      }
      out["properties"] = props;
      if (Array.isArray(node["required"])) {
        const required = node["required"].filter((r) => typeof r === "string" && r in props);
        if (required.length > 0) out["required"] = required;
      }
    }
    if (isObject(node["items"])) out["items"] = inline(node["items"], refs);
    if (node["additionalProperties"] === false) out["additionalProperties"] = false;
    else if (isObject(node["additionalProperties"])) out["additionalProperties"] = inline(node["additionalProperties"], refs);
    if (Array.isArray(node["allOf"])) out["allOf"] = node["allOf"].map((s) => inline(s, refs));
    // `oneOf` as `anyOf`: a branch cut to `{}` would make a `oneOf` reject what two branches accept.
    const alternatives = [...(Array.isArray(node["anyOf"]) ? node["anyOf"] : []), ...(Array.isArray(node["oneOf"]) ? node["oneOf"] : [])];
    if (alternatives.length > 0) {
      const inlined = alternatives.map((s) => inline(s, refs));
      if (Array.isArray(node["anyOf"]) && Array.isArray(node["oneOf"])) out["allOf"] = [...((out["allOf"] as Json[] | undefined) ?? []), { anyOf: inlined.slice(0, node["anyOf"].length) }, { anyOf: inlined.slice(node["anyOf"].length) }];
      else out["anyOf"] = inlined;
    }
    return out;
  };
  return inline(registry.at("response", pointer), new Set());
}
