/**
 * Test files share worker processes (`isolate: false` in vitest.config.ts: each worker imports the modules once,
 * not once per file). What one file changes in the process is put back when it ends, so that no file sees
 * another's: environment variables, the fetch globals (@hono/node-server puts its own `Request` and `Response` in
 * place when a server starts), and the exit code.
 */
import { afterAll } from "vitest";

const env = { ...process.env };
const globals = { Request: globalThis.Request, Response: globalThis.Response, Headers: globalThis.Headers, fetch: globalThis.fetch };
const exitCode = process.exitCode;

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  Object.assign(globalThis, globals);
  process.exitCode = exitCode;
});
