/**
 * The executor bench's workload: for every tool of a spec, synthesized valid calls and invalid variants
 * of them (wrong type, missing required, bad enum), each as a tool call for toolsim and as the equivalent
 * HTTP request for Prism (derived from the same arguments by `toHttpRequest`). Before anything is timed,
 * every call is run once on both sides: valid calls must get a 2xx and invalid ones a 4xx from both, and
 * the calls where either side disagrees are left out of the mix (and counted in the check line).
 */
import type { Catalog } from "../../specs/catalog/catalog.js";
import { toHttpRequest } from "../../specs/call/http-request.js";
import { schemaResponder } from "../../specs/respond/schema-responder.js";
import { simulateCall, type ToolCall } from "../../specs/call/simulate-call.js";
import { synthesizeArguments } from "../../specs/synthesize/synthesize-call.js";
import type { Tool } from "../../specs/catalog/tool.js";
import { toolArgumentsSchema } from "../../specs/catalog/tool-schema.js";
import { prepareRequest, type PrismClient, type PreparedRequest } from "../prism.js";
import { isObject, type Json } from "../../specs/json-object.js";

/** One call of the mix, in both forms. */
export interface BenchCall {
  valid: boolean;
  /** `valid`, or the kind of defect and where: `wrong-type:price`, `missing:body.email`, `bad-enum:genre`. */
  variant: string;
  tool: string;
  call: ToolCall;
  http: PreparedRequest;
}

/** The verified calls and what the pre-timing check found. */
export interface CallMix {
  /** The timed sequence (valid and invalid calls interleaved at the requested share). */
  sequence: BenchCall[];
  validPool: BenchCall[];
  invalidPool: BenchCall[];
  /** Human-readable check lines (printed as `#` comments). */
  report: string[];
}

/** Options of the mix. */
export interface MixOptions {
  /** Seeds of the valid calls per tool (each seed gives other argument values). */
  seeds?: readonly number[];
  /** Share of invalid calls in the sequence (default 0.3). */
  invalidShare?: number;
  /** Length of the sequence (default 1000). */
  length?: number;
}

/** A place a defect can be put: an argument, or a property of a wrapped body. */
interface Slot {
  path: string[];
  schema: Json;
  /** Parameters travel as strings (and are coerced back); bodies are JSON. */
  where: "param" | "path-param" | "body";
  required: boolean;
}

function slotsOf(catalog: Catalog, tool: Tool): Slot[] {
  const schema = toolArgumentsSchema(catalog, tool);
  const props = isObject(schema["properties"]) ? schema["properties"] : {};
  const required = new Set(Array.isArray(schema["required"]) ? (schema["required"] as string[]) : []);
  const params = new Map(tool.parameters.map((p) => [p.arg, p]));
  const slots: Slot[] = [];
  for (const [arg, sub] of Object.entries(props)) {
    if (!isObject(sub)) continue;
    const param = params.get(arg);
    if (param) {
      slots.push({ path: [arg], schema: sub, where: param.in === "path" ? "path-param" : "param", required: required.has(arg) });
      continue;
    }
    slots.push({ path: [arg], schema: sub, where: "body", required: required.has(arg) });
    if (tool.body?.mode === "wrapped" && arg === tool.body.arg && isObject(sub["properties"])) {
      const inner = new Set(Array.isArray(sub["required"]) ? (sub["required"] as string[]) : []);
      for (const [name, s] of Object.entries(sub["properties"])) {
        if (isObject(s)) slots.push({ path: [arg, name], schema: s, where: "body", required: inner.has(name) });
      }
    }
  }
  return slots;
}

function typeOf(schema: Json): string | undefined {
  const t = schema["type"];
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.find((x) => x !== "null") as string | undefined;
  return undefined;
}

/** A value of the wrong type for a slot, one that stays wrong after HTTP serialization and coercion. */
function wrongValue(slot: Slot): unknown {
  if (slot.schema["enum"] !== undefined || slot.schema["const"] !== undefined) return undefined;
  const type = typeOf(slot.schema);
  if (type === "integer" || type === "number") return "not-a-number";
  if (type === "boolean") return "not-a-boolean";
  if (slot.where !== "body") return undefined; // a number sent for a string parameter is a fine string
  if (type === "string" && slot.schema["format"] === undefined) return 12345;
  if (type === "array") return "not-an-array";
  if (type === "object" && slot.path.length > 1) return "not-an-object";
  return undefined;
}

function withValue(args: Json, path: readonly string[], value: unknown): Json | undefined {
  const out = structuredClone(args);
  const [head, leaf] = path;
  if (head === undefined) return undefined;
  if (leaf === undefined) {
    if (value === undefined) delete out[head];
    else out[head] = value;
    return out;
  }
  const inner = out[head];
  if (!isObject(inner)) return undefined;
  if (value === undefined) delete inner[leaf];
  else inner[leaf] = value;
  return out;
}

/** The invalid variants of a tool's valid arguments: at most one of each kind. */
function invalidVariants(catalog: Catalog, tool: Tool, args: Json): Array<{ variant: string; args: Json }> {
  const slots = slotsOf(catalog, tool);
  const out: Array<{ variant: string; args: Json }> = [];
  const add = (kind: string, slot: Slot | undefined, value: unknown): void => {
    if (!slot) return;
    const changed = withValue(args, slot.path, value);
    if (changed) out.push({ variant: `${kind}:${slot.path.join(".")}`, args: changed });
  };
  // Wrong type: prefer a number or boolean (wrong in any location), then a body field.
  const typed = slots.filter((s) => s.where !== "path-param" && wrongValue(s) !== undefined);
  const wrong = typed.find((s) => s.where !== "body") ?? typed[0] ?? slots.find((s) => s.where === "path-param" && wrongValue(s) !== undefined);
  add("wrong-type", wrong, wrong ? wrongValue(wrong) : undefined);
  // Missing required: a body field first, then a query/header parameter (a path cannot lose a segment).
  const present = (s: Slot): boolean => {
    const [head, leaf] = s.path;
    const v = head !== undefined ? args[head] : undefined;
    return leaf === undefined ? v !== undefined : isObject(v) && v[leaf] !== undefined;
  };
  const required = slots.filter((s) => s.required && s.where !== "path-param" && present(s));
  const missing = required.find((s) => s.where === "body" && (tool.body?.mode === "flat" || s.path.length > 1)) ?? required[0];
  add("missing", missing, undefined);
  // Bad enum: a string enum anywhere but the path.
  const enumSlot = slots.find((s) => s.where !== "path-param" && Array.isArray(s.schema["enum"]) && s.schema["enum"].every((v) => typeof v === "string"));
  add("bad-enum", enumSlot, "zz-not-an-option");
  return out;
}

function benchCall(tool: Tool, args: Json, valid: boolean, variant: string): BenchCall {
  return { valid, variant, tool: tool.name, call: { name: tool.name, arguments: args }, http: prepareRequest(toHttpRequest(tool, args)) };
}

const ok2xx = (s: number): boolean => s >= 200 && s < 300;
const ok4xx = (s: number): boolean => s >= 400 && s < 500;

/** Builds and verifies the call mix of a catalog against toolsim (stateless) and Prism. */
export async function buildCallMix(catalog: Catalog, prism: PrismClient, options: MixOptions = {}): Promise<CallMix> {
  const seeds = options.seeds ?? [1, 2, 3];
  const candidates: BenchCall[] = [];
  let synthFailures = 0;
  for (const tool of catalog.tools) {
    let first: Json | undefined;
    for (const seed of seeds) {
      let args: Json;
      try {
        args = synthesizeArguments(catalog, tool, { seed });
      } catch {
        synthFailures++;
        continue;
      }
      first ??= args;
      candidates.push(benchCall(tool, args, true, "valid"));
    }
    if (first) for (const v of invalidVariants(catalog, tool, first)) candidates.push(benchCall(tool, v.args, false, v.variant));
  }

  const validPool: BenchCall[] = [];
  const invalidPool: BenchCall[] = [];
  const tally = { valid: 0, invalid: 0, toolsimOk: { valid: 0, invalid: 0 }, prismOk: { valid: 0, invalid: 0 } };
  const disagreements: string[] = [];
  const prismStatuses = new Map<number, number>();
  let validBodies = 0;
  for (const c of candidates) {
    const expect = c.valid ? ok2xx : ok4xx;
    const mine = await simulateCall(catalog, c.call, { seed: 7, stages: { responders: [schemaResponder] } });
    let theirs: number;
    try {
      theirs = (await prism.call(c.http)).status;
    } catch (e) {
      theirs = -1;
      disagreements.push(`${c.tool} ${c.variant}: prism threw ${(e as Error).message.slice(0, 80)}`);
    }
    prismStatuses.set(theirs, (prismStatuses.get(theirs) ?? 0) + 1);
    const kind = c.valid ? "valid" : "invalid";
    tally[kind]++;
    const mineOk = expect(mine.status);
    const theirsOk = expect(theirs);
    if (mineOk) tally.toolsimOk[kind]++;
    if (c.valid && mineOk && mine.responseErrors.length === 0) validBodies++;
    if (theirsOk) tally.prismOk[kind]++;
    if (mineOk && theirsOk) (c.valid ? validPool : invalidPool).push(c);
    else if (theirs !== -1) disagreements.push(`${c.tool} ${c.variant}: toolsim ${mine.status}, prism ${theirs}`);
  }

  if (validPool.length === 0 || invalidPool.length === 0) {
    throw new Error(`no usable call mix: ${validPool.length} valid and ${invalidPool.length} invalid calls verified on both sides`);
  }
  const length = options.length ?? 1000;
  const share = options.invalidShare ?? 0.3;
  const sequence: BenchCall[] = [];
  let vi = 0;
  let ii = 0;
  for (let i = 0; i < length; i++) {
    // Evenly spread: call i is invalid when the running share of invalid calls falls behind the target.
    const invalid = Math.floor((i + 1) * share) > Math.floor(i * share);
    sequence.push(invalid ? (invalidPool[ii++ % invalidPool.length] as BenchCall) : (validPool[vi++ % validPool.length] as BenchCall));
  }
  const tools = new Set([...validPool, ...invalidPool].map((c) => c.tool)).size;
  const report = [
    `check: ${catalog.tools.length} tools; valid calls 2xx: toolsim ${tally.toolsimOk.valid}/${tally.valid}, prism ${tally.prismOk.valid}/${tally.valid}; ` +
      `invalid calls 4xx: toolsim ${tally.toolsimOk.invalid}/${tally.invalid}, prism ${tally.prismOk.invalid}/${tally.invalid}` +
      (synthFailures > 0 ? `; ${synthFailures} argument syntheses threw` : ""),
    `check: toolsim response bodies valid against their schema: ${validBodies}/${tally.toolsimOk.valid}`,
    `check: prism statuses ${[...prismStatuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}x${n}`).join(" ")}`,
    `mix: ${validPool.length} valid + ${invalidPool.length} invalid calls verified on both sides over ${tools} tools; ` +
      `timed sequence of ${length} calls, ${Math.round(share * 100)}% invalid (${countKinds(invalidPool)})`,
  ];
  if (disagreements.length > 0) {
    report.push(`left out (${disagreements.length}): ${disagreements.slice(0, 6).join("; ")}${disagreements.length > 6 ? "; ..." : ""}`);
  }
  return { sequence, validPool, invalidPool, report };
}

function countKinds(pool: readonly BenchCall[]): string {
  const counts = new Map<string, number>();
  for (const c of pool) {
    const kind = c.variant.split(":")[0] ?? c.variant;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ${n}`).join(", ");
}
