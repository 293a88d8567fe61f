import type { HttpRequest } from "./http-request.js";
import type { ValidationIssue } from "./problem-details.js";
import type { OperationRef } from "../catalog/tool.js";

/**
 * Which responder produced a result; `validation` is the problem details of a rejected call, `budget` the
 * 500 problem of a call that used up its time budget.
 */
export type ResponseSource = "state" | "example" | "schema" | "replay" | "http" | "llm" | "validation" | "route" | "search" | "budget";

/** The observation a tool call gets back: an HTTP-like response with where it came from. */
export interface ToolResult {
  tool: string;
  status: number;
  body: unknown;
  contentType?: string;
  /** Request validation errors (empty when the call was valid). */
  errors: ValidationIssue[];
  /** Errors of the response body against its response schema (empty when it validates). */
  responseErrors: ValidationIssue[];
  source: ResponseSource;
  operation?: OperationRef;
  request?: HttpRequest;
  /** What happened on the way: repairs, fallbacks, truncation. */
  notes: string[];
}
