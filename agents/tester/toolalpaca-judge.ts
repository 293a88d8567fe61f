import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage } from "@langchain/core/messages";

/** ToolAlpaca's evaluation of one solution: process and final response, each Yes, No or Uncertain. */
export interface ToolAlpacaJudgement {
  process: "Yes" | "No" | "Uncertain";
  response: "Yes" | "No" | "Uncertain";
  /** Both correct. */
  overall: boolean;
  analysis: string;
}

/** What the judge reads: the documentation, the instruction, the standard answer and the assistant's solution. */
export interface ToolAlpacaCase {
  documentation: string;
  instruction: string;
  standardAnswer: string;
  solution: string;
}

/** The evaluation prompt of ToolAlpaca (its figure 12), filled in. */
export function toolAlpacaJudgePrompt(c: ToolAlpacaCase): string {
  return [
    "Given the documentation of a REST API and a task instruction, I need you to evaluate whether the solution provided by my AI assistant aligns with the standard answer.",
    "Follow these guidelines:",
    "1. You need to assess both the process and final response of the AI assistant's solution.",
    "2. For the process, refer to the standard answer:",
    " - The standard answer only includes function names and parameters, while the AI assistant's solution also includes function returns. Therefore, it is acceptable to adjust the call situation based on the function return, such as retrying when the function errors, calling function `getDetails` for more information, and calling function `retrievalDataFromFile` when the function's return is too long.",
    " - Random calls to unrelated functions are not allowed.",
    " - The solution must contain all the steps in the standard answer.",
    " - The necessary parameters of the function need to be consistent with the standard answer. Parameters not mentioned in the instruction can be inconsistent.",
    "3. You need to comprehensively judge whether the final response of the solution accurately summarizes the entire call process and provides a reasonable response to the initial instruction.",
    "4. You need to first analyze the entire solution according to the guidelines, then give your answer. Your output should adhere to the format:",
    "## Analysis",
    "{some analysis}",
    "## Results",
    "Process Correctness: one of [Yes, No, Uncertain]",
    "Final Response Correctness: one of [Yes, No, Uncertain]",
    "## Documentation",
    c.documentation,
    "## Task Instruction",
    c.instruction,
    "## Standard Answer",
    c.standardAnswer,
    "## AI Assistant's Solution",
    c.solution,
    "## Analysis",
  ].join("\n");
}

function grade(text: string, label: RegExp): "Yes" | "No" | "Uncertain" {
  const m = label.exec(text);
  const v = m?.[1]?.toLowerCase();
  return v === "yes" ? "Yes" : v === "no" ? "No" : "Uncertain";
}

/** Reads the judge's answer: `Process Correctness: Yes|No|Uncertain` and `Final Response Correctness: ...` (absent: Uncertain). */
export function parseToolAlpacaJudgement(text: string): ToolAlpacaJudgement {
  // As ToolAlpaca's evaluation.py: the verdicts are read after the last `## Results` heading when there is one.
  const results = text.split(/##\s*Results/i).pop() ?? text;
  const process = grade(results, /Process\s+Correctness\s*\**\s*:\s*\**\s*(Yes|No|Uncertain)/i);
  const response = grade(results, /Final\s+Response\s+Correctness\s*\**\s*:\s*\**\s*(Yes|No|Uncertain)/i);
  const analysis = (/##\s*Results/i.exec(text) ? text.slice(0, /##\s*Results/i.exec(text)?.index) : text).trim();
  return { process, response, overall: process === "Yes" && response === "Yes", analysis: analysis.slice(0, 2000) };
}

/** The text of a chat answer (string content, or the text parts of a content list). */
function answerText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : p !== null && typeof p === "object" && typeof (p as { text?: unknown }).text === "string" ? (p as { text: string }).text : "")).join("");
  return "";
}

/** ToolAlpaca's LLM judge over any chat model: procedure and response per solution, overall when both are correct. */
export class ToolAlpacaJudge {
  /** What the judge is called in reports (the model, e.g. `openai:gpt-4o`). */
  readonly label: string;

  constructor(
    private readonly model: BaseChatModel,
    options: { label?: string } = {},
  ) {
    this.label = options.label ?? "llm";
  }

  async judge(c: ToolAlpacaCase): Promise<ToolAlpacaJudgement> {
    const answer = await this.model.invoke([new HumanMessage(toolAlpacaJudgePrompt(c))]);
    return parseToolAlpacaJudgement(answerText(answer.content));
  }
}
