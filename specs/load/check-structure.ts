import { escapeSegment } from "../json-pointer.js";
import { findRefCycles } from "./find-ref-cycles.js";
import type { SchemaDialect } from "./loaded-spec.js";
import { followRefs, methodsOf, isRecord, resolveInternalRef, visitSchemas, type JsonRecord } from "../catalog/openapi-nodes.js";
import type { SpecProblem } from "./spec-problem.js";

const PARAMETER_LOCATIONS = new Set(["query", "header", "path", "cookie"]);
const COMPONENT_MAPS = ["schemas", "responses", "parameters", "examples", "requestBodies", "headers", "securitySchemes", "links", "callbacks", "pathItems"];

/**
 * Checks what toolsim needs of a bundled and repaired OpenAPI 3.x document: the shape of `paths`,
 * path items, operations, parameters, request bodies, responses and schemas, and that every `$ref` is
 * internal and resolves, and that no `$ref` cycle applies to the same value forever. Returns problems
 * with JSON pointers: errors make the document unusable, warnings (an odd response key) do not.
 * Cheaper and more forgiving than a full schema validation of the document.
 */
export function checkStructure(doc: JsonRecord, dialect: SchemaDialect, file: string): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const error = (pointer: string, code: string, message: string): void => {
    problems.push({ file, pointer, severity: "error", code, message });
  };
  const warning = (pointer: string, code: string, message: string): void => {
    problems.push({ file, pointer, severity: "warning", code, message });
  };
  checkRefs(doc, doc, "", error);
  problems.push(...findRefCycles(doc, file));

  const components = doc["components"];
  if (components !== undefined && !isRecord(components)) error("/components", "components-invalid", "`components` must be an object");
  if (isRecord(components)) {
    for (const key of COMPONENT_MAPS) {
      if (components[key] !== undefined && !isRecord(components[key])) error(`/components/${key}`, "components-invalid", `\`components.${key}\` must be an object of named entries`);
    }
  }

  const paths = doc["paths"];
  if (paths !== undefined && !isRecord(paths)) {
    error("/paths", "paths-invalid", "`paths` must be an object mapping path templates to path items");
  } else if (isRecord(paths)) {
    for (const [template, item] of Object.entries(paths)) {
      const itemPointer = `/paths/${escapeSegment(template)}`;
      if (template.startsWith("x-")) continue;
      if (!isRecord(item)) {
        error(itemPointer, "path-item-invalid", `path item ${JSON.stringify(template)} must be an object of operations`);
        continue;
      }
      checkParameters(doc, item["parameters"], `${itemPointer}/parameters`, error);
      for (const method of methodsOf(item)) {
        if (item[method] === undefined) continue;
        checkOperation(doc, item[method], `${itemPointer}/${method}`, error, warning);
      }
    }
  }

  visitSchemas(doc, (schema, pointer) => {
    if (isRecord(schema) || (dialect === "3.1" && typeof schema === "boolean")) {
      if (isRecord(schema) && schema["properties"] !== undefined && !isRecord(schema["properties"])) {
        error(`${pointer}/properties`, "schema-invalid", "`properties` must be an object mapping property names to schemas");
      }
      return;
    }
    error(pointer, "schema-invalid", `a schema must be an object, not ${describe(schema)}`);
  });
  return problems;
}

/**
 * Finds `$ref`s that are not strings, before bundling: swagger-parser and the Swagger 2.0 converter
 * skip or mangle them.
 */
export function findInvalidRefs(doc: unknown, file: string): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const walk = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${pointer}/${i}`));
    } else if (isRecord(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && !isRecord(value) && typeof value !== "string") {
          problems.push({ file, pointer, severity: "error", code: "ref-invalid", message: `\`$ref\` must be a string, not ${describe(value)}` });
        } else if (!(key.startsWith("x-") || key === "example" || key === "examples" || key === "default" || key === "enum" || key === "const")) {
          walk(value, `${pointer}/${escapeSegment(key)}`);
        }
      }
    }
  };
  walk(doc, "");
  return problems;
}

/** Records one problem of a fixed severity. */
type ErrorSink = (pointer: string, code: string, message: string) => void;

function checkOperation(doc: JsonRecord, op: unknown, pointer: string, error: ErrorSink, warning: ErrorSink): void {
  if (!isRecord(op)) {
    error(pointer, "operation-invalid", `an operation must be an object, not ${describe(op)}`);
    return;
  }
  checkParameters(doc, op["parameters"], `${pointer}/parameters`, error);
  if (op["requestBody"] !== undefined) {
    const body = followRefs(doc, op["requestBody"], `${pointer}/requestBody`);
    if (body !== undefined && !isRecord(body.node)) error(body.pointer, "request-body-invalid", `a request body must be an object, not ${describe(body.node)}`);
    else if (body !== undefined && isRecord(body.node)) checkContent(body.node["content"], `${body.pointer}/content`, error, true);
  }
  const responses = op["responses"];
  if (!isRecord(responses)) {
    error(`${pointer}/responses`, "responses-invalid", `\`responses\` must be an object mapping status codes to responses, not ${describe(responses)}`);
    return;
  }
  for (const [status, response] of Object.entries(responses)) {
    if (status.startsWith("x-")) continue;
    const at = `${pointer}/responses/${escapeSegment(status)}`;
    if (!/^([1-5]([0-9]{2}|XX)|default)$/i.test(status)) {
      warning(at, "response-status-invalid", `response key ${JSON.stringify(status)} is not an HTTP status code, a range like 2XX, or "default"`);
    }
    const found = followRefs(doc, response, at);
    if (found === undefined) continue; // dangling: reported by checkRefs
    if (!isRecord(found.node)) {
      error(found.pointer, "response-invalid", `a response must be an object, not ${describe(found.node)}`);
      continue;
    }
    checkContent(found.node["content"], `${found.pointer}/content`, error, false);
  }
}

function checkParameters(doc: JsonRecord, list: unknown, pointer: string, error: ErrorSink): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) {
    error(pointer, "parameters-invalid", `\`parameters\` must be a list, not ${describe(list)}`);
    return;
  }
  list.forEach((entry, i) => {
    const found = followRefs(doc, entry, `${pointer}/${i}`);
    if (found === undefined) return;
    const param = found.node;
    if (!isRecord(param)) {
      error(found.pointer, "parameter-invalid", `a parameter must be an object, not ${describe(param)}`);
    } else if (typeof param["name"] !== "string" || param["name"] === "") {
      error(found.pointer, "parameter-invalid", "a parameter needs a `name`");
    } else if (typeof param["in"] !== "string" || !PARAMETER_LOCATIONS.has(param["in"])) {
      error(found.pointer, "parameter-invalid", `parameter ${JSON.stringify(param["name"])} has \`in: ${JSON.stringify(param["in"])}\`; expected query, header, path or cookie`);
    }
  });
}

function checkContent(content: unknown, pointer: string, error: ErrorSink, required: boolean): void {
  if (content === undefined) {
    if (required) error(pointer, "content-invalid", "a request body needs `content`");
    return;
  }
  if (!isRecord(content)) {
    error(pointer, "content-invalid", `\`content\` must be an object mapping media types to media type objects, not ${describe(content)}`);
    return;
  }
  for (const [mediaType, media] of Object.entries(content)) {
    if (!isRecord(media)) error(`${pointer}/${escapeSegment(mediaType)}`, "content-invalid", `media type ${JSON.stringify(mediaType)} must map to an object, not ${describe(media)}`);
  }
}

/** Every `$ref` must be a string naming an existing place in this document (bundling made them internal). */
function checkRefs(doc: JsonRecord, node: unknown, pointer: string, error: ErrorSink): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => checkRefs(doc, item, `${pointer}/${i}`, error));
    return;
  }
  if (!isRecord(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === "example" || key === "examples" || key === "default" || key === "enum" || key === "const" || key.startsWith("x-")) continue;
    if (key === "$ref") {
      // A property named "$ref" in `properties` is a name, not a reference.
      if (isRecord(value)) {
        checkRefs(doc, value, `${pointer}/$ref`, error);
      } else if (typeof value !== "string") {
        error(pointer, "ref-invalid", `\`$ref\` must be a string, not ${describe(value)}`);
      } else if (!value.startsWith("#")) {
        error(pointer, "ref-unresolved", `$ref ${JSON.stringify(value)} points outside the bundled document`);
      } else if (resolveInternalRef(doc, value) === undefined) {
        error(pointer, "ref-unresolved", `$ref ${JSON.stringify(value)} points to nothing`);
      }
      continue;
    }
    checkRefs(doc, value, `${pointer}/${escapeSegment(key)}`, error);
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (value === undefined) return "nothing";
  return `a ${typeof value}`;
}
