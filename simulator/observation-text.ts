import type { ToolResult } from "../specs/tool-result.js";

/** Observations longer than this are truncated for the assistant (the full body stays in the journal). */
export const MAX_OBSERVATION_CHARS = 4000;

/** The text of an observation as the assistant reads it: status and JSON body, truncated with a note when long. */
export function observationText(result: ToolResult, max = MAX_OBSERVATION_CHARS): string {
  const body = result.body === undefined ? "" : JSON.stringify(result.body);
  const text = `{"status": ${result.status}, "body": ${body === "" ? "null" : body}}`;
  if (text.length <= max) return text;
  return `${text.slice(0, max)}... [truncated: ${text.length - max} more characters]`;
}
