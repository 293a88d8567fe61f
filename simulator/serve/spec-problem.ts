import { XMLBuilder } from "fast-xml-parser";
import type { Catalog } from "../../specs/catalog/catalog.js";
import type { ProblemDetails, ValidationIssue } from "../../specs/call/problem-details.js";
import { responseExamples } from "../../specs/respond/schema-responder.js";
import { deriveSeed } from "../../specs/seed.js";
import { isJsonMediaType, type SelectedResponse } from "../../specs/call/select-response.js";
import { selectedResponse } from "../../specs/respond/response-cache.js";
import { synthesize } from "../../specs/synthesize/synthesize.js";
import { cloneJson } from "../../specs/synthesize/synthesis-rules.js";
import type { Tool } from "../../specs/catalog/tool.js";
import { isObject, type Json } from "../../specs/json-object.js";
import { objectShape } from "../../specs/catalog/object-properties.js";
import { hasOwn } from "../../specs/own-property.js";

const PROBLEM_JSON = "application/problem+json";

/**
 * The status of an invalid request, as Prism picks it: the operation's own 422, else its own 400, else a
 * 422 of ours.
 */
export function validationStatus(tool: Tool): 422 | 400 {
  if (tool.responses.includes("422")) return 422;
  if (tool.responses.includes("400")) return 400;
  return 422;
}

/** An error answer of the simulator itself (validation, auth), as it goes on the wire. */
export interface OperationProblem {
  status: number;
  body: unknown;
  contentType: string;
  /**
   * `problem`: our problem details (as JSON); `spec`: a JSON body in the shape the spec declares for that status;
   * `text`: the body is the text to send (XML or plain text, as declared).
   */
  shape: "problem" | "spec" | "text";
}

/** Short machine words for an `error`/`code` field of a spec's error body. */
const ERROR_WORDS: Record<number, string> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  415: "unsupported_media_type",
  422: "invalid_request",
};

/** Field names (lower case, without `_` and `-`) and what of the problem they take. */
const TEXT_FIELDS = new Set(["message", "detail", "description", "errordescription", "errormessage", "msg", "reason"]);
const TITLE_FIELDS = new Set(["title", "summary"]);
const STATUS_FIELDS = new Set(["status", "statuscode", "httpstatus", "httpcode"]);
const WORD_FIELDS = new Set(["error", "errorcode", "code", "type", "kind"]);
const LIST_FIELDS = new Set(["validation", "errors", "details", "issues", "violations", "fielderrors", "invalidparams"]);

function normalized(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, "");
}

/** What may go into a field of the spec's error body, most informative first. */
function candidates(key: string, problem: ProblemDetails): unknown[] {
  const k = normalized(key);
  const issues: ValidationIssue[] = problem.validation ?? [];
  const out: unknown[] = [];
  if (TEXT_FIELDS.has(k)) out.push(problem.detail);
  if (TITLE_FIELDS.has(k)) out.push(problem.title);
  if (STATUS_FIELDS.has(k)) out.push(problem.status, String(problem.status));
  if (k === "type") out.push(problem.type);
  if (WORD_FIELDS.has(k)) out.push(ERROR_WORDS[problem.status] ?? `http_${problem.status}`, problem.status, problem.title);
  if (LIST_FIELDS.has(k)) {
    const field = (i: ValidationIssue): string => i.location.slice(1).join(".") || (i.location[0] ?? "");
    out.push(
      issues,
      issues.map((i) => ({ field: field(i), issue: i.code, message: i.message, location: i.location })),
      issues.map((i) => ({ field: field(i), issue: i.code, message: i.message })),
      issues.map((i) => ({ field: field(i), issue: i.code })),
      issues.map((i) => ({ field: field(i), message: i.message })),
      issues.map((i) => `${i.location.join(".")}: ${i.message}`),
    );
    if (k === "details") out.push(problem.detail);
  }
  return out;
}

/**
 * Writes the problem's text into a body of the spec's shape, field by field, keeping a change only when the
 * whole body still validates (so the body stays in the declared shape whatever the field names mean).
 */
function overlay(root: unknown, node: Json, problem: ProblemDetails, valid: (body: unknown) => boolean, depth: number, propertyNames: readonly string[], fieldCheck?: (key: string) => ((value: unknown) => boolean) | undefined): void {
  const keys = [...new Set([...Object.keys(node), ...propertyNames])];
  for (const key of keys) {
    const before = node[key];
    const had = Object.prototype.hasOwnProperty.call(node, key);
    let kept = false;
    // A value its field's own schema refuses cannot make the whole body valid: not tried on it.
    const fits = fieldCheck?.(key);
    for (const value of candidates(key, problem)) {
      if (fits !== undefined && !fits(value)) continue;
      node[key] = value;
      if (valid(root)) {
        kept = true;
        break;
      }
    }
    if (!kept) {
      if (had) node[key] = before;
      else delete node[key];
    }
    const now = node[key];
    if (!kept && depth < 2 && isObject(now)) overlay(root, now, problem, valid, depth + 1, []);
  }
}

/** The `properties` names of a schema object (or of its `allOf` members), for fields an example leaves out. */
function propertyNames(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const names = isObject(schema["properties"]) ? Object.keys(schema["properties"]) : [];
  if (Array.isArray(schema["allOf"])) for (const s of schema["allOf"]) names.push(...propertyNames(s));
  return names;
}

/** The base bodies of error answers by tool, then status and seed: they depend on nothing else (`null`: none fits). */
const baseBodies = new WeakMap<Tool, Map<string, unknown>>();

/** A valid example of the declared error response, else a seeded synthesized body; a fresh copy each time. */
function baseBody(catalog: Catalog, tool: Tool, selected: SelectedResponse, status: number, valid: (body: unknown) => boolean, seed: number): unknown {
  let byStatus = baseBodies.get(tool);
  if (!byStatus) baseBodies.set(tool, (byStatus = new Map()));
  const key = `${status} ${seed}`;
  let base = byStatus.get(key);
  if (base === undefined) {
    base = responseExamples(catalog, selected).find(valid) ?? null;
    if (base === null && selected.schemaPointer !== undefined) {
      const made = synthesize(catalog.registry, "response", selected.schemaPointer, { seed: deriveSeed(seed, tool.name, "problem", status) });
      if (made.valid) base = made.value;
    }
    byStatus.set(key, base);
  }
  return base === null ? undefined : cloneJson(base);
}

/** Problem details as an XML document (for an operation that declares only XML for the status). */
function problemXml(problem: ProblemDetails): string {
  const builder = new XMLBuilder({ format: false, suppressEmptyNode: true });
  const issues = (problem.validation ?? []).map((i) => ({ location: i.location.join("."), code: i.code, message: i.message }));
  const doc = { problem: { type: problem.type, title: problem.title, status: problem.status, detail: problem.detail, ...(issues.length > 0 ? { validation: { issue: issues } } : {}) } };
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build(doc) as string}`;
}

/** Whether a media type carries XML. */
function isXmlMediaType(mediaType: string): boolean {
  return /[/+]xml\b/i.test(mediaType);
}

/**
 * The answer of an error the simulator produces for an operation (an invalid request, a missing credential), in
 * the media type the operation declares for that status (exact, `4XX`, or `default`): our problem details when
 * it declares no body for it, or a JSON schema that problem details satisfy (sent as the declared JSON type, not
 * `application/problem+json`), else a body in the declared schema's shape (a valid example or a seeded
 * synthesized body) carrying the problem's text where its fields allow; an XML document or plain text where it
 * declares only those. `application/problem+json` only where the operation declares nothing for the status.
 */
export function operationProblem(catalog: Catalog, tool: Tool, problem: ProblemDetails, seed: number): OperationProblem {
  const ours: OperationProblem = { status: problem.status, body: problem, contentType: PROBLEM_JSON, shape: "problem" };
  const selected = selectedResponse(catalog, tool, problem.status);
  const declared = selected.mediaType;
  if (selected.key === undefined || declared === undefined) return ours;
  if (!isJsonMediaType(declared)) {
    if (isXmlMediaType(declared)) return { status: problem.status, body: problemXml(problem), contentType: declared, shape: "text" };
    return { status: problem.status, body: `${problem.title}: ${problem.detail}`, contentType: declared, shape: "text" };
  }
  const asDeclared: OperationProblem = { ...ours, contentType: declared };
  if (selected.schemaPointer === undefined) return asDeclared;
  const validate = catalog.registry.validatorAt("response", selected.schemaPointer, false);
  const valid = (body: unknown): boolean => validate(body) === true;
  if (valid(problem)) return asDeclared;
  const base = baseBody(catalog, tool, selected, problem.status, valid, seed);
  if (base === undefined) return asDeclared;
  if (isObject(base)) {
    const registry = catalog.registry;
    const shape = objectShape(registry, "response", selected.schemaPointer);
    const fieldCheck = (key: string): ((value: unknown) => boolean) | undefined => {
      const at = shape !== undefined && hasOwn(shape.properties, key) ? shape.properties[key] : undefined;
      if (at === undefined) return undefined;
      const check = registry.validatorAt("response", at, false);
      return (value) => check(value) === true;
    };
    overlay(base, base, problem, valid, 0, propertyNames(registry.resolve("response", selected.schemaPointer).schema), fieldCheck);
  }
  return { status: problem.status, body: base, contentType: declared, shape: "spec" };
}
