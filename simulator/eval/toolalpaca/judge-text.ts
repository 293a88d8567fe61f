import type { SimEvent } from "../../core/events.js";

/*
 * The standard answer and the solution as ToolAlpaca's evaluation writes them into its judge prompt
 * (`evaluation.py`): numbered `Function:` / `Parameters:` steps, the solution's with what each returned
 * (`Retruns:`, spelled as the authors' script spells it, so the judge reads what it read), then the final response.
 */

/** An observation the way ToolAlpaca's tools return it: `Status Code: 200. Response: {...}`, at most 3000 characters. */
export function observationText(status: number | undefined, body: unknown): string {
  const text = body === undefined || body === null ? "" : typeof body === "string" ? body : (JSON.stringify(body) ?? "");
  const message = status === undefined ? text : `Status Code: ${status}. Response: ${text}`;
  return message.length > 3000 ? message.slice(0, 3000) : message;
}

/** ToolAlpaca's standard answer: the golden calls, numbered (`Parameters` as the source wrote them when it kept the text). */
export function standardAnswerText(calls: ReadonlyArray<{ name: string; arguments: unknown; raw?: string }>): string {
  return calls.map((g, i) => `${i + 1}. Function: ${g.name}\nParameters: ${g.raw ?? (typeof g.arguments === "string" ? g.arguments : JSON.stringify(g.arguments ?? {}))}\n`).join("");
}

/** One step of a solution: a function (a tool, or `getDetails` for a question to the user), its input and what it returned. */
export interface SolutionStep {
  name: string;
  input: string;
  returned: string;
}

/** A solution as ToolAlpaca's judge reads it: numbered steps with their returns, then the final response. */
export function solutionFromSteps(steps: readonly SolutionStep[], final: string | undefined): string {
  const lines = steps.map((s, i) => `${i + 1}. Function: ${s.name}\nParameters: ${s.input}\nRetruns: ${s.returned}\n`);
  return `${lines.join("")}${steps.length + 1}. Final Response: ${final ?? ""}`;
}

/** The steps and final response of an episode's events (a question to the user is a `getDetails` step, its reply what it returned). */
export function solutionOfEvents(events: readonly SimEvent[]): { steps: SolutionStep[]; final: string | undefined } {
  const steps: SolutionStep[] = [];
  const byId = new Map<string, SolutionStep>();
  let final: string | undefined;
  let question: SolutionStep | undefined;
  for (const e of events) {
    if (e.type === "tool.call") {
      const step = { name: e.call.name, input: typeof e.call.arguments === "string" ? e.call.arguments : JSON.stringify(e.call.arguments ?? {}), returned: "" };
      steps.push(step);
      byId.set(e.call.id, step);
    } else if (e.type === "tool.result") {
      const step = byId.get(e.callId);
      if (step) step.returned = observationText(e.result.status, e.result.body);
    } else if (e.type === "assistant.question") {
      question = { name: "getDetails", input: JSON.stringify({ Question: e.text }), returned: "" };
      steps.push(question);
    } else if (e.type === "user.reply" && question) {
      question.returned = e.text;
      question = undefined;
    } else if (e.type === "assistant.final") final = final === undefined ? e.text : `${final}\n${e.text}`;
    else if (e.type === "assistant.gave-up") final = final ?? `(gave up: ${e.reason})`;
  }
  return { steps, final };
}

/** An episode's solution as ToolAlpaca's judge reads it. */
export function solutionText(events: readonly SimEvent[]): string {
  const { steps, final } = solutionOfEvents(events);
  return solutionFromSteps(steps, final);
}
