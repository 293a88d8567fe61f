import { isObject, type Json } from "../../../specs/json-object.js";
import { stableStringify } from "../../../specs/stable-stringify.js";
import { similarity } from "../../../specs/words.js";
import { coerce, normalizeWords } from "./coerce-value.js";
import { isScalar } from "./observations.js";
import type { OfflineToolbox } from "./offline-types.js";
import { enumOf, paramsOf, schemaType } from "./tool-params.js";
import type { OfflineToolSpec } from "./offline-types.js";

/*
 * Repair after a validation error: the problem details of a rejected call say which argument broke which rule;
 * the arguments are fixed where the fix is clear (the nearest enum value, a number of the right type, a bound,
 * a shorter text, an unknown name dropped).
 */

/** How alike an argument and an allowed value read: 1 equal, 0.8 one inside the other, else 1 - edit distance / length. */
function alike(a: string, b: string): number {
  const x = normalizeWords(a);
  const y = normalizeWords(b);
  if (x === y) return 1;
  if (x.includes(y) || y.includes(x)) return 0.8;
  return similarity(x, y);
}

/** Arguments fixed after validation errors (type, enum, bounds, format, unknown names), or undefined when nothing changes. */
export function repairArguments(box: OfflineToolbox, tool: OfflineToolSpec, args: Json, body: unknown): { args: Json; notes: string[] } | undefined {
  if (!isObject(body) || !Array.isArray(body["validation"])) return undefined;
  const params = paramsOf(box, tool.parameters);
  const fixed: Json = structuredClone(args);
  const notes: string[] = [];
  for (const issue of body["validation"]) {
    if (!isObject(issue) || !Array.isArray(issue["location"])) continue;
    const loc = issue["location"].filter((s): s is string => typeof s === "string");
    const code = typeof issue["code"] === "string" ? issue["code"] : "";
    const name = loc.find((seg, i) => i > 0 && params.some((p) => p.name === seg)) ?? loc[loc.length - 1];
    if (name === undefined) continue;
    const p = params.find((x) => x.name === name);
    if (code === "additionalProperties" || code === "unknown-argument" || (!p && name in fixed)) {
      if (name in fixed) {
        delete fixed[name];
        notes.push(`dropped ${name}`);
      }
      continue;
    }
    if (!p) continue;
    const current = fixed[p.name];
    if (current === undefined) continue;
    const s = p.schema;
    const en = enumOf(s);
    if (code === "enum" && en) {
      const best = en.map((v, i) => ({ v, i, sim: alike(String(v), String(current)) })).sort((a, b) => b.sim - a.sim || a.i - b.i)[0];
      if (best && best.sim >= 0.5) {
        fixed[p.name] = best.v;
        notes.push(`${p.name} -> ${String(best.v)}`);
      } else if (!p.required) {
        delete fixed[p.name];
        notes.push(`dropped ${p.name}`);
      }
    } else if (code === "type") {
      const v = isScalar(current) ? coerce(box, current, s) : undefined;
      if (v !== undefined) {
        fixed[p.name] = v;
        notes.push(`${p.name} as ${schemaType(s) ?? "its type"}`);
      } else if (!p.required) delete fixed[p.name];
    } else if ((code === "minimum" || code === "exclusiveMinimum") && typeof s["minimum"] === "number") {
      fixed[p.name] = s["minimum"];
      notes.push(`${p.name} raised to ${String(s["minimum"])}`);
    } else if ((code === "maximum" || code === "exclusiveMaximum") && typeof s["maximum"] === "number") {
      fixed[p.name] = s["maximum"];
      notes.push(`${p.name} lowered to ${String(s["maximum"])}`);
    } else if (code === "maxLength" && typeof s["maxLength"] === "number" && typeof current === "string") {
      fixed[p.name] = current.slice(0, s["maxLength"]);
      notes.push(`${p.name} shortened`);
    } else if (code === "format" || code === "pattern") {
      const v = isScalar(current) ? coerce(box, String(current), s) : undefined;
      if (v !== undefined && v !== current) {
        fixed[p.name] = v;
        notes.push(`${p.name} reformatted`);
      } else if (!p.required) {
        delete fixed[p.name];
        notes.push(`dropped ${p.name}`);
      }
    } else if (!p.required && code !== "required") {
      delete fixed[p.name];
      notes.push(`dropped ${p.name}`);
    }
  }
  if (stableStringify(fixed) === stableStringify(args)) return undefined;
  return { args: fixed, notes };
}
