import type { JsonSchema } from "json-schema-faker";
import { getAt, toPointer } from "../json-pointer.js";
import type { SchemaFlavor } from "../load/schema-flavor.js";
import type { SynthesisMeter } from "./synthesis-meter.js";
import {
  HARD_LEVEL,
  isNested,
  isNullSchema,
  isZeroValue,
  KEYWORDS,
  MAX_OPTIONAL_NESTED,
  NON_GENERATIVE,
  ONE_ITEM_LEVEL,
  REQUIRED_ONLY_LEVEL,
  STOP_LEVEL,
} from "./synthesis-rules.js";
import { isObject, type Json } from "../json-object.js";

/** A prepared schema copy (or `false`: nothing may be generated there). */
export type PreparedNode = Json | boolean;

/** How prepared copies name their `$ref`s: `#/~toolsim/<level>/<pointer>` (the ref level is part of the target). */
const REF_PREFIX = "#/~toolsim/";
/** Where a prepared copy keeps the real `maxLength` of a string whose generation bound was lowered. */
export const ORIGINAL_MAX_LENGTH = "x-toolsim-maxLength";
/** Where a prepared copy keeps a string's `pattern` (made by `patternString`, not json-schema-faker's own generator). */
export const PATTERN = "x-toolsim-pattern";
/** Where a prepared copy says which cap lowered one of its bounds (warned when a value is made from it). */
export const CAPPED = "x-toolsim-capped";

const SUBSCHEMA_SINGLE = ["additionalProperties", "additionalItems", "contains", "propertyNames", "not", "if", "then", "else"] as const;

/** A schema that accepts anything is generated as a string (rather than a random type): still valid, reads better. */
function concrete(node: PreparedNode): PreparedNode {
  if (node === true) return { type: "string" };
  if (isObject(node) && Object.keys(node).every((k) => NON_GENERATIVE.has(k)) && node["examples"] === undefined && node["default"] === undefined) {
    return { type: "string" };
  }
  return node;
}

/** What preparation needs from the synthesizer that owns the copies. */
export interface PreparationHost {
  /** The converted document. */
  readonly doc: Json;
  /** Which side of the exchange: requests leave `readOnly` properties out, responses `writeOnly` ones. */
  readonly flavor: SchemaFlavor;
  /** The meter of the synthesis in progress (copies are cut to its caps). */
  readonly currentMeter: SynthesisMeter;
  /** How much crossing a `$ref` to a target adds to the ref level (0 or 1). */
  levelStep(target: string): number;
  /** Whether an example (or default) is valid for its node, and not an editor placeholder. */
  exampleFits(node: Json, pointer: string | undefined, value: unknown): boolean;
  /** Where a node of the document is, if it is part of it. */
  pointerOf(node: object): string | undefined;
}

/**
 * The schema copies json-schema-faker generates from, cached per pointer, ref level and caps: JSON Schema
 * keywords only, nested `$ref`s tagged with their ref level (so values grow sparser with depth), only valid
 * examples, caps applied to lengths, and patterns left to `patternString`.
 */
export class PreparedSchemas {
  private readonly prepared = new Map<string, PreparedNode>();
  private readonly preparedTrees = new WeakMap<object, Map<string, PreparedNode>>();

  constructor(private readonly host: PreparationHost) {}

  /** The prepared copy of the schema at a pointer, as seen at a ref level. */
  prepare(pointer: string, level: number): PreparedNode {
    const key = `${this.limitsKey()}|${level}|${pointer}`;
    let hit = this.prepared.get(key);
    if (hit === undefined) {
      hit = level > HARD_LEVEL ? false : this.clean(getAt(this.host.doc, pointer), pointer, level, 0);
      this.prepared.set(key, hit);
    }
    return hit;
  }

  /** The prepared copy of a node that is not addressable by pointer (e.g. a merged branch). */
  prepareNode(node: unknown, level: number): PreparedNode {
    if (!isObject(node)) return node === false ? false : {};
    const pointer = this.host.pointerOf(node);
    if (pointer !== undefined) return this.prepare(pointer, level);
    let byLevel = this.preparedTrees.get(node);
    if (!byLevel) {
      byLevel = new Map();
      this.preparedTrees.set(node, byLevel);
    }
    const key = `${this.limitsKey()}|${level}`;
    let hit = byLevel.get(key);
    if (hit === undefined) {
      hit = this.clean(node, undefined, level, 0);
      byLevel.set(key, hit);
    }
    return hit;
  }

  /** The caps that prepared copies are cut to (copies are cached per caps). */
  private limitsKey(): string {
    const l = this.host.currentMeter.limits;
    return `${l.maxItems},${l.maxStringLength}`;
  }

  /** Resolves a (prepared) `$ref` of json-schema-faker. */
  resolveRef = (ref: string): JsonSchema => {
    if (ref.startsWith(REF_PREFIX)) {
      const rest = ref.slice(REF_PREFIX.length);
      const slash = rest.indexOf("/");
      if (slash < 0) return this.prepare("", Number(rest)) as JsonSchema;
      return this.prepare(decodeURIComponent(rest.slice(slash)), Number(rest.slice(0, slash))) as JsonSchema;
    }
    if (ref.startsWith("#")) return this.prepare(decodeURIComponent(ref.slice(1)), 1) as JsonSchema;
    return {};
  };

  /**
   * A copy of a schema for json-schema-faker: JSON Schema keywords only (so that vendor keys are never
   * taken for properties), nulls dropped from types and compositions (values are null only where recursion
   * stops), properties hidden in this flavor dropped, only valid examples kept, nested `$ref`s tagged with
   * their ref level, optional properties and array lengths reduced as the level grows.
   */
  private clean(node: unknown, pointer: string | undefined, level: number, depth: number): PreparedNode {
    if (node === true || node === false) return node;
    if (!isObject(node) || depth > 64) return {};
    const at = (suffix: string): string | undefined => (pointer === undefined ? undefined : `${pointer}${suffix}`);
    const out: Json = {};
    const stop = level >= STOP_LEVEL;
    for (const [key, value] of Object.entries(node)) {
      if (!KEYWORDS.has(key) && key !== "example") continue;
      switch (key) {
        case "$ref": {
          if (typeof value === "string" && value.startsWith("#/")) {
            out["$ref"] = `${REF_PREFIX}${level + this.host.levelStep(decodeURIComponent(value.slice(1)))}${value.slice(1)}`;
          } else if (typeof value === "string" && value === "#") out["$ref"] = `${REF_PREFIX}${level + 1}`;
          break;
        }
        case "type": {
          if (Array.isArray(value)) {
            const nonNull = value.filter((t) => t !== "null");
            const types = stop && value.includes("null") ? ["null"] : nonNull.length > 0 ? nonNull : value;
            out["type"] = types.length === 1 ? types[0] : types;
          } else out["type"] = value;
          break;
        }
        case "enum": {
          if (Array.isArray(value)) {
            const nonNull = value.filter((v) => v !== null);
            out["enum"] = nonNull.length > 0 ? nonNull : value;
          }
          break;
        }
        case "example":
        case "examples":
        case "default":
          break; // handled below
        case "properties": {
          if (!isObject(value)) break;
          const required = new Set(Array.isArray(node["required"]) ? node["required"] : []);
          const hidden = this.host.flavor === "request" ? "readOnly" : "writeOnly";
          const keepOptional = level < REQUIRED_ONLY_LEVEL || (typeof node["minProperties"] === "number" && node["minProperties"] > required.size);
          const props: Json = {};
          let nested = 0;
          for (const [name, sub] of Object.entries(value)) {
            if (!required.has(name)) {
              if (!keepOptional) continue;
              if (isObject(sub) && sub[hidden] === true) continue;
              // Below the top, only the first few optional nested objects and lists: bodies stay readable.
              if (level >= 1 && isNested(sub) && ++nested > MAX_OPTIONAL_NESTED) continue;
            }
            props[name] = concrete(this.clean(sub, at(`/properties${toPointer([name])}`), level, depth + 1));
          }
          out["properties"] = props;
          break;
        }
        case "patternProperties":
        case "dependentSchemas": {
          if (!isObject(value)) break;
          const map: Json = {};
          for (const [name, sub] of Object.entries(value)) map[name] = this.clean(sub, at(`/${key}${toPointer([name])}`), level, depth + 1);
          out[key] = map;
          break;
        }
        case "items": {
          if (Array.isArray(value)) out["items"] = value.map((sub, i) => concrete(this.clean(sub, at(`/items/${i}`), level, depth + 1)));
          else out["items"] = concrete(this.clean(value, at("/items"), level, depth + 1));
          break;
        }
        case "allOf":
        case "anyOf":
        case "oneOf":
        case "prefixItems": {
          if (!Array.isArray(value)) break;
          let list = value.map((sub, i) => [sub, i] as const);
          if (key === "anyOf" || key === "oneOf") {
            const nulls = list.filter(([s]) => isNullSchema(s));
            const others = list.filter(([s]) => !isNullSchema(s));
            if (nulls.length > 0 && others.length > 0) list = stop ? nulls : others;
          }
          // json-schema-faker generates oneOf branches with required properties only (sparse, and often
          // matching several branches); as anyOf they get their optional properties too. The validator still checks oneOf.
          const target = key === "oneOf" && out["anyOf"] === undefined && node["anyOf"] === undefined ? "anyOf" : key;
          out[target] = list.map(([sub, i]) => this.clean(sub, at(`/${key}/${i}`), level, depth + 1));
          break;
        }
        default: {
          if ((SUBSCHEMA_SINGLE as readonly string[]).includes(key)) {
            out[key] = typeof value === "object" && value !== null ? this.clean(value, at(`/${key}`), level, depth + 1) : value;
          } else out[key] = value;
        }
      }
    }
    // Examples and defaults: kept only when they are valid for this very node.
    const examples: unknown[] = [];
    if (Array.isArray(node["examples"])) examples.push(...node["examples"]);
    if (node["example"] !== undefined) examples.push(node["example"]);
    const good = examples.filter((v) => this.host.exampleFits(node, pointer, v));
    if (good.length > 0) out["examples"] = good;
    // A default is what the server assumes when the value is left out: used only when there is no example,
    // and not when it is a zero value (0, "", false, empty), which reads worse than a realistic value.
    const dflt = node["default"];
    if (good.length === 0 && dflt !== undefined && !isZeroValue(dflt) && this.host.exampleFits(node, pointer, dflt)) out["default"] = dflt;
    // Array lengths shrink as the level grows.
    const isArray = out["type"] === "array" || out["items"] !== undefined;
    if (isArray) {
      const min = typeof out["minItems"] === "number" ? out["minItems"] : 0;
      const max = typeof out["maxItems"] === "number" ? out["maxItems"] : Infinity;
      if (level >= STOP_LEVEL) out["maxItems"] = min;
      else if (level >= ONE_ITEM_LEVEL) out["maxItems"] = Math.max(min, Math.min(max, 1));
      else {
        // Lists near the top are not empty: one or two items.
        const lo = Math.min(max, Math.max(min, 1));
        out["minItems"] = lo;
        out["maxItems"] = Math.max(lo, Math.min(max, 2));
      }
    }
    // Caps: no list longer than maxItems, no string longer than maxStringLength, whatever the schema asks.
    const { maxItems, maxStringLength } = this.host.currentMeter.limits;
    const where = pointer === undefined ? "a schema" : `#${pointer}`;
    if (isArray && typeof out["minItems"] === "number" && out["minItems"] > maxItems) {
      out[CAPPED] = { cap: "maxItems", what: `${where} asks for at least ${out["minItems"]} items; ${maxItems} generated`, asked: out["minItems"] };
      out["minItems"] = maxItems;
    }
    if (isArray && (typeof out["maxItems"] !== "number" || out["maxItems"] > maxItems)) out["maxItems"] = Math.max(typeof out["minItems"] === "number" ? out["minItems"] : 0, Math.min(maxItems, typeof out["maxItems"] === "number" ? out["maxItems"] : maxItems));
    if (typeof out["minLength"] === "number" && out["minLength"] > maxStringLength) {
      out[CAPPED] = { cap: "maxStringLength", what: `${where} asks for at least ${out["minLength"]} characters; ${maxStringLength} generated`, asked: out["minLength"] };
      out["minLength"] = maxStringLength;
      out[ORIGINAL_MAX_LENGTH] = out["maxLength"] ?? Infinity;
      out["maxLength"] = maxStringLength;
    }
    // Patterns: made by `patternString` (Unicode semantics, bounded) in the output transform, not by json-schema-faker.
    if (typeof out["pattern"] === "string") {
      out[PATTERN] = out["pattern"];
      delete out["pattern"];
    }
    // Long plain strings: json-schema-faker builds them one random character at a time, and realistic values
    // replace them anyway; a shorter upper bound for generation keeps them cheap (and still valid).
    if (typeof out["maxLength"] === "number" && out[PATTERN] === undefined && out[ORIGINAL_MAX_LENGTH] === undefined) {
      const min = typeof out["minLength"] === "number" ? out["minLength"] : 0;
      if (out["maxLength"] > Math.max(min, 40)) {
        out[ORIGINAL_MAX_LENGTH] = out["maxLength"];
        out["maxLength"] = Math.max(min, 40);
      }
    }
    return out;
  }
}
