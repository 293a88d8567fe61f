import type { EpisodeToolset } from "../../../agents/roles/toolbox.js";
import type { Tool } from "../../../specs/catalog/tool.js";
import { deriveSeed } from "../../../specs/seed.js";
import { synthesizeArguments } from "../../../specs/synthesize/synthesize-call.js";
import { isPlaceholder, placeholderSource } from "../../../toolsets/import/toolalpaca-golden.js";
import { isObject } from "../../../specs/json-object.js";

/*
 * ToolAlpaca's golden answers leave some values open: a placeholder for a value an earlier call returns
 * (`${animeId from searchAnime}`), one the user would give (`${userId from getDetails}`, `${start date}`), and ""
 * for an optional parameter the instruction does not mention. To replay a golden answer, each open value is
 * filled: from the earlier call's result when there is one, else with a valid value synthesized for the
 * parameter; an empty optional argument is left out. Every fill is reported as a defect of the source.
 */

type Json = Record<string, unknown>;

/** A result of an earlier call of the same task. */
export interface EarlierResult {
  name: string;
  body: unknown;
}

/** An open value of a golden answer, and how it was filled. */
export interface OpenValue {
  kind: "placeholder" | "empty-argument";
  arg: string;
  detail: string;
}

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

function normalized(name: string): string {
  return words(name).join("");
}

/** Values under keys of a body (depth first, list items in order). */
function valuesOf(body: unknown, keys: ReadonlySet<string>, out: unknown[] = [], depth = 0): unknown[] {
  if (depth > 8 || out.length > 20) return out;
  if (Array.isArray(body)) {
    for (const item of body) valuesOf(item, keys, out, depth + 1);
  } else if (isObject(body)) {
    for (const [k, v] of Object.entries(body)) if (keys.has(normalized(k)) && (typeof v === "string" || typeof v === "number")) out.push(v);
    for (const v of Object.values(body)) if (typeof v === "object" && v !== null) valuesOf(v, keys, out, depth + 1);
  }
  return out;
}

/** The keys an open value may be found under: its own name and the argument's (`holidayId name` -> `holidayid`), and `id` for an id. */
function candidateKeys(name: string, arg: string): Set<string> {
  const keys = new Set<string>();
  for (const n of [name, arg]) {
    const w = words(n);
    if (w.length === 0) continue;
    keys.add(w.join(""));
    const idAt = w.findIndex((x) => x === "id");
    if (idAt >= 0) keys.add(w.slice(0, idAt + 1).join(""));
    if (w[w.length - 1] === "id" || w.includes("id")) keys.add("id");
  }
  return keys;
}

/** A value found in an earlier result for an open value, if any (the latest call of the named tool first). */
function fromEarlier(name: string, from: string | undefined, arg: string, earlier: readonly EarlierResult[]): unknown {
  const keys = candidateKeys(name, arg);
  const pool = from !== undefined ? earlier.filter((e) => e.name === from) : earlier;
  const specificKeys = new Set([...keys].filter((k) => k !== "id"));
  for (const e of [...pool].reverse()) {
    // Prefer the value under the most specific key (`animeId` over `id`).
    const v = valuesOf(e.body, specificKeys)[0] ?? valuesOf(e.body, keys)[0];
    if (v !== undefined) return v;
  }
  return undefined;
}

/** Whether a tool argument is required (a parameter or a flat body property). */
function isRequired(tool: Tool, arg: string): boolean {
  return tool.required.includes(arg);
}

/**
 * Fills the open values of a golden call's arguments for replay (see the module comment). `seed` makes the
 * synthesized values repeatable.
 */
export function fillOpenValues(toolset: EpisodeToolset, tool: Tool, args: Json, earlier: readonly EarlierResult[], seed: number): { args: Json; filled: OpenValue[] } {
  const out: Json = { ...args };
  const filled: OpenValue[] = [];
  let synthesized: Json | undefined;
  const synth = (arg: string): unknown => {
    synthesized ??= synthesizeArguments(toolset.catalog, tool, { seed: deriveSeed(seed, tool.name, "open-values"), optionals: 1 });
    return synthesized[arg];
  };
  for (const [arg, value] of Object.entries(args)) {
    const open = isPlaceholder(value) || (Array.isArray(value) && value.length > 0 && value.every(isPlaceholder));
    if (open) {
      const text = Array.isArray(value) ? String(value[0]) : (value as string);
      const { name, from } = placeholderSource(text);
      const found = Array.isArray(value) || from === "getDetails" ? undefined : fromEarlier(name, from, arg, earlier);
      if (found !== undefined) {
        out[arg] = found;
        filled.push({ kind: "placeholder", arg, detail: `${text}: ${JSON.stringify(found)} from the result of ${from ?? "an earlier call"}` });
        continue;
      }
      const v = synth(arg);
      if (v === undefined) {
        delete out[arg];
        filled.push({ kind: "placeholder", arg, detail: `${text}: no value found; left out` });
      } else {
        out[arg] = v;
        filled.push({ kind: "placeholder", arg, detail: `${text}: ${from !== undefined && from !== "getDetails" ? `no value in the result of ${from}; ` : ""}a valid value synthesized (${JSON.stringify(v)})` });
      }
      continue;
    }
    if (value === "" || value === null) {
      if (!isRequired(tool, arg)) {
        delete out[arg];
        filled.push({ kind: "empty-argument", arg, detail: `${JSON.stringify(value)} for an optional argument the instruction does not give: left out` });
      } else {
        const v = synth(arg);
        if (v !== undefined) out[arg] = v;
        filled.push({ kind: "empty-argument", arg, detail: `${JSON.stringify(value)} for a required argument: ${v !== undefined ? `a valid value synthesized (${JSON.stringify(v)})` : "kept"}` });
      }
    }
  }
  return { args: out, filled };
}
