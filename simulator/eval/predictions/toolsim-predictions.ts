import { registerPredictionReader, type Predictions, type PredictionReader } from "./prediction-readers.js";
import { isObject } from "../../../specs/json-object.js";

/*
 * toolsim's own export of predictions: the `samples.jsonl` that `eval --tasks ... --out DIR` writes, one scored
 * turn a line (`{kind: "api", task, turn, predicted: {name, arguments}}`, `{kind: "response", task, turn,
 * predicted}`), re-scored against the tasks (after a fix of the world, or against another task file).
 */

type Json = Record<string, unknown>;

/** toolsim's eval samples (see the module comment). */
export const toolsimPredictionReader: PredictionReader = {
  format: "toolsim",
  detect: (records) => records.every((r) => isObject(r) && (r["kind"] === "api" || r["kind"] === "response") && typeof r["task"] === "string" && typeof r["turn"] === "number"),
  read(records, tasks) {
    const ids = new Set(tasks.map((t) => t.id));
    const predictions: Predictions = new Map();
    const unmatched: string[] = [];
    records.forEach((raw, n) => {
      const r = raw as Json;
      const task = r["task"] as string;
      if (!ids.has(task)) return void unmatched.push(`record ${n + 1}: no task ${task}`);
      let m = predictions.get(task);
      if (!m) predictions.set(task, (m = new Map()));
      const turn = r["turn"] as number;
      if (r["kind"] === "response") m.set(turn, { kind: "response", text: typeof r["predicted"] === "string" ? r["predicted"] : "" });
      else if (isObject(r["predicted"]) && typeof r["predicted"]["name"] === "string") m.set(turn, { kind: "call", name: r["predicted"]["name"], arguments: r["predicted"]["arguments"] });
      else m.set(turn, { kind: "text", text: "" });
    });
    return { format: "toolsim", predictions, unmatched };
  },
};

registerPredictionReader(toolsimPredictionReader);
