import { createReadStream, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { ToolsimError } from "../../../specs/toolsim-error.js";

/** One turn of a task's reference conversation. */
export type TaskTurn =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string }
  | {
      role: "api";
      name: string;
      /** The arguments as the source recorded them (defects included). */
      arguments: Record<string, unknown>;
      /** The output the source recorded, when it has one. */
      output?: unknown;
      /** The exception the source recorded, if any. */
      exception?: string | null;
      /** The inputs the API received as the source recorded them (API-Bank's `result.input`), when recorded. */
      input?: Record<string, unknown> | null;
    };

/** A gold tool call of a task. */
export interface GoldCall {
  name: string;
  arguments: Record<string, unknown>;
  output?: unknown;
  exception?: string | null;
  /** The inputs the API received as the source recorded them, when recorded. */
  input?: Record<string, unknown> | null;
  /** Index of the turn it is in `turns`. */
  turn: number;
}

/**
 * One task of a task set (`tasks.jsonl`, one per line): which toolset it plays in, the reference conversation
 * (user turns, assistant turns, API calls in order), the gold calls and the gold responses (the assistant turns
 * that follow an API call, scored with ROUGE-L).
 */
export interface Task {
  /** Unique id: `apibank/AddAlarm-level-1-1`, `toolalpaca/Axolotl/3`. */
  id: string;
  source: "apibank" | "toolalpaca" | "toolsim";
  /**
   * The toolset: `apibank:<corpus folder>` (API-Bank's APIs and databases), `toolalpaca:<eval file>#<Name>`,
   * or the path of a toolset file.
   */
  toolset: string;
  /** API-Bank level, when known. */
  level?: number;
  /** The APIs the task offers the assistant at first (the dialogue's APIs at level 1; ToolSearcher at levels 2 and 3). */
  apis?: string[];
  /** What the user knows and gives when asked (a level-3 scenario's key information). */
  userKnowledge?: string[];
  turns: TaskTurn[];
  goldCalls: GoldCall[];
  goldResponses: string[];
  /** ToolAlpaca's extras: the questions its golden answer asks the user (`getDetails`), and which gold calls are `[Optional]` (indexes). */
  toolalpaca?: { questions?: string[]; optional?: number[] };
}

/** The gold calls and responses of a list of turns. */
export function goldOf(turns: readonly TaskTurn[]): { goldCalls: GoldCall[]; goldResponses: string[] } {
  const goldCalls: GoldCall[] = [];
  const goldResponses: string[] = [];
  turns.forEach((t, i) => {
    if (t.role === "api") goldCalls.push({ name: t.name, arguments: t.arguments, ...(t.output !== undefined ? { output: t.output } : {}), ...(t.exception !== undefined ? { exception: t.exception } : {}), ...(t.input !== undefined ? { input: t.input } : {}), turn: i });
    else if (t.role === "assistant" && turns[i - 1]?.role === "api") goldResponses.push(t.text);
  });
  return { goldCalls, goldResponses };
}

/** Writes a task set, one task per line. */
export function writeTasks(path: string, tasks: readonly Task[]): void {
  writeFileSync(path, tasks.map((t) => `${JSON.stringify(t)}\n`).join(""));
}

/** Reads a task set (`tasks.jsonl`); a line that is not a task is an error naming the line. */
export async function readTasks(path: string): Promise<Task[]> {
  const tasks: Task[] = [];
  const lines = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim() === "") continue;
    let t: unknown;
    try {
      t = JSON.parse(line);
    } catch (e) {
      throw new ToolsimError("tasks.corrupt", `${path}:${n}: not JSON: ${(e as Error).message}`);
    }
    const task = t as Partial<Task>;
    if (typeof task.id !== "string" || typeof task.toolset !== "string" || !Array.isArray(task.turns)) throw new ToolsimError("tasks.corrupt", `${path}:${n}: not a task (needs id, toolset, turns)`);
    tasks.push({ goldCalls: [], goldResponses: [], ...task } as Task);
  }
  return tasks;
}
