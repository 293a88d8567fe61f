/**
 * Maps of problems by field: an object under a name such as `rejected`, `errors` or `invalidFields` whose keys name
 * fields (of the request, or records by id) and whose values say what was wrong (`rejected: {created_at: "Expected a
 * date but found a boolean."}`). Its keys are names, not the fields themselves: a date field's name there holds a
 * message, not a date. And a successful answer reports problems only with what its call sent.
 */

/** Names of fields that hold problems by field (`rejected`, `errors`, `validation_errors`, `invalidFields`, `warnings`: plural, or a participle). */
const PROBLEM_MAP_NAME = /^(?:rejected(?:_?(?:fields|properties|attributes|params|parameters))?|(?:validation_?|field_?|property_?)?(?:errors|warnings|failures|violations)|invalid(?:_?(?:fields|properties|attributes|params|parameters))?|failed(?:_?(?:fields|properties))?)$/i;

/** Keys of one problem described (`{code, message}`), not of problems by field. */
const PROBLEM_PARTS = new Set(["code", "message", "msg", "detail", "details", "title", "type", "reason", "description", "status", "error", "error_code", "error_message", "errorcode", "errormessage", "severity", "level", "hint"]);

/** Whether a field's name says it holds problems by field. */
export function isProblemMapName(name: string): boolean {
  return PROBLEM_MAP_NAME.test(name);
}

/** Whether a value under a field is a map of problems by field: a problem-map name over an object of messages (texts or lists of texts). */
export function isProblemMap(name: string, value: unknown): value is Record<string, unknown> {
  if (!isProblemMapName(name) || typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length === 0 || keys.some((k) => PROBLEM_PARTS.has(k.toLowerCase()))) return false;
  return keys.every((k) => {
    const v = (value as Record<string, unknown>)[k];
    return typeof v === "string" || (Array.isArray(v) && v.every((m) => typeof m === "string"));
  });
}
