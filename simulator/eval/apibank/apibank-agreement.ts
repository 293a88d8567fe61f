import type { HttpRequest } from "../../../specs/call/http-request.js";
import type { ToolResult } from "../../../specs/call/tool-result.js";
import type { ApiBankResult, ApiBankSet } from "../../../toolsets/apibank/apibank-api.js";
import { checkApiBankCall } from "../../../toolsets/apibank/apibank-apis.js";
import { recordOfAnswer } from "../../../toolsets/apibank/apibank-records.js";
import { pyEquals } from "../../../toolsets/apibank/py.js";
import { foundApiNames } from "../../../toolsets/apibank/tool-searcher.js";

/*
 * Whether a call answered in toolsim's API-Bank world agrees with a reference result, as API-Bank judges it:
 * the same output and exception, or accepted by the API's own `check_api_call_correctness` (which ignores what
 * the API draws at random and normalizes what it normalizes). ToolSearcher agrees when it found the same APIs
 * (API-Bank compares the whole descriptions, whose text changed between the recordings and the release).
 */

type Json = Record<string, unknown>;

/** The arguments a call reached the API with (its query parameters and its body's properties). */
export function argumentsOfRequest(request: HttpRequest | undefined, fallback: Json): Json {
  if (!request) return fallback;
  const body = request.body !== null && typeof request.body === "object" && !Array.isArray(request.body) ? (request.body as Json) : {};
  return { ...body, ...(request.query as Json) };
}

/** The reference record of a recorded call. */
export function goldRecord(name: string, gold: { arguments: Json; input?: Json | null; output?: unknown; exception?: string | null }): ApiBankResult {
  return { api_name: name, input: gold.input === undefined ? gold.arguments : gold.input, output: gold.output ?? null, exception: gold.exception ?? null };
}

/** The record of a call answered by the API-Bank responder (undefined when the answer did not come from it). */
export function recordOfResult(set: ApiBankSet, name: string, result: ToolResult, args: Json): ApiBankResult | undefined {
  if (result.source !== "state" || result.status >= 500) return undefined;
  return recordOfAnswer(set, name, argumentsOfRequest(result.request, args), result.status, result.body);
}

/** The verdict of a call against a reference record. */
export interface Agreement {
  agree: boolean;
  /** How: equal outputs, the API's own check, or the same APIs found (ToolSearcher). */
  by?: "output" | "check" | "found-apis";
  /** Why the check said no, when it raised (an authors' KeyError, an assertion). */
  checkError?: string;
}

/**
 * Judges one result against a reference as API-Bank does (see the module comment). `replay` (a gold call
 * replayed with its own arguments) also accepts equal outputs; `predict` (another call) needs the API's check,
 * and falls back to equal input, output and exception only where the authors' check itself raises.
 */
export function apiBankAgreement(set: ApiBankSet, name: string, ours: ApiBankResult, reference: ApiBankResult, mode: "replay" | "predict" = "replay"): Agreement {
  const sameOut = pyEquals(ours.output, reference.output) && ours.exception === reference.exception;
  if (mode === "replay" && sameOut) return { agree: true, by: "output" };
  if (name === "ToolSearcher") {
    const a = foundApiNames(ours.output);
    return a.length > 0 && a.join(",") === foundApiNames(reference.output).join(",") && ours.exception === reference.exception ? { agree: true, by: "found-apis" } : { agree: false };
  }
  const check = checkApiBankCall(set, name, ours, reference);
  if (check.correct) return { agree: true, by: "check" };
  if (mode === "predict" && check.error !== undefined && sameOut && pyEquals(ours.input, reference.input)) return { agree: true, by: "output", checkError: check.error };
  return { agree: false, ...(check.error ? { checkError: check.error } : {}) };
}
