/** JSON with object keys sorted, so equal values give equal strings (cache keys, seeds, hashes). */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (i > 0) out += ",";
      out += v === undefined ? "null" : stableStringify(v);
    }
    return out + "]";
  }
  const record = value as Record<string, unknown>;
  // The default order of `sort` is by UTF-16 code units, as wanted (and faster than a comparator).
  const keys = Object.keys(record).sort();
  let out = "{";
  let first = true;
  for (const key of keys) {
    const v = record[key];
    if (v === undefined) continue;
    if (!first) out += ",";
    first = false;
    out += JSON.stringify(key) + ":" + stableStringify(v);
  }
  return out + "}";
}
