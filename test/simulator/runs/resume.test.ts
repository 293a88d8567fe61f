import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it, type ExpectStatic } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import { RUN_FILES } from "../../../simulator/runs/run-info.js";
import { sized } from "../../support/test-mode.js";
import { finishedEpisodes, startScript, stopAll } from "../../support/cli-children.js";

/**
 * A run killed mid-way (`kill -9`, or Ctrl-C) and resumed with `generate --resume` ends with the same corpus,
 * rejected file and journal (except times) as a run that was never interrupted. The CLI runs as a child
 * process, as a user would run it.
 */

/** Episodes of each run (the reference, the killed one, the interrupted one): 80 quick, 400 full; `TOOLSIM_RESUME_EPISODES` overrides. */
const EPISODES = Number(process.env["TOOLSIM_RESUME_EPISODES"] ?? sized(80, 400));
const ARGS = ["generate", "--episodes", String(EPISODES), "--concurrency", "4", "--seed", "11"];

const root = mkdtempSync(join(tmpdir(), "toolsim-resume-"));
afterAll(() => {
  stopAll();
  rmSync(root, { recursive: true, force: true });
});

const start = (args: string[]): ReturnType<typeof startScript> => startScript(args);

async function waitFor(condition: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface RunFiles {
  events: string;
  corpus: string;
  rejected: string;
}
const read = (dir: string): RunFiles => ({
  events: readFileSync(join(dir, RUN_FILES.events), "utf8"),
  corpus: readFileSync(join(dir, RUN_FILES.corpus), "utf8"),
  rejected: readFileSync(join(dir, RUN_FILES.rejected), "utf8"),
});
const lines = (text: string): string[] => text.split("\n").filter((l) => l !== "");
const withoutTimes = (journal: string): string[] => lines(journal).map((l) => JSON.stringify({ ...(JSON.parse(l) as object), at: "" }));

/** Compares a resumed run with the reference, with readable failures. */
function expectSameRun(expect: ExpectStatic, actual: RunFiles, expected: RunFiles): void {
  expect(lines(expected.corpus).length + lines(expected.rejected).length).toBe(EPISODES);
  const a = withoutTimes(actual.events);
  const e = withoutTimes(expected.events);
  expect(a.length).toBe(e.length);
  const i = a.findIndex((line, k) => line !== e[k]);
  expect(i === -1 ? undefined : `journal line ${i + 1}:\n${a[i]?.slice(0, 300)}\n${e[i]?.slice(0, 300)}`).toBeUndefined();
  expect(lines(actual.corpus).length).toBe(lines(expected.corpus).length);
  expect(actual.corpus).toBe(expected.corpus);
  expect(actual.rejected).toBe(expected.rejected);
}

/** The uninterrupted run, in this process, started at once and awaited when needed (it runs beside the children). */
let reference: Promise<RunFiles>;
beforeAll(() => {
  const dir = join(root, "reference");
  reference = main([...ARGS, "--out", dir], { out: () => undefined, err: () => undefined, isTTY: false }).then((code) => {
    if (code !== 0) throw new Error(`the reference run exited ${code}`);
    return read(dir);
  });
  // Keep an early failure from being reported as unhandled before a test awaits it.
  reference.catch(() => undefined);
});

// Generous limits: three runs share two cores (and a busy machine must not fail the test).
describe.concurrent("resume after an interruption", { timeout: 180_000 }, () => {
  it("kill -9 mid-run, then --resume: nothing lost, nothing duplicated", async ({ expect }) => {
    const dir = join(root, "killed");
    const first = start([...ARGS, "--out", dir]);
    const killAt = Math.floor(EPISODES / 4);
    await waitFor(() => finishedEpisodes(dir) >= killAt, `${killAt} episodes in the journal`);
    first.child.kill("SIGKILL");
    const killed = await first.exit;
    expect(killed.signal).toBe("SIGKILL");
    const written = finishedEpisodes(dir);
    expect(written).toBeGreaterThanOrEqual(killAt);
    expect(written).toBeLessThan(EPISODES);

    // The settings come from run.json: only --resume and --out are needed.
    const second = await start(["generate", "--resume", "--out", dir]).exit;
    expect(second.err).not.toMatch(/\n\s+at /);
    expect(second.code).toBe(0);
    expectSameRun(expect, read(dir), await reference);
  });

  it("Ctrl-C (SIGINT): the child finishes the episodes in flight, exits by itself with the resume hint; --resume completes it", async ({ expect }) => {
    const dir = join(root, "interrupted");
    const first = start([...ARGS, "--out", dir]);
    const stopAt = Math.floor(EPISODES / 5);
    await waitFor(() => finishedEpisodes(dir) >= stopAt, `${stopAt} episodes in the journal`);
    first.child.kill("SIGINT");
    const stopped = await first.exit;
    expect(stopped.signal).toBeNull();
    expect(stopped.code).toBe(130);
    expect(stopped.err).toContain("stopping after the episodes in flight");
    expect(stopped.out).toMatch(new RegExp(`interrupted after \\d+ of ${EPISODES} episodes`));
    expect(stopped.out).toContain(`generate --resume --out ${dir}`);

    // What was written is whole: every line complete, the journal ends on a finished episode, one projection per episode.
    const files = read(dir);
    const n = finishedEpisodes(dir);
    expect(n).toBeGreaterThanOrEqual(stopAt);
    expect(n).toBeLessThan(EPISODES);
    expect(files.events.endsWith("\n")).toBe(true);
    expect(JSON.parse(lines(files.events).at(-1) as string)).toMatchObject({ type: "episode.finished" });
    expect(lines(files.corpus).length + lines(files.rejected).length).toBe(n);
    expect(stopped.out).toContain(`interrupted after ${n} of ${EPISODES} episodes`);
    const resumed = await start(["generate", "--resume", "--out", dir]).exit;
    expect(resumed.code).toBe(0);
    const ref = await reference;
    // What the interrupted run wrote was a prefix of the reference run.
    expect(ref.corpus.startsWith(files.corpus)).toBe(true);
    expect(ref.rejected.startsWith(files.rejected)).toBe(true);
    expectSameRun(expect, read(dir), ref);
  });
});
