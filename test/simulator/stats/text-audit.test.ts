import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { OfflineAssistant } from "../../../agents/assistant/offline/offline-assistant.js";
import { Toolbox } from "../../../agents/roles/toolbox.js";
import type { AssistantTurn } from "../../../agents/roles/dialogue.js";
import { createSimulation } from "../../../simulator/core/simulation.js";
import { main } from "../../../simulator/cli/main.js";
import { auditRunText, TextAuditor } from "../../../simulator/stats/text-audit.js";
import { capture } from "../../support/llm-roles.js";
import { bundledToolsets } from "../../support/offline-corpus.js";

/*
 * The text-quality audit: offline episodes, exported in every format, carry no internal scores, no broken
 * agreement ("the units is", "the author are"), no yes/no said as a value ("the holiday is yes"), and planned
 * values vary; plain requests are answered right. `npm test` audits 400 episodes, `npm run test:full` 2,000.
 */

const EPISODES = process.env["TOOLSIM_FULL"] === "1" ? 2000 : 400;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the text audit", () => {
  it("finds what it looks for", () => {
    const auditor = new TextAuditor();
    auditor.checkText("ep-1", "answer", "Here is the forecast: the units is metric and the holiday is yes. I found 1 days and the author are Ann.");
    auditor.checkText("ep-1", "answer", 'Here is the book "Tides are high": the authors are Ann and Bo, the price is 9 and it is in stock. I found 2 books.');
    auditor.checkExported("ep-1", "openai", { messages: [{ content: 'Request plan: getBook. Matches: "x" -> getBook (1.57, next listBooks 0.25).' }] });
    const audit = auditor.report();
    expect(audit.counts).toEqual({ "internal-score": 3, agreement: 2, "boolean-as-value": 1, count: 1, "repeated-value": 0 });
  });

  it(`finds no internal scores, broken agreements or yes/no values in ${EPISODES} offline episodes, and values that vary`, async () => {
    const toolsets = await bundledToolsets();
    const dir = mkdtempSync(join(tmpdir(), "toolsim-text-audit-"));
    dirs.push(dir);
    await createSimulation({ toolsets, episodes: EPISODES, seed: 11, out: join(dir, "run") }).run();
    const audit = await auditRunText(join(dir, "run"));
    expect(audit.episodes).toBe(EPISODES);
    expect(audit.exportedLines).toBeGreaterThan(EPISODES * 4);
    const problems = audit.findings.map((f) => `${f.kind} ${f.episodeId} ${f.where}: ${f.match}`);
    expect(problems).toEqual([]);
    // The same audit from the command line, on the run folder.
    const io = capture();
    expect(await main(["stats", join(dir, "run"), "--text"], io)).toBe(0);
    expect(io.stdout).toContain("internal scores in exported text: 0");
    // Conversion amounts (the example) vary across episodes.
    const amounts = audit.values.find((v) => v.argument === "convertCurrency.amount");
    if (amounts && amounts.count >= 5) expect(amounts.topShare).toBeLessThan(0.5);
  }, 600_000);
});

describe("plain requests are answered right", () => {
  async function firstTurn(text: string, toolsetNames?: string[], retrieval = false): Promise<AssistantTurn> {
    const all = await bundledToolsets();
    const toolbox = new Toolbox(toolsetNames ? all.filter((t) => toolsetNames.includes(t.name)) : all);
    const tools = retrieval ? toolbox.tools().filter((t) => t.name === "ToolSearcher") : toolbox.tools();
    return new OfflineAssistant().step([{ role: "user", content: text }], tools.length > 0 ? tools : toolbox.tools());
  }

  it('"Any news about the elections?" searches the news, never asks for an ISBN', async () => {
    for (const names of [undefined, ["bookstore", "news"]]) {
      const turn = await firstTurn("Any news about the elections?", names);
      expect(turn.kind).toBe("calls");
      if (turn.kind !== "calls") continue;
      expect(turn.calls[0]?.name).toBe("searchArticles");
      expect(turn.calls[0]?.arguments).toEqual({ q: "elections" });
    }
  });

  it('"articles by Jane Doe" fills no sortBy with the name', async () => {
    const turn = await firstTurn("Find articles by Jane Doe", ["news"]);
    expect(turn.kind).toBe("calls");
    if (turn.kind !== "calls") return;
    expect(turn.calls[0]?.name).toBe("searchArticles");
    expect(JSON.stringify(turn.calls[0]?.arguments)).not.toMatch(/sortBy/);
  });

  it('"Go ahead and ..." makes the retrieval assistant search for the request, not for "ahead"', async () => {
    const all = await bundledToolsets();
    const { toolSearcherTool } = await import("../../../agents/assistant/tool-searcher.js");
    const assistant = new OfflineAssistant();
    const turn = await assistant.step([{ role: "user", content: "Go ahead and show me the event evt-1004." }], [toolSearcherTool]);
    expect(all.length).toBeGreaterThan(0);
    expect(turn.kind).toBe("calls");
    if (turn.kind !== "calls") return;
    expect(turn.calls[0]?.name).toBe("ToolSearcher");
    expect(JSON.stringify(turn.calls[0]?.arguments)).not.toMatch(/ahead/);
    expect(JSON.stringify(turn.calls[0]?.arguments)).toMatch(/event/);
  });

  it("thinks in short sentences and keeps its scores in the debug note", async () => {
    const turn = await firstTurn("Convert 120 EUR to JPY", ["currency"]);
    expect(turn.kind).toBe("calls");
    if (turn.kind !== "calls") return;
    expect(turn.thought).toMatch(/^I'll call convertCurrency to [a-z]/);
    expect(turn.thought).not.toMatch(/\d\.\d{2}|->|Matches|plan:/);
    expect(turn.debug).toMatch(/convertCurrency \(\d+\.\d{2}/);
  });
});
