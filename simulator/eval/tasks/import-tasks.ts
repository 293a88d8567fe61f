import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { ToolsimError } from "../../../specs/toolsim-error.js";
import { defaultApiBankRoot, findApiBankRoot } from "../apibank/apibank-world.js";
import { parseApiBankCalls } from "../../../agents/assistant/text/apibank-format.js";
import { parsePythonLiteral } from "../../../agents/parse/python-literal.js";
import { goldOf, type Task, type TaskTurn } from "./task-set.js";
import { isObject, type Json } from "../../../specs/json-object.js";

/*
 * Importers of reference conversations into task sets:
 *  - API-Bank dialogues: a folder of `*.jsonl` dialogues (one turn a line: `{"role": "User"|"AI", "text"}` or
 *    `{"role": "API", "api_name", "param_dict", "result": {output, exception}}`), or one such file; also the
 *    JSON test files of API-Bank's repository (not documented in the paper): level-1/2 samples
 *    `[{file, id, instruction, input, expected_output}]` whose `input` is the dialogue as `User: ...` /
 *    `AI: ...` / `API-Request: [Name(k='v')]->output` lines, and level-3 `[{requirement, response, apis}]`;
 *  - ToolAlpaca evaluation sets: `[{Name, Documentation, Instructions, Golden_Answers, ...}]`.
 */

/** What an import produced, with the records it skipped and why, and what it read in an unusual way. */
export interface ImportResult {
  tasks: Task[];
  skipped: Array<{ where: string; reason: string }>;
  /** Things worth knowing that did not stop the import (a call written inside an AI turn, read as a gold call). */
  notes?: string[];
}

/**
 * The API calls an AI turn writes in its text (`Let me register you. [RegisterUser(username='user4', ...)]`, as two
 * API-Bank dialogues do instead of an API turn), read with API-Bank's text format parser: the text around them,
 * and the calls. `error` when the text looks like a call but does not read as one; undefined when it holds none.
 */
export function inlineApiCalls(text: string): { text: string; calls: Array<{ name: string; arguments: Json }> } | { error: string } | undefined {
  if (!/\[\s*[A-Za-z_][\w.]*\s*\(|API[-_ ]?Request\s*:/i.test(text)) return undefined;
  const read = parseApiBankCalls(text);
  if (!read.ok) return { error: read.errors.map((e) => e.message).join("; ") };
  if (read.value.calls.length === 0) return undefined;
  let rest = "";
  let at = 0;
  for (const span of read.value.spans) {
    rest += text.slice(at, span.start);
    at = span.end;
  }
  rest += text.slice(at, Math.max(at, read.value.cut));
  return { text: rest.replace(/API[-_ ]?Request\s*:/gi, "").replace(/\s+/g, " ").trim(), calls: read.value.calls.map((c) => ({ name: c.name, arguments: c.arguments })) };
}

/**
 * Reads the calls written inside AI turns as API turns after the turn's text (with no recorded result); a call
 * the next turn records anyway is not doubled. Each is noted; text that looks like a call but does not read is
 * noted and kept as text.
 */
function splitInlineCalls(turns: readonly TaskTurn[], where: (i: number) => string, notes: string[]): TaskTurn[] {
  const out: TaskTurn[] = [];
  turns.forEach((t, i) => {
    if (t.role !== "assistant") return void out.push(t);
    const inline = inlineApiCalls(t.text);
    if (inline === undefined) return void out.push(t);
    if ("error" in inline) {
      notes.push(`${where(i)}: the AI turn looks like it holds an API call that does not read (${inline.error}); kept as text, no gold call`);
      return void out.push(t);
    }
    const next = turns[i + 1];
    const recorded = inline.calls.every((c) => next?.role === "api" && next.name === c.name);
    if (recorded) return void out.push(t);
    if (inline.text !== "") out.push({ role: "assistant", text: inline.text });
    for (const c of inline.calls) out.push({ role: "api", name: c.name, arguments: c.arguments, exception: null });
    notes.push(`${where(i)}: the AI turn writes ${inline.calls.map((c) => `${c.name}(...)`).join(", ")} inline; read as gold call(s) with no recorded result`);
  });
  return out;
}

/**
 * The API-Bank level of a dialogue, from what it does (file names do not tell: the level-1 set holds
 * "-level-2-" files with several APIs, the level-2 samples are named "-level-3-"): a dialogue that retrieves
 * its APIs with ToolSearcher is level 2 (Retrieve+Call), any other level 1 (Call). Level 3 (Plan+Retrieve+Call)
 * comes from the scenario files and the level-3 test data.
 */
function levelOf(turns: readonly TaskTurn[]): 1 | 2 {
  return turns.some((t) => t.role === "api" && t.name === "ToolSearcher") ? 2 : 1;
}

/** The APIs a task offers at first: API-Bank gives the dialogue's APIs at level 1, only ToolSearcher at levels 2 and 3. */
function offered(turns: readonly TaskTurn[], level: number): string[] {
  return level >= 2 ? ["ToolSearcher"] : apisOf(turns);
}

function apisOf(turns: readonly TaskTurn[]): string[] {
  return [...new Set(turns.flatMap((t) => (t.role === "api" ? [t.name] : [])))];
}

function task(id: string, toolset: string, turns: TaskTurn[], extra: Partial<Task> & { level: number }): Task {
  return { id, source: "apibank", toolset, ...extra, apis: offered(turns, extra.level), turns, ...goldOf(turns) };
}

/** Parses the lines of one API-Bank jsonl dialogue into turns (a bad line is reported, not thrown); `lines[i]` is turn i's line number. */
export function apiBankDialogueTurns(text: string): { turns: TaskTurn[]; problems: string[]; lines: number[] } {
  const turns: TaskTurn[] = [];
  const problems: string[] = [];
  const lines: number[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let d: unknown;
    try {
      d = JSON.parse(line);
    } catch (e) {
      problems.push(`line ${i + 1}: not JSON (${(e as Error).message})`);
      return;
    }
    if (!isObject(d)) return void problems.push(`line ${i + 1}: not an object`);
    const role = d["role"];
    if (role === "User" && typeof d["text"] === "string") turns.push({ role: "user", text: d["text"] });
    else if (role === "AI" && typeof d["text"] === "string") turns.push({ role: "assistant", text: d["text"] });
    else if (role === "API" && typeof d["api_name"] === "string") {
      const result = isObject(d["result"]) ? d["result"] : {};
      const exception = result["exception"];
      turns.push({
        role: "api",
        name: d["api_name"],
        arguments: isObject(d["param_dict"]) ? d["param_dict"] : {},
        ...("output" in result ? { output: result["output"] } : {}),
        exception: typeof exception === "string" ? exception : null,
        ...(isObject(result["input"]) || result["input"] === null ? { input: result["input"] as Json | null } : {}),
      });
    } else problems.push(`line ${i + 1}: unknown turn (role ${JSON.stringify(role)})`);
    while (lines.length < turns.length) lines.push(i + 1);
  });
  return { turns, problems, lines };
}

/** Parses `Name(key='value', n=3)` (an API-Bank API request) into a name and arguments. */
export function parseApiRequest(text: string): { name: string; arguments: Json } | undefined {
  const m = /^\s*\[?\s*(\w+)\s*\(([\s\S]*)\)\s*\]?\s*$/.exec(text);
  if (!m) return undefined;
  const name = m[1] as string;
  const body = m[2] as string;
  const args: Json = {};
  let i = 0;
  while (i < body.length) {
    const km = /^\s*,?\s*(\w+)\s*=\s*/.exec(body.slice(i));
    if (!km) break;
    i += km[0].length;
    // The value runs to the next top-level `, key=` or the end: try the longest literal that parses.
    let end = body.length;
    let parsed: { value: unknown } | undefined;
    for (let j = body.length; j > i; j--) {
      if (j < body.length && !/^\s*,\s*\w+\s*=/.test(body.slice(j))) continue;
      parsed = parsePythonLiteral(body.slice(i, j).trim());
      if (parsed) {
        end = j;
        break;
      }
    }
    args[km[1] as string] = parsed ? parsed.value : body.slice(i, end).trim();
    i = end;
  }
  return { name, arguments: args };
}

/** The turns of an API-Bank level-1/2 JSON sample's dialogue text (`User: ...`, `AI: ...`, `API-Request: [...]->...`). */
export function apiBankTextTurns(text: string): TaskTurn[] {
  const turns: TaskTurn[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    // The prompts' last line ("Generate API Request:", "Generate AI Response:") is not a turn.
    if (line.trim() === "" || /^Generate (API Request|AI Response):?$/i.test(line.trim())) continue;
    const api = /^API-Request:\s*(\[[\s\S]*?\])(?:->([\s\S]*))?$/.exec(line);
    if (api) {
      const req = parseApiRequest(api[1] as string);
      if (!req) continue;
      const outText = api[2];
      const output = outText === undefined ? undefined : (parsePythonLiteral(outText.trim())?.value ?? outText.trim());
      turns.push({ role: "api", name: req.name, arguments: req.arguments, ...(output !== undefined ? { output } : {}), exception: null });
      continue;
    }
    const user = /^User:\s?([\s\S]*)$/.exec(line);
    const ai = /^AI:\s?([\s\S]*)$/.exec(line);
    if (user) turns.push({ role: "user", text: user[1] as string });
    else if (ai) turns.push({ role: "assistant", text: ai[1] as string });
    else {
      const last = turns[turns.length - 1];
      if (last && last.role !== "api") last.text += `\n${line}`;
    }
  }
  return turns;
}

/** Imports API-Bank dialogues (a folder or a file; jsonl dialogues or the level-1/2/3 JSON test files) as tasks. */
export function importApiBank(path: string, options: { root?: string } = {}): ImportResult {
  if (!existsSync(path)) throw new ToolsimError("import.not-found", `no such file or folder: ${path}`);
  const root = resolve(options.root ?? findApiBankRoot(path) ?? defaultApiBankRoot());
  if (!existsSync(join(root, "api_descriptions.json"))) {
    throw new ToolsimError(
      "apibank.not-found",
      options.root !== undefined
        ? `--apibank-root ${options.root} has no api_descriptions.json (API-Bank's folder holds api_descriptions.json and init_database/)`
        : `cannot find API-Bank's APIs and databases (api_descriptions.json, init_database/) above ${path} nor at ${root}: give --apibank-root DIR (or set TOOLSIM_CORPORA)`,
    );
  }
  const ref = `apibank:${root}`;
  const result: ImportResult = { tasks: [], skipped: [] };
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((f) => f.endsWith(".jsonl") || f.endsWith(".json") || f.endsWith(".txt"))
        .sort()
        .map((f) => join(path, f))
    : [path];
  if (files.length === 0) result.skipped.push({ where: path, reason: "no API-Bank files in the folder (*.jsonl dialogues, *.json test data, *.txt level-3 scenarios)" });
  const notes: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    if (file.endsWith(".jsonl")) {
      const read = apiBankDialogueTurns(text);
      for (const p of read.problems) result.skipped.push({ where: `${file}: ${p}`, reason: "bad line" });
      const lines = read.lines;
      const turns = splitInlineCalls(read.turns, (i) => `${file}:${lines[i] ?? "?"}`, notes);
      if (turns.length === 0) {
        result.skipped.push({ where: file, reason: "no turns" });
        continue;
      }
      const name = basename(file, ".jsonl");
      result.tasks.push(task(`apibank/${name}`, ref, turns, { level: levelOf(turns) }));
      continue;
    }
    if (file.endsWith(".txt")) {
      const scenario = apiBankScenario(text);
      if ("error" in scenario) {
        result.skipped.push({ where: file, reason: scenario.error });
        continue;
      }
      result.tasks.push(task(`apibank/level-3/${basename(file, ".txt")}`, ref, scenario.turns, { level: 3, userKnowledge: scenario.knowledge }));
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      result.skipped.push({ where: file, reason: `not JSON: ${(e as Error).message}` });
      continue;
    }
    if (!Array.isArray(data)) {
      result.skipped.push({ where: file, reason: "not a list of samples" });
      continue;
    }
    const stem = basename(file, ".json");
    if (data.every((d) => isObject(d) && typeof d["requirement"] === "string")) {
      data.forEach((d: Json, i) => {
        const turns: TaskTurn[] = [{ role: "user", text: String(d["requirement"]).trim() }];
        for (const a of Array.isArray(d["apis"]) ? (d["apis"] as Json[]) : []) {
          const out = isObject(a["output"]) ? a["output"] : {};
          turns.push({ role: "api", name: String(a["api_name"]), arguments: isObject(a["input"]) ? a["input"] : {}, ...("output" in out ? { output: out["output"] } : {}), exception: typeof out["exception"] === "string" ? out["exception"] : null });
        }
        if (typeof d["response"] === "string") turns.push({ role: "assistant", text: d["response"] });
        result.tasks.push(task(`apibank/${stem}/${i}`, `${ref}#lv3_apis`, turns, { level: 3 }));
      });
      continue;
    }
    // Level-1/2 samples: each holds the dialogue up to one gold turn; the longest per dialogue holds them all.
    const byFile = new Map<string, { input: string; expected: string; id: number }>();
    data.forEach((d: unknown, i) => {
      if (!isObject(d) || typeof d["input"] !== "string" || typeof d["expected_output"] !== "string") {
        result.skipped.push({ where: `${file}[${i}]`, reason: "not an API-Bank sample (input, expected_output)" });
        return;
      }
      const key = typeof d["file"] === "string" ? d["file"] : `${stem}-${i}`;
      const id = typeof d["id"] === "number" ? d["id"] : i;
      const prev = byFile.get(key);
      if (!prev || id > prev.id) byFile.set(key, { input: d["input"], expected: d["expected_output"], id });
    });
    for (const [key, s] of byFile) {
      const turns = splitInlineCalls(apiBankTextTurns(`${s.input}\n${s.expected}`), (i) => `${file} (${key}, turn ${i + 1})`, notes);
      if (turns.length === 0) continue;
      const name = key.replace(/\.jsonl?$/, "");
      result.tasks.push(task(`apibank/${name}`, ref, turns, { level: levelOf(turns) }));
    }
  }
  if (notes.length > 0) result.notes = notes;
  return result;
}

/**
 * An API-Bank level-3 scenario file (`Scene: ...`, `First Utterence: ...`, `Key Info:` lines, `GT API Call:`
 * one call a line, as in the authors' `Hotel Booking.txt`): the first utterance with the key information is the
 * user's turn, the calls are the gold calls (no recorded results: replayed, they must run without exception).
 */
export function apiBankScenario(text: string): { turns: TaskTurn[]; knowledge: string[]; scene: string } | { error: string } {
  const lines = text.split(/\r?\n/);
  const field = (name: RegExp): number => lines.findIndex((l) => name.test(l.trim()));
  const utter = field(/^First Utter(e|a)nce\s*:/i);
  const gt = field(/^GT API Calls?\s*:/i);
  if (utter < 0 || gt < 0) return { error: "not an API-Bank scenario (needs \"First Utterence:\" and \"GT API Call:\")" };
  const scene = (lines[field(/^Scene\s*:/i)] ?? "").replace(/^\s*Scene\s*:\s*/i, "").trim();
  const first = (lines[utter] as string).replace(/^\s*First Utter(e|a)nce\s*:\s*/i, "").trim();
  const keyAt = field(/^Key Info\s*:/i);
  const knowledge: string[] = [];
  if (keyAt >= 0) {
    let entry = "";
    for (const raw of lines.slice(keyAt + 1, gt)) {
      const line = raw.trim();
      if (line === "") continue;
      if (line.startsWith("- ")) {
        if (entry !== "") knowledge.push(entry);
        entry = line.slice(2).trim();
      } else entry += ` ${line}`;
    }
    if (entry !== "") knowledge.push(entry.replace(/,\s*$/, ""));
  }
  const turns: TaskTurn[] = [{ role: "user", text: knowledge.length > 0 ? `${first}\n${knowledge.map((k) => `- ${k.replace(/\s+/g, " ").replace(/,\s*$/, "")}`).join("\n")}` : first }];
  for (const raw of lines.slice(gt + 1)) {
    const line = raw.trim();
    if (line === "") continue;
    const call = parseApiRequest(line);
    if (!call) return { error: `a GT API call does not read: ${line.slice(0, 80)}` };
    turns.push({ role: "api", name: call.name, arguments: call.arguments, exception: null });
  }
  if (turns.length === 1) return { error: "the scenario has no GT API call" };
  return { turns, knowledge, scene };
}

/** Imports a ToolAlpaca evaluation set: one task per instruction, its golden actions as gold calls (see `simulator/eval/toolalpaca`). */
export { importToolAlpacaTasks as importToolAlpaca } from "../toolalpaca/toolalpaca-tasks.js";
