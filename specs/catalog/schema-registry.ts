import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { LoadedSpec, SchemaDialect } from "../load/loaded-spec.js";
import { convertDocument, type SchemaFlavor } from "../load/schema-flavor.js";
import { addOpenApiFormats } from "./openapi-formats.js";
import { useLinearUniqueItems } from "./unique-items.js";
import { getAt, toFragment } from "../json-pointer.js";
import { linearRegExp } from "../load/patterns/linear-pattern.js";

let registryCounter = 0;

/**
 * The compiled view of one spec's schemas: the whole document converted to JSON Schema (once per flavor),
 * registered in ajv under a URI so that any schema in it is addressed by JSON pointer, and recursive
 * schemas stay `$ref`s. Validators are compiled on first use and cached.
 */
export class SchemaRegistry {
  readonly dialect: SchemaDialect;
  private readonly base: string;
  private readonly docs = new Map<SchemaFlavor, Record<string, unknown>>();
  private readonly source: unknown;
  private readonly ajvs = new Map<"coerce" | "strict", Ajv>();
  private readonly cache = new Map<string, ValidateFunction>();
  /** Validators by coercion, flavor and pointer, looked up without building a key. */
  private readonly byPointer = {
    strict: { request: new Map<string, ValidateFunction>(), response: new Map<string, ValidateFunction>() },
    coerce: { request: new Map<string, ValidateFunction>(), response: new Map<string, ValidateFunction>() },
  };
  private readonly resolved = { request: new Map<string, { pointer: string; schema: unknown }>(), response: new Map<string, { pointer: string; schema: unknown }>() };

  constructor(document: unknown, dialect: SchemaDialect) {
    this.dialect = dialect;
    this.source = document;
    this.base = `toolsim://spec-${++registryCounter}`;
  }

  /** The registry of a loaded spec (one per spec object). */
  static of(spec: LoadedSpec): SchemaRegistry {
    let reg = registries.get(spec);
    if (!reg) {
      reg = new SchemaRegistry(spec.document, spec.dialect);
      registries.set(spec, reg);
    }
    return reg;
  }

  /** The converted document of a flavor (JSON Schema everywhere a schema stands). */
  document(flavor: SchemaFlavor): Record<string, unknown> {
    let doc = this.docs.get(flavor);
    if (!doc) {
      doc = convertDocument(this.source, this.dialect, flavor);
      this.docs.set(flavor, doc);
    }
    return doc;
  }

  /** The absolute URI of the schema at a pointer, for use in `$ref`. */
  uri(flavor: SchemaFlavor, pointer: string): string {
    return `${this.base}/${flavor}${toFragment(pointer)}`;
  }

  /** A `$ref` schema pointing at the schema at a pointer. */
  ref(flavor: SchemaFlavor, pointer: string): { $ref: string } {
    return { $ref: this.uri(flavor, pointer) };
  }

  /** The converted schema node at a pointer (its own `$ref`s are document-relative). */
  at(flavor: SchemaFlavor, pointer: string): unknown {
    return getAt(this.document(flavor), pointer);
  }

  /** Follows document-internal `$ref`s from a pointer; returns the final pointer and node (stops on cycles). */
  resolve(flavor: SchemaFlavor, pointer: string): { pointer: string; schema: unknown } {
    const cache = this.resolved[flavor];
    let hit = cache.get(pointer);
    if (hit === undefined) {
      hit = this.follow(flavor, pointer);
      cache.set(pointer, hit);
    }
    return { pointer: hit.pointer, schema: hit.schema };
  }

  private follow(flavor: SchemaFlavor, pointer: string): { pointer: string; schema: unknown } {
    const seen = new Set<string>();
    let current = pointer;
    let node = this.at(flavor, current);
    while (node && typeof node === "object" && typeof (node as { $ref?: unknown }).$ref === "string") {
      const ref = (node as { $ref: string }).$ref;
      if (!ref.startsWith("#") || seen.has(ref)) break;
      seen.add(ref);
      current = decodeURIComponent(ref.slice(1));
      node = this.at(flavor, current);
    }
    return { pointer: current, schema: node };
  }

  /**
   * Compiles (and caches) a validator for a schema that may `$ref` into this registry by URI. Never throws
   * for a bad spec: a schema ajv cannot compile gets a validator that rejects every value with one
   * `schema-unusable` error saying why (see `unusableReason`). `where` names the schema in that message.
   */
  compile(schema: object, options: { coerce: boolean; key?: string; where?: string }): ValidateFunction {
    const key = options.key === undefined ? undefined : `${options.coerce ? "c" : "s"}:${options.key}`;
    if (key !== undefined) {
      const hit = this.cache.get(key);
      if (hit) return hit;
    }
    let fn: ValidateFunction;
    try {
      fn = guarded(this.ajv(options.coerce).compile(schema), options.where);
    } catch (err) {
      fn = unusableValidator(`${options.where ?? "a schema of the spec"} cannot be used: ${compileMessage(err)}`);
    }
    if (key !== undefined) this.cache.set(key, fn);
    return fn;
  }

  /** A validator for the schema at a pointer (one that rejects everything when the schema cannot be compiled). */
  validatorAt(flavor: SchemaFlavor, pointer: string, coerce = false): ValidateFunction {
    const cache = this.byPointer[coerce ? "coerce" : "strict"][flavor];
    let fn = cache.get(pointer);
    if (fn === undefined) {
      fn = this.compile(this.ref(flavor, pointer), { coerce, key: `${flavor}${pointer}`, where: `the schema at #${pointer}` });
      cache.set(pointer, fn);
    }
    return fn;
  }

  /** Why the schema at a pointer cannot be compiled, or undefined when it can. */
  compileError(flavor: SchemaFlavor, pointer: string): string | undefined {
    return unusableReason(this.validatorAt(flavor, pointer));
  }

  /**
   * Why each of many schemas cannot be compiled (pointers that compile are absent from the answer), without
   * keeping validators: schemas are compiled in batches (one validator refers to a few hundred of them, so
   * that ajv's fixed cost per compilation is paid once per batch and every `$ref` target once), and a batch
   * that fails is split until the schemas at fault are found. For checking huge specs.
   */
  compileErrors(flavor: SchemaFlavor, pointers: readonly string[]): Map<string, string> {
    // A checker of its own, with this flavor's document only, renewed now and then: compiled validators are
    // not kept (they are what checking a huge spec would otherwise hold in memory).
    let ajv = this.newAjv("check", [flavor]);
    let compiled = 0;
    const errors = new Map<string, string>();
    const check = (batch: readonly string[]): void => {
      if (batch.length === 0) return;
      const properties: Record<string, { $ref: string }> = {};
      batch.forEach((pointer, i) => (properties[String(i)] = this.ref(flavor, pointer)));
      const schema = { type: "object", properties };
      try {
        ajv.compile(schema);
        ajv.removeSchema(schema);
        return;
      } catch (err) {
        ajv.removeSchema(schema);
        if (batch.length === 1) {
          errors.set(batch[0] as string, `the schema at #${batch[0] as string} cannot be used: ${compileMessage(err)}`);
          return;
        }
      }
      const half = Math.ceil(batch.length / 2);
      check(batch.slice(0, half));
      check(batch.slice(half));
    };
    for (let i = 0; i < pointers.length; i += CHECK_BATCH) {
      check(pointers.slice(i, i + CHECK_BATCH));
      compiled += CHECK_BATCH;
      if (compiled >= CHECK_RENEW && i + CHECK_BATCH < pointers.length) {
        ajv = this.newAjv("check", [flavor]);
        compiled = 0;
      }
    }
    return errors;
  }

  private ajv(coerce: boolean): Ajv {
    const name = coerce ? "coerce" : "strict";
    let ajv = this.ajvs.get(name);
    if (!ajv) {
      ajv = this.newAjv(name, ["request", "response"]);
      this.ajvs.set(name, ajv);
    }
    return ajv;
  }

  /** An ajv with the documents of some flavors registered under their URIs. */
  private newAjv(purpose: "coerce" | "strict" | "check", flavors: readonly SchemaFlavor[]): Ajv {
    const coerce = purpose === "coerce";
    const check = purpose === "check";
    const options = {
      // Checking (`compileErrors`) needs no error details: whether a schema compiles does not depend on them.
      allErrors: !check,
      ...(check ? { messages: false } : {}),
      strict: false,
      // `strict: false` also lets Infinity and NaN pass as numbers (`1e309` in a JSON body parses to Infinity).
      strictNumbers: true,
      validateSchema: false,
      addUsedSchema: false,
      logger: false as const,
      coerceTypes: coerce ? ("array" as const) : false,
      // Properties named `constructor` or `toString` are checked on the object itself, not found on its prototype.
      ownProperties: true,
      // Patterns on a linear-time engine, with Unicode semantics (`\p{L}` is a letter): no input can stall validation.
      // Checking many schemas (`compileErrors`): every schema compiled once, `$ref`s called rather than inlined,
      // and no optimization passes (they cannot change whether a schema compiles).
      code: { regExp: linearRegExp, ...(check ? { optimize: false, lines: false } : {}) },
      ...(check ? { inlineRefs: false } : {}),
    };
    const ajv = this.dialect === "3.1" ? new Ajv2020(options) : new Ajv(options);
    addOpenApiFormats(ajv);
    useLinearUniqueItems(ajv);
    for (const flavor of flavors) {
      // A document ajv refuses (it throws) leaves every `$ref` into it unresolved: compiles then fail one by one.
      try {
        ajv.addSchema(this.document(flavor), `${this.base}/${flavor}`);
      } catch {
        // reported by `compile` as "can't resolve reference"
      }
    }
    return ajv;
  }
}

const registries = new WeakMap<LoadedSpec, SchemaRegistry>();

/** Schemas compiled together when checking many (see `compileErrors`). */
const CHECK_BATCH = 256;
/** Schemas checked by one checker before a new one (with nothing compiled yet) takes over. */
const CHECK_RENEW = 8192;

/** The keyword (and issue code) of the one error a validator of an unusable schema reports. */
export const UNUSABLE_SCHEMA = "schema-unusable";

const unusable = new WeakMap<ValidateFunction, string>();

/** Why a validator's schema could not be compiled (undefined: it is a real validator). */
export function unusableReason(fn: ValidateFunction): string | undefined {
  return unusable.get(fn);
}

/** A validator that rejects every value with one error: the reason its schema cannot be used. */
function unusableValidator(reason: string): ValidateFunction {
  const error: ErrorObject = { keyword: UNUSABLE_SCHEMA, instancePath: "", schemaPath: "#", params: {}, message: reason };
  const fn = function (): boolean {
    fn.errors = [error];
    return false;
  } as unknown as ValidateFunction;
  fn.errors = [error];
  unusable.set(fn, reason);
  return fn;
}

function compileMessage(err: unknown): string {
  if (err instanceof RangeError) return "its $refs recurse without end (a $ref cycle)";
  const message = err instanceof Error ? err.message : String(err);
  return message.split("\n")[0] ?? message;
}

/**
 * A validator that answers `false` with a `schema-unusable` error instead of throwing when the schema makes
 * ajv recurse forever at validation time (`A: {allOf: [{$ref: A}]}` in a document that skipped `loadSpec`).
 */
export function guarded(inner: ValidateFunction, where: string | undefined): ValidateFunction {
  const fn = function (this: unknown, data: unknown, context?: unknown): boolean {
    try {
      const valid = (inner as (this: unknown, data: unknown, context?: unknown) => boolean).call(this, data, context);
      fn.errors = inner.errors;
      return valid;
    } catch (err) {
      fn.errors = [{ keyword: UNUSABLE_SCHEMA, instancePath: "", schemaPath: "#", params: {}, message: `${where ?? "a schema of the spec"} cannot be used: ${compileMessage(err)}` }];
      return false;
    }
  } as unknown as ValidateFunction;
  fn.schema = inner.schema;
  fn.schemaEnv = inner.schemaEnv;
  return fn;
}
