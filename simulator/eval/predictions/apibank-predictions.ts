import type { Task, TaskTurn } from "../tasks/task-set.js";
import { parseApiCallText } from "./apibank-call-text.js";
import { registerPredictionReader, type PredictedTurn, type Predictions, type PredictionReader } from "./prediction-readers.js";
import { isObject } from "../../../specs/json-object.js";

/*
 * API-Bank's prediction files, as its evaluators read them:
 *  - level 3 (`lv3_evaluator.py`): JSON lines `{sample_id, api_id, pred}` (an API call: the `api_id`-th gold
 *    call of the `sample_id`-th sample of the level-3 test data) or `{sample_id?, pred, output}` (the final
 *    response, `output` the reference);
 *  - levels 1 and 2 (the JSON test data's samples, `{file, id, input, expected_output}` with the model's `pred`):
 *    matched to the dialogue by `file` and to the gold turn by the expected output (`API-Request: [...]` for a
 *    call, the AI's text for a response), else by order.
 * `pred` is the model's raw text: the call is read from it as API-Bank reads it.
 */

type Json = Record<string, unknown>;

/** The gold turns a task scores: its API calls, and the AI responses that follow an API call. */
function scoredTurns(task: Task): { calls: number[]; responses: number[] } {
  const calls: number[] = [];
  const responses: number[] = [];
  task.turns.forEach((t: TaskTurn, i) => {
    if (t.role === "api") calls.push(i);
    else if (t.role === "assistant" && task.turns[i - 1]?.role === "api") responses.push(i);
  });
  return { calls, responses };
}

function put(p: Predictions, task: string, turn: number, value: PredictedTurn): void {
  let m = p.get(task);
  if (!m) p.set(task, (m = new Map()));
  m.set(turn, value);
}

function expectedOf(r: Json): string | undefined {
  for (const k of ["expected_output", "output", "gt"]) if (typeof r[k] === "string") return r[k] as string;
  return undefined;
}

/** API-Bank's prediction files (see the module comment). */
export const apiBankPredictionReader: PredictionReader = {
  format: "apibank",
  detect: (records) => records.every((r) => isObject(r) && typeof r["pred"] === "string" && ("sample_id" in r || "file" in r || "output" in r || "expected_output" in r)),
  read(records, tasks) {
    const predictions: Predictions = new Map();
    const unmatched: string[] = [];
    const byId = new Map(tasks.map((t) => [t.id, t]));
    const level3 = tasks.filter((t) => t.level === 3 && /\/\d+$/.test(t.id));
    const used = new Map<string, Set<number>>();
    const take = (task: Task, turn: number): void => {
      let u = used.get(task.id);
      if (!u) used.set(task.id, (u = new Set()));
      u.add(turn);
    };
    const free = (task: Task, turn: number): boolean => !used.get(task.id)?.has(turn);
    let responseNo = 0;
    records.forEach((raw, n) => {
      const r = raw as Json;
      const pred = r["pred"] as string;
      const where = `record ${n + 1}`;
      if (typeof r["sample_id"] === "number" || (r["file"] === undefined && level3.length > 0)) {
        const sampleId = typeof r["sample_id"] === "number" ? r["sample_id"] : responseNo;
        const task = level3.find((t) => t.id.endsWith(`/${sampleId}`));
        if (!task) return void unmatched.push(`${where}: no level-3 sample ${String(sampleId)} in the tasks`);
        const { calls, responses } = scoredTurns(task);
        if (typeof r["api_id"] === "number") {
          const turn = calls[r["api_id"]];
          if (turn === undefined) return void unmatched.push(`${where}: sample ${sampleId} has no gold call ${r["api_id"]}`);
          put(predictions, task.id, turn, { kind: "text", text: pred });
        } else {
          const turn = responses[responses.length - 1] ?? task.turns.length - 1;
          if (task.turns[turn]?.role !== "assistant") return void unmatched.push(`${where}: sample ${sampleId} has no gold response`);
          put(predictions, task.id, turn, { kind: "response", text: pred.replace(/User:|AI:/g, "").trim() });
          responseNo++;
        }
        return;
      }
      const file = typeof r["file"] === "string" ? r["file"].replace(/\.jsonl?$/, "") : undefined;
      const task = file !== undefined ? (byId.get(`apibank/${file}`) ?? tasks.find((t) => t.id.endsWith(`/${file}`))) : undefined;
      if (!task) return void unmatched.push(`${where}: no task for file ${String(r["file"])}`);
      const { calls, responses } = scoredTurns(task);
      const expected = expectedOf(r);
      const isCall = expected !== undefined ? /^\s*(API-Request:\s*)?\[\w+\(/.test(expected) : /\[\w+\(/.test(pred);
      if (isCall) {
        const want = expected !== undefined ? parseApiCallText(expected) : undefined;
        const turn =
          calls.find((i) => {
            const t = task.turns[i];
            return free(task, i) && t?.role === "api" && want !== undefined && t.name === want.name && Object.keys(want.arguments).every((k) => k in t.arguments);
          }) ?? calls.find((i) => free(task, i));
        if (turn === undefined) return void unmatched.push(`${where}: no gold call of ${task.id} left for it`);
        take(task, turn);
        put(predictions, task.id, turn, { kind: "text", text: pred });
      } else {
        const text = expected?.replace(/^\s*AI:\s*/, "").trim();
        const turn = responses.find((i) => free(task, i) && text !== undefined && (task.turns[i] as { text?: string }).text?.trim() === text) ?? responses.find((i) => free(task, i));
        if (turn === undefined) return void unmatched.push(`${where}: no gold response of ${task.id} left for it`);
        take(task, turn);
        put(predictions, task.id, turn, { kind: "response", text: pred.replace(/User:|AI:/g, "").trim() });
      }
    });
    return { format: "apibank", predictions, unmatched };
  },
};

registerPredictionReader(apiBankPredictionReader);
