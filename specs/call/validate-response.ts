import type { Catalog } from "../catalog/catalog.js";
import type { ValidationIssue } from "./problem-details.js";
import { selectedResponse } from "../respond/response-cache.js";
import { isJsonMediaType } from "./select-response.js";
import type { Tool } from "../catalog/tool.js";
import { issuesFromAjv } from "./validate-call.js";

/** A body known to be valid for the schema at a pointer (validated when it was made). */
export interface ValidatedBody {
  schemaPointer: string;
  body: unknown;
}

/**
 * Checks a response against its operation: the status must be declared (or covered by a range or
 * `default`; any 2xx when the operation declares no success response at all), and a JSON body must
 * validate against that response's schema. Returns the issues (none: valid).
 * `known`: the very body was already validated against a schema; it is not validated again when that is
 * the schema this status selects.
 */
export function validateResponse(catalog: Catalog, tool: Tool, status: number, body: unknown, contentType?: string, known?: ValidatedBody): ValidationIssue[] {
  const selected = selectedResponse(catalog, tool, status);
  if (selected.key === undefined) {
    if (tool.responses.length === 0) return [];
    // No success response is declared at all (only errors): the 2xx the executor answers a valid call with is
    // its own choice, and the spec says nothing against any 2xx.
    if (status >= 200 && status < 300 && selectedResponse(catalog, tool).key === undefined) return [];
    return [{ location: ["response", "status"], code: "status", message: `status ${status} is not declared for ${tool.name} (declared: ${tool.responses.join(", ")})`, severity: "Error" }];
  }
  if (selected.schemaPointer === undefined) return [];
  if (contentType !== undefined && !isJsonMediaType(contentType)) return [];
  if (!isJsonMediaType(selected.mediaType)) return [];
  if (body === undefined) {
    // HTTP gives these no body, whatever the spec declares for them (journy.io declares one for its 204).
    if (status === 204 || status === 205 || status === 304) return [];
    return [{ location: ["response", "body"], code: "required", message: "response body is missing", severity: "Error" }];
  }
  if (known !== undefined && known.body === body && known.schemaPointer === selected.schemaPointer) return [];
  const validate = catalog.registry.validatorAt("response", selected.schemaPointer, false);
  return validate(body) ? [] : issuesFromAjv(validate.errors, (segs) => ["response", "body", ...segs]);
}
