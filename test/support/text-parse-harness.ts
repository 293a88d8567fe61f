import type { AgentTool } from "../../agents/roles/roles.js";
import type { FormatError, TextDecision } from "../../agents/assistant/text/text-protocol.js";
import type { Result } from "../../specs/result.js";

/** A text format's parser, as the format tests call it. */
export type TextParser = (text: string, options: { tools: readonly AgentTool[] }) => Result<TextDecision, FormatError>;

/**
 * The helpers of a text format's tests over some tools: `parsed` (the decision, or a thrown error naming the parse
 * errors), `calls` (the decision's calls as name and arguments; throws for another kind), `errors` (the parse
 * errors; throws when the text parses).
 */
export function parseHarness(parse: TextParser, tools: readonly AgentTool[]): {
  parsed(text: string): TextDecision;
  calls(text: string): Array<{ name: string; arguments: Record<string, unknown> }>;
  errors(text: string): FormatError[];
} {
  const parsed = (text: string): TextDecision => {
    const r = parse(text, { tools });
    if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.errors)}`);
    return r.value;
  };
  return {
    parsed,
    calls(text) {
      const d = parsed(text);
      if (d.kind !== "calls") throw new Error(`expected calls, got ${JSON.stringify(d)}`);
      return d.calls.map((c) => ({ name: c.name, arguments: c.arguments }));
    },
    errors(text) {
      const r = parse(text, { tools });
      if (r.ok) throw new Error(`expected errors, got ${JSON.stringify(r.value)}`);
      return r.errors;
    },
  };
}
