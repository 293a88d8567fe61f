import type { Catalog } from "../catalog/catalog.js";
import { derefNode } from "../catalog/catalog.js";
import { getAt } from "../json-pointer.js";
import type { ProblemDetails, ValidationIssue } from "./problem-details.js";
import type { ParameterBinding, Tool } from "../catalog/tool.js";
import { UNUSABLE_SCHEMA } from "../catalog/schema-registry.js";
import { validateCall, type CallValidation } from "./validate-call.js";
import { hasOwn, setOwn } from "../own-property.js";
import { isObject, type Json } from "../json-object.js";

/** An HTTP request, taken apart, as a server received it. */
export interface HttpCallInput {
  /** Path parameters by name, percent-decoded (from the router). */
  pathParams: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** A header by lower-case name (null or undefined when absent). */
  header(name: string): string | null | undefined;
  /** The parsed body (undefined: none was sent). */
  body?: unknown;
  /**
   * The body was just parsed from the request (no one else holds it) by a parser that bounds its nesting to
   * MAX_JSON_DEPTH: the arguments are validated as they are, without a defensive copy.
   */
  freshBody?: boolean;
}

/** The shape of a parameter's schema that deserialization needs. */
type ValueKind = "scalar" | "array" | "object";

interface ParamPlan {
  binding: ParameterBinding;
  kind: ValueKind;
  /** Declared properties of an object parameter (for exploded `form` query objects). */
  properties: string[];
  /** The parameter uses `content` (a serialized JSON value) instead of `schema`. */
  json: boolean;
  /** An array whose items are objects or arrays: each item travels as JSON text (as `toHttpRequest` writes it). */
  structuredItems: boolean;
}

const plans = new WeakMap<Tool, ParamPlan[]>();

function kindOf(schema: unknown): ValueKind {
  if (!isObject(schema)) return "scalar";
  const type = schema["type"];
  const types = Array.isArray(type) ? type : [type];
  if (types.includes("array") || schema["items"] !== undefined) return "array";
  if (types.includes("object") || isObject(schema["properties"])) return "object";
  return "scalar";
}

function planOf(catalog: Catalog, tool: Tool): ParamPlan[] {
  let plan = plans.get(tool);
  if (plan) return plan;
  plan = tool.parameters.map((binding) => {
    const resolved = binding.schemaPointer !== undefined ? catalog.registry.resolve("request", binding.schemaPointer) : undefined;
    const schema = resolved?.schema;
    const kind = kindOf(schema);
    const properties = kind === "object" && isObject(schema) && isObject(schema["properties"]) ? Object.keys(schema["properties"]) : [];
    const items = kind === "array" && resolved !== undefined && isObject(schema) && schema["items"] !== undefined ? catalog.registry.resolve("request", `${resolved.pointer}/items`).schema : undefined;
    return { binding, kind, properties, json: binding.schemaPointer !== undefined && binding.schemaPointer.includes("/content/"), structuredItems: items !== undefined && kindOf(items) !== "scalar" };
  });
  plans.set(tool, plan);
  return plan;
}

function splitPairs(parts: readonly string[]): Json {
  const out: Json = {};
  for (let i = 0; i + 1 < parts.length; i += 2) out[parts[i] as string] = parts[i + 1];
  return out;
}

/** The items of a delimited array value; items that are objects or arrays are read as the JSON they were written as. */
function splitItems(value: string, delimiter: string, plan: ParamPlan): unknown[] {
  if (value === "") return [];
  if (plan.structuredItems) {
    if (delimiter === ",") {
      const all = parseJsonValue(`[${value}]`);
      if (Array.isArray(all)) return all;
    }
    return value.split(delimiter).map(parseJsonValue);
  }
  return value.split(delimiter);
}

/** A `simple`-style value (`a,b,c`; objects `k,v,k2,v2` or exploded `k=v,k2=v2`) in the shape its schema wants. */
function fromSimple(value: string, plan: ParamPlan): unknown {
  if (plan.kind === "array") return splitItems(value, ",", plan);
  if (plan.kind === "object") {
    if (plan.binding.explode) return Object.fromEntries(value.split(",").map((kv) => [kv.split("=")[0] ?? "", kv.slice(kv.indexOf("=") + 1)]));
    return splitPairs(value.split(","));
  }
  return value;
}

function parseJsonValue(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function pathValue(raw: string, plan: ParamPlan): unknown {
  if (plan.json) return parseJsonValue(raw);
  const style = plan.binding.style;
  if (style === "label") {
    const body = raw.startsWith(".") ? raw.slice(1) : raw;
    return plan.kind === "scalar" ? body : fromSimple(plan.binding.explode ? body.split(".").join(",") : body, plan);
  }
  if (style === "matrix") {
    const prefix = `;${plan.binding.name}=`;
    const body = raw.startsWith(prefix) ? raw.slice(prefix.length) : raw.startsWith(";") ? raw.slice(1) : raw;
    return fromSimple(body.split(prefix).join(","), plan);
  }
  return fromSimple(raw, plan);
}

function queryValue(query: URLSearchParams, plan: ParamPlan): unknown {
  const { name, style, explode } = plan.binding;
  if (plan.kind === "object") {
    if (style === "deepObject") {
      const out: Json = {};
      let any = false;
      const prefix = `${name}[`;
      for (const [k, v] of query) {
        if (k.startsWith(prefix) && k.endsWith("]")) {
          out[k.slice(prefix.length, -1)] = v;
          any = true;
        }
      }
      return any ? out : undefined;
    }
    if (explode && !plan.json) {
      const out: Json = {};
      let any = false;
      for (const p of plan.properties) {
        const v = query.get(p);
        if (v !== null) {
          out[p] = v;
          any = true;
        }
      }
      return any ? out : undefined;
    }
  }
  if (plan.kind === "array" && !plan.json) {
    const all = query.getAll(name);
    if (all.length === 0) return undefined;
    if (style === "form" && explode) return plan.structuredItems ? all.map(parseJsonValue) : all;
    const delimiter = style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ",";
    return all.flatMap((v) => splitItems(v, delimiter, plan));
  }
  const v = query.get(name);
  if (v === null) return undefined;
  if (plan.json) return parseJsonValue(v);
  return plan.kind === "object" ? splitPairs(v.split(",")) : v;
}

function cookieValues(header: string | null | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const k = part.slice(0, eq).trim();
    let v = part.slice(eq + 1).trim();
    try {
      v = decodeURIComponent(v);
    } catch {
      // kept as sent
    }
    if (!out.has(k)) out.set(k, v);
  }
  return out;
}

/**
 * Turns an HTTP request into the arguments of its operation's tool (OpenAPI parameter deserialization):
 * path parameters from the URL, query parameters by style, headers and cookies, and the body — its
 * properties as top-level arguments for a flat body, or one argument for a wrapped one. Values stay strings
 * where HTTP sends strings; validation coerces them. `issues` holds what cannot be mapped at all.
 */
export function argumentsFromHttp(catalog: Catalog, tool: Tool, input: HttpCallInput): { args: Json; issues: ValidationIssue[] } {
  const args: Json = {};
  const issues: ValidationIssue[] = [];
  let cookies: Map<string, string> | undefined;
  for (const plan of planOf(catalog, tool)) {
    const b = plan.binding;
    let value: unknown;
    switch (b.in) {
      case "path": {
        const raw = input.pathParams[b.name];
        if (raw !== undefined) value = pathValue(raw, plan);
        break;
      }
      case "query":
        value = queryValue(input.query, plan);
        break;
      case "header": {
        const raw = input.header(b.name.toLowerCase());
        if (raw !== null && raw !== undefined) value = plan.json ? parseJsonValue(raw) : plan.kind === "array" ? (plan.structuredItems ? splitItems(raw, ",", plan) : raw.split(",").map((s) => s.trim())) : fromSimple(raw, plan);
        break;
      }
      case "cookie": {
        cookies ??= cookieValues(input.header("cookie"));
        const raw = cookies.get(b.name);
        if (raw !== undefined) value = plan.json ? parseJsonValue(raw) : fromSimple(raw, plan);
        break;
      }
    }
    if (value !== undefined) args[b.arg] = value;
  }
  const body = tool.body;
  if (body && input.body !== undefined) {
    if (body.mode === "wrapped" && body.arg !== undefined) args[body.arg] = input.body;
    else if (body.mode === "flat") {
      if (!isObject(input.body)) {
        issues.push({ location: ["body"], code: "type", message: "must be object", severity: "Error" });
      } else {
        for (const [k, v] of Object.entries(input.body)) {
          // Own properties only: a body property named `constructor` or `__proto__` is just a name.
          if (hasOwn(args, k) || tool.parameters.some((p) => p.arg === k)) {
            issues.push({ location: ["body", k], code: "additionalProperties", message: `must NOT have additional property "${k}"`, severity: "Error" });
          } else setOwn(args, k, v);
        }
      }
    }
  } else if (body?.mode === "flat" && body.required) {
    // No body at all where one is required (a tool call without body arguments sends `{}`; a request sends nothing).
    issues.push({ location: ["body"], code: "required", message: "is required (the operation needs a request body)", severity: "Error" });
  }
  return { args, issues };
}

function detailOf(issues: readonly ValidationIssue[]): string {
  return `Your request is not valid: ${issues.length} error${issues.length === 1 ? "" : "s"} (${issues
    .slice(0, 3)
    .map((i) => `${i.location.join(".")} ${i.message}`)
    .join("; ")}${issues.length > 3 ? "; ..." : ""}).`;
}

/**
 * Validates an HTTP request against its operation with the same validation as a tool call
 * ({@link validateCall}): the request is mapped to arguments, then validated; errors about body
 * properties are located in the body (`["body", "price"]`), as Prism does.
 */
export function validateHttpCall(catalog: Catalog, tool: Tool, input: HttpCallInput): CallValidation {
  const { args, issues: mapping } = argumentsFromHttp(catalog, tool, input);
  // The arguments object is ours (made just now); only a body someone else holds needs copying.
  const checked = validateCall(catalog, tool.name, args, { owned: input.body === undefined || input.freshBody === true });
  if (checked.ok && mapping.length === 0) return checked;
  // An operation whose schema cannot be compiled: the spec's fault, answered as validateCall answers it (500).
  if (!checked.ok && checked.errors.some((e) => e.code === UNUSABLE_SCHEMA)) return checked;
  const paramArgs = new Set(tool.parameters.map((p) => p.arg));
  const flat = tool.body?.mode === "flat";
  const relabel = (issue: ValidationIssue): ValidationIssue => {
    const [where, arg, ...rest] = issue.location;
    if (where !== "arguments" || arg === undefined || paramArgs.has(arg)) return issue;
    if (flat) {
      const message = issue.code === "additionalProperties" && rest.length === 0 ? `must NOT have additional property "${arg}"` : issue.message;
      return { ...issue, location: ["body", arg, ...rest], message };
    }
    return issue;
  };
  const errors = [...mapping, ...(checked.ok ? [] : checked.errors.map(relabel))];
  const problem: ProblemDetails = {
    type: "https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY",
    status: 422,
    title: "Invalid request",
    detail: detailOf(errors),
    validation: errors,
  };
  // The request is made only when asked for (as validateCall makes it).
  return { ok: false, errors, problem, tool, get request() { return checked.ok ? checked.value.request : checked.request; } };
}

/** The media types an operation's request body accepts (as declared, in order). */
export function requestMediaTypes(catalog: Catalog, tool: Tool): string[] {
  let known = mediaTypes.get(tool);
  if (known) return known;
  const doc = catalog.spec.document as unknown;
  const op = getAt(doc, tool.operation.pointer);
  known = [];
  if (isObject(op) && op["requestBody"] !== undefined) {
    const { node } = derefNode(doc, op["requestBody"], `${tool.operation.pointer}/requestBody`);
    if (isObject(node) && isObject(node["content"])) known = Object.keys(node["content"]);
  }
  mediaTypes.set(tool, known);
  return known;
}

const mediaTypes = new WeakMap<Tool, string[]>();

/** Whether a request's media type is one an operation accepts (`application/*` and `*\/*` ranges included). */
export function acceptsMediaType(accepted: readonly string[], contentType: string): boolean {
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  for (const a of accepted) {
    const t = (a.split(";")[0] ?? "").trim().toLowerCase();
    if (t === type || t === "*/*") return true;
    if (t.endsWith("/*") && type.startsWith(t.slice(0, -1))) return true;
  }
  return false;
}
