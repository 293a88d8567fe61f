/**
 * Spec patterns on megabyte strings: the median time of one validation by toolsim's linear-time engine
 * (`specs/load/patterns/linear-pattern.ts`), against re2js running the same pattern directly (the engine toolsim used
 * for every non-trivial pattern before), one line per pattern:
 *
 *   node --import tsx bench/patterns.ts [--mb 1] [--rounds 7]
 *
 * Under the shared lock like any bench: `flock /work/wt/bench.lock node --import tsx bench/patterns.ts`.
 */
import { loadavg } from "node:os";
import { RE2JS } from "re2js";
import { compileLinear } from "../specs/load/patterns/linear-pattern.js";

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? Number(process.argv[i + 1]) : fallback;
}

const N = Math.round(option("--mb", 1) * 1_000_000);
const ROUNDS = option("--rounds", 7);

/** Pattern, the RE2 form of it for re2js (undefined: re2js cannot run it as written), input. */
const CASES: Array<[string, string | undefined, string]> = [
  ["^(?=.*[A-Z])(?=.*\\d)[A-Za-z\\d]{8,}$", undefined, `${"a".repeat(N)}A1`],
  ["^[a-z0-9]+(?:-[a-z0-9]+)*$", "^[a-z0-9]+(?:-[a-z0-9]+)*$", `${"ab-".repeat(N / 3)}x`],
  ["^(https?|ftp)://[^\\s/$.?#].[^\\s]*$", "^(https?|ftp)://[^\\s/$.?#].[^\\s]*$", `https://${"x".repeat(N)}`],
  ["^(\\p{Emoji}|a)+$", "^(\\p{Emoji}|a)+$", "😀a".repeat(N / 3)],
  ["^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$", "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$", `${"a".repeat(N)}@example.com`],
  ["^(?:[a-z]+-)*[a-z]+$", "^(?:[a-z]+-)*[a-z]+$", `${"ab-".repeat(N / 3)}x`],
  ["^(ab|cd)*e$", "^(ab|cd)*e$", "abcd".repeat(N / 4)],
  ["^[a-z]+(?<!x)$", undefined, "a".repeat(N)],
  ["^(a+)+$", "^(a+)+$", `${"a".repeat(N)}!`],
];

function median(fn: () => void): number {
  const times: number[] = [];
  fn();
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

console.log(`# patterns on ${(N / 1e6).toFixed(1)} M-character strings, median of ${ROUNDS}; load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
for (const [pattern, re2Source, input] of CASES) {
  const compiled = compileLinear(pattern);
  if (!compiled.ok) throw new Error(`${pattern}: ${compiled.reason}`);
  const ours = median(() => void compiled.pattern.test(input));
  const peer = re2Source === undefined ? undefined : RE2JS.compile(re2Source);
  const theirs = peer ? median(() => void peer.test(input)) : undefined;
  const ratio = theirs === undefined ? "" : ` re2js=${theirs.toFixed(1)}ms ratio=${(theirs / ours).toFixed(1)}`;
  console.log(`bench: pattern ${JSON.stringify(pattern)} ${ours.toFixed(1)}ms${ratio}`);
}
