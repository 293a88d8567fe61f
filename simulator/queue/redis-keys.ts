import type { Redis } from "ioredis";

// Small Redis helpers of the queue.

/** The keys matching a pattern, found with SCAN (KEYS would block a busy Redis). */
export async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const out: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = (await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000)) as [string, string[]];
    cursor = next;
    out.push(...keys);
  } while (cursor !== "0");
  return out;
}

/** JSON text read back from Redis, or undefined when it is not JSON. */
export function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
