import { objectShape } from "../catalog/object-properties.js";
import type { ResponseContext } from "./responder.js";
import { cloneJson } from "../synthesize/synthesis-rules.js";
import { completeRequired } from "./created-resource.js";
import { isObject, type Json } from "../json-object.js";

/**
 * Answers that agree with their call, as a real API's do: a response field named like an argument of the
 * call holds the argument's value (`GET /convert?from=GBP&to=JPY` answers `"from": "GBP"`, not the
 * example's EUR). Principled and checked:
 * - a path or query parameter, or a field of the request body, and a field of the same name at the top
 *   level of the answer;
 * - a path or query parameter (what scopes a list) and the field of the same name of each item of the
 *   answer's lists (the body itself, or a top-level field holding objects): holidays of `BN` are `BN`'s;
 * - the last path parameter (`/companies/{companyId}`) and the answer's `id` when it has no field of the
 *   parameter's name;
 * - an object at the top level of the answer that repeats the request (`query: {from, to, amount}`: all
 *   its fields are named like parameters or body fields of the operation) and its fields.
 * Credentials (`refreshToken`, `password`, `apiKey`...) are never echoed: a server issues new ones. A list
 * of values (`types: ["public"]`) asked for one value (`type=optional`... named `types`) gets that value
 * when it lacks it. Each echo is kept only where the answer still validates against its schema.
 */

const CREDENTIAL = /token|secret|password|passwd|passphrase|api[-_]?key|credential|signature|otp$/i;

interface Edit {
  holder: Json;
  field: string;
  before: unknown;
  after: unknown;
  /** JSON pointer of the edited value in the body. */
  path: string;
}

/** What a call asks for, by name: parameters (path and query) and fields of the request body. */
function argumentsOf(ctx: ResponseContext): { scoping: Map<string, unknown>; body: Map<string, unknown>; allNames: Set<string>; lastPathParam?: string } {
  const scoping = new Map<string, unknown>();
  const allNames = new Set<string>();
  for (const p of ctx.call.tool.parameters) {
    if (p.in !== "path" && p.in !== "query") continue;
    allNames.add(p.name);
    const v = ctx.call.args[p.arg];
    if (v !== undefined && v !== null && !CREDENTIAL.test(p.name)) scoping.set(p.name, v);
  }
  const body = new Map<string, unknown>();
  for (const k of Object.keys(ctx.call.tool.body?.properties ?? {})) allNames.add(k);
  if (isObject(ctx.call.body)) {
    for (const [k, v] of Object.entries(ctx.call.body)) {
      allNames.add(k);
      if (v !== undefined && !CREDENTIAL.test(k)) body.set(k, v);
    }
  }
  const last = /\{([^}]+)\}$/.exec(ctx.call.tool.operation.path)?.[1];
  return { scoping, body, allNames, ...(last !== undefined ? { lastPathParam: last } : {}) };
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "object" || typeof b === "object") return JSON.stringify(a) === JSON.stringify(b);
  return false;
}

/** The value an answer's field takes to agree with an argument, or undefined when it cannot. */
function echoed(ctx: ResponseContext, current: unknown, arg: unknown, pointer: string | undefined): unknown {
  if (Array.isArray(current) && !Array.isArray(arg)) {
    if (typeof arg === "object" || current.some((c) => typeof c === "object" && c !== null)) return undefined;
    return current.some((c) => same(c, arg)) ? current : [arg];
  }
  if (isObject(arg)) {
    if (!isObject(current)) return undefined;
    return pointer !== undefined ? completeRequired(ctx, pointer, cloneJson(arg), current) : cloneJson(arg);
  }
  if (Array.isArray(arg)) return Array.isArray(current) ? (pointer !== undefined ? completeRequired(ctx, pointer, cloneJson(arg), current) : cloneJson(arg)) : undefined;
  if (typeof current === "number" && typeof arg === "string") return arg.trim() !== "" && Number.isFinite(Number(arg)) ? Number(arg) : arg;
  if (typeof current === "string" && (typeof arg === "number" || typeof arg === "boolean")) return String(arg);
  return arg;
}

/**
 * The body with the fields that correspond to the call's arguments set to the arguments' values, where it
 * still validates against the schema at `schemaPointer` (edits that break it are undone; the body as it was
 * when that is not enough). Returns the same object when nothing changes.
 */
export function echoArguments(ctx: ResponseContext, schemaPointer: string, body: unknown): unknown {
  if (!isObject(body) && !Array.isArray(body)) return body;
  const { scoping, body: sent, allNames, lastPathParam } = argumentsOf(ctx);
  if (scoping.size === 0 && sent.size === 0) return body;
  const out = cloneJson(body);
  const edits: Edit[] = [];
  const registry = ctx.catalog.registry;
  const propose = (holder: Json, field: string, arg: unknown, path: string, pointer: string | undefined): void => {
    const before = holder[field];
    if (same(before, arg)) return;
    const after = echoed(ctx, before, arg, pointer);
    if (after === undefined || same(after, before)) return;
    edits.push({ holder, field, before, after, path });
    holder[field] = after;
  };
  if (isObject(out)) {
    const shape = objectShape(registry, "response", schemaPointer);
    for (const [name, value] of [...scoping, ...sent]) {
      if (name in out) propose(out, name, value, `/${escape(name)}`, shape?.properties[name]);
    }
    if (lastPathParam !== undefined && !(lastPathParam in out) && "id" in out && scoping.has(lastPathParam)) {
      propose(out, "id", scoping.get(lastPathParam), "/id", shape?.properties["id"]);
    }
    // An object that repeats the request (`query: {from, to, amount}`): every field named like an argument.
    const named = new Map([...scoping, ...sent]);
    for (const [k, v] of Object.entries(out)) {
      if (named.has(k) || !isObject(v) || Object.keys(v).length === 0 || !Object.keys(v).every((f) => named.has(f) || allNames.has(f))) continue;
      const inner = shape?.properties[k] !== undefined ? objectShape(registry, "response", shape.properties[k]) : undefined;
      for (const f of Object.keys(v)) if (named.has(f)) propose(v, f, named.get(f), `/${escape(k)}/${escape(f)}`, inner?.properties[f]);
    }
  }
  if (scoping.size > 0) {
    const lists: Array<[string, unknown[]]> = Array.isArray(out) ? [["", out]] : Object.entries(out).filter((e): e is [string, unknown[]] => Array.isArray(e[1])).map(([k, v]) => [`/${escape(k)}`, v]);
    for (const [at, items] of lists) {
      items.forEach((item, i) => {
        if (!isObject(item)) return;
        for (const [name, value] of scoping) if (name in item) propose(item, name, value, `${at}/${i}/${escape(name)}`, undefined);
      });
    }
  }
  if (edits.length === 0) return body;
  const validate = registry.validatorAt("response", schemaPointer);
  if (validate(out)) return out;
  // Undo the edits the errors point at (or sit under), then try once more; else the body as it was.
  const errorPaths = (validate.errors ?? []).map((e) => e.instancePath);
  let undone = 0;
  for (const edit of edits) {
    if (errorPaths.some((p) => within(edit.path, p) || within(p, edit.path))) {
      edit.holder[edit.field] = edit.before;
      undone++;
    }
  }
  if (undone > 0 && undone < edits.length && validate(out)) return out;
  return body;
}

/** Whether the value at pointer `a` is inside (or is) the value at pointer `b`. */
function within(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`);
}

function escape(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
