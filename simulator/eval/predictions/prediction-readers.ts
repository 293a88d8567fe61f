import { readFileSync } from "node:fs";
import { ToolsimError } from "../../../specs/toolsim-error.js";
import type { Task } from "../tasks/task-set.js";

/*
 * Prediction files: model outputs made elsewhere, scored by `eval --predictions FILE --tasks ...` without
 * running an assistant. A registry of readers, one per format (API-Bank's, toolsim's eval samples; ToolAlpaca's
 * can be registered the same way): each says whether it reads a file's records and turns them into
 * predictions keyed by task and gold turn.
 */

/** One predicted turn: an API call written as text (`[Name(k='v')]`), a structured call, or a response. */
export type PredictedTurn =
  | { kind: "text"; text: string }
  | { kind: "call"; name: string; arguments: unknown }
  | { kind: "response"; text: string };

/** Predictions by task id, then by the index of the gold turn they predict. */
export type Predictions = Map<string, Map<number, PredictedTurn>>;

/** What a reader made of a file. */
export interface ReadPredictions {
  format: string;
  predictions: Predictions;
  /** Records that match no gold turn of the tasks, with why. */
  unmatched: string[];
}

/** A reader of one prediction format. */
export interface PredictionReader {
  /** The format's name, as `--predictions-format` takes it. */
  format: string;
  /** Whether the records look like this format. */
  detect(records: readonly unknown[]): boolean;
  read(records: readonly unknown[], tasks: readonly Task[]): ReadPredictions;
}

const READERS: PredictionReader[] = [];

/** Adds a reader (later readers are tried after earlier ones). */
export function registerPredictionReader(reader: PredictionReader): void {
  if (!READERS.some((r) => r.format === reader.format)) READERS.push(reader);
}

/** The formats the registered readers read. */
export function predictionFormats(): string[] {
  return READERS.map((r) => r.format);
}

/** The records of a prediction file: JSON lines, or one JSON array. */
export function readRecords(path: string): unknown[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ToolsimError("predictions.not-found", `cannot read predictions ${path}: ${(e as Error).message}`);
  }
  const trimmed = text.trim();
  if (trimmed.startsWith("[")) {
    try {
      const data: unknown = JSON.parse(trimmed);
      if (Array.isArray(data)) return data;
    } catch {
      // not one JSON document: read as lines
    }
  }
  const records: unknown[] = [];
  trimmed.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      records.push(JSON.parse(line));
    } catch (e) {
      throw new ToolsimError("predictions.corrupt", `${path}:${i + 1}: not JSON: ${(e as Error).message}`);
    }
  });
  return records;
}

/** Reads a prediction file with the reader of its format (named, or detected). */
export function readPredictionFile(path: string, tasks: readonly Task[], format?: string): ReadPredictions {
  const records = readRecords(path);
  if (records.length === 0) throw new ToolsimError("predictions.empty", `${path} holds no predictions`);
  const reader = format !== undefined ? READERS.find((r) => r.format === format) : READERS.find((r) => r.detect(records));
  if (!reader) {
    throw new ToolsimError(
      "predictions.unknown-format",
      format !== undefined ? `unknown predictions format "${format}" (known: ${predictionFormats().join(", ")})` : `${path}: not a known predictions format (known: ${predictionFormats().join(", ")})`,
    );
  }
  return reader.read(records, tasks);
}
