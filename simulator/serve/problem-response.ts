import type { ProblemDetails, ValidationIssue } from "../../specs/call/problem-details.js";

/** Prism's problem types (for the problems toolsim shares with Prism). */
export const PRISM = "https://stoplight.io/prism/errors#";
/** toolsim's own problem types. */
export const TOOLSIM = "https://toolsim.dev/problems/";
/** The media type of problem details (RFC 9457). */
export const PROBLEM_JSON = "application/problem+json";

/** Response headers by name. */
export type HeaderMap = Record<string, string>;

/** A problem-details answer (no body for HEAD). */
export function problemResponse(problem: ProblemDetails, headers: HeaderMap = {}, head = false): Response {
  return new Response(head ? null : JSON.stringify(problem), { status: problem.status, headers: { ...headers, "content-type": PROBLEM_JSON } });
}

/** Problem details. */
export function problem(status: number, type: string, title: string, detail: string, validation?: ValidationIssue[]): ProblemDetails {
  return { type, title, status, detail, ...(validation ? { validation } : {}) };
}
