import type { SchemaField } from "../../catalog/schema-fields.js";
import { snakeName } from "../../snake-name.js";

/**
 * An answer that echoes its own HTTP status (`{meta: {requestId, status}}`, `{status: 200, data: [...]}`,
 * `status_code`) says the status it is sent with: a 201 does not say `status: 264.07`.
 */

/** Names of a field that echoes the HTTP status. */
const STATUS_NAME = /^(status|status_code|http_status|http_status_code|http_code|response_code|response_status)$/;
/** Envelopes that hold a status beside the request's metadata. */
const META_NAME = /^(_?meta|metadata|meta_data|header|response|response_info|status_info)$/;
/** Fields beside a status at the top that make it an envelope's status (`{status, message}`, `{status, data}`). */
const ENVELOPE_SIBLING = /^(message|msg|data|result|results|payload|error|errors|meta|request_id|success)$/;

/**
 * The paths of the numeric fields of a success answer's schema that echo its status: named so, not in a list, at
 * the top beside an envelope's other fields or said to be the HTTP or response status, or in a metadata
 * envelope; a field whose enum leaves out `status` is not one.
 */
export function statusEchoPaths(fields: readonly SchemaField[], status: number): string[] {
  const out: string[] = [];
  for (const f of fields) {
    if (f.list || f.path.includes("[") || (f.type !== "number" && f.type !== "integer")) continue;
    if (!STATUS_NAME.test(snakeName(f.name))) continue;
    if (f.enum !== undefined && !f.enum.includes(status)) continue;
    const depth = f.path.split(".").length;
    const said = /\b(http|status code|response status|the status of the (response|request))\b/i.test(f.description ?? "");
    if (depth === 1) {
      const envelope = fields.some((s) => s.path !== f.path && !s.path.includes(".") && ENVELOPE_SIBLING.test(snakeName(s.name)));
      if (envelope || said) out.push(f.path);
    } else if (depth === 2 && ((f.parent !== undefined && META_NAME.test(snakeName(f.parent))) || said)) out.push(f.path);
  }
  return out;
}
