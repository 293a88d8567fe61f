import { setFlagsFromString } from "node:v8";

/**
 * How much V8 lets the heap grow past the live heap before its next full collection, in percent (50: to 1.5
 * times). V8's own choice for a process like `toolsim generate` (a steady stream of short-lived episodes, a
 * live heap of about 50 MB) is 4 times: the live heap stays flat over a run, but the resident size climbs to
 * 300 MB and more between full collections. At 50 % it stays near 190 MB, at no measurable cost in speed
 * (`npm run bench -- simulator`).
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Makes V8 collect the old generation when it reaches 1.5 times what the last full collection kept (see
 * {@link HEAP_GROWING_PERCENT}), for the rest of the process. The `toolsim` command applies it before running
 * any command (`bin/toolsim.js`); a program that runs long simulations through the library may call it too.
 * It changes when memory is collected, never what the program computes.
 */
export function applyHeapPolicy(percent: number = HEAP_GROWING_PERCENT): void {
  if (!Number.isInteger(percent) || percent <= 0) throw new RangeError(`heap growing percent must be a positive integer, got ${percent}`);
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
