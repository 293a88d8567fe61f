#!/usr/bin/env node
// Entry point of the `toolsim` command: runs the compiled CLI from dist/.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const compiled = join(root, "dist", "simulator", "cli", "main.js");
if (!existsSync(compiled)) {
  process.stderr.write("toolsim: the compiled CLI is missing (dist/). Run `npm install` or `npm run build` in " + root + "\n");
  process.exit(2);
}
// V8 would let the heap grow to four times the live heap between full collections; long runs then climb past
// 300 MB resident for a flat 50 MB live heap. Collect at 1.5 times instead (see simulator/core/heap-policy.ts).
const heapPolicy = join(root, "dist", "simulator", "core", "heap-policy.js");
if (existsSync(heapPolicy)) (await import(pathToFileURL(heapPolicy).href)).applyHeapPolicy();
const { main } = await import(pathToFileURL(compiled).href);
process.exitCode = await main(process.argv.slice(2));
