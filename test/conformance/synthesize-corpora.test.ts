import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildCatalog } from "../../specs/catalog/catalog.js";
import { loadSpec } from "../../specs/load/load-spec.js";
import { ResourceStore } from "../../specs/respond/resource-store.js";
import { deriveSeed } from "../../specs/seed.js";
import { isJsonMediaType, selectResponse } from "../../specs/call/select-response.js";
import { synthesize } from "../../specs/synthesize/synthesize.js";
import { simulateCall } from "../../specs/call/simulate-call.js";
import { synthesizeArguments } from "../../specs/synthesize/synthesize-call.js";
import { validateCall } from "../../specs/call/validate-call.js";
import { sampled, sized } from "../support/test-mode.js";

// For every operation of every OAS3 / Swagger 2 document of the corpora and of the ToolAlpaca eval specs:
// the synthesized call validates, and the synthesized 2xx (or default) JSON body validates against its
// schema. Rates are computed per corpus (before repair = json-schema-faker's value as it came, after repair
// = what `synthesize` returns), and seeded output must be stable (a second run gives the same bytes).
// Specs with more than MAX_TOOLS operations are sampled (every k-th operation, deterministically). The quick run
// (`npm test`) takes a fixed sample of 12 documents with at most 30 operations each; the full sweep takes them all.
// The executor is checked too: each synthesized call is simulated (state, then schema responders) and its
// answer (status and body) must validate against the operation's responses. One overall line per figure
// across all corpora closes the report: `synthesized bodies valid: X/Y (P%)`, `executor answers valid: ...`.

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CORPORA = path.resolve(REPO_ROOT, process.env["TOOLSIM_CORPORA"] ?? "../shared/corpora");
const TOOLALPACA = path.join(CORPORA, "toolalpaca", "eval_simulated.json");
const MAX_TOOLS = sized(30, 150);
const MIN_RATE = 0.995;
const SEED = 20240601;

interface Source {
  group: string;
  label: string;
  source: string | object;
}

function sources(): Source[] {
  const out: Source[] = [];
  for (const [group, folder] of [["oas3", "openapi/oas3"], ["swagger2", "openapi/swagger2"]] as const) {
    const dir = path.join(CORPORA, folder);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((x) => /\.(json|ya?ml)$/i.test(x)).sort()) out.push({ group, label: f, source: path.join(dir, f) });
  }
  if (existsSync(TOOLALPACA)) {
    const entries = JSON.parse(readFileSync(TOOLALPACA, "utf8")) as Array<{ Name?: string; Documentation?: string }>;
    entries.forEach((entry, i) => {
      if (typeof entry.Documentation !== "string") return;
      try {
        out.push({ group: "toolalpaca", label: entry.Name ?? `#${i}`, source: JSON.parse(entry.Documentation) as object });
      } catch {
        // an unparseable Documentation is the loader's concern (load-corpora), not synthesis
      }
    });
  }
  return out;
}

interface Tally {
  specs: number;
  sampled: number;
  calls: number;
  callsValid: number;
  bodies: number;
  bodiesFirstValid: number;
  bodiesValid: number;
  /** Accepted synthesized calls the executor answered, and those whose answer validates. */
  answers: number;
  answersValid: number;
  repairs: number;
  unstable: number;
  ms: number;
  synthMs: number;
  failures: string[];
}

const tallies = new Map<string, Tally>();
function tallyOf(group: string): Tally {
  let t = tallies.get(group);
  if (!t) {
    t = { specs: 0, sampled: 0, calls: 0, callsValid: 0, bodies: 0, bodiesFirstValid: 0, bodiesValid: 0, answers: 0, answersValid: 0, repairs: 0, unstable: 0, ms: 0, synthMs: 0, failures: [] };
    tallies.set(group, t);
  }
  return t;
}

const ALL = sampled(sources(), 12);

/** The figures summed over all corpora. */
function overall(): { calls: number; callsValid: number; bodies: number; bodiesValid: number; answers: number; answersValid: number } {
  const sum = { calls: 0, callsValid: 0, bodies: 0, bodiesValid: 0, answers: 0, answersValid: 0 };
  for (const t of tallies.values()) for (const key of Object.keys(sum) as Array<keyof typeof sum>) sum[key] += t[key];
  return sum;
}

afterAll(() => {
  if (tallies.size === 0) return;
  const pct = (a: number, b: number): string => (b === 0 ? "-" : `${((100 * a) / b).toFixed(2)}%`);
  const lines = ["group        specs  sampled  calls  valid     bodies  first-pass  after-repair  answers  valid     repairs  unstable  ms/body  seconds"];
  for (const [group, t] of tallies) {
    lines.push(
      [
        group.padEnd(12),
        String(t.specs).padStart(5),
        String(t.sampled).padStart(8),
        String(t.calls).padStart(6),
        pct(t.callsValid, t.calls).padStart(8),
        String(t.bodies).padStart(8),
        pct(t.bodiesFirstValid, t.bodies).padStart(11),
        pct(t.bodiesValid, t.bodies).padStart(13),
        String(t.answers).padStart(8),
        pct(t.answersValid, t.answers).padStart(8),
        String(t.repairs).padStart(8),
        String(t.unstable).padStart(9),
        (t.bodies === 0 ? "-" : (t.synthMs / (2 * t.bodies)).toFixed(3)).padStart(8),
        (t.ms / 1000).toFixed(1).padStart(8),
      ].join(" "),
    );
    for (const f of t.failures.slice(0, 8)) lines.push(`    ${f}`);
  }
  const all = overall();
  const ratio = (a: number, b: number): string => `${a}/${b} (${b === 0 ? "-" : `${((100 * a) / b).toFixed(2)}%`})`;
  lines.push(`synthesized calls valid: ${ratio(all.callsValid, all.calls)}`);
  lines.push(`synthesized bodies valid: ${ratio(all.bodiesValid, all.bodies)}`);
  lines.push(`executor answers valid: ${ratio(all.answersValid, all.answers)}`);
  console.log(lines.join("\n"));
});

describe.skipIf(ALL.length === 0)("synthesis over the corpora", () => {
  it("synthesized calls and 2xx/default JSON bodies validate, and seeded output is stable", async () => {
    for (const { group, label, source } of ALL) {
      const started = performance.now();
      const t = tallyOf(group);
      const loaded = await loadSpec(source);
      if (!loaded.ok) continue; // load failures are counted by load-corpora.test.ts
      t.specs++;
      const catalog = buildCatalog(loaded.value);
      let tools = catalog.tools;
      if (tools.length > MAX_TOOLS) {
        const step = Math.ceil(tools.length / MAX_TOOLS);
        tools = tools.filter((_, i) => i % step === 0);
        t.sampled++;
      }
      for (const tool of tools) {
        const seed = deriveSeed(SEED, label, tool.name);
        const args = synthesizeArguments(catalog, tool, { seed });
        t.calls++;
        const check = validateCall(catalog, tool.name, args);
        if (check.ok) t.callsValid++;
        else t.failures.push(`${label} ${tool.name} call: ${check.errors.slice(0, 2).map((e) => `${e.location.join(".")} ${e.message}`).join("; ")}`);
        if (check.ok) {
          const answer = await simulateCall(catalog, { name: tool.name, arguments: args }, { seed, state: new ResourceStore() });
          t.answers++;
          if (answer.errors.length === 0 && answer.responseErrors.length === 0) t.answersValid++;
          else t.failures.push(`${label} ${tool.name} answer ${answer.status} (${answer.source}): ${[...answer.errors, ...answer.responseErrors].slice(0, 2).map((e) => `${e.location.join(".")} ${e.message}`).join("; ")}`);
        }
        if (JSON.stringify(synthesizeArguments(catalog, tool, { seed })) !== JSON.stringify(args)) {
          t.unstable++;
          t.failures.push(`${label} ${tool.name}: arguments differ between two runs`);
        }

        const selected = selectResponse(catalog, tool);
        if (selected.schemaPointer === undefined || !isJsonMediaType(selected.mediaType)) continue;
        const validate = catalog.registry.validatorAt("response", selected.schemaPointer);
        const s0 = performance.now();
        const first = synthesize(catalog.registry, "response", selected.schemaPointer, { seed });
        const second = synthesize(catalog.registry, "response", selected.schemaPointer, { seed });
        t.synthMs += performance.now() - s0;
        t.bodies++;
        t.repairs += first.repairs;
        const valid = validate(first.value) === true;
        if (valid !== first.valid) t.failures.push(`${label} ${tool.name} body: reported valid=${first.valid} but the validator says ${valid}`);
        if (valid) t.bodiesValid++;
        else t.failures.push(`${label} ${tool.name} body: ${JSON.stringify(validate.errors?.slice(0, 1)).slice(0, 200)}`);
        if (valid && first.repairs === 0) t.bodiesFirstValid++;
        if (JSON.stringify(second.value) !== JSON.stringify(first.value)) {
          t.unstable++;
          t.failures.push(`${label} ${tool.name}: body differs between two runs`);
        }
      }
      t.ms += performance.now() - started;
    }

    const total = overall();
    expect(total.calls).toBeGreaterThan(0);
    expect(total.callsValid / total.calls).toBeGreaterThanOrEqual(MIN_RATE);
    expect(total.bodiesValid / total.bodies).toBeGreaterThanOrEqual(MIN_RATE);
    expect(total.answersValid / total.answers).toBeGreaterThanOrEqual(MIN_RATE);
    for (const [group, t] of tallies) {
      if (t.calls > 0) expect(t.callsValid / t.calls, `${group} calls`).toBeGreaterThanOrEqual(MIN_RATE);
      if (t.bodies > 0) expect(t.bodiesValid / t.bodies, `${group} bodies`).toBeGreaterThanOrEqual(MIN_RATE);
      if (t.answers > 0) expect(t.answersValid / t.answers, `${group} executor answers`).toBeGreaterThanOrEqual(MIN_RATE);
      expect(t.unstable, `${group} unstable outputs`).toBe(0);
    }
  }, 180_000);
});
