import { getAt } from "../json-pointer.js";
import { codePointLength } from "../load/patterns/code-point-sets.js";
import { patternTest } from "../load/patterns/linear-pattern.js";
import { patternString } from "./pattern-string.js";
import { valuePlace, type SynthesisMeter } from "./synthesis-meter.js";
import { realisticValue, type FieldHint } from "./values/realistic-value.js";
import { numberIn } from "./values/number-values.js";
import type { SchemaFlavor } from "../load/schema-flavor.js";
import { createRng, deriveSeed, type Rng } from "../seed.js";
import { FORMAT_VALUES, HARD_LEVEL, isNullSchema, ONE_ITEM_LEVEL, REQUIRED_ONLY_LEVEL, STOP_LEVEL, fieldHint } from "./synthesis-rules.js";
import { isObject, type Json } from "../json-object.js";

/** What the own generator needs from the synthesizer that runs it. */
export interface OwnHost {
  /** The converted document (targets of `$ref`s). */
  readonly doc: Json;
  /** Which side of the exchange: requests leave `readOnly` properties out, responses `writeOnly` ones. */
  readonly flavor: SchemaFlavor;
  /** The meter of the synthesis in progress. */
  readonly currentMeter: SynthesisMeter;
  /** The size of the smallest value of a node (Infinity: none exists; undefined: unknown). */
  minimalSize(node: unknown): number | undefined;
  /** Where a node of the document is, if it is part of it. */
  pointerOf(node: object): string | undefined;
  /** Whether the schema at a pointer can reach itself through `$ref`s. */
  recursive(pointer: string): boolean;
  /** Whether a value is valid for a schema node. */
  validFor(node: unknown, value: unknown): boolean;
}

/** Options of the own generator. */
export interface OwnOptions {
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

/**
 * The synthesizer's own generator: a schema flattened across `$ref` and `allOf`, one branch of each
 * composition, values by field name; within the caps (recursion cut, strings and lists capped).
 */
class OwnGenerator {
  constructor(
    private readonly synth: OwnHost,
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
      meter.capped("maxDepth", `${valuePlace(path)} nests deeper than that`);
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
    return fieldHint(path, this.options.rootName);
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
      meter.capped("maxStringLength", `${valuePlace(path)} asks for at least ${flat.minLength} characters; ${cap} generated`, flat.minLength);
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
        if (!made.ok && made.reason === "cap") meter.capped("maxStringLength", `the pattern of ${valuePlace(path)} matches no string shorter than ${made.minimum ?? 0} characters`);
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
      meter.capped("maxItems", `${valuePlace(path)} asks for at least ${min} items; ${meter.limits.maxItems} generated`, min);
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
    const allowed = (k: string): boolean => flat.closedKeys === undefined || flat.closedKeys.has(k) || flat.patternProperties.some(([p]) => patternTest(p, k));
    const schemaFor = (k: string): unknown => {
      const list = [...(flat.properties.get(k) ?? [])];
      for (const [p, s] of flat.patternProperties) if (patternTest(p, k)) list.push(s);
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

/** A value from a schema node by the synthesizer's own generator (used for repairs and as the last resort). */
export function ownValue(host: OwnHost, node: unknown, seed: number, options: OwnOptions): unknown {
  const gen = new OwnGenerator(host, createRng(seed), seed, options);
  return gen.value(node, options.base, options.level ?? 0, 0);
}
