import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../simulator/cli/main.js";
import type { ReportData } from "../../../simulator/report/report-data.js";
import { jsonForScript } from "../../../simulator/report/html-escape.js";
import { writeReport } from "../../../simulator/report/write-report.js";
import { RUN_FILES } from "../../../simulator/runs/run-info.js";
import type { RunSummary } from "../../../simulator/runs/run-summary.js";
import { DUNE_INSTRUCTION, FIXTURE_SECRETS, HOSTILE_TEXT, writeFixtureRun } from "../../fixtures/export-run.js";

const root = mkdtempSync(join(tmpdir(), "toolsim-report-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const OUTPUT = fileURLToPath(new URL("../../../test-output", import.meta.url));
/** Debian's chromium (TOOLSIM_CHROMIUM: another binary). */
const CHROMIUM = process.env["TOOLSIM_CHROMIUM"] ?? "/usr/bin/chromium";
const HAS_CHROMIUM = existsSync(CHROMIUM);
/** Under CI (CI=true, as .ci/run is run there) the browser test must run: a missing Chromium fails it instead of skipping it. */
const IN_CI = /^(true|1|yes)$/i.test(process.env["CI"] ?? "");

let run = "";
let html = "";
let page = "";
beforeAll(async () => {
  run = await writeFixtureRun(join(root, "run"));
  page = join(root, "report.html");
  let out = "";
  const code = await main(["report", run, "--out", page], { out: (s) => void (out += s), err: () => undefined, isTTY: false });
  expect(code).toBe(0);
  expect(out).toMatch(/^report: .*report\.html \(\d+ KiB, 6 episodes\)\n$/);
  html = readFileSync(page, "utf8");
});

/** The JSON embedded in the page, read back as the page's script reads it. */
function embedded(text: string): ReportData {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(text);
  if (!m?.[1]) throw new Error("no embedded data");
  return JSON.parse(m[1]) as ReportData;
}

describe("the report page", () => {
  it("is one self-contained file: inline style, SVG and script, nothing loaded from anywhere", () => {
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/\s(src|href)\s*=/i);
    expect(html).not.toMatch(/@import|url\(/i);
    expect(html).not.toMatch(/https?:\/\/(?!bookshop\.example\.com)/);
    expect(html).toContain("<svg class=\"funnel\"");
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).toContain("default-src 'none'");
  });

  it("embeds the data so that no text can close its script element", () => {
    expect(html).not.toContain("</script><b");
    const data = embedded(html);
    expect(data.episodes).toHaveLength(6);
    expect(data.episodes[5]?.turns[0]).toEqual({ k: "user", text: HOSTILE_TEXT });
    expect(jsonForScript({ a: "</script><!--\u2028" })).toBe('{"a":"\\u003c/script>\\u003c!--\\u2028"}');
    expect(JSON.parse(jsonForScript({ a: "</script><!--\u2028" }))).toEqual({ a: "</script><!--\u2028" });
  });

  it("shows figures that match the run's summary, and no secrets", () => {
    const data = embedded(html);
    const summary = JSON.parse(readFileSync(join(run, RUN_FILES.summary), "utf8")) as RunSummary;
    expect([data.stats.episodes, data.stats.accepted, data.stats.rejected, data.stats.errors]).toEqual([summary.episodes, summary.accepted, summary.rejected, summary.errors]);
    expect(data.stats.funnel.stages).toEqual(summary.stages);
    expect(data.cap).toEqual({ shown: 6, total: 6, limit: 2000 });
    for (const s of FIXTURE_SECRETS) expect(html).not.toContain(s);
  });

  it("caps the episodes it embeds and says so", async () => {
    const r = await writeReport(run, join(root, "capped.html"), { maxEpisodes: 2 });
    const text = readFileSync(r.path, "utf8");
    expect(embedded(text).episodes.map((e) => e.index)).toEqual([0, 1]);
    expect(embedded(text).stats.episodes).toBe(6);
    expect(text).toContain("The browser holds the first 2 of 6 episodes");
  });
});

// Under CI a missing browser is a failure, not a skip (declared only then, so that local runs count no extra skip).
if (IN_CI && !HAS_CHROMIUM) {
  describe("the report in Chromium, under CI", () => {
    it("has Chromium to run in", () => {
      expect.fail(`${CHROMIUM} is absent and CI=true: the report's browser test must run in CI (.ci/run installs Debian's chromium with apt-get install -y chromium)`);
    });
  });
}

describe.skipIf(!HAS_CHROMIUM)(`the report in Chromium (skipped: ${CHROMIUM} is absent; install it with apt-get install -y chromium${IN_CI ? "" : "; under CI=true this fails"})`, () => {
  let browser: Browser;
  let tab: Page;
  const requests: string[] = [];
  const errors: string[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    tab = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    tab.on("request", (r) => requests.push(r.url()));
    tab.on("pageerror", (e) => errors.push(String(e)));
    tab.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await tab.goto(pathToFileURL(page).href);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const listed = async (): Promise<string[]> => tab.locator("#episode-list .episode").evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { index: string } }).dataset.index));
  const open = async (index: number): Promise<void> => {
    await tab.locator(`#episode-list .episode[data-index="${index}"]`).click();
    await tab.locator(".chat-title", { hasText: `Episode #${index} ` }).waitFor();
  };

  it("lists every episode and loads nothing but itself", async () => {
    expect(await tab.locator("#list-count").textContent()).toBe("6 of 6 episodes");
    expect(await listed()).toEqual(["0", "1", "2", "3", "4", "5"]);
    expect(requests).toEqual([pathToFileURL(page).href]);
    expect(errors).toEqual([]);
  });

  it("shows an episode as a chat: the instruction, the tool calls, the observations and the verdict", async () => {
    await open(0);
    expect(await tab.locator("#chat .msg.user .text").first().textContent()).toBe(DUNE_INSTRUCTION);
    expect(await tab.locator("#chat .tool-call .name").allTextContents()).toEqual(["searchBooks", "getBook"]);
    expect(await tab.locator("#chat .msg.thought .text").first().textContent()).toBe("I should search the catalogue.");
    expect(await tab.locator("#chat .msg.assistant.final .text").textContent()).toBe("Dune (b1) is by Frank Herbert.");
    expect(await tab.locator("#chat .verdict h4").textContent()).toBe("Verdict: accepted");
    // Observations are collapsed until clicked.
    const obs = tab.locator("#chat details.observation").first();
    expect(await obs.getAttribute("open")).toBeNull();
    expect(await obs.locator("summary").textContent()).toBe("observation \u2190 searchBooks \u00b7 200 \u00b7 example");
    expect(await obs.locator("pre").isVisible()).toBe(false);
    await obs.locator("summary").click();
    expect(await obs.getAttribute("open")).toBe("");
    expect(await obs.locator("pre").textContent()).toContain('"title": "Dune Messiah"');
  });

  it("filters by verdict and shows the failed stage's reasons", async () => {
    await tab.selectOption("#filter-verdict", "rejected");
    expect(await tab.locator("#list-count").textContent()).toBe("2 of 6 episodes");
    expect(await listed()).toEqual(["1", "4"]);
    await tab.selectOption("#filter-verdict", "rejected:execution");
    expect(await listed()).toEqual(["4"]);
    await open(4);
    expect(await tab.locator("#chat .verdict h4").textContent()).toBe("Verdict: rejected at execution");
    expect(await tab.locator("#chat .verdict .stage.fail .reason").allTextContents()).toEqual(['calls[0] "login" failed with 401 and was not retried']);
    expect(await tab.locator("#chat .msg.assistant.give-up .text").textContent()).toBe("the login failed");
    expect(await tab.locator("#chat details.observation.failed summary").textContent()).toContain("401");
    await tab.selectOption("#filter-verdict", "error");
    expect(await listed()).toEqual(["3"]);
    await open(3);
    expect(await tab.locator("#chat .verdict h4").textContent()).toBe("No verdict: the episode broke off");
    expect(await tab.locator("#chat .verdict .reason").allTextContents()).toEqual(["the executor crashed: boom"]);
  });

  it("filters by toolset and by text", async () => {
    await tab.selectOption("#filter-verdict", "");
    await tab.selectOption("#filter-toolset", "bookshop");
    expect(await listed()).toHaveLength(6);
    await tab.fill("#filter-text", "dune");
    await tab.locator("#list-count", { hasText: "2 of 6 episodes" }).waitFor();
    expect(await listed()).toEqual(["0", "1"]);
    await tab.fill("#filter-text", "");
    await tab.locator("#list-count", { hasText: "6 of 6 episodes" }).waitFor();
  });

  it("shows hostile text as text", async () => {
    await open(5);
    expect(await tab.locator("#chat .msg.user .text").first().textContent()).toBe(HOSTILE_TEXT);
    expect(await tab.locator("#pwned").count()).toBe(0);
    expect(await tab.locator("#chat .tool-call .name").allTextContents()).toEqual(["getBook", "getBook"]);
  });

  it("looks right (screenshot in test-output/report.png)", async () => {
    await open(1);
    expect(await tab.locator("#chat .verdict .stage.fail .reason").allTextContents()).toEqual(['requests[0] steps[1] "getBook": never called']);
    await tab.locator("#chat details.observation summary").first().click();
    mkdirSync(OUTPUT, { recursive: true });
    const shot = join(OUTPUT, "report.png");
    await tab.screenshot({ path: shot, fullPage: true });
    expect(readFileSync(shot).subarray(1, 4).toString()).toBe("PNG");
    expect(errors).toEqual([]);
    expect(requests).toEqual([pathToFileURL(page).href]);
  });
});
