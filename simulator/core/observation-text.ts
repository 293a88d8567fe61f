import type { ToolResult } from "../../specs/call/tool-result.js";

/** Observations longer than this are truncated for the assistant (the full body stays in the journal). */
export const MAX_OBSERVATION_CHARS = 4000;

/** The text of each result at the default length, made once: the episode's dialogue and the corpus line both need it. */
const TEXTS = new WeakMap<ToolResult, { body: unknown; status: number; text: string }>();

/** The text of an observation as the assistant reads it: status and JSON body, truncated with a note when long. */
export function observationText(result: ToolResult, max = MAX_OBSERVATION_CHARS): string {
  if (max !== MAX_OBSERVATION_CHARS) return computeText(result, max);
  const hit = TEXTS.get(result);
  if (hit && hit.body === result.body && hit.status === result.status) return hit.text;
  const text = computeText(result, max);
  TEXTS.set(result, { body: result.body, status: result.status, text });
  return text;
}

function computeText(result: ToolResult, max: number): string {
  const body = result.body === undefined ? "" : JSON.stringify(result.body);
  const text = `{"status": ${result.status}, "body": ${body === "" ? "null" : body}}`;
  if (text.length <= max) return text;
  return `${text.slice(0, max)}... [truncated: ${text.length - max} more characters]`;
}
