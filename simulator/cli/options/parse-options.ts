import { UsageError } from "../cli-io.js";

/** Parses an integer option, or throws a usage error naming the option. */
export function parseInteger(name: string, value: string | undefined, min = Number.MIN_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`${name} must be an integer, got "${value}"`);
  const n = Number(value);
  if (n < min) throw new UsageError(`${name} must be at least ${min}, got ${n}`);
  return n;
}

/** Parses a JSON option value, or throws a usage error with the parser's message. */
export function parseJsonOption(name: string, value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch (e) {
    throw new UsageError(`${name} is not valid JSON: ${(e as Error).message}`);
  }
}
