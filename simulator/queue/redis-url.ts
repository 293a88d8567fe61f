import type { Result } from "../../specs/result.js";

/** Where a queue's Redis is: what ioredis and BullMQ connect with, and a form to show (no password). */
export interface RedisTarget {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
  /** `redis://host:port/db` without credentials: for messages, run.json and queue.json. */
  display: string;
}

/**
 * Reads `redis://[user:password@]host[:port][/db]` (or `rediss://` for TLS). Anything else (another scheme, a
 * path that is not a database number, a port out of range) is refused with the reason.
 */
export function parseRedisUrl(text: string): Result<RedisTarget, string> {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, errors: [`"${text}" is not a Redis URL (expected redis://HOST:PORT[/DB], e.g. redis://127.0.0.1:6379/0)`] };
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    return { ok: false, errors: [`"${text}": the queue URL must start with redis:// (or rediss:// for TLS), not ${url.protocol}//`] };
  }
  if (url.hostname === "") return { ok: false, errors: [`"${text}" names no host (expected redis://HOST:PORT[/DB])`] };
  const port = url.port === "" ? 6379 : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { ok: false, errors: [`"${text}": port ${url.port} is out of range`] };
  const path = url.pathname.replace(/^\/+|\/+$/g, "");
  if (path !== "" && !/^\d{1,4}$/.test(path)) return { ok: false, errors: [`"${text}": the path must be a database number (redis://HOST:PORT/DB), not /${path}`] };
  const db = path === "" ? 0 : Number(path);
  if (url.search !== "" || url.hash !== "") return { ok: false, errors: [`"${text}": query parameters and fragments are not supported in the queue URL`] };
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const username = url.username !== "" ? decodeURIComponent(url.username) : undefined;
  const password = url.password !== "" ? decodeURIComponent(url.password) : undefined;
  const tls = url.protocol === "rediss:";
  return {
    ok: true,
    value: {
      host,
      port,
      db,
      ...(username !== undefined ? { username } : {}),
      ...(password !== undefined ? { password } : {}),
      tls,
      display: `${tls ? "rediss" : "redis"}://${url.hostname}:${port}/${db}`,
    },
  };
}

/** The ioredis options of a target (BullMQ takes the same; blocking connections need `maxRetriesPerRequest: null`). */
export function redisOptions(target: RedisTarget, name: string): Record<string, unknown> {
  return {
    host: target.host,
    port: target.port,
    db: target.db,
    ...(target.username !== undefined ? { username: target.username } : {}),
    ...(target.password !== undefined ? { password: target.password } : {}),
    ...(target.tls ? { tls: {} } : {}),
    connectionName: name,
    maxRetriesPerRequest: null,
    // Reconnect for ever (a restarted Redis comes back), at most a second apart.
    retryStrategy: (times: number) => Math.min(1000, 50 * times),
  };
}
