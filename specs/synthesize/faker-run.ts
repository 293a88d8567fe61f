import { generateSync, type JsonSchema } from "json-schema-faker";
import { fromPointer } from "../json-pointer.js";
import { patternString } from "./pattern-string.js";
import { rethrowControl, type SynthesisMeter } from "./synthesis-meter.js";
import { realisticValue, type FieldHint } from "./values/realistic-value.js";
import { deriveSeed } from "../seed.js";
import { CAPPED, ORIGINAL_MAX_LENGTH, PATTERN, type PreparedNode } from "./faker-schema.js";
import { fieldHint } from "./synthesis-rules.js";
import { isObject, type Json } from "../json-object.js";

/** Options of one json-schema-faker generation. */
export interface FakerOptions {
  /** Strings and numbers replaced by realistic values by field name. */
  realistic: boolean;
  /** The schema's examples and defaults used as values. */
  examples: boolean;
  /** Probability of including an optional property. */
  optionals: number;
  /** Segments of the instance path of the generated node (names for realistic values). */
  base: string[];
  /** The name of the value at the root (a parameter's). */
  rootName?: string;
}

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

/**
 * json-schema-faker over prepared schema copies, its output transformed on the way: realistic values by
 * field name, strings for patterns by `patternString`, the work counted by the synthesis meter.
 */
export class FakerRun {
  /** `resolveRef` resolves the prepared copies' `$ref`s (see `PreparedSchemas.resolveRef`). */
  constructor(private readonly resolveRef: (ref: string) => JsonSchema) {}

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
        hint = fieldHint(state.base.length > 0 ? [...state.base, ...segments] : segments, state.rootName);
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
  generate(schema: PreparedNode, seed: number, meter: SynthesisMeter, options: FakerOptions): unknown {
    if (schema === false) return undefined;
    const saved = this.transformState;
    this.transformState = {
      meter,
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
        maxDepth: meter.limits.maxDepth,
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
}
