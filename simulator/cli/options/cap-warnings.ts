import type { ToolResult } from "../../../specs/call/tool-result.js";
import { LIMIT_OPTIONS } from "../../../specs/synthesize/work-budget.js";

/** Distinct cap messages kept for the closing warning. */
const SHOWN = 5;

/**
 * Collects, over a run, the tool answers that a synthesis cap cut or the per-call time budget ended (their notes
 * name the cap and its flag), for one closing warning on stderr instead of silence.
 */
export class CapWarnings {
  private answers = 0;
  private readonly messages: string[] = [];

  /** Looks at one tool result's notes. */
  see(result: Pick<ToolResult, "notes">): void {
    const capped = result.notes.filter((n) => n.startsWith("synthesis cap ") || n.includes(`(${LIMIT_OPTIONS.budgetMs})`));
    if (capped.length === 0) return;
    this.answers++;
    for (const m of capped) if (this.messages.length < SHOWN && !this.messages.includes(m)) this.messages.push(m);
  }

  /** The closing warning for stderr, one cap a line (empty when no cap was reached). */
  text(): string {
    if (this.answers === 0) return "";
    const head = `toolsim: warning: ${this.answers} tool answer${this.answers === 1 ? "" : "s"} reached a synthesis cap or the time budget (raise it with the flag named):`;
    return `${[head, ...this.messages.map((m) => `  ${m}`)].join("\n")}\n`;
  }
}
