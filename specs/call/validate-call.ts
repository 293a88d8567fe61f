import { notANumberText, numericType } from "./number-text.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { Catalog } from "../catalog/catalog.js";
import { bodyOf, toHttpRequest, type HttpRequest } from "./http-request.js";
import { nearestNames } from "../catalog/nearest-names.js";
import type { ProblemDetails, ValidationIssue } from "./problem-details.js";
import { fromPointer } from "../json-pointer.js";
import { UNUSABLE_SCHEMA, unusableReason } from "../catalog/schema-registry.js";
import { cloneJson } from "../synthesize/synthesis-rules.js";
import type { ParameterBinding, Tool } from "../catalog/tool.js";
import { hasOwn } from "../own-property.js";
import { PLACEHOLDER } from "../redact-secrets.js";
import { jsonTextDepth, MAX_JSON_DEPTH, valueDepth } from "./json-depth.js";
import { isObject, type Json } from "../json-object.js";

/** A call that passed validation: coerced arguments and the HTTP request they stand for. */
export interface ValidatedCall {
  tool: Tool;
  /** The arguments after coercion of parameter strings (bodies are never coerced). */
  args: Record<string, unknown>;
  body: unknown;
  request: HttpRequest;
}

/** The outcome of validating a call: the validated call, or all its errors as problem details. */
export type CallValidation =
  | { ok: true; value: ValidatedCall }
  | { ok: false; errors: ValidationIssue[]; problem: ProblemDetails; tool?: Tool; request?: HttpRequest };

/** Turns ajv errors into located issues: `prefix` is e.g. `["query"]` or `["body"]`. */
export function issuesFromAjv(errors: readonly ErrorObject[] | null | undefined, prefix: (segments: string[]) => string[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    const segments = fromPointer(e.instancePath);
    if (e.keyword === "required" && typeof e.params["missingProperty"] === "string") segments.push(e.params["missingProperty"]);
    if (e.keyword === "additionalProperties" && typeof e.params["additionalProperty"] === "string") segments.push(e.params["additionalProperty"]);
    const location = prefix(segments);
    let message = e.message ?? e.keyword;
    if (e.keyword === "enum" && Array.isArray(e.params["allowedValues"])) {
      message = `must be one of: ${e.params["allowedValues"].map((v: unknown) => JSON.stringify(v)).join(", ")}`;
    }
    const key = `${location.join("/")}|${e.keyword}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ location, code: e.keyword, message, severity: "Error" });
  }
  return out;
}

function problem(status: number, title: string, detail: string, validation?: ValidationIssue[]): ProblemDetails {
  return {
    type: status === 422 ? "https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY" : `https://toolsim.dev/problems/${title.toLowerCase().replace(/\s+/g, "-")}`,
    status,
    title,
    detail,
    ...(validation ? { validation } : {}),
  };
}

/** Parses arguments given as an object or as a JSON string (as models send them). */
export function parseArguments(raw: unknown): { ok: true; value: Json } | { ok: false; message: string } {
  if (raw === undefined || raw === null || raw === "") return { ok: true, value: {} };
  const tooDeep = `arguments are nested more than ${MAX_JSON_DEPTH} levels deep`;
  if (typeof raw === "string") {
    if (jsonTextDepth(raw) > MAX_JSON_DEPTH) return { ok: false, message: tooDeep };
    try {
      const parsed: unknown = JSON.parse(raw);
      return isObject(parsed) ? { ok: true, value: parsed } : { ok: false, message: "arguments must be a JSON object" };
    } catch (e) {
      return { ok: false, message: `arguments are not valid JSON: ${(e as Error).message}` };
    }
  }
  if (!isObject(raw)) return { ok: false, message: "arguments must be an object" };
  // Copied with a depth limit (the copy, the validators and the responders recurse): too deep is an error, not a stack overflow.
  const copy = copyWithin(raw, MAX_JSON_DEPTH);
  return copy === TOO_DEEP ? { ok: false, message: tooDeep } : { ok: true, value: copy as Json };
}

const TOO_DEEP: unique symbol = Symbol("too deep");

/**
 * A deep copy of arguments (plain objects and arrays copied, anything else by `cloneJson`), or TOO_DEEP when they
 * nest more than `levels` objects and arrays deep. One pass: the depth is checked as the copy is made.
 */
function copyWithin(value: object, levels: number): unknown {
  if (levels <= 0) return TOO_DEEP;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === "object" && v !== null) {
        const c = copyWithin(v, levels - 1);
        if (c === TOO_DEEP) return TOO_DEEP;
        out[i] = c;
      } else out[i] = v;
    }
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return valueDepth(value, levels + 1) > levels ? TOO_DEEP : cloneJson(value);
  const out: Json = {};
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    let v: unknown = (value as Json)[key];
    if (typeof v === "object" && v !== null) {
      v = copyWithin(v, levels - 1);
      if (v === TOO_DEEP) return TOO_DEEP;
    }
    if (key === "__proto__") Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out;
}

/** What validating a tool's calls needs, worked out once per tool: the parameters' validator and lookups. */
interface CallPlan {
  byArg: Map<string, ParameterBinding>;
  /** One object schema over all the parameters, compiled with coercion (undefined: no parameters). */
  params: ValidateFunction | undefined;
  /** A flat body whose schema allows properties beyond its declared ones. */
  allowsExtra: boolean;
  /** The declared properties of a flat body (own names only: `constructor` is just a name). */
  flatProperties: ReadonlySet<string>;
  /** Array parameters whose items may arrive as one delimited string, by argument: the delimiter. */
  delimiters: Map<string, string>;
  /** Parameters whose values are numbers (or lists of numbers), by argument. */
  numeric: ReadonlySet<string>;
}


const plans = new WeakMap<Catalog, WeakMap<Tool, CallPlan>>();

function isObjectNode(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The schema a parameter's value is validated against. Parameters arrive as text and are coerced (one value may
 * stand for a list of one): under that coercion the branches of a `oneOf` of a scalar and a list both take a single
 * value (`responseTime=a` is a string, and a list of one string), so the value would match neither "exactly one".
 * Such a `oneOf` is checked as `anyOf`.
 */
function parameterSchema(catalog: Catalog, pointer: string): object {
  const registry = catalog.registry;
  const { pointer: at, schema } = registry.resolve("request", pointer);
  const branches = isObjectNode(schema) && Array.isArray(schema["oneOf"]) ? schema["oneOf"] : undefined;
  if (branches === undefined) return registry.ref("request", pointer);
  const isList = (i: number): boolean => {
    const b = registry.resolve("request", `${at}/oneOf/${i}`).schema;
    return isObjectNode(b) && (b["type"] === "array" || (Array.isArray(b["type"]) && b["type"].includes("array")));
  };
  const lists = branches.map((_, i) => isList(i));
  if (!lists.includes(true) || !lists.includes(false)) return registry.ref("request", pointer);
  return { anyOf: branches.map((_, i) => registry.ref("request", `${at}/oneOf/${i}`)) };
}

function planOf(catalog: Catalog, tool: Tool): CallPlan {
  let byTool = plans.get(catalog);
  if (!byTool) {
    byTool = new WeakMap();
    plans.set(catalog, byTool);
  }
  let plan = byTool.get(tool);
  if (!plan) {
    const registry = catalog.registry;
    let params =
      tool.parameters.length === 0
        ? undefined
        : registry.compile(
            {
              type: "object",
              properties: Object.fromEntries(tool.parameters.map((p) => [p.arg, p.schemaPointer !== undefined ? parameterSchema(catalog, p.schemaPointer) : {}])),
              required: tool.parameters.filter((p) => p.required).map((p) => p.arg),
            },
            { coerce: true, key: `params:${tool.name}`, where: `the parameters of ${tool.name}` },
          );
    if (params !== undefined && unusableReason(params) !== undefined) {
      // Name the parameter whose schema is at fault, with its pointer.
      const culprit = tool.parameters.find((p) => p.schemaPointer !== undefined && registry.compileError("request", p.schemaPointer) !== undefined);
      if (culprit?.schemaPointer !== undefined) params = registry.validatorAt("request", culprit.schemaPointer, true);
    }
    const delimiters = new Map<string, string>();
    for (const p of tool.parameters) {
      if (p.delimiter !== undefined) delimiters.set(p.arg, p.delimiter);
    }
    plan = {
      byArg: new Map(tool.parameters.map((p) => [p.arg, p])),
      params,
      delimiters,
      numeric: new Set(tool.parameters.filter((p) => p.schemaPointer !== undefined && numericType(registry, "request", p.schemaPointer) !== undefined).map((p) => p.arg)),
      allowsExtra: tool.body?.mode === "flat" && bodyAllowsExtra(catalog, tool),
      flatProperties: new Set(tool.body?.mode === "flat" ? Object.keys(tool.body.properties) : []),
    };
    byTool.set(tool, plan);
  }
  return plan;
}

/** Options of {@link validateCall}. */
export interface ValidateCallOptions {
  /**
   * Accept `[redacted]` (and `[redacted-N]`) wherever it stands (a replay of a journal, where secrets were written
   * redacted): a value that is exactly a placeholder satisfies any schema, so the recorded call is answered as it was.
   */
  acceptRedacted?: boolean;
  /**
   * The arguments object is the caller's to give away, nested no deeper than MAX_JSON_DEPTH (arguments made from an
   * HTTP request just parsed): validated and coerced in place, not copied first.
   */
  owned?: boolean;
}

/** The value an issue's location points at in a call's arguments and body. */
function valueAt(tool: Tool, args: Json, body: unknown, location: readonly string[]): unknown {
  const [where, first, ...rest] = location;
  let node: unknown;
  if (where === "body") return walkPath(body, location.slice(1));
  if (where === "arguments") node = first !== undefined ? args[first] : undefined;
  else {
    const p = tool.parameters.find((x) => x.in === where && x.name === first);
    node = p ? args[p.arg] : undefined;
  }
  return walkPath(node, rest);
}

function walkPath(node: unknown, path: readonly string[]): unknown {
  let at = node;
  for (const seg of path) {
    if (at === null || typeof at !== "object" || !hasOwn(at, seg)) return undefined;
    at = (at as Json)[seg];
  }
  return at;
}

/**
 * Validates a tool call against its operation: the tool must exist (else the closest names are suggested),
 * parameters are coerced from strings where their type allows, the body is checked as sent, and every
 * error is reported at once in Prism's problem-details shape.
 */
export function validateCall(catalog: Catalog, name: string, rawArgs: unknown, options: ValidateCallOptions = {}): CallValidation {
  const tool = catalog.get(name);
  if (!tool) {
    const suggestions = nearestNames(name, catalog.tools.map((t) => t.name));
    const detail = `No tool named "${name}".` + (suggestions.length > 0 ? ` Did you mean: ${suggestions.join(", ")}?` : "");
    const issue: ValidationIssue = { location: ["tool"], code: "unknown-tool", message: detail, severity: "Error" };
    return { ok: false, errors: [issue], problem: { ...problem(404, "Unknown tool", detail, [issue]), suggestions } };
  }
  const parsed = options.owned === true && isObject(rawArgs) ? { ok: true as const, value: rawArgs } : parseArguments(rawArgs);
  if (!parsed.ok) {
    const issue: ValidationIssue = { location: ["arguments"], code: "type", message: parsed.message, severity: "Error" };
    return { ok: false, errors: [issue], tool, problem: problem(400, "Bad Request", parsed.message, [issue]) };
  }
  const args = parsed.value;
  const issues: ValidationIssue[] = [];

  // Parameters: one object schema over all of them, validated with coercion.
  const plan = planOf(catalog, tool);
  const byArg = plan.byArg;
  const paramValues: Json = {};
  const held = new Set<string>();
  for (const p of tool.parameters) {
    const v = args[p.arg];
    if (v === null) {
      // HTTP cannot send null: an absent parameter (ajv would coerce null to "", 0 or false, and a
      // required path parameter would become `/users/`); a required one is then reported as missing.
      delete args[p.arg];
      continue;
    }
    if (v === undefined) continue;
    // `"a,b"` for a `form` (not exploded) array, `"a|b"` for a `pipeDelimited` one...: the items, as on the wire.
    const delimiter = typeof v === "string" ? plan.delimiters.get(p.arg) : undefined;
    const value = delimiter !== undefined ? splitItems(v as string, delimiter) : v;
    // A number sent as text that is no number (`0x10`, `Infinity`) is held as an empty object: nothing coerces it,
    // so it fails as the type it is not, where it is.
    if (plan.numeric.has(p.arg) && notANumberText(value)) {
      paramValues[p.arg] = {};
      held.add(p.arg);
    } else paramValues[p.arg] = value;
  }
  const validateParams = plan.params;
  if (validateParams !== undefined) {
    if (!validateParams(paramValues)) {
      issues.push(
        ...issuesFromAjv(validateParams.errors, (segs) => {
          const [arg, ...rest] = segs;
          const p = arg !== undefined ? byArg.get(arg) : undefined;
          return p ? [p.in, p.name, ...rest] : ["arguments", ...segs];
        }),
      );
    }
    // The call keeps what it sent where it was held (the record of an invalid request shows `0x10`, not `{}`).
    for (const key in paramValues) if (!held.has(key)) args[key] = paramValues[key];
  }

  // Unknown arguments: anything that is neither a parameter nor (for a flat body) a body property.
  const body = tool.body;
  const allowsExtra = plan.allowsExtra;
  for (const key of Object.keys(args)) {
    if (byArg.has(key)) continue;
    if (body?.mode === "wrapped" && key === body.arg) continue;
    if (body?.mode === "flat" && (allowsExtra || plan.flatProperties.has(key))) continue;
    issues.push({ location: ["arguments", key], code: "additionalProperties", message: `unknown argument "${key}"`, severity: "Error" });
    delete args[key]; // reported once, as an unknown argument, not again as a body error
  }

  // Body: validated as sent.
  const bodyValue = bodyOf(tool, args);
  if (body) {
    if (bodyValue === undefined) {
      if (body.required) issues.push({ location: ["body"], code: "required", message: "is required (the operation needs a request body)", severity: "Error" });
    } else if (body.schemaPointer !== undefined) {
      const validate = catalog.registry.validatorAt("request", body.schemaPointer, false);
      if (!validate(bodyValue)) issues.push(...issuesFromAjv(validate.errors, (segs) => ["body", ...segs]));
    }
  }

  if (options.acceptRedacted && issues.length > 0) {
    const kept = issues.filter((i) => {
      const v = valueAt(tool, args, bodyValue, i.location);
      return !(typeof v === "string" && PLACEHOLDER.test(v));
    });
    issues.length = 0;
    issues.push(...kept);
  }
  // The call as an HTTP request, made when asked for (a server answering a request it was sent has no need of it).
  let request: HttpRequest | undefined;
  const requestOf = (): HttpRequest => (request ??= toHttpRequest(tool, args));
  const unusable = issues.filter((i) => i.code === UNUSABLE_SCHEMA);
  if (unusable.length > 0) {
    // The spec's fault, not the caller's: the operation cannot be validated at all.
    const detail = `${tool.name} cannot be used: ${unusable.map((i) => i.message).join("; ")}`;
    return { ok: false, errors: unusable, tool, get request() { return requestOf(); }, problem: problem(500, "Unusable operation", detail, unusable) };
  }
  if (issues.length > 0) {
    const detail = `Your request is not valid: ${issues.length} error${issues.length === 1 ? "" : "s"} (${issues
      .slice(0, 3)
      .map((i) => `${i.location.join(".")} ${i.message}`)
      .join("; ")}${issues.length > 3 ? "; ..." : ""}).`;
    return { ok: false, errors: issues, tool, get request() { return requestOf(); }, problem: problem(422, "Invalid request", detail, issues) };
  }
  return { ok: true, value: { tool, args, body: bodyValue, get request() { return requestOf(); } } };
}

/** The items of an array parameter sent as one delimited string (surrounding spaces dropped, except for a space delimiter). */
function splitItems(value: string, delimiter: string): string[] {
  if (value === "") return [];
  const items = value.split(delimiter);
  return delimiter === " " ? items : items.map((item) => item.trim());
}

function bodyAllowsExtra(catalog: Catalog, tool: Tool): boolean {
  if (tool.body?.schemaPointer === undefined) return false;
  const { schema } = catalog.registry.resolve("request", tool.body.schemaPointer);
  if (!isObject(schema)) return false;
  // As JSON Schema defines it: a missing `additionalProperties` allows any property; the body validator then
  // judges the extra ones (against a schema given for them, or `unevaluatedProperties`).
  return schema["additionalProperties"] !== false;
}
