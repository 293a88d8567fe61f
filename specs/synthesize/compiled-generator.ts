import { toPointer } from "../json-pointer.js";
import type { SchemaFlavor } from "../load/schema-flavor.js";
import { realisticGenerator } from "./values/realistic-value.js";
import { enter, type Generator, type GenerationRun } from "./generation-run.js";
import { GENERIC_HOLDERS, namesHint, NAMING, pickFrom, stringGenerator, type Names } from "./compiled-leaves.js";
import { disjointBranches, isBare, ofTypes, sameShape, typesOf } from "./schema-shape.js";
import {
  cloneJson,
  HARD_LEVEL,
  isNested,
  isNullSchema,
  KEYWORDS,
  MAX_OPTIONAL_NESTED,
  NON_GENERATIVE,
  ONE_ITEM_LEVEL,
  REQUIRED_ONLY_LEVEL,
  STOP_LEVEL,
} from "./synthesis-rules.js";
import { isObject, type Json } from "../json-object.js";

/** What the compiled generators need from the synthesizer that owns them. */
export interface GeneratorHost {
  /** Which side of the exchange: requests leave `readOnly` properties out, responses `writeOnly` ones. */
  readonly flavor: SchemaFlavor;
  /** The node at a pointer of the document. */
  nodeAt(pointer: string): unknown;
  /** Whether a value is valid for the schema at a pointer (false when that schema does not compile). */
  validAt(pointer: string, value: unknown): boolean;
  /** How much crossing a `$ref` to a target adds to the ref level (0 or 1). */
  levelStep(target: string): number;
  /** The values a node may take as they are: its valid examples, else its valid, non-zero default. */
  usableExamples(node: Json, pointer: string): readonly unknown[];
  /**
   * A value for the schema at a pointer by the general generator (json-schema-faker with realistic
   * values), for the shapes the compiled generators leave to it; undefined when it fails.
   */
  general(pointer: string, level: number, names: readonly string[], seed: number, optionals: number): unknown;
  /** Whether the schema at a pointer can reach itself through `$ref`s. */
  recursive(pointer: string): boolean;
  /** The size of the smallest value of a node (Infinity: it has no finite value; undefined: unknown). */
  minimalSize(node: unknown): number | undefined;
}

/** Keywords the compiled generators do not handle: nodes with them go to the general generator. */
const GENERAL_ONLY = new Set([
  "not", "if", "then", "else", "patternProperties", "dependentSchemas", "dependentRequired", "propertyNames",
  "contains", "minContains", "maxContains", "prefixItems", "additionalItems", "unevaluatedProperties",
  "unevaluatedItems", "dependencies",
]);

const MAX_COMPILE_DEPTH = 48;
/** Names of the fields that name a record (`id`, `uuid`, `code`, `symbol`, `bookId`, `country_code`, `iataCode`). */
const NAMING_FIELD = /^(id|uuid|code|iata|icao|symbol|slug)$|[a-z0-9](Id|_id|ID|Code|_code)$/;
/**
 * Generators compiled once per schema node (pointer, ref level and the names around it), like ajv compiles
 * validators: plain closures for the common shapes (objects, arrays, strings, numbers, booleans, enums,
 * `$ref`s, `allOf` of objects, nullable unions), realistic values by field name, valid examples first.
 * Shapes they do not handle (patterns of unknown names, `oneOf` with overlapping branches, `not`,
 * conditionals, pattern properties...) go to the host's general generator at that node.
 */
export class CompiledGenerators {
  private readonly cache = new Map<string, Generator>();
  private readonly general = new WeakSet<Generator>();

  constructor(private readonly host: GeneratorHost) {}

  /**
   * The generator of the schema at a pointer, for a value named `rootName` (a parameter) or unnamed (a body).
   * Undefined when the schema's root is a shape left to the general generator.
   */
  root(pointer: string, rootName: string | undefined): Generator | undefined {
    const gen = this.at(pointer, 0, rootName !== undefined ? { name: rootName, top: true } : TOP);
    return this.general.has(gen) ? undefined : gen;
  }

  /** The (cached) generator of the node at a pointer, at a ref level, with the names around it. */
  private at(pointer: string, level: number, names: Names): Generator {
    const key = `${level}|${names.name ?? ""}\u0001${names.p1 ?? ""}\u0001${names.p2 ?? ""}${names.top === true ? "\u0001^" : ""}|${pointer}`;
    let gen = this.cache.get(key);
    if (gen === undefined) {
      try {
        gen = this.compile(this.host.nodeAt(pointer), pointer, level, names, 0);
      } catch {
        gen = this.toGeneral(pointer, level, names);
      }
      this.cache.set(key, gen);
    }
    return gen;
  }

  private toGeneral(pointer: string, level: number, names: Names): Generator {
    const list: string[] = [];
    if (names.p2 !== undefined) list.push(names.p2);
    if (names.p1 !== undefined) list.push(names.p1);
    if (names.name !== undefined) list.push(names.name);
    const host = this.host;
    const gen: Generator = (run) => host.general(pointer, level, list, run.seed(), run.optionals);
    this.general.add(gen);
    return gen;
  }

  private compile(node: unknown, pointer: string, level: number, names: Names, depth: number): Generator {
    if (level > HARD_LEVEL) return () => null;
    if (node === true || node === undefined) return this.stringLeaf({ type: "string" }, pointer, level, names);
    if (!isObject(node) || depth > MAX_COMPILE_DEPTH) return this.toGeneral(pointer, level, names);

    // Keywords that shape the value (vendor keys, titles, readOnly... do not).
    let generative = 0;
    for (const key in node) {
      if (GENERAL_ONLY.has(key)) return this.toGeneral(pointer, level, names);
      if (KEYWORDS.has(key) && !NON_GENERATIVE.has(key)) generative++;
    }

    // The spec's own values first.
    const examples = this.host.usableExamples(node, pointer);
    if (examples.length === 1 && typeof examples[0] === "string" && NAMING.test(names.name ?? "") && !Array.isArray(node["enum"])) {
      // A spec's one example of a name names one record: the first record a value holds takes it, the others their own.
      const [only] = examples;
      const { example: _example, examples: _examples, default: _default, ...rest } = node;
      const own = this.stringLeaf({ ...rest, type: "string" }, pointer, level, names);
      return (run) => (run.takeOnce(pointer) ? only : own(run));
    }
    if (examples.length > 0) return pickFrom(examples);

    if (node["const"] !== undefined) {
      const value = node["const"];
      return typeof value === "object" && value !== null ? () => cloneJson(value) : () => value;
    }
    if (Array.isArray(node["enum"])) {
      const values = node["enum"] as unknown[];
      if (values.length === 0) return this.toGeneral(pointer, level, names);
      const nonNull = values.filter((v) => v !== null);
      if (level >= STOP_LEVEL && nonNull.length < values.length) return () => null;
      return pickFrom(nonNull.length > 0 ? nonNull : values);
    }
    if (generative === 0) return this.stringLeaf({ ...node, type: "string" }, pointer, level, names);

    const ref = node["$ref"];
    if (ref !== undefined) {
      // Beside a `$ref`, only a `type` (which the target states anyway) is left to the final validation.
      const extra = generative - 1 - (node["type"] !== undefined ? 1 : 0);
      if (extra > 0 || typeof ref !== "string" || !ref.startsWith("#")) return this.toGeneral(pointer, level, names);
      return this.refTo(ref, level, names);
    }
    if (node["allOf"] !== undefined) return this.allOf(node, pointer, level, names, depth, generative);
    if (node["anyOf"] !== undefined || node["oneOf"] !== undefined) return this.union(node, pointer, level, names, depth, generative);

    // Plain types.
    const types = typesOf(node);
    if (types === undefined) return this.toGeneral(pointer, level, names);
    const nullable = types.includes("null");
    const nonNull = types.filter((t) => t !== "null");
    if (nonNull.length === 0 || (nullable && level >= STOP_LEVEL)) return () => null;
    const gens = nonNull.map((type) => this.typed(type, node, pointer, level, names, depth));
    if (gens.some((g) => this.general.has(g))) return this.toGeneral(pointer, level, names);
    if (gens.length === 1) return gens[0] as Generator;
    return (run) => (gens[Math.floor(run.next() * gens.length)] as Generator)(run);
  }

  /** Whether a schema (through its `$ref`s) is an array's. */
  private isList(sub: unknown): boolean {
    let node = sub;
    for (let i = 0; i < 8 && isObject(node) && typeof node["$ref"] === "string" && node["$ref"].startsWith("#"); i++) {
      node = this.host.nodeAt(decodeURIComponent(node["$ref"].slice(1)));
    }
    if (!isObject(node)) return false;
    const t = node["type"];
    return t === "array" || (Array.isArray(t) && t.includes("array")) || (t === undefined && node["items"] !== undefined);
  }

  private refTo(ref: string, level: number, given: Names): Generator {
    const target = ref === "#" ? "" : decodeURIComponent(ref.slice(1));
    // An unnamed value (an answer's root, the items of an unnamed list) is named after its schema: the fields
    // of a `SegmentModel` are a segment's (its `name` is not a person's).
    const component = given.name === undefined || GENERIC_HOLDERS.test(given.name) ? componentNoun(target) : undefined;
    const names = component !== undefined ? { name: component, ...(given.top === true ? { top: true } : {}) } : given;
    const next = level + (target === "" ? 1 : this.host.levelStep(target));
    if (next > HARD_LEVEL) return () => null;
    let gen: Generator | undefined;
    if (!this.host.recursive(target)) return (run) => (gen ??= this.at(target, next, names))(run);
    // A schema met again inside its own value ends there: its smallest value (required properties only,
    // `minItems` items, the union branch that ends soonest), at the first level where the schema allows it.
    let smallest: Generator | undefined;
    return (run) => {
      if (run.isInside(target)) return (smallest ??= this.at(target, Math.max(next, STOP_LEVEL), names))(run);
      return run.within(target, () => (gen ??= this.at(target, next, names))(run));
    };
  }

  private typed(type: string, node: Json, pointer: string, level: number, names: Names, depth: number): Generator {
    switch (type) {
      case "object":
        return this.object([{ node, pointer, level }], pointer, level, names, depth);
      case "array":
        return this.array(node, pointer, level, names, depth);
      case "string":
        return this.stringLeaf(node["type"] === "string" ? node : { ...node, type: "string" }, pointer, level, names);
      case "integer":
      case "number":
        return this.numberLeaf(node["type"] === type ? node : { ...node, type }, pointer, level, names);
      case "boolean": {
        const realistic = realisticGenerator({ type: "boolean" }, namesHint(names));
        if (realistic === undefined) return (run) => run.next() < 0.5;
        return (run) => realistic(run.seed());
      }
      default:
        return this.toGeneral(pointer, level, names);
    }
  }

  // ------------------------------------------------------------ leaves
  private stringLeaf(schema: Json, pointer: string, level: number, names: Names): Generator {
    return stringGenerator(schema, pointer, names, () => this.toGeneral(pointer, level, names));
  }

  private numberLeaf(schema: Json, pointer: string, level: number, names: Names): Generator {
    const realistic = realisticGenerator(schema, namesHint(names));
    const general = this.toGeneral(pointer, level, names);
    if (realistic === undefined) return general;
    return (run) => {
      const v = realistic(run.seed());
      return typeof v === "number" ? v : general(run);
    };
  }

  // ------------------------------------------------------------ arrays

  private array(node: Json, pointer: string, level: number, names: Names, depth: number): Generator {
    const items = node["items"];
    if (Array.isArray(items)) return this.toGeneral(pointer, level, names);
    const item = items === undefined || items === true || isBare(items) ? this.stringLeaf({ type: "string" }, `${pointer}/items`, level, names) : this.compile(items, `${pointer}/items`, level, names, depth + 1);
    const min = typeof node["minItems"] === "number" ? Math.max(0, node["minItems"]) : 0;
    const max = typeof node["maxItems"] === "number" ? node["maxItems"] : Infinity;
    if (min > max) return this.toGeneral(pointer, level, names);
    // Lists near the top hold one or two items, deeper ones at most one, and recursion ends with the minimum.
    let lo = min;
    let hi = min;
    if (level < STOP_LEVEL) {
      if (level >= ONE_ITEM_LEVEL) hi = Math.max(min, Math.min(max, 1));
      else {
        lo = Math.min(max, Math.max(min, 1));
        hi = Math.max(lo, Math.min(max, 2));
      }
    }
    // Items that can take one value only (a single example, a `const`) are not repeated past `minItems`: a list
    // of copies of one record is a list of one.
    if (lo > 0 && this.singleValued(items, `${pointer}/items`)) hi = lo;
    // Items that cannot have a finite value (a schema that requires itself) leave the list empty where it may be.
    if (this.host.minimalSize(items) === Infinity) {
      if (min === 0) return () => [];
      return this.toGeneral(pointer, level, names);
    }
    const where = `#${pointer}`;
    const counted = (run: GenerationRun): number => {
      const count = run.int(lo, hi);
      const cap = run.meter.limits.maxItems;
      if (count <= cap) return count;
      run.meter.capped("maxItems", `${where} asks for at least ${min} items; ${cap} generated`, min);
      return cap;
    };
    if (node["uniqueItems"] !== true) {
      return (run) => {
        const count = counted(run);
        const out: unknown[] = [];
        if (!enter(run, where)) return out;
        for (let i = 0; i < count; i++) {
          run.meter.spend(1);
          if (run.meter.lenient && run.meter.full()) break;
          const v = item(run);
          if (v !== undefined) out.push(v);
        }
        run.depth--;
        return out;
      };
    }
    // Unique items: a repeated item is drawn again (a few times), else left out.
    return (run) => {
      const count = counted(run);
      const out: unknown[] = [];
      const seen = new Set<string>();
      if (!enter(run, where)) return out;
      for (let i = 0; i < count; i++) {
        run.meter.spend(1);
        if (run.meter.lenient && run.meter.full()) break;
        for (let t = 0; t < 4; t++) {
          const v = item(run);
          if (v === undefined) continue;
          const key = typeof v === "object" && v !== null ? JSON.stringify(v) : `${typeof v}:${String(v)}`;
          if (seen.has(key)) continue;
          seen.add(key);
          out.push(v);
          break;
        }
      }
      run.depth--;
      return out;
    };
  }

  /**
   * Whether a schema (through plain `$ref`s) draws one value only: a single usable example, a `const`, or an
   * object all of whose properties do (lists of such items too), so that two draws are copies of one record.
   */
  private singleValued(node: unknown, pointer: string, depth = 0): boolean {
    for (let hops = 0; hops < 8 && depth < 6 && isObject(node); hops++) {
      const ref = node["$ref"];
      if (typeof ref !== "string") {
        if (node["const"] !== undefined) return true;
        const examples = this.host.usableExamples(node, pointer).length;
        if (examples > 0) return examples === 1;
        // A list of such items (its length aside).
        if (node["type"] === "array" && depth > 0) return isObject(node["items"]) && this.singleValued(node["items"], `${pointer}/items`, depth + 1);
        const properties = node["properties"];
        if (!isObject(properties) || node["type"] !== "object" || node["additionalProperties"] === true || isObject(node["additionalProperties"]) || node["patternProperties"] !== undefined) return false;
        for (const key of Object.keys(node)) if (GENERAL_ONLY.has(key) || key === "allOf" || key === "anyOf" || key === "oneOf") return false;
        const names = Object.keys(properties);
        if (names.length === 0) return false;
        return names.every((name) => this.singleValued(properties[name], `${pointer}/properties${toPointer([name])}`, depth + 1));
      }
      if (!ref.startsWith("#") || Object.keys(node).some((k) => k !== "$ref" && KEYWORDS.has(k) && !NON_GENERATIVE.has(k))) return false;
      pointer = ref === "#" ? "" : decodeURIComponent(ref.slice(1));
      node = this.host.nodeAt(pointer);
    }
    return false;
  }

  // ------------------------------------------------------------ objects

  /**
   * An object from one or more parts (an `allOf` of objects gives several): each part's properties at the
   * part's own ref level, the union of the parts' `required`.
   */
  private object(parts: readonly Part[], pointer: string, level: number, names: Names, depth: number): Generator {
    const required = new Set<string>();
    for (const part of parts) {
      const list = part.node["required"];
      if (Array.isArray(list)) for (const r of list) if (typeof r === "string") required.add(r);
    }
    const hidden = this.host.flavor === "request" ? "readOnly" : "writeOnly";
    // Every definition of each property, over the parts, in order of first appearance.
    const definitions = new Map<string, Array<{ sub: unknown; at: string; level: number }>>();
    for (const part of parts) {
      const props = part.node["properties"];
      if (props === undefined) continue;
      if (!isObject(props)) return this.toGeneral(pointer, level, names);
      for (const key of Object.keys(props)) {
        if (key === "__proto__") return this.toGeneral(pointer, level, names);
        let list = definitions.get(key);
        if (!list) {
          list = [];
          definitions.set(key, list);
        }
        list.push({ sub: props[key], at: `${part.pointer}/properties${toPointer([key])}`, level: part.level });
      }
    }
    const fields: Array<{ key: string; required: boolean; naming?: boolean; gen: Generator }> = [];
    const seen = new Set<string>(definitions.keys());
    // An answer's own lists are what it answers (a country list's `country`): there, even when optional.
    const listsAlways = names.top === true && this.host.flavor === "response";
    const nestedByLevel = new Map<number, number>();
    for (const [key, defs] of definitions) {
      const first = defs[0] as { sub: unknown; at: string; level: number };
      let isRequired = required.has(key);
      if (!isRequired) {
        // Deep down, required properties only; an object that has none keeps its plain values (not `{}`).
        if (first.level >= REQUIRED_ONLY_LEVEL && (required.size > 0 || isNested(first.sub))) continue;
        // An optional property that can have no finite value (it requires itself) is left out.
        if (defs.some((d) => this.host.minimalSize(d.sub) === Infinity)) continue;
        if (defs.some((d) => isObject(d.sub) && d.sub[hidden] === true)) continue;
        if (listsAlways && this.isList(first.sub)) isRequired = true;
        // Below the top, only the first few optional nested objects and lists: bodies stay readable.
        if (first.level >= 1 && isNested(first.sub)) {
          const nested = (nestedByLevel.get(first.level) ?? 0) + 1;
          nestedByLevel.set(first.level, nested);
          if (nested > MAX_OPTIONAL_NESTED) continue;
        }
      }
      const childNames = /^\d+$/.test(key) ? names : { name: key, ...(names.name !== undefined ? { p1: names.name } : {}), ...(names.p1 !== undefined ? { p2: names.p1 } : {}) };
      let gen: Generator;
      if (defs.length === 1 || defs.every((d) => sameShape(d.sub, first.sub))) {
        const sub = first.sub;
        gen = sub === true || isBare(sub) ? this.stringLeaf({ type: "string", ...(isObject(sub) ? sub : {}) }, first.at, first.level, childNames) : this.compile(sub, first.at, first.level, childNames, depth + 1);
      } else {
        // Several parts define it differently: merged when all are plain objects, else left to the general generator.
        const subParts: Part[] = [];
        if (!defs.every((d) => this.objectParts(d.sub, d.at, d.level, subParts, 0))) return this.toGeneral(pointer, level, names);
        gen = this.object(subParts, first.at, first.level, childNames, depth + 1);
      }
      // An answer's record carries what names it (its id, its code) even when optional: later calls take it from there.
      const naming = !isRequired && this.host.flavor === "response" && NAMING_FIELD.test(key) && !isNested(first.sub);
      fields.push({ key, required: isRequired, ...(naming ? { naming } : {}), gen });
    }
    // Required names no part describes: the additional-properties schema, else a realistic string by name.
    const extraPart = parts.find((p) => isObject(p.node["additionalProperties"]));
    const extraGen = (key: string): Generator => {
      const childNames = /^\d+$/.test(key) ? names : { name: key, ...(names.name !== undefined ? { p1: names.name } : {}), ...(names.p1 !== undefined ? { p2: names.p1 } : {}) };
      return extraPart
        ? this.compile(extraPart.node["additionalProperties"], `${extraPart.pointer}/additionalProperties`, extraPart.level, childNames, depth + 1)
        : this.stringLeaf({ type: "string" }, pointer, level, childNames);
    };
    for (const key of required) {
      if (seen.has(key)) continue;
      if (key === "__proto__") return this.toGeneral(pointer, level, names);
      fields.push({ key, required: true, gen: extraGen(key) });
    }
    // Property counts (one part only: counts over merged parts are left to the general generator).
    let minProperties = 0;
    let maxProperties = Infinity;
    for (const part of parts) {
      const lo = part.node["minProperties"];
      const hi = part.node["maxProperties"];
      if (lo === undefined && hi === undefined) continue;
      if (parts.length > 1 || (lo !== undefined && typeof lo !== "number") || (hi !== undefined && typeof hi !== "number")) return this.toGeneral(pointer, level, names);
      if (typeof lo === "number") minProperties = lo;
      if (typeof hi === "number") maxProperties = hi;
    }
    const requiredCount = fields.filter((f) => f.required).length;
    if (requiredCount > maxProperties || minProperties > maxProperties) return this.toGeneral(pointer, level, names);
    const open = parts.every((p) => p.node["additionalProperties"] !== false);
    // Too few properties otherwise: every declared one, then made-up names where the object is open.
    const everyOptional = minProperties > requiredCount;
    const padding: Array<{ key: string; gen: Generator }> = [];
    if (everyOptional) {
      const declared = fields.length;
      if (declared < minProperties) {
        if (!open) return this.toGeneral(pointer, level, names);
        for (let i = 1; declared + padding.length < minProperties && i < 100; i++) {
          const key = `key${i}`;
          if (!seen.has(key)) padding.push({ key, gen: extraGen(key) });
        }
      }
    }
    // A map (no declared properties, values by an additional-properties schema) stays empty unless counted.
    const where = `#${pointer}`;
    return (run) => {
      const out: Json = {};
      if (!enter(run, where)) return out;
      const optionals = everyOptional ? 1 : run.optionals;
      let count = 0;
      let optionalRoom = maxProperties - requiredCount;
      for (const field of fields) {
        if (!field.required) {
          if (optionalRoom <= 0) continue;
          // The draw is made for a naming field too: the values after it are drawn as before.
          if (run.next() >= optionals && field.naming !== true) continue;
          if (run.meter.lenient && run.meter.full()) continue;
        }
        run.meter.spend(field.key.length + 4);
        const v = field.gen(run);
        if (v === undefined) continue;
        out[field.key] = v;
        count++;
        if (!field.required) optionalRoom--;
      }
      for (const extra of padding) {
        if (count >= minProperties) break;
        run.meter.spend(extra.key.length + 4);
        const v = extra.gen(run);
        if (v === undefined) continue;
        out[extra.key] = v;
        count++;
      }
      run.depth--;
      return out;
    };
  }

  /** `allOf`: one part as that part; several parts that are all plain objects, merged; else general. */
  private allOf(node: Json, pointer: string, level: number, names: Names, depth: number, generative: number): Generator {
    const list = node["allOf"];
    if (!Array.isArray(list) || list.length === 0) return this.toGeneral(pointer, level, names);
    if (list.length === 1 && generative === 1) {
      const only = list[0];
      if (isObject(only) && typeof only["$ref"] === "string" && Object.keys(only).every((k) => k === "$ref" || !KEYWORDS.has(k) || NON_GENERATIVE.has(k))) {
        return only["$ref"].startsWith("#") ? this.refTo(only["$ref"], level, names) : this.toGeneral(pointer, level, names);
      }
      return this.compile(only, `${pointer}/allOf/0`, level, names, depth + 1);
    }
    const parts: Part[] = [];
    if (!this.objectParts(node, pointer, level, parts, 0)) return this.toGeneral(pointer, level, names);
    return this.object(parts, pointer, level, names, depth);
  }

  /** Collects the object parts of a node (through `$ref`s and nested `allOf`s); false when a part is not a plain object. */
  private objectParts(node: unknown, pointer: string, level: number, parts: Part[], guard: number): boolean {
    if (!isObject(node) || guard > 16 || level > HARD_LEVEL) return false;
    for (const key in node) {
      if (!KEYWORDS.has(key) || NON_GENERATIVE.has(key)) continue;
      switch (key) {
        case "type":
          if (node["type"] !== "object") return false;
          break;
        case "properties":
        case "required":
        case "allOf":
        case "$ref":
          break;
        case "additionalProperties":
          if (node["additionalProperties"] === false) return false;
          break;
        default:
          return false;
      }
    }
    const ref = node["$ref"];
    if (ref !== undefined) {
      if (typeof ref !== "string" || !ref.startsWith("#/")) return false;
      if (Object.keys(node).some((k) => k !== "$ref" && KEYWORDS.has(k) && !NON_GENERATIVE.has(k))) return false;
      const target = decodeURIComponent(ref.slice(1));
      return this.objectParts(this.host.nodeAt(target), target, level + this.host.levelStep(target), parts, guard + 1);
    }
    parts.push({ node, pointer, level });
    const list = node["allOf"];
    if (list !== undefined) {
      if (!Array.isArray(list)) return false;
      for (let i = 0; i < list.length; i++) if (!this.objectParts(list[i], `${pointer}/allOf/${i}`, level, parts, guard + 1)) return false;
    }
    return true;
  }

  /**
   * `anyOf` / `oneOf` alone on a node: nullable wrappers (one branch and `null`), any `anyOf`, and a
   * `oneOf` whose branches cannot overlap (distinct plain types). A random branch is generated.
   */
  private union(node: Json, pointer: string, level: number, names: Names, depth: number, generative: number): Generator {
    const key = node["anyOf"] !== undefined ? "anyOf" : "oneOf";
    const list = node[key];
    // Beside the union, only a `type` (which the branches state anyway) is left to the final validation.
    const extra = generative - 1 - (node["type"] !== undefined ? 1 : 0);
    if (extra > 0 || node["anyOf"] !== undefined && node["oneOf"] !== undefined || !Array.isArray(list) || list.length === 0) return this.toGeneral(pointer, level, names);
    const branches = list.map((s, i) => [s, i] as const);
    const nulls = branches.filter(([s]) => isNullSchema(s));
    // Branches that can have no finite value (they require themselves) are never taken.
    let others = branches.filter(([s]) => !isNullSchema(s) && this.host.minimalSize(s) !== Infinity);
    if (others.length === 0 && nulls.length === 0) return this.toGeneral(pointer, level, names);
    if (others.length === 0 || (nulls.length > 0 && level >= STOP_LEVEL)) return () => null;
    if (level >= STOP_LEVEL && others.length > 1) {
      // Deep in a value, the branch whose smallest value is smallest: recursion ends as soon as it can.
      const size = (s: unknown): number => this.host.minimalSize(s) ?? Infinity;
      const smallest = others.reduce((best, b) => (size(b[0]) < size(best[0]) ? b : best));
      others = [smallest];
    }
    const gens = others.map(([s, i]) => this.compile(s, `${pointer}/${key}/${i}`, level, names, depth + 1));
    if (gens.every((g) => this.general.has(g))) return this.toGeneral(pointer, level, names);
    const typed = node["type"];
    if (typed !== undefined) {
      // The sibling `type` holds too: a branch's value of another type is no value (an optional property is left out).
      const types = typesOf(node) ?? [];
      return (run) => {
        const start = Math.floor(run.next() * gens.length);
        for (let k = 0; k < gens.length; k++) {
          const v = (gens[(start + k) % gens.length] as Generator)(run);
          if (v !== undefined && ofTypes(types, v) && (key === "anyOf" || gens.length === 1 || this.host.validAt(pointer, v))) return v;
        }
        return undefined;
      };
    }
    if (gens.length === 1) return gens[0] as Generator;
    if (key === "anyOf" || disjointBranches(others.map(([s]) => s), (p) => this.host.nodeAt(p))) return (run) => (gens[Math.floor(run.next() * gens.length)] as Generator)(run);
    // Branches that may overlap: a value is kept when exactly one branch accepts it (each branch tried in turn).
    const host = this.host;
    const pointers = list.map((_, i) => `${pointer}/${key}/${i}`);
    return (run) => {
      const start = Math.floor(run.next() * gens.length);
      for (let k = 0; k < gens.length; k++) {
        const v = (gens[(start + k) % gens.length] as Generator)(run);
        if (v === undefined) continue;
        let matches = 0;
        for (const p of pointers) if (host.validAt(p, v) && ++matches > 1) break;
        if (matches === 1) return v;
      }
      return undefined;
    };
  }
}

interface Part {
  node: Json;
  pointer: string;
  level: number;
}

/** The names of a whole answer: none, at the top. */
const TOP: Names = { top: true };

/** Suffixes of schema names that say how a record is sent, not what it is (`SegmentModel`, `UserDto`, `PetResponse`). */
const SCHEMA_SUFFIX = /(Model|Dto|DTO|Response|Resource|Schema|Object|Entity|Data|Details?|Info|Output|Result|Body|Payload|View|Representation|Record|_?[vV]\d+)$/;

/**
 * The noun a component schema is named for (`/components/schemas/SegmentModel` -> `Segment`, `MeModel` -> `user`),
 * or undefined for a pointer that is not a named schema.
 */
export function componentNoun(pointer: string): string | undefined {
  const m = /^\/(?:components\/schemas|definitions)\/([^/]+)$/.exec(pointer);
  if (!m) return undefined;
  let noun = (m[1] as string).replace(/~1/g, "/").replace(/~0/g, "~");
  for (let i = 0; i < 3 && SCHEMA_SUFFIX.test(noun) && noun.replace(SCHEMA_SUFFIX, "") !== ""; i++) noun = noun.replace(SCHEMA_SUFFIX, "");
  if (!/^[A-Za-z][A-Za-z0-9_.-]*$/.test(noun)) return undefined;
  return /^(me|self|whoami|current_?user)$/i.test(noun) ? "user" : noun;
}
