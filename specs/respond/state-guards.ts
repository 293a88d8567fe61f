import { cloneJson } from "../synthesize/synthesis-rules.js";
import { locate } from "../catalog/field-path.js";
import { selectedResponse } from "./response-cache.js";
import type { ResponderAnswer, ResponseContext } from "./responder.js";
import { schemaAnswer } from "./schema-responder.js";
import { bindingsOf, type ReferenceBinding, type StockBinding } from "./bindings/bindings.js";
import { worldOf } from "./world-settings.js";

/**
 * What a write must find in the state before it succeeds, as a service would check it: every resource it
 * refers to exists (in a closed collection), and stock the toolset marks covers the quantities asked.
 * Failures are answered with an error status the operation declares (a 404, 409, 422 or 400), its message
 * naming the resource.
 */

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const MESSAGE_FIELDS = ["message", "detail", "error_description", "errorMessage", "error", "description", "title"];

/** An error answer with the first of `statuses` the operation declares (else problem details with the first), saying `message`. */
export function errorAnswer(ctx: ResponseContext, statuses: readonly number[], message: string, note: string): ResponderAnswer {
  for (const status of statuses) {
    const selected = selectedResponse(ctx.catalog, ctx.call.tool, status);
    if (selected.key === undefined || !/^\d{3}$/.test(selected.key)) continue;
    const answer = schemaAnswer(ctx, selected);
    let body = answer.body;
    if (isObject(body) && selected.schemaPointer !== undefined) {
      const validate = ctx.catalog.registry.validatorAt("response", selected.schemaPointer);
      for (const f of MESSAGE_FIELDS) {
        const holder = isObject(body[f]) ? (body[f] as Json) : body;
        const key = holder === body ? f : MESSAGE_FIELDS.find((k) => typeof holder[k] === "string");
        if (key === undefined || typeof holder[key] !== "string") continue;
        const copy = cloneJson(body);
        const target = holder === body ? copy : (copy[f] as Json);
        target[key] = message;
        if (validate(copy)) {
          body = copy;
          break;
        }
      }
    }
    return { ...answer, body, source: "state", notes: [...(answer.notes ?? []), note] };
  }
  const status = statuses[0] ?? 409;
  const title = status === 404 ? "Not Found" : status === 409 ? "Conflict" : status === 422 ? "Unprocessable Entity" : "Bad Request";
  return {
    status,
    contentType: "application/problem+json",
    body: { type: `https://toolsim.dev/problems/${note.split(":")[0]?.replace(/\s+/g, "-") ?? "conflict"}`, title, status, detail: message },
    source: "state",
    notes: [note, `the spec declares none of ${statuses.join(", ")}: answered with problem details`],
  };
}

function closed(ctx: ResponseContext, key: string): boolean {
  return ctx.state.collection(key)?.authoritative === true && worldOf(ctx.catalog).open !== true;
}

function nounOf(collection: string): string {
  const last = collection.slice(collection.lastIndexOf("/") + 1);
  const singular = /ies$/.test(last) ? `${last.slice(0, -3)}y` : last.replace(/s$/, "");
  return singular.charAt(0).toUpperCase() + singular.slice(1);
}

function quantityAt(args: unknown, path: string | undefined, items: readonly number[]): number {
  if (path === undefined) return 1;
  const spot = locate(args, path).find((s) => s.items.length === 0 || items.length === 0 || s.items[0] === items[0]);
  const q = spot?.value;
  return typeof q === "number" ? q : typeof q === "string" && /^\d+$/.test(q) ? Number(q) : 1;
}

/** The refusal of a write whose references or stock do not hold, or undefined when it may go ahead. */
export function guardWrite(ctx: ResponseContext): ResponderAnswer | undefined {
  const bindings = bindingsOf(ctx.catalog, ctx.call.tool);
  const refs = bindings.filter((b): b is ReferenceBinding | StockBinding => b.kind === "reference" || b.kind === "stock");
  const asked = new Map<string, number>();
  for (const b of refs) {
    if (b.collection.includes("{")) continue;
    for (const ref of locate(ctx.call.args, b.arg)) {
      if (typeof ref.value !== "string" && typeof ref.value !== "number") continue;
      const id = String(ref.value);
      const target = ctx.state.get(b.collection, id);
      if (!target) {
        if (closed(ctx, b.collection) || ctx.state.isDeleted(b.collection, id)) {
          return errorAnswer(ctx, [404, 422, 409, 400], `${nounOf(b.collection)} ${id} does not exist`, `reference: ${b.collection}/${id} does not exist`);
        }
        continue;
      }
      if (b.kind !== "stock") continue;
      const have = target[b.field];
      const want = quantityAt(ctx.call.args, b.quantity, ref.items) + (asked.get(id) ?? 0);
      asked.set(id, want);
      const short = typeof have === "number" ? have < want : typeof have === "boolean" ? !have : typeof have === "string" ? /^(out|sold|unavail|none)/i.test(have) : false;
      if (short) {
        const left = typeof have === "number" ? `${have} left, ${want} asked` : "not available";
        return errorAnswer(ctx, b.status !== undefined ? [b.status] : [409, 422, 400], `${nounOf(b.collection)} ${id} is out of stock (${left})`, `stock: ${b.collection}/${id} ${left}`);
      }
    }
  }
  return undefined;
}

/** Takes the quantities a successful write asked out of the stock it consumed. */
export function consumeStock(ctx: ResponseContext): void {
  for (const b of bindingsOf(ctx.catalog, ctx.call.tool)) {
    if (b.kind !== "stock" || b.collection.includes("{")) continue;
    for (const ref of locate(ctx.call.args, b.arg)) {
      if (typeof ref.value !== "string" && typeof ref.value !== "number") continue;
      const target = ctx.state.get(b.collection, String(ref.value));
      if (!target || typeof target[b.field] !== "number") continue;
      const idField = ctx.state.collection(b.collection)?.idField ?? "id";
      const left = Math.max(0, (target[b.field] as number) - quantityAt(ctx.call.args, b.quantity, ref.items));
      ctx.state.put(b.collection, String(ref.value), { ...target, [b.field]: left }, idField);
    }
  }
}
