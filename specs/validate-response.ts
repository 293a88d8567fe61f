import type { Catalog } from "./catalog.js";
import type { ValidationIssue } from "./problem-details.js";
import { isJsonMediaType, selectResponse } from "./select-response.js";
import type { Tool } from "./tool.js";
import { issuesFromAjv } from "./validate-call.js";

/**
 * Checks a response against its operation: the status must be declared (or covered by a range or
 * `default`), and a JSON body must validate against that response's schema. Returns the issues (none: valid).
 */
export function validateResponse(catalog: Catalog, tool: Tool, status: number, body: unknown, contentType?: string): ValidationIssue[] {
  const selected = selectResponse(catalog, tool, status);
  if (selected.key === undefined) {
    if (tool.responses.length === 0) return [];
    return [{ location: ["response", "status"], code: "status", message: `status ${status} is not declared for ${tool.name} (declared: ${tool.responses.join(", ")})`, severity: "Error" }];
  }
  if (selected.schemaPointer === undefined) return [];
  if (contentType !== undefined && !isJsonMediaType(contentType)) return [];
  if (!isJsonMediaType(selected.mediaType)) return [];
  if (body === undefined) {
    return [{ location: ["response", "body"], code: "required", message: "response body is missing", severity: "Error" }];
  }
  const validate = catalog.registry.validatorAt("response", selected.schemaPointer, false);
  return validate(body) ? [] : issuesFromAjv(validate.errors, (segs) => ["response", "body", ...segs]);
}
