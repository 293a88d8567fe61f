import type { ErrorObject } from "ajv";
import { fromPointer } from "../json-pointer.js";
import { codePointLength } from "../load/patterns/code-point-sets.js";
import { numberIn } from "./values/number-values.js";
import { rethrowControl, valuePlace, type SynthesisMeter } from "./synthesis-meter.js";
import { createRng, deriveSeed } from "../seed.js";
import type { OwnOptions } from "./own-generator.js";
import type { FakerOptions } from "./faker-run.js";
import type { PreparedNode } from "./faker-schema.js";
import { REQUIRED_ONLY_LEVEL } from "./synthesis-rules.js";
import { isObject, type Json } from "../json-object.js";

/** What repairs need from the synthesizer that runs them. */
export interface RepairHost {
  /** The meter of the synthesis in progress. */
  readonly currentMeter: SynthesisMeter;
  /** A value by the own generator. */
  own(node: unknown, seed: number, options: OwnOptions): unknown;
  /** A value by json-schema-faker from a prepared schema; undefined when it throws. */
  jsf(schema: PreparedNode, seed: number, options: FakerOptions): unknown;
  /** The prepared copy of a schema node, as seen at a ref level. */
  prepareNode(node: unknown, level: number): PreparedNode;
  /** Whether a value is valid for a schema node. */
  validFor(node: unknown, value: unknown): boolean;
}

/**
 * Repairs of a synthesized value that its schema rejects: each error fixed where it is (a missing property
 * added, an extra one removed, a number or a length brought within bounds...), a failing composition
 * regenerated as a whole, deepest first, so that a fix is never lost to a replacement above it.
 */
export class ValueRepair {
  constructor(private readonly host: RepairHost) {}

  /** Fixes a value by the errors of its schema's verbose validator: how many fixes applied, and the new value. */
  repair(root: unknown, errors: readonly ErrorObject[], seed: number, round: number, rootName: string | undefined): { value: unknown; repairs: number } {
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
            const v = sub !== undefined ? this.regenerate(sub, [...path, name], seed, round, rootName).value : this.host.own({}, seed, { minimal: true, base: [...path, name], rootName });
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
            if (min > this.host.currentMeter.limits.maxStringLength) {
              this.host.currentMeter.capped("maxStringLength", `${valuePlace(path)} asks for at least ${min} characters; ${this.host.currentMeter.limits.maxStringLength} generated`, min);
              min = this.host.currentMeter.limits.maxStringLength;
            }
            if (typeof current === "string" && schema["pattern"] === undefined && schema["format"] === undefined) {
              const missing = min - codePointLength(current);
              const filler = "abcdefghijklmnopqrstuvwxyz";
              const s = missing > 0 ? current + filler.repeat(Math.ceil(missing / filler.length)).slice(0, missing) : current;
              this.host.currentMeter.spend(s.length);
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
            if (min > this.host.currentMeter.limits.maxItems) {
              this.host.currentMeter.capped("maxItems", `${valuePlace(path)} asks for at least ${min} items; ${this.host.currentMeter.limits.maxItems} generated`, min);
              min = this.host.currentMeter.limits.maxItems;
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
      this.host.own(schema, deriveSeed(seed, variant, b), { minimal: variant === "bm", all: variant === "ba", base, rootName, branch: b, level });
    if (ambiguous) for (let b = 0; b < branches; b++) tries.push(perBranch("ba", b));
    tries.push(
      () => this.host.jsf(this.host.prepareNode(schema, level), deriveSeed(seed, "r1"), { realistic: round < 3, examples: false, optionals: 0.5, base, ...withName }),
      () => this.host.own(schema, deriveSeed(seed, "o1"), { minimal: false, base, rootName, branch: round - 1, level }),
      () => this.host.own(schema, deriveSeed(seed, "o2"), { minimal: true, base, rootName, branch: round, level }),
      () => this.host.jsf(this.host.prepareNode(schema, level), deriveSeed(seed, "r2"), { realistic: false, examples: false, optionals: 0, base, ...withName }),
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
      if (this.host.validFor(schema, v)) return { value: v, valid: true };
    }
    return { value: last ?? null, valid: false };
  }
}

const MISSING = Symbol("missing");
const DELETE = Symbol("delete");

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
