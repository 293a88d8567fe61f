import type { Ajv, ErrorObject } from "ajv";
import { stableStringify } from "../stable-stringify.js";

/**
 * Replaces ajv's `uniqueItems`, which compares objects and arrays pair by pair (a 1 MB body of 50,000
 * small objects takes hours), with a check in linear time: each item keyed by its canonical JSON (keys
 * sorted), so equal items (as ajv's deep equality sees them) share a key. Same errors as ajv's: the last
 * item that repeats an earlier one, and the nearest earlier one (`items ## j and i are identical`).
 */
export function useLinearUniqueItems(ajv: Ajv): void {
  ajv.removeKeyword("uniqueItems");
  ajv.addKeyword({
    keyword: "uniqueItems",
    type: "array",
    schemaType: "boolean",
    errors: true,
    validate: function uniqueItems(this: unknown, schema: boolean, data: unknown[]): boolean {
      const self = uniqueItems as { errors?: Array<Partial<ErrorObject>> | null };
      self.errors = null;
      if (!schema || data.length < 2) return true;
      const last = new Map<string, number>();
      let found: { i: number; j: number } | undefined;
      for (let i = 0; i < data.length; i++) {
        const key = keyOf(data[i]);
        const j = last.get(key);
        if (j !== undefined) found = { i, j };
        last.set(key, i);
      }
      if (found === undefined) return true;
      self.errors = [{ keyword: "uniqueItems", params: found, message: `must NOT have duplicate items (items ## ${found.j} and ${found.i} are identical)` }];
      return false;
    },
  });
}

function keyOf(value: unknown): string {
  if (value === null || typeof value !== "object") return typeof value === "string" ? `s${value}` : `v${String(value)}`;
  return `o${stableStringify(value)}`;
}
