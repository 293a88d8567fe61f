import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { generateSync, type JsonSchema } from "json-schema-faker";
import { fromPointer, getAt, toPointer } from "../json-pointer.js";
import { codePointLength } from "../load/code-point-sets.js";
import { patternTest } from "../load/linear-pattern.js";
import { MinimalSizes } from "./minimal-size.js";
import { patternString } from "./pattern-string.js";
import { CapReached, SynthesisMeter } from "./synthesis-meter.js";
import { BudgetExceeded, currentBudget, type WorkBudget } from "./work-budget.js";
import { addOpenApiFormats } from "../catalog/openapi-formats.js";
import { useLinearUniqueItems } from "../catalog/unique-items.js";
import { linearRegExp } from "../load/linear-pattern.js";
import { fitsPrimitive, isPrimitiveSchema, numberIn, realisticValue, type FieldHint } from "./realistic-value.js";
import type { SchemaFlavor } from "../load/schema-flavor.js";
import { guarded, unusableReason, type SchemaRegistry } from "../catalog/schema-registry.js";
import { createRng, deriveSeed, type Rng } from "../seed.js";
import { CompiledGenerators, GenerationRun, type GeneratorHost } from "./compiled-generator.js";
import {
  cloneJson,
  FORMAT_VALUES,
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

/** Options of `synthesize`. */
export interface SynthesizeOptions {
  /** The seed: one seed, one value, byte for byte. */
  seed: number;
  /** The name of the value (a parameter or property name), used to pick realistic values at the root. */
  name?: string;
  /** Probability of including an optional property near the top of the value (default 0.75). */
  optionals?: number;
  /**
   * The caps and time budget of the work (default: the budget of the request in progress, see `withBudget`,
   * else the default caps and no time limit). Reaching the time budget throws `BudgetExceeded`.
   */
  budget?: WorkBudget;
}

/** A synthesized value: whether it validates against its schema, and how many repairs it took. */
export interface Synthesized {
  value: unknown;
  valid: boolean;
  /** Fixes applied after generation (0 when the first value was valid). */
  repairs: number;
  /** Caps the value reached, and schemas with no finite value (each names where and which cap). */
  warnings: string[];
}

type Node = Json | boolean;

const MAX_ROUNDS = 8;
const REF_PREFIX = "#/~toolsim/";
/** Where a prepared copy keeps the real `maxLength` of a string whose generation bound was lowered. */
const ORIGINAL_MAX_LENGTH = "x-toolsim-maxLength";
/** Where a prepared copy keeps a string's `pattern` (made by `patternString`, not json-schema-faker's own generator). */
const PATTERN = "x-toolsim-pattern";
/** Where a prepared copy says which cap lowered one of its bounds (warned when a value is made from it). */
const CAPPED = "x-toolsim-capped";

/** Control-flow errors that no fallback may swallow: the time budget, and a value grown past its size cap. */
function rethrowControl(err: unknown): void {
  if (err instanceof BudgetExceeded || err instanceof CapReached) throw err;
}

const SUBSCHEMA_SINGLE = ["additionalProperties", "additionalItems", "contains", "propertyNames", "not", "if", "then", "else"] as const;

/** A schema that accepts anything is generated as a string (rather than a random type): still valid, reads better. */
function concrete(node: Node): Node {
  if (node === true) return { type: "string" };
  if (isObject(node) && Object.keys(node).every((k) => NON_GENERATIVE.has(k)) && node["examples"] === undefined && node["default"] === undefined) {
    return { type: "string" };
  }
  return node;
}

// ---------------------------------------------------------------- example checks

/** An example worth using: valid for its node, and not an editor placeholder. */
function primitiveFits(s: Json, v: unknown): boolean {
  if (v === "string" || v === "") return false;
  return fitsPrimitive(s, v);
}

// ---------------------------------------------------------------- per-registry state

interface TransformState {
  meter: SynthesisMeter;
  seed: number;
  realistic: boolean;
  /** Segments of the instance path of the generated node (names for realistic values). */
  base: string[];
  rootName?: string;
  /** Prefix of the cache key of field hints (root name and base path). */
  hintKey: string;
}

/** Field hints by root name, base path and path: computed once per shape, not per value. */
const hints = new Map<string, FieldHint>();

/** Everything `synthesize` caches for one registry and flavor: prepared schema copies, a node index, verbose validators. */
class Synthesizer implements GeneratorHost {
  readonly doc: Json;
  private readonly compiled: CompiledGenerators = new CompiledGenerators(this);
  private readonly usable = new WeakMap<object, readonly unknown[]>();
  private readonly prepared = new Map<string, Node>();
  private readonly preparedTrees = new WeakMap<object, Map<string, Node>>();
  private index: WeakMap<object, string> | undefined;
  private verboseAjv: Ajv | undefined;
  private readonly verbose = new Map<string, ValidateFunction>();
  private readonly exampleChecks = new Map<string, boolean>();
  private readonly sizes: MinimalSizes;
  /** The meter of the synthesis in progress (prepared copies are cut to its caps). */
  private meter: SynthesisMeter = new SynthesisMeter(undefined, "a value");

  /** The meter of the synthesis in progress. */
  get currentMeter(): SynthesisMeter {
    return this.meter;
  }

  constructor(
    readonly registry: SchemaRegistry,
    readonly flavor: SchemaFlavor,
  ) {
    this.doc = registry.document(flavor);
    this.sizes = new MinimalSizes(this.doc);
  }

  private readonly nodes = new Map<string, unknown>();

  /** The node at a pointer of the document (looked up once per pointer). */
  private nodeAtCached(pointer: string): unknown {
    let node = this.nodes.get(pointer);
    if (node === undefined && !this.nodes.has(pointer)) {
      node = getAt(this.doc, pointer);
      this.nodes.set(pointer, node);
    }
    return node;
  }

  /** The size of the smallest value of a node (Infinity: none exists; undefined: unknown). */
  minimalSize(node: unknown): number | undefined {
    if (node === undefined) return 1;
    if (isObject(node) && node["$ref"] === undefined && node["allOf"] === undefined && node["anyOf"] === undefined && node["oneOf"] === undefined && node["properties"] === undefined && node["items"] === undefined && node["required"] === undefined) return 1;
    return this.sizes.of(node);
  }

  // ------------------------------------------------------------ preparation (input for json-schema-faker)

  /** The prepared copy of the schema at a pointer, as seen at a ref level. */
  prepare(pointer: string, level: number): Node {
    const key = `${this.limitsKey()}|${level}|${pointer}`;
    let hit = this.prepared.get(key);
    if (hit === undefined) {
      hit = level > HARD_LEVEL ? false : this.clean(getAt(this.doc, pointer), pointer, level, 0);
      this.prepared.set(key, hit);
    }
    return hit;
  }

  /** The prepared copy of a node that is not addressable by pointer (e.g. a merged branch). */
  prepareNode(node: unknown, level: number): Node {
    if (!isObject(node)) return node === false ? false : {};
    const pointer = this.pointerOf(node);
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
    const l = this.meter.limits;
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

  private readonly steps = new Map<string, number>();
  private readonly refsInside = new Map<string, Set<string>>();

  /**
   * How much crossing a `$ref` to a target adds to the ref level: 0 for a small, non-recursive wrapper
   * (`{data: ...}` envelopes should not make the entity inside them sparse), else 1.
   */
  levelStep(target: string): number {
    let step = this.steps.get(target);
    if (step === undefined) {
      const node = getAt(this.doc, target);
      const props = isObject(node) && isObject(node["properties"]) ? Object.keys(node["properties"]).length : 0;
      const small = isObject(node) && node["$ref"] === undefined && props <= 2 && node["allOf"] === undefined && node["anyOf"] === undefined && node["oneOf"] === undefined;
      step = small && !this.recursive(target) ? 0 : 1;
      this.steps.set(target, step);
    }
    return step;
  }

  /** The internal `$ref` targets used anywhere inside the schema at a pointer. */
  private refsOf(pointer: string): Set<string> {
    let refs = this.refsInside.get(pointer);
    if (!refs) {
      const found = new Set<string>();
      const walk = (n: unknown, depth: number): void => {
        if (typeof n !== "object" || n === null || depth > 64) return;
        if (Array.isArray(n)) {
          for (const x of n) walk(x, depth + 1);
          return;
        }
        for (const [k, v] of Object.entries(n)) {
          if (k === "$ref" && typeof v === "string" && v.startsWith("#")) found.add(decodeURIComponent(v.slice(1)));
          else if (k !== "example" && k !== "examples" && k !== "default" && k !== "enum" && k !== "const") walk(v, depth + 1);
        }
      };
      walk(getAt(this.doc, pointer), 0);
      refs = found;
      this.refsInside.set(pointer, refs);
    }
    return refs;
  }

  /** Whether the schema at a pointer can reach itself through `$ref`s. */
  recursive(pointer: string): boolean {
    const seen = new Set<string>();
    const stack = [...this.refsOf(pointer)];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (next === pointer || pointer.startsWith(next + "/")) return true;
      if (seen.has(next) || seen.size > 5000) continue;
      seen.add(next);
      stack.push(...this.refsOf(next));
    }
    return false;
  }

  private exampleFits(node: Json, pointer: string | undefined, value: unknown): boolean {
    if (isPrimitiveSchema(node)) return primitiveFits(node, value);
    if (value === null || value === undefined || pointer === undefined) return false;
    const key = `${pointer}|${JSON.stringify(value)}`;
    let okay = this.exampleChecks.get(key);
    if (okay === undefined) {
      try {
        okay = this.registry.validatorAt(this.flavor, pointer)(structuredClone(value)) === true;
      } catch (err) {
        rethrowControl(err);
        okay = false;
      }
      this.exampleChecks.set(key, okay);
    }
    return okay;
  }

  /**
   * A copy of a schema for json-schema-faker: JSON Schema keywords only (so that vendor keys are never
   * taken for properties), nulls dropped from types and compositions (values are null only where recursion
   * stops), properties hidden in this flavor dropped, only valid examples kept, nested `$ref`s tagged with
   * their ref level, optional properties and array lengths reduced as the level grows.
   */
  private clean(node: unknown, pointer: string | undefined, level: number, depth: number): Node {
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
            out["$ref"] = `${REF_PREFIX}${level + this.levelStep(decodeURIComponent(value.slice(1)))}${value.slice(1)}`;
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
          const hidden = this.flavor === "request" ? "readOnly" : "writeOnly";
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
    const good = examples.filter((v) => this.exampleFits(node, pointer, v));
    if (good.length > 0) out["examples"] = good;
    // A default is what the server assumes when the value is left out: used only when there is no example,
    // and not when it is a zero value (0, "", false, empty), which reads worse than a realistic value.
    const dflt = node["default"];
    if (good.length === 0 && dflt !== undefined && !isZeroValue(dflt) && this.exampleFits(node, pointer, dflt)) out["default"] = dflt;
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
    const { maxItems, maxStringLength } = this.meter.limits;
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

  // ------------------------------------------------------------ json-schema-faker

  private transformState: TransformState | undefined;

  private transform = (value: unknown, schema: JsonSchema, path: string): unknown => {
    const state = this.transformState;
    if (!state) return value;
    state.meter.spend(typeof value === "string" ? value.length + 2 : 2);
    if (!isObject(schema)) return value;
    const capped = schema[CAPPED];
    if (isObject(capped)) state.meter.capped(capped["cap"] as "maxItems" | "maxStringLength", String(capped["what"]), capped["asked"] as number);
    if (value === undefined || value === null || typeof value === "object") return value;
    if (schema["examples"] !== undefined || schema["default"] !== undefined || schema["const"] !== undefined || schema["enum"] !== undefined) return value;
    const pattern = typeof schema[PATTERN] === "string" ? schema[PATTERN] : undefined;
    if (!state.realistic && pattern === undefined) return value;
    const original = schema[ORIGINAL_MAX_LENGTH];
    const maxLength = typeof original === "number" ? original : typeof schema["maxLength"] === "number" ? schema["maxLength"] : undefined;
    if (state.realistic) {
      const key = `${state.hintKey}${path}`;
      let hint = hints.get(key);
      if (hint === undefined) {
        const segments = path === "/" ? [] : fromPointer(path);
        hint = hintOf(state.base.length > 0 ? [...state.base, ...segments] : segments, state.rootName);
        if (hints.size > 20_000) hints.clear();
        hints.set(key, hint);
      }
      const full: Json = { ...schema, ...(maxLength !== undefined ? { maxLength } : {}), ...(pattern !== undefined ? { pattern } : {}) };
      delete full[ORIGINAL_MAX_LENGTH];
      const v = realisticValue(full, hint, deriveSeed(state.seed, path));
      if (v !== undefined) return v;
    }
    if (pattern !== undefined && typeof value === "string") {
      const minLength = typeof schema["minLength"] === "number" ? schema["minLength"] : undefined;
      const made = patternString(pattern, { seed: deriveSeed(state.seed, path, "pattern"), cap: state.meter.limits.maxStringLength, ...(minLength !== undefined ? { minLength } : {}), ...(maxLength !== undefined ? { maxLength } : {}) });
      if (made.ok) return made.value;
      if (made.reason === "cap") state.meter.capped("maxStringLength", `the pattern at ${path} matches no string shorter than ${made.minimum ?? 0} characters`);
    }
    return value;
  };

  /** Generates with json-schema-faker from a prepared schema; undefined when it throws. */
  jsf(schema: Node, seed: number, options: { realistic: boolean; examples: boolean; optionals: number; base: string[]; rootName?: string }): unknown {
    if (schema === false) return undefined;
    const saved = this.transformState;
    this.transformState = {
      meter: this.meter,
      seed,
      realistic: options.realistic,
      base: options.base,
      hintKey: `${options.rootName ?? ""}\u0000${options.base.join("/")}\u0000`,
      ...(options.rootName !== undefined ? { rootName: options.rootName } : {}),
    };
    try {
      return generateSync(schema as JsonSchema, {
        seed: seed | 0 || 1,
        refResolver: this.resolveRef,
        maxDepth: this.meter.limits.maxDepth,
        maxDefaultItems: 2,
        optionalsProbability: options.optionals,
        alwaysFakeOptionals: false,
        useExamplesValue: options.examples,
        useDefaultValue: options.examples,
        failOnInvalidTypes: false,
        // Built-in formats only: formats registered globally by other code must not change our output.
        formats: {},
        outputTransform: this.transform,
      });
    } catch (err) {
      rethrowControl(err);
      return undefined;
    } finally {
      this.transformState = saved;
    }
  }

  // ------------------------------------------------------------ validation with schema nodes

  /** Where a node of the converted document is (for local validators), if it is part of it. */
  pointerOf(node: object): string | undefined {
    if (!this.index) {
      const index = new WeakMap<object, string>();
      const walk = (n: unknown, pointer: string, depth: number): void => {
        if (typeof n !== "object" || n === null || depth > 200) return;
        if (index.has(n)) return;
        index.set(n, pointer);
        if (Array.isArray(n)) n.forEach((item, i) => walk(item, `${pointer}/${i}`, depth + 1));
        else for (const [k, v] of Object.entries(n)) walk(v, `${pointer}${toPointer([k])}`, depth + 1);
      };
      walk(this.doc, "", 0);
      this.index = index;
    }
    return this.index.get(node);
  }

  /** A validator reporting every error with the schema node it comes from. */
  verboseValidator(pointer: string): ValidateFunction {
    let fn = this.verbose.get(pointer);
    if (!fn) {
      if (!this.verboseAjv) {
        const options = {
          allErrors: true,
          verbose: true,
          strict: false,
          validateSchema: false,
          addUsedSchema: false,
          logger: false as const,
          coerceTypes: false as const,
          code: { regExp: linearRegExp },
        };
        const ajv = this.registry.dialect === "3.1" ? new Ajv2020(options) : new Ajv(options);
        addOpenApiFormats(ajv);
        useLinearUniqueItems(ajv);
        ajv.addSchema(this.doc, this.registry.uri(this.flavor, "").replace(/#$/, ""));
        this.verboseAjv = ajv;
      }
      try {
        fn = guarded(this.verboseAjv.compile(this.registry.ref(this.flavor, pointer)), `the schema at #${pointer}`);
      } catch {
        fn = this.registry.validatorAt(this.flavor, pointer); // unusable too: it says why
      }
      this.verbose.set(pointer, fn);
    }
    return fn;
  }

  /** Whether a value is valid for a schema node (by the registry's own validators when the node has a pointer). */
  validFor(node: unknown, value: unknown): boolean {
    if (node === true || (isObject(node) && Object.keys(node).length === 0)) return value !== undefined;
    if (!isObject(node)) return false;
    const pointer = this.pointerOf(node);
    if (pointer === undefined) return false;
    try {
      return this.registry.validatorAt(this.flavor, pointer)(value) === true;
    } catch {
      return false;
    }
  }

  // ------------------------------------------------------------ compiled generators (their host)

  nodeAt(pointer: string): unknown {
    return getAt(this.doc, pointer);
  }

  validAt(pointer: string, value: unknown): boolean {
    try {
      return this.registry.validatorAt(this.flavor, pointer)(value) === true;
    } catch {
      return false;
    }
  }

  usableExamples(node: Json, pointer: string): readonly unknown[] {
    let hit = this.usable.get(node);
    if (hit === undefined) {
      const examples: unknown[] = [];
      if (Array.isArray(node["examples"])) examples.push(...node["examples"]);
      if (node["example"] !== undefined) examples.push(node["example"]);
      const good = examples.filter((v) => this.exampleFits(node, pointer, v));
      // A default is what the server assumes when the value is left out: used only when there is no example,
      // and not when it is a zero value (0, "", false, empty), which reads worse than a realistic value.
      const dflt = node["default"];
      if (good.length === 0 && dflt !== undefined && !isZeroValue(dflt) && this.exampleFits(node, pointer, dflt)) good.push(dflt);
      hit = good;
      this.usable.set(node, hit);
    }
    return hit;
  }

  general(pointer: string, level: number, names: readonly string[], seed: number, optionals: number): unknown {
    const value = this.jsf(this.prepare(pointer, level), seed, { realistic: true, examples: true, optionals, base: [...names] });
    return detached(value);
  }

  /** A value from the compiled generators, or undefined when the schema's root is left to json-schema-faker. */
  private fast(pointer: string, seed: number, optionals: number, rootName: string | undefined): unknown {
    const gen = this.compiled.root(pointer, rootName);
    if (gen === undefined) return undefined;
    try {
      this.meter.startValue();
      return gen(new GenerationRun(seed, optionals, this.meter));
    } catch (err) {
      rethrowControl(err);
      return undefined;
    }
  }

  // ------------------------------------------------------------ synthesis

  synthesize(pointer: string, options: SynthesizeOptions): Synthesized {
    const budget = options.budget ?? currentBudget();
    const saved = this.meter;
    const meter = new SynthesisMeter(budget, `#${pointer}`);
    this.meter = meter;
    try {
      const result = (budget === undefined ? this.bounded(pointer, options) : budget.section(() => this.bounded(pointer, options))) as Synthesized;
      result.warnings = meter.warnings;
      return result;
    } finally {
      this.meter = saved;
    }
  }

  /**
   * Synthesis within the caps: a schema without any finite value, or a value that grows past `maxSize`, ends
   * in the smallest value the caps allow (cut where recursion cannot end), reported as not valid.
   */
  private bounded(pointer: string, options: SynthesizeOptions): Omit<Synthesized, "warnings"> {
    const root = this.nodeAtCached(pointer);
    const seed = deriveSeed(options.seed >>> 0, pointer);
    if (this.minimalSize(root) === Infinity) {
      this.meter.warn(`the schema at #${pointer} has no finite value (it requires itself at every level, e.g. through a required property or minItems): the value is cut where it recurses`);
      return this.smallest(root, seed, options.name);
    }
    try {
      return this.attempt(pointer, options);
    } catch (err) {
      if (!(err instanceof CapReached)) throw err;
      this.meter.capped("maxSize", `the value at #${pointer} grows larger than that; the smallest value within the caps is used`);
      return this.smallest(root, seed, options.name);
    }
  }

  /** The smallest value of a node within the caps (required properties, minimum lengths, recursion cut with null). */
  private smallest(root: unknown, seed: number, rootName: string | undefined): Omit<Synthesized, "warnings"> {
    this.meter.lenient = true;
    this.meter.startValue();
    const value = this.own(root, deriveSeed(seed, "smallest"), { minimal: true, base: [], rootName, cut: true });
    const valid = this.validFor(root, value);
    return { value: detached(value), valid, repairs: 0 };
  }

  private attempt(pointer: string, options: SynthesizeOptions): Omit<Synthesized, "warnings"> {
    // The pointer is part of the seed: two schemas under one seed do not share their values.
    const seed = deriveSeed(options.seed >>> 0, pointer);
    const optionals = options.optionals ?? 0.75;
    const rootName = options.name;
    const validate = this.registry.validatorAt(this.flavor, pointer);
    if (unusableReason(validate) !== undefined) {
      // The schema does not compile (a broken spec): generate without checking.
      this.meter.startValue();
      const value = this.jsf(this.prepare(pointer, 0), deriveSeed(seed, "jsf"), { realistic: true, examples: true, optionals, base: [], ...(rootName !== undefined ? { rootName } : {}) });
      return { value: detached(value ?? null), valid: false, repairs: 0 };
    }
    // The compiled generators first (values are fresh: nothing to detach); json-schema-faker and repairs when they fail.
    const quick = this.fast(pointer, deriveSeed(seed, "compiled"), optionals, rootName);
    if (quick !== undefined && validate(quick)) return { value: quick, valid: true, repairs: 0 };
    if (quick !== undefined && this.meter.cut) {
      // A cap cut the value: repairs would meet the same cap. The smallest value may leave the cut part out.
      this.meter.startValue();
      const small = this.own(getAt(this.doc, pointer), deriveSeed(seed, "minimal"), { minimal: true, base: [], rootName });
      if (validate(small)) return { value: detached(small), valid: true, repairs: 1 };
      return { value: quick, valid: false, repairs: 0 };
    }
    this.meter.startValue();
    let value = this.jsf(this.prepare(pointer, 0), deriveSeed(seed, "jsf"), { realistic: true, examples: true, optionals, base: [], ...(rootName !== undefined ? { rootName } : {}) });
    if (value === undefined) {
      this.meter.startValue();
      value = this.own(getAt(this.doc, pointer), deriveSeed(seed, "own"), { minimal: false, base: [], rootName });
    }
    if (validate(value)) return { value: detached(value), valid: true, repairs: 0 };

    let repairs = 0;
    const verbose = this.verboseValidator(pointer);
    let fewest = Infinity;
    let stale = 0;
    for (let round = 1; round <= MAX_ROUNDS; round++) {
      if (verbose(value)) break;
      const errors = verbose.errors ?? [];
      // No progress for two rounds: the rest is likely unsatisfiable; leave it to the last resort.
      if (errors.length < fewest) {
        fewest = errors.length;
        stale = 0;
      } else if (++stale >= 2) break;
      const fixed = this.repair(value, errors, deriveSeed(seed, "repair", round), round, rootName);
      value = fixed.value;
      repairs += fixed.repairs;
      if (validate(value)) return { value: detached(value), valid: true, repairs };
      if (fixed.repairs === 0) break;
    }
    // Last resort: generators of our own, from the schema as a whole.
    const root = getAt(this.doc, pointer);
    for (let attempt = 0; attempt < 6; attempt++) {
      this.meter.startValue();
      const candidate = this.own(root, deriveSeed(seed, "fallback", attempt), { minimal: attempt % 2 === 1, base: [], rootName, branch: Math.floor(attempt / 2) });
      if (validate(candidate)) return { value: detached(candidate), valid: true, repairs: repairs + 1 };
    }
    return { value: detached(value), valid: false, repairs };
  }

  // ------------------------------------------------------------ repair

  private repair(root: unknown, errors: readonly ErrorObject[], seed: number, round: number, rootName: string | undefined): { value: unknown; repairs: number } {
    const compositeKeywords = new Set(["oneOf", "anyOf", "not", "if", "then", "else", "false schema"]);
    const composites = errors.filter((e) => compositeKeywords.has(e.keyword));
    // Outermost composite failures: their node is regenerated as a whole, errors below them are moot.
    const regenerated: string[] = [];
    const sortedComposites = [...composites].sort((a, b) => a.instancePath.length - b.instancePath.length);
    const actions: Array<{ path: string[]; run: (current: unknown) => { value: unknown; changed: boolean } }> = [];
    const under = (path: string, prefix: string): boolean => path === prefix || path.startsWith(prefix + "/");
    for (const e of sortedComposites) {
      if (regenerated.some((p) => under(e.instancePath, p))) continue;
      if (e.keyword === "false schema") {
        regenerated.push(e.instancePath);
        const path = fromPointer(e.instancePath);
        actions.push({ path, run: () => ({ value: DELETE, changed: true }) });
        continue;
      }
      regenerated.push(e.instancePath);
      const path = fromPointer(e.instancePath);
      const schema = e.parentSchema;
      const ambiguous = e.keyword === "oneOf" && Array.isArray((e.params as { passingSchemas?: unknown }).passingSchemas);
      actions.push({ path, run: () => ({ value: this.replacement(schema, path, deriveSeed(seed, e.instancePath, "composite"), round, rootName, ambiguous), changed: true }) });
    }
    const seen = new Set<string>();
    for (const e of errors) {
      if (compositeKeywords.has(e.keyword)) continue;
      if (regenerated.some((p) => under(e.instancePath, p))) continue;
      const key = `${e.instancePath}|${e.keyword}|${JSON.stringify(e.params)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const path = fromPointer(e.instancePath);
      const action = this.fixFor(e, path, deriveSeed(seed, e.instancePath, e.keyword), round, rootName);
      if (action) {
        if (action.replaces) regenerated.push(e.instancePath);
        actions.push({ path, run: action.run });
      }
    }
    // Deepest first, so that replacing a node never loses a fix below it that was already applied.
    actions.sort((a, b) => b.path.length - a.path.length);
    let value = root;
    let repairs = 0;
    for (const action of actions) {
      const current = getPath(value, action.path);
      if (current === MISSING) continue;
      const result = action.run(current);
      if (!result.changed) continue;
      if (result.value === DELETE && (action.path.length === 0 || !isObject(getPath(value, action.path.slice(0, -1))))) continue;
      value = setPath(value, action.path, result.value);
      repairs++;
    }
    return { value, repairs };
  }

  private fixFor(
    e: ErrorObject,
    path: string[],
    seed: number,
    round: number,
    rootName: string | undefined,
  ): { replaces: boolean; run: (current: unknown) => { value: unknown; changed: boolean } } | undefined {
    const schema = isObject(e.parentSchema) ? e.parentSchema : {};
    const regen = {
      replaces: true,
      run: () => ({ value: this.replacement(schema, path, seed, round, rootName, false), changed: true }),
    };
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case "required":
      case "dependentRequired":
      case "dependencies": {
        const name = params["missingProperty"];
        if (typeof name !== "string") return regen;
        return {
          replaces: false,
          run: (current) => {
            if (!isObject(current)) return { value: current, changed: false };
            const props = isObject(schema["properties"]) ? schema["properties"] : {};
            const sub = props[name];
            const v = sub !== undefined ? this.regenerate(sub, [...path, name], seed, round, rootName).value : this.own({}, seed, { minimal: true, base: [...path, name], rootName });
            return { value: { ...current, [name]: v }, changed: true };
          },
        };
      }
      case "additionalProperties":
      case "unevaluatedProperties":
      case "propertyNames": {
        const name = params["additionalProperty"] ?? params["unevaluatedProperty"] ?? params["propertyName"];
        if (typeof name !== "string") return regen;
        return {
          replaces: false,
          run: (current) => {
            if (!isObject(current) || !(name in current)) return { value: current, changed: false };
            const copy = { ...current };
            delete copy[name];
            return { value: copy, changed: true };
          },
        };
      }
      case "enum": {
        const values = Array.isArray(schema["enum"]) ? schema["enum"] : [];
        if (values.length === 0) return undefined;
        const rng = createRng(seed);
        const nonNull = values.filter((v) => v !== null);
        return { replaces: true, run: () => ({ value: structuredClone(rng.pick(nonNull.length > 0 ? nonNull : values)), changed: true }) };
      }
      case "const":
        return { replaces: true, run: () => ({ value: structuredClone(schema["const"]), changed: true }) };
      case "minimum":
      case "maximum":
      case "exclusiveMinimum":
      case "exclusiveMaximum":
      case "multipleOf":
        return {
          replaces: true,
          run: (current) => {
            const integer = typeof current === "number" && Number.isInteger(current) && schema["type"] !== "number";
            const rng = createRng(seed);
            const v = numberIn(schema, integer || schema["type"] === "integer", { min: 1, max: 100, decimals: integer ? 0 : 2 }, rng.next);
            return { value: v ?? this.replacement(schema, path, seed, round, rootName, false), changed: true };
          },
        };
      case "maxLength":
        return {
          replaces: true,
          run: (current) => {
            const max = typeof schema["maxLength"] === "number" ? schema["maxLength"] : 0;
            if (typeof current === "string" && schema["pattern"] === undefined && schema["format"] === undefined) {
              return { value: [...current].slice(0, max).join(""), changed: true };
            }
            return { value: this.replacement(schema, path, seed, round, rootName, false), changed: true };
          },
        };
      case "minLength":
        return {
          replaces: true,
          run: (current) => {
            let min = typeof schema["minLength"] === "number" ? schema["minLength"] : 0;
            if (min > this.meter.limits.maxStringLength) {
              this.meter.capped("maxStringLength", `${where(path)} asks for at least ${min} characters; ${this.meter.limits.maxStringLength} generated`, min);
              min = this.meter.limits.maxStringLength;
            }
            if (typeof current === "string" && schema["pattern"] === undefined && schema["format"] === undefined) {
              const missing = min - codePointLength(current);
              const filler = "abcdefghijklmnopqrstuvwxyz";
              const s = missing > 0 ? current + filler.repeat(Math.ceil(missing / filler.length)).slice(0, missing) : current;
              this.meter.spend(s.length);
              return { value: s, changed: true };
            }
            return { value: this.replacement(schema, path, seed, round, rootName, false), changed: true };
          },
        };
      case "maxItems":
        return {
          replaces: false,
          run: (current) => {
            const max = typeof schema["maxItems"] === "number" ? schema["maxItems"] : 0;
            return Array.isArray(current) && current.length > max ? { value: current.slice(0, max), changed: true } : { value: current, changed: false };
          },
        };
      case "minItems":
        return {
          replaces: false,
          run: (current) => {
            if (!Array.isArray(current)) return { value: current, changed: false };
            let min = typeof schema["minItems"] === "number" ? schema["minItems"] : 0;
            if (min > this.meter.limits.maxItems) {
              this.meter.capped("maxItems", `${where(path)} asks for at least ${min} items; ${this.meter.limits.maxItems} generated`, min);
              min = this.meter.limits.maxItems;
            }
            const out = [...current];
            for (let i = out.length; i < min; i++) out.push(this.regenerate(itemSchemaAt(schema, i), [...path, String(i)], deriveSeed(seed, i), round, rootName).value);
            return { value: out, changed: true };
          },
        };
      case "uniqueItems":
        return {
          replaces: false,
          run: (current) => {
            if (!Array.isArray(current)) return { value: current, changed: false };
            const min = typeof schema["minItems"] === "number" ? schema["minItems"] : 0;
            const seenItems = new Set<string>();
            const out: unknown[] = [];
            for (let i = 0; i < current.length; i++) {
              let item = current[i];
              let key = JSON.stringify(item);
              for (let t = 0; seenItems.has(key) && t < 6; t++) {
                if (out.length + (current.length - i) > min) break;
                item = this.regenerate(itemSchemaAt(schema, i), [...path, String(i)], deriveSeed(seed, i, t), round + t, rootName).value;
                key = JSON.stringify(item);
              }
              if (seenItems.has(key)) continue;
              seenItems.add(key);
              out.push(item);
            }
            return { value: out, changed: true };
          },
        };
      case "contains":
      case "minContains":
        return {
          replaces: false,
          run: (current) => {
            if (!Array.isArray(current)) return { value: current, changed: false };
            const contains = schema["contains"];
            const v = this.regenerate(contains ?? {}, [...path, String(current.length)], seed, round, rootName).value;
            return { value: [...current, v], changed: true };
          },
        };
      case "maxProperties":
        return {
          replaces: false,
          run: (current) => {
            if (!isObject(current)) return { value: current, changed: false };
            const max = typeof schema["maxProperties"] === "number" ? schema["maxProperties"] : 0;
            const required = new Set(Array.isArray(schema["required"]) ? schema["required"] : []);
            const copy = { ...current };
            for (const k of Object.keys(copy).reverse()) {
              if (Object.keys(copy).length <= max) break;
              if (!required.has(k)) delete copy[k];
            }
            return { value: copy, changed: true };
          },
        };
      case "minProperties":
        return {
          replaces: false,
          run: (current) => {
            if (!isObject(current)) return { value: current, changed: false };
            const min = typeof schema["minProperties"] === "number" ? schema["minProperties"] : 0;
            const copy = { ...current };
            const props = isObject(schema["properties"]) ? schema["properties"] : {};
            for (const [k, sub] of Object.entries(props)) {
              if (Object.keys(copy).length >= min) break;
              if (!(k in copy)) copy[k] = this.regenerate(sub, [...path, k], deriveSeed(seed, k), round, rootName).value;
            }
            const extra = schema["additionalProperties"];
            for (let i = 1; Object.keys(copy).length < min && extra !== false && i < 1000; i++) {
              const k = `key${i}`;
              if (!(k in copy)) copy[k] = this.regenerate(isObject(extra) ? extra : {}, [...path, k], deriveSeed(seed, k), round, rootName).value;
            }
            return { value: copy, changed: true };
          },
        };
      default:
        return regen;
    }
  }

  /**
   * The value that replaces a failing node: a regenerated one, or (when nothing valid for the node can be
   * found and the node is an object's property) the property's removal, which is right whenever it is optional.
   */
  private replacement(schema: unknown, path: string[], seed: number, round: number, rootName: string | undefined, ambiguous: boolean): unknown {
    const r = this.regenerate(schema, path, seed, round, rootName, ambiguous);
    const last = path[path.length - 1];
    if (!r.valid && last !== undefined && !/^\d+$/.test(last)) return DELETE;
    return r.value;
  }

  /**
   * A new value for a node, checked against that node's schema alone: json-schema-faker first (realistic,
   * without examples), then the generators of this module (each branch of a composition in turn; for an
   * ambiguous `oneOf`, branches with every optional property first, as they tell the branches apart).
   */
  regenerate(schema: unknown, path: string[], seed: number, round: number, rootName: string | undefined, ambiguous = false): { value: unknown; valid: boolean } {
    const level = Math.min(REQUIRED_ONLY_LEVEL, Math.floor(path.length / 2));
    const base = path;
    const withName = rootName !== undefined ? { rootName } : {};
    const tries: Array<() => unknown> = [];
    const branches = branchCount(schema);
    const perBranch = (variant: "b" | "bm" | "ba", b: number) => () =>
      this.own(schema, deriveSeed(seed, variant, b), { minimal: variant === "bm", all: variant === "ba", base, rootName, branch: b, level });
    if (ambiguous) for (let b = 0; b < branches; b++) tries.push(perBranch("ba", b));
    tries.push(
      () => this.jsf(this.prepareNode(schema, level), deriveSeed(seed, "r1"), { realistic: round < 3, examples: false, optionals: 0.5, base, ...withName }),
      () => this.own(schema, deriveSeed(seed, "o1"), { minimal: false, base, rootName, branch: round - 1, level }),
      () => this.own(schema, deriveSeed(seed, "o2"), { minimal: true, base, rootName, branch: round, level }),
      () => this.jsf(this.prepareNode(schema, level), deriveSeed(seed, "r2"), { realistic: false, examples: false, optionals: 0, base, ...withName }),
    );
    for (let b = 0; b < branches; b++) {
      tries.push(perBranch("b", b), perBranch("bm", b));
      if (!ambiguous) tries.push(perBranch("ba", b));
    }
    let last: unknown;
    for (const attempt of tries) {
      let v: unknown;
      try {
        v = attempt();
      } catch (err) {
        rethrowControl(err);
        continue;
      }
      if (v === undefined) continue;
      last = v;
      if (this.validFor(schema, v)) return { value: v, valid: true };
    }
    return { value: last ?? null, valid: false };
  }

  // ------------------------------------------------------------ own generator

  /** A value from a schema node by this module's own generator (used for repairs and as the last resort). */
  own(node: unknown, seed: number, options: OwnOptions): unknown {
    const gen = new OwnGenerator(this, createRng(seed), seed, options);
    return gen.value(node, options.base, options.level ?? 0, 0);
  }
}

interface OwnOptions {
  /** Only required properties and minimum lengths. */
  minimal: boolean;
  /** The smallest value: the branches that end soonest, and null where a schema recursing without end is met again. */
  cut?: boolean;
  /** Every optional property. */
  all?: boolean;
  base: string[];
  rootName: string | undefined;
  /** Which branch of the first `oneOf`/`anyOf` met to take. */
  branch?: number;
  level?: number;
}

/** A copy that shares nothing with the schema (examples, enums and consts are picked by reference). */
function detached(value: unknown): unknown {
  return cloneJson(value);
}

const MISSING = Symbol("missing");
const DELETE = Symbol("delete");

/** A value's place in messages: `the value at /items/0` (the root: `the value`). */
function where(path: readonly string[]): string {
  return path.length === 0 ? "the value" : `the value at ${toPointer(path)}`;
}

function getPath(root: unknown, path: readonly string[]): unknown {
  let node: unknown = root;
  for (const seg of path) {
    if (Array.isArray(node)) {
      const i = Number(seg);
      if (!Number.isInteger(i) || i < 0 || i >= node.length) return MISSING;
      node = node[i];
    } else if (isObject(node)) {
      if (!(seg in node)) return MISSING;
      node = node[seg];
    } else return MISSING;
  }
  return node;
}

/** Sets (or deletes, with `DELETE`) the value at a path, copying the containers on the way (values are never shared). */
function setPath(root: unknown, path: readonly string[], value: unknown): unknown {
  if (path.length === 0) return value === DELETE ? null : value;
  const [head, ...rest] = path as [string, ...string[]];
  if (Array.isArray(root)) {
    const copy = [...root];
    const i = Number(head);
    if (rest.length === 0 && value === DELETE) copy.splice(i, 1);
    else copy[i] = setPath(copy[i], rest, value);
    return copy;
  }
  if (isObject(root)) {
    const copy = { ...root };
    if (rest.length === 0 && value === DELETE) delete copy[head];
    else copy[head] = setPath(copy[head], rest, value);
    return copy;
  }
  return root;
}

function itemSchemaAt(schema: Json, index: number): unknown {
  const prefix = Array.isArray(schema["prefixItems"]) ? schema["prefixItems"] : Array.isArray(schema["items"]) ? schema["items"] : undefined;
  if (prefix && index < prefix.length) return prefix[index];
  if (prefix) return schema["prefixItems"] !== undefined ? (schema["items"] ?? {}) : (schema["additionalItems"] ?? {});
  return schema["items"] ?? {};
}

function branchCount(schema: unknown): number {
  if (!isObject(schema)) return 0;
  const list = schema["oneOf"] ?? schema["anyOf"];
  return Array.isArray(list) ? Math.min(list.length, 8) : 0;
}

function hintOf(segments: readonly string[], rootName: string | undefined): FieldHint {
  const names = segments.filter((s) => !/^\d+$/.test(s));
  if (names.length === 0) return rootName !== undefined ? { name: rootName } : {};
  const name = names[names.length - 1] as string;
  const parents = rootName !== undefined ? [rootName, ...names.slice(0, -1)] : names.slice(0, -1);
  return { name, parents };
}

// ---------------------------------------------------------------- own generator

/** A schema flattened across `$ref` and `allOf`, with the compositions still to choose from. */
interface Flat {
  types?: string[];
  enum?: unknown[];
  const?: { value: unknown };
  properties: Map<string, unknown[]>;
  required: Set<string>;
  closedKeys?: Set<string>;
  additional: unknown[];
  patternProperties: Array<[string, unknown]>;
  items: unknown[];
  prefixItems?: unknown[];
  minItems: number;
  maxItems: number;
  uniqueItems: boolean;
  contains: unknown[];
  minLength: number;
  maxLength: number;
  patterns: string[];
  format?: string;
  bounds: Json;
  multipleOf?: number;
  minProperties: number;
  maxProperties: number;
  choices: Array<{ list: unknown[]; one: boolean }>;
  dependentRequired: Array<[string, string[]]>;
  examples: unknown[];
  impossible: boolean;
  levelUp: number;
}

function emptyFlat(): Flat {
  return {
    properties: new Map(),
    required: new Set(),
    additional: [],
    patternProperties: [],
    items: [],
    minItems: 0,
    maxItems: Infinity,
    uniqueItems: false,
    contains: [],
    minLength: 0,
    maxLength: Infinity,
    patterns: [],
    bounds: {},
    minProperties: 0,
    maxProperties: Infinity,
    choices: [],
    dependentRequired: [],
    examples: [],
    impossible: false,
    levelUp: 0,
  };
}

class OwnGenerator {
  constructor(
    private readonly synth: Synthesizer,
    private readonly rng: Rng,
    private readonly seed: number,
    private readonly options: OwnOptions,
  ) {}

  private branchUsed = false;

  /** Flattens `$ref`s and `allOf`s of a node into one description. */
  private flatten(node: unknown, flat: Flat, level: number, guard: number): void {
    if (guard > 40) return;
    if (node === false) {
      flat.impossible = true;
      return;
    }
    if (!isObject(node)) return;
    const ref = node["$ref"];
    if (typeof ref === "string") {
      if (ref.startsWith("#")) {
        const target = getAt(this.synth.doc, decodeURIComponent(ref.slice(1)));
        flat.levelUp = Math.max(flat.levelUp, 1);
        this.flatten(target, flat, level + 1, guard + 1);
      }
    }
    const t = node["type"];
    if (t !== undefined) {
      const types = (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === "string");
      if (flat.types === undefined) flat.types = types;
      else {
        const next = flat.types.filter((x) => types.includes(x) || (x === "integer" && types.includes("number")));
        for (const x of types) if (x === "integer" && flat.types.includes("number") && !next.includes("integer")) next.push("integer");
        flat.types = next;
      }
    }
    if (Array.isArray(node["enum"])) flat.enum = flat.enum === undefined ? [...node["enum"]] : flat.enum.filter((v) => (node["enum"] as unknown[]).some((w) => JSON.stringify(w) === JSON.stringify(v)));
    if (node["const"] !== undefined) flat.const = { value: node["const"] };
    if (isObject(node["properties"])) {
      for (const [k, v] of Object.entries(node["properties"])) {
        const list = flat.properties.get(k) ?? [];
        list.push(v);
        flat.properties.set(k, list);
      }
    }
    if (Array.isArray(node["required"])) for (const r of node["required"]) if (typeof r === "string") flat.required.add(r);
    if (node["additionalProperties"] === false || node["unevaluatedProperties"] === false) {
      const keys = new Set(isObject(node["properties"]) ? Object.keys(node["properties"]) : []);
      flat.closedKeys = flat.closedKeys === undefined ? keys : new Set([...flat.closedKeys].filter((k) => keys.has(k)));
    } else if (isObject(node["additionalProperties"])) flat.additional.push(node["additionalProperties"]);
    if (isObject(node["patternProperties"])) for (const [p, s] of Object.entries(node["patternProperties"])) flat.patternProperties.push([p, s]);
    if (Array.isArray(node["prefixItems"])) flat.prefixItems = node["prefixItems"];
    if (Array.isArray(node["items"])) {
      flat.prefixItems = node["items"];
      if (node["additionalItems"] !== undefined) flat.items.push(node["additionalItems"]);
    } else if (node["items"] !== undefined) flat.items.push(node["items"]);
    if (typeof node["minItems"] === "number") flat.minItems = Math.max(flat.minItems, node["minItems"]);
    if (typeof node["maxItems"] === "number") flat.maxItems = Math.min(flat.maxItems, node["maxItems"]);
    if (node["uniqueItems"] === true) flat.uniqueItems = true;
    if (node["contains"] !== undefined) flat.contains.push(node["contains"]);
    if (typeof node["minLength"] === "number") flat.minLength = Math.max(flat.minLength, node["minLength"]);
    if (typeof node["maxLength"] === "number") flat.maxLength = Math.min(flat.maxLength, node["maxLength"]);
    if (typeof node["pattern"] === "string") flat.patterns.push(node["pattern"]);
    if (typeof node["format"] === "string" && flat.format === undefined) flat.format = node["format"];
    for (const k of ["minimum", "exclusiveMinimum"] as const) {
      const v = node[k];
      if (typeof v === "number") flat.bounds[k] = typeof flat.bounds[k] === "number" ? Math.max(flat.bounds[k] as number, v) : v;
    }
    for (const k of ["maximum", "exclusiveMaximum"] as const) {
      const v = node[k];
      if (typeof v === "number") flat.bounds[k] = typeof flat.bounds[k] === "number" ? Math.min(flat.bounds[k] as number, v) : v;
    }
    if (typeof node["multipleOf"] === "number") flat.multipleOf = node["multipleOf"];
    if (typeof node["minProperties"] === "number") flat.minProperties = Math.max(flat.minProperties, node["minProperties"]);
    if (typeof node["maxProperties"] === "number") flat.maxProperties = Math.min(flat.maxProperties, node["maxProperties"]);
    if (isObject(node["dependentRequired"])) {
      for (const [k, v] of Object.entries(node["dependentRequired"])) if (Array.isArray(v)) flat.dependentRequired.push([k, v.filter((x): x is string => typeof x === "string")]);
    }
    if (Array.isArray(node["examples"])) flat.examples.push(...node["examples"]);
    if (node["example"] !== undefined) flat.examples.push(node["example"]);
    if (Array.isArray(node["allOf"])) for (const part of node["allOf"]) this.flatten(part, flat, level, guard + 1);
    if (Array.isArray(node["oneOf"])) flat.choices.push({ list: node["oneOf"], one: true });
    if (Array.isArray(node["anyOf"])) flat.choices.push({ list: node["anyOf"], one: false });
  }

  private chooseBranch(list: unknown[], level: number): unknown {
    const nulls = list.filter(isNullSchema);
    // Branches that can have no finite value (they require themselves) are never taken.
    const others = list.filter((s) => !isNullSchema(s) && this.synth.minimalSize(s) !== Infinity);
    if ((level >= STOP_LEVEL || this.options.cut === true) && nulls.length > 0) return nulls[0];
    const pool = others.length > 0 ? others : list;
    if (!this.branchUsed && this.options.branch !== undefined && this.options.cut !== true) {
      this.branchUsed = true;
      return pool[this.options.branch % pool.length];
    }
    if (level >= STOP_LEVEL || this.options.cut === true) {
      // Deep in a value (or for the smallest value), the branch that ends soonest.
      const size = (s: unknown): number => this.synth.minimalSize(s) ?? Infinity;
      return pool.reduce((best, b) => (size(b) < size(best) ? b : best));
    }
    return this.rng.pick(pool);
  }

  private readonly inside = new Map<string, number>();

  value(node: unknown, path: string[], level: number, depth: number): unknown {
    if (node === true || node === undefined) return this.anyValue(path);
    const meter = this.synth.currentMeter;
    meter.spend(2);
    if (level > HARD_LEVEL) return null;
    if (depth >= meter.limits.maxDepth) {
      meter.capped("maxDepth", `${where(path)} nests deeper than that`);
      return null;
    }
    // A recursive schema met again inside its own value ends there: its smallest value (or null, when it has none).
    const target = this.recursiveTarget(node, depth);
    if (target === undefined) return this.valueOf(node, path, level, depth);
    let at = level;
    if ((this.inside.get(target) ?? 0) > 0) {
      if (this.options.cut === true && this.synth.minimalSize(node) === Infinity) return null;
      at = Math.max(level, STOP_LEVEL);
    }
    this.inside.set(target, (this.inside.get(target) ?? 0) + 1);
    try {
      return this.valueOf(node, path, at, depth);
    } finally {
      this.inside.set(target, (this.inside.get(target) ?? 1) - 1);
    }
  }

  /** The recursive schema a node stands for (its `$ref` target, or the root schema itself), if any. */
  private recursiveTarget(node: unknown, depth: number): string | undefined {
    if (!isObject(node)) return undefined;
    const ref = node["$ref"];
    const target = typeof ref === "string" && ref.startsWith("#") ? (ref === "#" ? "" : decodeURIComponent(ref.slice(1))) : depth === 0 ? this.synth.pointerOf(node) : undefined;
    return target !== undefined && this.synth.recursive(target) ? target : undefined;
  }

  private valueOf(node: unknown, path: string[], level: number, depth: number): unknown {
    const flat = emptyFlat();
    this.flatten(node, flat, level, 0);
    // Resolve choices one at a time (a branch may bring more).
    for (let i = 0; i < flat.choices.length && i < 20; i++) {
      const choice = flat.choices[i];
      if (!choice || choice.list.length === 0) continue;
      this.flatten(this.chooseBranch(choice.list, level), flat, level, 0);
    }
    const nextLevel = level + flat.levelUp;
    if (flat.const !== undefined) return structuredClone(flat.const.value);
    if (flat.enum !== undefined && flat.enum.length > 0) {
      const nonNull = flat.enum.filter((v) => v !== null);
      if (nextLevel >= STOP_LEVEL && flat.enum.includes(null)) return null;
      return structuredClone(this.rng.pick(nonNull.length > 0 ? nonNull : flat.enum));
    }
    const type = this.pickType(flat, nextLevel);
    switch (type) {
      case "null":
        return null;
      case "boolean":
        return this.rng.chance(0.5);
      case "integer":
      case "number":
        return this.numberValue(flat, type === "integer", path);
      case "string": {
        const s = this.stringValue(flat, path);
        this.synth.currentMeter.spend(s.length);
        return s;
      }
      case "array":
        return this.arrayValue(flat, path, nextLevel, depth);
      case "object":
        return this.objectValue(flat, path, nextLevel, depth);
      default:
        return this.anyValue(path);
    }
  }

  private pickType(flat: Flat, level: number): string {
    let types = flat.types;
    if (types === undefined || types.length === 0) {
      if (flat.properties.size > 0 || flat.required.size > 0 || flat.additional.length > 0 || flat.minProperties > 0 || flat.closedKeys !== undefined) return "object";
      if (flat.items.length > 0 || flat.prefixItems !== undefined || flat.minItems > 0 || flat.maxItems < Infinity) return "array";
      if (flat.patterns.length > 0 || flat.format !== undefined || flat.minLength > 0 || flat.maxLength < Infinity) return "string";
      if (Object.keys(flat.bounds).length > 0 || flat.multipleOf !== undefined) return "number";
      return types === undefined ? "any" : "null";
    }
    if (level >= STOP_LEVEL && types.includes("null")) return "null";
    const nonNull = types.filter((t) => t !== "null");
    types = nonNull.length > 0 ? nonNull : types;
    return types[0] as string;
  }

  private fitsAll(schemas: readonly unknown[], v: unknown): boolean {
    if (schemas.length < 2) return true;
    return schemas.every((s) => !isObject(s) || this.synth.pointerOf(s) === undefined || this.synth.validFor(s, v));
  }

  private hint(path: readonly string[]): FieldHint {
    return hintOf(path, this.options.rootName);
  }

  private anyValue(path: string[]): unknown {
    const v = realisticValue({}, this.hint(path), deriveSeed(this.seed, ...path));
    return v === undefined ? "value" : v;
  }

  private numberValue(flat: Flat, integer: boolean, path: string[]): unknown {
    const schema: Json = { ...flat.bounds, ...(flat.multipleOf !== undefined ? { multipleOf: flat.multipleOf } : {}), type: integer ? "integer" : "number" };
    if (flat.format !== undefined) schema["format"] = flat.format;
    if (flat.format === "int32") {
      if (schema["minimum"] === undefined) schema["minimum"] = -2147483648;
      if (schema["maximum"] === undefined) schema["maximum"] = 2147483647;
    }
    const realistic = realisticValue(schema, this.hint(path), deriveSeed(this.seed, ...path));
    if (typeof realistic === "number") return realistic;
    const v = numberIn(schema, integer, { min: 0, max: 100, decimals: integer ? 0 : 2 }, this.rng.next);
    if (v !== undefined) return v;
    const lo = typeof flat.bounds["minimum"] === "number" ? flat.bounds["minimum"] : typeof flat.bounds["exclusiveMinimum"] === "number" ? flat.bounds["exclusiveMinimum"] + 1 : 0;
    return integer ? Math.ceil(lo) : lo;
  }

  private stringValue(flat: Flat, path: string[]): string {
    const meter = this.synth.currentMeter;
    const cap = meter.limits.maxStringLength;
    if (flat.minLength > cap) {
      // As long as the cap allows: too short for the schema, which the validation then says.
      meter.capped("maxStringLength", `${where(path)} asks for at least ${flat.minLength} characters; ${cap} generated`, flat.minLength);
      meter.spend(cap);
      return "sample ".repeat(Math.ceil(cap / 7)).slice(0, cap);
    }
    const schema: Json = { type: "string" };
    if (flat.minLength > 0) schema["minLength"] = flat.minLength;
    if (flat.maxLength < Infinity) schema["maxLength"] = flat.maxLength;
    if (flat.format !== undefined) schema["format"] = flat.format;
    const patterns = flat.patterns;
    const fits = (s: string): boolean => {
      const len = codePointLength(s);
      if (len < flat.minLength || len > flat.maxLength) return false;
      for (const p of patterns) if (!patternTest(p, s)) return false;
      return true;
    };
    for (const ex of flat.examples) if (typeof ex === "string" && ex !== "string" && fits(ex) && flat.format === undefined) return ex;
    if (patterns.length > 0) {
      for (let i = 0; i < patterns.length; i++) {
        const made = patternString(patterns[i] as string, {
          seed: deriveSeed(this.seed, "pattern", i),
          cap,
          ...(flat.minLength > 0 ? { minLength: flat.minLength } : {}),
          ...(flat.maxLength < Infinity ? { maxLength: flat.maxLength } : {}),
        });
        if (made.ok && fits(made.value)) return made.value;
        if (!made.ok && made.reason === "cap") meter.capped("maxStringLength", `the pattern of ${where(path)} matches no string shorter than ${made.minimum ?? 0} characters`);
      }
    }
    schema["pattern"] = patterns[0];
    if (patterns.length === 0) delete schema["pattern"];
    const realistic = realisticValue(schema, this.hint(path), deriveSeed(this.seed, ...path));
    if (typeof realistic === "string" && fits(realistic)) return realistic;
    if (flat.format !== undefined) {
      const f = FORMAT_VALUES[flat.format];
      if (f !== undefined && fits(f)) return f;
    }
    const word = "sample";
    let s = flat.minLength > word.length ? word.repeat(Math.ceil(flat.minLength / word.length)) : word;
    if (flat.maxLength < Infinity) s = [...s].slice(0, Math.max(flat.minLength, flat.maxLength)).join("");
    if ([...s].length > flat.maxLength) s = [...s].slice(0, flat.maxLength).join("");
    return s;
  }

  private arrayValue(flat: Flat, path: string[], level: number, depth: number): unknown[] {
    const meter = this.synth.currentMeter;
    let min = flat.minItems;
    if (min > meter.limits.maxItems) {
      meter.capped("maxItems", `${where(path)} asks for at least ${min} items; ${meter.limits.maxItems} generated`, min);
      min = meter.limits.maxItems;
    }
    let max = Math.min(flat.maxItems, min + (this.options.minimal ? 0 : level >= STOP_LEVEL ? 0 : level >= ONE_ITEM_LEVEL ? 1 : 2));
    if (flat.prefixItems !== undefined && flat.items.length === 0 && !this.options.minimal) max = Math.min(flat.maxItems, Math.max(min, flat.prefixItems.length));
    const count = this.options.minimal ? min : Math.max(min, Math.min(max, min + 1, meter.limits.maxItems));
    const out: unknown[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < count; i++) {
      if (meter.lenient && meter.full()) break;
      const itemNode = flat.prefixItems !== undefined && i < flat.prefixItems.length ? flat.prefixItems[i] : flat.items.length > 1 ? { allOf: flat.items } : flat.items[0];
      let v = this.value(itemNode ?? {}, [...path, String(i)], level, depth + 1);
      if (flat.uniqueItems) {
        for (let t = 0; seen.has(JSON.stringify(v)) && t < 8; t++) {
          const sub = new OwnGenerator(this.synth, createRng(deriveSeed(this.seed, "unique", i, t)), deriveSeed(this.seed, "unique", i, t), { ...this.options, minimal: false });
          v = sub.value(itemNode ?? {}, [...path, String(i), String(t)], level, depth + 1);
        }
        if (seen.has(JSON.stringify(v)) && out.length >= min) continue;
        seen.add(JSON.stringify(v));
      }
      out.push(v);
    }
    for (const c of flat.contains) {
      if (out.length < flat.maxItems) out.push(this.value(c, [...path, String(out.length)], level, depth + 1));
    }
    return out;
  }

  private objectValue(flat: Flat, path: string[], level: number, depth: number): Json {
    const out: Json = {};
    const hidden = this.synth.flavor === "request" ? "readOnly" : "writeOnly";
    const allowed = (k: string): boolean => flat.closedKeys === undefined || flat.closedKeys.has(k) || flat.patternProperties.some(([p]) => safeTest(p, k));
    const schemaFor = (k: string): unknown => {
      const list = [...(flat.properties.get(k) ?? [])];
      for (const [p, s] of flat.patternProperties) if (safeTest(p, k)) list.push(s);
      if (list.length === 0) return flat.additional.length > 0 ? (flat.additional.length === 1 ? flat.additional[0] : { allOf: flat.additional }) : undefined;
      return list.length === 1 ? list[0] : { allOf: list };
    };
    const required = new Set(flat.required);
    for (const [k, deps] of flat.dependentRequired) if (required.has(k)) for (const d of deps) required.add(d);
    const keys: string[] = [];
    for (const k of flat.properties.keys()) {
      if (!allowed(k)) continue;
      if (required.has(k)) {
        keys.push(k);
        continue;
      }
      if (this.options.minimal || level >= REQUIRED_ONLY_LEVEL) continue;
      const list = flat.properties.get(k) ?? [];
      if (list.some((s) => isObject(s) && s[hidden] === true)) continue;
      if (list.some((s) => this.synth.minimalSize(s) === Infinity)) continue;
      if (this.options.all || this.rng.chance(0.6)) keys.push(k);
    }
    for (const k of required) if (!keys.includes(k)) keys.push(k);
    for (const k of keys) {
      const s = schemaFor(k);
      const v = s === undefined ? this.anyValue([...path, k]) : this.value(s, [...path, k], level, depth + 1);
      // An optional property whose schemas disagree (e.g. two allOf parts with other types) is left out.
      if (!required.has(k) && !this.fitsAll(flat.properties.get(k) ?? [], v)) continue;
      out[k] = v;
    }
    // minProperties: more declared properties, then made-up names where allowed.
    for (const k of flat.properties.keys()) {
      if (Object.keys(out).length >= flat.minProperties) break;
      if (!(k in out) && allowed(k)) out[k] = this.value(schemaFor(k), [...path, k], level, depth + 1);
    }
    for (let i = 1; Object.keys(out).length < flat.minProperties && flat.closedKeys === undefined && i < 500; i++) {
      const k = `key${i}`;
      if (!(k in out)) out[k] = this.value(schemaFor(k) ?? {}, [...path, k], level, depth + 1);
    }
    if (Object.keys(out).length > flat.maxProperties) {
      for (const k of Object.keys(out).reverse()) {
        if (Object.keys(out).length <= flat.maxProperties) break;
        if (!required.has(k)) delete out[k];
      }
    }
    return out;
  }
}

function safeTest(pattern: string, s: string): boolean {
  return patternTest(pattern, s);
}

const synthesizers = new WeakMap<SchemaRegistry, Map<SchemaFlavor, Synthesizer>>();

function synthesizerOf(registry: SchemaRegistry, flavor: SchemaFlavor): Synthesizer {
  let byFlavor = synthesizers.get(registry);
  if (!byFlavor) {
    byFlavor = new Map();
    synthesizers.set(registry, byFlavor);
  }
  let s = byFlavor.get(flavor);
  if (!s) {
    s = new Synthesizer(registry, flavor);
    byFlavor.set(flavor, s);
  }
  return s;
}

/**
 * Synthesizes a value for the schema at a pointer of a spec, seeded, with realistic values by field name and
 * valid examples: generators compiled once per schema node first (json-schema-faker for the shapes they
 * leave to it), always validated against the schema; when that value fails, json-schema-faker on the whole
 * schema, repaired until valid (bounded rounds, then generators of our own). Same registry, pointer and seed
 * -> the same value.
 */
export function synthesize(registry: SchemaRegistry, flavor: SchemaFlavor, pointer: string, options: SynthesizeOptions): Synthesized {
  return synthesizerOf(registry, flavor).synthesize(pointer, options);
}
