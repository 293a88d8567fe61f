import { apiBankDescription, parseApiBankCalls, renderApiBankCall, renderApiBankValue } from "../../agents/assistant/text/apibank-format.js";
import { parseLenientJson } from "../../agents/parse/lenient-json.js";
import type { AgentTool } from "../../agents/roles/roles.js";
import type { ParsedCall } from "../../agents/assistant/text/text-protocol.js";
import { fail, ok, type Result } from "../../specs/result.js";
import { giveUpText, type ConversationCall, type ConversationTurn } from "./conversation.js";
import { lineMeta, type EpisodeFormat, type ExportEpisode, type ResolvedExportOptions } from "./export-format.js";
import { isObject } from "../../specs/json-object.js";

/** What API-Bank records after a request: `{api_name, input, output, exception}`. */
export interface ApiBankResult {
  api_name: string;
  input: unknown;
  output: unknown;
  exception: string | null;
}

/** A call's result as API-Bank records it: the body as output, or, for an error (status >= 400), the reason as exception. */
export function apiBankResult(call: ConversationCall): ApiBankResult {
  const input = typeof call.arguments === "string" ? call.arguments : call.arguments;
  const r = call.result;
  if (!r) return { api_name: call.name, input, output: null, exception: "no result (the episode ended first)" };
  const status = r.status ?? 200;
  if (status < 400) return { api_name: call.name, input, output: r.body ?? null, exception: null };
  const body = r.body;
  const title = isObject(body) && typeof body["title"] === "string" ? body["title"] : "error";
  const detail = isObject(body) && typeof body["detail"] === "string" ? `: ${body["detail"]}` : "";
  return { api_name: call.name, input, output: null, exception: `${status} ${title}${detail}` };
}

/**
 * An episode as an API-Bank text dialogue: `User: ...` and `AI: ...` lines, and one
 * `API-Request: [ApiName(key='value')]->{'api_name': ..., 'input': ..., 'output': ..., 'exception': None}` line
 * per call, values written as API-Bank writes them (Python literals). Thoughts are not part of the format.
 */
export function apiBankDialogueText(turns: readonly ConversationTurn[]): string {
  const lines: string[] = [];
  for (const t of turns) {
    switch (t.kind) {
      case "instruction":
      case "reply":
        lines.push(`User: ${t.text}`);
        break;
      case "calls":
        for (const c of t.calls) lines.push(`API-Request: ${renderApiBankCall(c.name, c.arguments)}->${renderApiBankValue(apiBankResult(c))}`);
        break;
      case "give-up":
        lines.push(`AI: ${giveUpText(t.text)}`);
        break;
      default:
        lines.push(`AI: ${t.text}`);
    }
  }
  return lines.join("\n");
}

/** One turn of an API-Bank text dialogue read back. */
export type ApiBankDialogueTurn =
  | { role: "User" | "AI"; text: string }
  | { role: "API"; call: ParsedCall; result: unknown };

const LABEL = /^(User|AI|API-Request): ?/gm;

/**
 * Reads an API-Bank text dialogue back (the inverse of {@link apiBankDialogueText}): the labels start lines, the
 * requests are read with the API-Bank call reader and their `->` results as Python literals.
 */
export function parseApiBankDialogue(text: string, tools?: readonly AgentTool[]): Result<ApiBankDialogueTurn[], string> {
  const marks = [...text.matchAll(LABEL)];
  if (marks.length === 0) return fail(["no User:, AI: or API-Request: line"]);
  if ((marks[0]?.index ?? 0) !== 0) return fail(["text before the first label"]);
  const out: ApiBankDialogueTurn[] = [];
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i]!;
    const end = i + 1 < marks.length ? marks[i + 1]!.index - 1 : text.length;
    const body = text.slice(m.index + m[0].length, end);
    if (m[1] !== "API-Request") {
      out.push({ role: m[1] as "User" | "AI", text: body });
      continue;
    }
    const line = `API-Request: ${body}`;
    const read = parseApiBankCalls(line, tools ? { tools } : {});
    if (!read.ok) return fail(read.errors.map((e) => `line ${i + 1}: ${e.message}`));
    const call = read.value.calls[0];
    const span = read.value.spans[0];
    if (read.value.calls.length !== 1 || !call || !span) return fail([`line ${i + 1}: expected one call`]);
    const rest = line.slice(span.end);
    if (!rest.startsWith("->")) return fail([`line ${i + 1}: expected '->' and the result after the call`]);
    const result = parseLenientJson(rest.slice(2));
    if (!result.ok) return fail([`line ${i + 1}: the result does not read: ${result.errors[0]?.message ?? ""}`]);
    out.push({ role: "API", call, result: result.value.value });
  }
  return ok(out);
}

/**
 * API-Bank's text dialogues, one line per episode: `apis` (the tools as API-Bank describes APIs: name,
 * description, input_parameters) and `dialogue` (see {@link apiBankDialogueText}).
 */
export const apiBankFormat: EpisodeFormat = {
  name: "apibank",
  lines(episode: ExportEpisode, options: ResolvedExportOptions) {
    return [
      {
        apis: episode.tools.map(apiBankDescription),
        dialogue: apiBankDialogueText(episode.turns),
        ...(options.meta ? { meta: lineMeta(episode.record) } : {}),
      },
    ];
  },
};
