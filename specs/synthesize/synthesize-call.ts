import { derefNode, type Catalog } from "../catalog/catalog.js";
import { getAt } from "../json-pointer.js";
import { fitsPrimitive, isPrimitiveSchema, realisticValue } from "./values/realistic-value.js";
import { createRng, deriveSeed, type Rng } from "../seed.js";
import { synthesize } from "./synthesize.js";
import type { ParameterBinding, Tool } from "../catalog/tool.js";
import { validateCall } from "../call/validate-call.js";
import { BudgetExceeded, withBudget, type WorkBudget } from "./work-budget.js";
import { isObject, type Json } from "../json-object.js";

/** Options of `synthesizeArguments`. */
export interface SynthesizeArgumentsOptions {
  /** The seed: one seed, one set of arguments. */
  seed: number;
  /** Probability of passing an optional parameter (default 0.35). */
  optionals?: number;
  /** Caps and time budget of the work (default: those of the request in progress, see `withBudget`); past the time budget, `BudgetExceeded` is thrown. */
  budget?: WorkBudget;
}

/** The spec's own examples of a parameter or media type object: `example`, then the values of `examples`. */
function examplesOf(doc: unknown, pointer: string): unknown[] {
  const node = getAt(doc, pointer);
  if (!isObject(node)) return [];
  const out: unknown[] = [];
  if (node["example"] !== undefined) out.push(node["example"]);
  if (isObject(node["examples"])) {
    for (const [name, ex] of Object.entries(node["examples"])) {
      const { node: resolved } = derefNode(doc, ex, `${pointer}/examples/${name}`);
      if (isObject(resolved) && resolved["value"] !== undefined) out.push(resolved["value"]);
    }
  }
  return out;
}

/** The pointer of the object that owns a schema pointer: the parameter of `.../schema` or `.../content/<type>/schema`. */
function ownerOf(schemaPointer: string): string {
  return schemaPointer.replace(/\/content\/[^/]+\/schema$/, "").replace(/\/schema$/, "");
}

function isPlaceholder(v: unknown): boolean {
  return v === "" || v === "string" || v === null || v === undefined;
}

class ArgumentBuilder {
  private readonly doc: unknown;

  constructor(
    private readonly catalog: Catalog,
    private readonly tool: Tool,
    private readonly seed: number,
  ) {
    this.doc = catalog.spec.document;
  }

  /** A spec example that validates (parameters with coercion, as they arrive as strings over HTTP). */
  private validExample(candidates: unknown[], schemaPointer: string, coerce: boolean): unknown {
    if (candidates.length === 0) return undefined;
    const validate = this.catalog.registry.validatorAt("request", schemaPointer, coerce);
    for (const c of candidates) {
      if (isPlaceholder(c)) continue;
      try {
        if (validate(structuredClone(c))) return structuredClone(c);
      } catch {
        // an example the validator cannot take is simply not used
      }
    }
    return undefined;
  }

  parameter(p: ParameterBinding, attempt: number): unknown {
    const seed = deriveSeed(this.seed, this.tool.name, "param", p.in, p.name, attempt);
    if (p.schemaPointer === undefined) {
      const v = realisticValue({ type: "string", minLength: 1 }, { name: p.name }, seed);
      return typeof v === "string" && v !== "" ? v : "value";
    }
    if (attempt === 0) {
      const example = this.validExample(examplesOf(this.doc, ownerOf(p.schemaPointer)), p.schemaPointer, true);
      if (example !== undefined) return example;
      // A primitive schema (most parameters): its own example, else a realistic value, checked on the spot
      // (no validator to compile; validateCall has the last word, and later attempts take the careful path).
      const { schema } = this.catalog.registry.resolve("request", p.schemaPointer);
      if (isPrimitiveSchema(schema)) {
        const own = [...(Array.isArray(schema["examples"]) ? schema["examples"] : []), schema["example"]];
        for (const v of own) if (!isPlaceholder(v) && fitsPrimitive(schema, v) && (p.in !== "path" || usablePathValue(v))) return v;
        const v = realisticValue(schema, { name: p.name }, seed);
        if (v !== undefined && v !== null && fitsPrimitive(schema, v) && (p.in !== "path" || usablePathValue(v))) return v;
      }
    }
    // Parameters are checked as validateCall checks them: coerced from strings (which, inside a oneOf,
    // can turn a valid number into an invalid string), and path segments must not be empty.
    const check = this.catalog.registry.validatorAt("request", p.schemaPointer, true);
    const fits = (v: unknown): boolean => {
      if (p.in === "path" && !usablePathValue(v)) return false;
      try {
        return check(structuredClone(v)) === true;
      } catch {
        return false;
      }
    };
    let value: unknown;
    for (let i = 0; i < 5; i++) {
      value = synthesize(this.catalog.registry, "request", p.schemaPointer, { seed: i === 0 ? seed : deriveSeed(seed, "retry", i), name: p.name }).value;
      if (fits(value)) return value;
      if (typeof value === "number" || typeof value === "boolean") {
        if (fits(String(value))) return String(value);
      }
    }
    if (p.in === "path" && !usablePathValue(value)) {
      const fallback = realisticValue({ type: "string", minLength: 1 }, { name: p.name }, seed);
      if (typeof fallback === "string" && fallback !== "") value = fallback;
    }
    return value;
  }

  body(attempt: number): unknown {
    const body = this.tool.body;
    if (!body) return undefined;
    const seed = deriveSeed(this.seed, this.tool.name, "body", attempt);
    if (body.schemaPointer === undefined) {
      return /json/i.test(body.mediaType) ? {} : "sample";
    }
    if (attempt === 0) {
      // The media type object holds the body's examples.
      const example = this.validExample(examplesOf(this.doc, body.schemaPointer.replace(/\/schema$/, "")), body.schemaPointer, false);
      if (example !== undefined) return example;
    }
    return synthesize(this.catalog.registry, "request", body.schemaPointer, { seed }).value;
  }

  build(rng: Rng, optionals: number, attempt: number): Json {
    const args: Json = {};
    for (const p of this.tool.parameters) {
      const include = p.required || (attempt === 0 && rng.chance(optionals));
      if (!include) continue;
      args[p.arg] = this.parameter(p, attempt);
    }
    const body = this.tool.body;
    if (body) {
      const method = this.tool.operation.method;
      const include = body.required || ((method === "post" || method === "put" || method === "patch") && attempt < 2) || (attempt === 0 && rng.chance(0.5));
      if (include) {
        const value = this.body(attempt);
        if (body.mode === "wrapped" && body.arg !== undefined) {
          if (value !== undefined) args[body.arg] = value;
        } else if (body.mode === "flat") {
          const extra = this.bodyAllowsExtra();
          if (isObject(value)) {
            for (const [k, v] of Object.entries(value)) {
              if (k in body.properties || extra) {
                if (!(k in args)) args[k] = v;
              }
            }
          }
        }
      }
    }
    return args;
  }

  private bodyAllowsExtra(): boolean {
    const pointer = this.tool.body?.schemaPointer;
    if (pointer === undefined) return false;
    const { schema } = this.catalog.registry.resolve("request", pointer);
    if (!isObject(schema)) return false;
    const ap = schema["additionalProperties"];
    return ap === true || isObject(ap);
  }
}

function usablePathValue(v: unknown): boolean {
  if (typeof v === "string") return v.trim() !== "";
  if (typeof v === "number") return Number.isFinite(v);
  return typeof v === "boolean";
}

/**
 * Arguments for a tool call that pass `validateCall`: every required parameter and body property, some
 * optional ones, realistic by name, preferring the spec's own examples and enums. Path parameters are
 * never empty. Same catalog, tool and seed -> the same arguments. When no valid arguments are found
 * (a spec that cannot be satisfied), the last attempt is returned as it is.
 */
export function synthesizeArguments(catalog: Catalog, tool: Tool, options: SynthesizeArgumentsOptions): Record<string, unknown> {
  const budget = options.budget;
  if (budget !== undefined) return withBudget(budget, () => argumentsFor(catalog, tool, options));
  return argumentsFor(catalog, tool, options);
}

function argumentsFor(catalog: Catalog, tool: Tool, options: SynthesizeArgumentsOptions): Record<string, unknown> {
  const seed = options.seed >>> 0;
  const optionals = options.optionals ?? 0.35;
  const builder = new ArgumentBuilder(catalog, tool, seed);
  let last: Json = {};
  for (let attempt = 0; attempt < 4; attempt++) {
    const rng = createRng(deriveSeed(seed, tool.name, "choices", attempt));
    let args: Json;
    try {
      args = builder.build(rng, optionals, attempt);
    } catch (err) {
      if (err instanceof BudgetExceeded) throw err;
      continue;
    }
    last = args;
    if (validateCall(catalog, tool.name, args).ok) return args;
  }
  return last;
}
