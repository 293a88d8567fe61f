import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { AgentContext } from "../../../../agents/roles/agent-context.js";
import { ChatModelAssistant } from "../../../../agents/assistant/chat-model-assistant.js";
import type { AssistantAgent } from "../../../../agents/roles/roles.js";
import type { AssistantTurn, DialogueMessage } from "../../../../agents/roles/dialogue.js";
import { Memo } from "../../../../agents/roles/memo.js";
import { OfflineAssistant } from "../../../../agents/assistant/offline/offline-assistant.js";
import { OfflineChatModel } from "../../../../agents/assistant/offline/offline-chat-model.js";
import { ToolIndex } from "../../../../agents/assistant/tool-searcher.js";
import { Toolbox, type EpisodeToolset } from "../../../../agents/roles/toolbox.js";
import { buildCatalog } from "../../../../specs/catalog/catalog.js";
import type { LoadedSpec, OpenApiDocument } from "../../../../specs/load/loaded-spec.js";
import { ResourceStore, type Fixtures } from "../../../../specs/respond/resource-store.js";
import { createRng } from "../../../../specs/seed.js";
import { simulateCall } from "../../../../specs/call/simulate-call.js";
import type { ToolResult } from "../../../../specs/call/tool-result.js";

/*
 * The offline assistant without LangChain (`OfflineAssistant`, the simulation's default) must take exactly the
 * turns of `new ChatModelAssistant(new OfflineChatModel())`: the corpus of a run does not depend on which one
 * plays the assistant. Also: the shared, read-only toolboxes and the bounded memo behind the offline model.
 */

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "fixtures", "agents");

function loadFixture(name: string): { toolset: EpisodeToolset; fixtures: Fixtures } {
  const file = join(FIXTURES, `assistant-${name}.yaml`);
  const document = parse(readFileSync(file, "utf8")) as OpenApiDocument & { "x-toolsim-fixtures"?: Fixtures };
  const spec: LoadedSpec = { file, sourceVersion: "3.0", dialect: "3.0", document, hash: "", warnings: [] };
  return { toolset: { name, title: name, introduction: "", description: "", functions: "", catalog: buildCatalog(spec) }, fixtures: document["x-toolsim-fixtures"] ?? {} };
}

const LOADED = ["bookstore", "weather", "currency", "agenda"].map(loadFixture);
const TOOLSETS = LOADED.map((l) => l.toolset);

/** Plays one request with an assistant: calls go to the simulated executor, questions to scripted replies. */
async function converse(assistant: AssistantAgent, instruction: string, replies: Array<[RegExp, string]>): Promise<{ turns: AssistantTurn[]; dialogue: DialogueMessage[] }> {
  const toolbox = Toolbox.for(TOOLSETS);
  const stores = new Map(LOADED.map((l) => [l.toolset.name, ResourceStore.fromFixtures(l.fixtures)]));
  const ctx: AgentContext = { runId: "run", episodeId: "ep", index: 0, seed: 1, rng: createRng(1), level: "call", toolbox };
  const dialogue: DialogueMessage[] = [{ role: "user", content: instruction }];
  const turns: AssistantTurn[] = [];
  for (let i = 0; i < 8; i++) {
    const turn = await assistant.step(dialogue, toolbox.tools(), ctx);
    turns.push(turn);
    if (turn.kind === "calls") {
      dialogue.push({ role: "assistant", content: "", thought: turn.thought, toolCalls: turn.calls });
      for (const call of turn.calls) {
        const entry = toolbox.get(call.name);
        const result: ToolResult = entry
          ? await simulateCall(entry.toolset.catalog, { name: entry.tool.name, arguments: call.arguments }, { seed: 1, state: stores.get(entry.toolset.name) ?? new ResourceStore() })
          : { tool: call.name, status: 404, body: { title: "Unknown tool" }, errors: [], responseErrors: [], source: "route", notes: [] };
        dialogue.push({ role: "tool", toolCallId: call.id, name: call.name, content: JSON.stringify(result.body), result });
      }
      continue;
    }
    if (turn.kind === "question") {
      dialogue.push({ role: "assistant", content: turn.text });
      const reply = replies.find(([re]) => re.test(turn.text));
      if (!reply) break;
      dialogue.push({ role: "user", content: reply[1] });
      continue;
    }
    break;
  }
  return { turns, dialogue };
}

const CONVERSATIONS: Array<[string, Array<[RegExp, string]>]> = [
  ["Search for cooking books and then show me the details of the first one.", []],
  ["Show me the details of book bk-1002.", []],
  ["What's the weather like in Paris right now?", []],
  ["Give me a 5 day forecast for Lisbon, then convert 250 USD to EUR.", []],
  ["I want to add a book to the catalogue.", [[/title|author|book/i, 'It is "Winter Tides" by Ana Moreau, genre fiction, price 12.5.']]],
  ["Remind me to call the bank.", [[/./, "At 2025-07-04T10:00:00Z, by email at sam@example.com."]]],
  ["Convert some money for me.", [[/./, "100 GBP to JPY please."]]],
  ["Cancel the event evt-201 and then list my events.", []],
  ["Thanks, that is all.", []],
];

describe("OfflineAssistant: the offline model without LangChain", () => {
  it("takes the same turns as ChatModelAssistant over OfflineChatModel", async () => {
    for (const [instruction, replies] of CONVERSATIONS) {
      const plain = await converse(new OfflineAssistant(), instruction, replies);
      const viaLangChain = await converse(new ChatModelAssistant(new OfflineChatModel()), instruction, replies);
      expect(plain.turns, instruction).toEqual(viaLangChain.turns);
      expect(plain.turns.length, instruction).toBeGreaterThan(0);
    }
  });

  it("one instance serves many dialogues, and sees a message that changed since the last step", async () => {
    const assistant = new OfflineAssistant();
    const toolbox = Toolbox.for(TOOLSETS);
    const ctx: AgentContext = { runId: "run", episodeId: "ep", index: 0, seed: 1, rng: createRng(1), level: "call", toolbox };
    const message: DialogueMessage = { role: "user", content: "Show me the details of book bk-1002." };
    const first = await assistant.step([message], toolbox.tools(), ctx);
    expect(first).toMatchObject({ kind: "calls", calls: [{ name: "getBook", arguments: { bookId: "bk-1002" } }] });
    message.content = "What's the weather like in Paris right now?";
    const second = await assistant.step([message], toolbox.tools(), ctx);
    expect(second).toMatchObject({ kind: "calls", calls: [{ name: "getCurrentWeather" }] });
    expect(second).toEqual(await new ChatModelAssistant(new OfflineChatModel()).step([{ ...message }], toolbox.tools(), ctx));
  });
});

describe("Toolbox.for and ToolIndex.for: built once per list of toolsets", () => {
  it("returns the same toolbox (and tools) for the same toolsets in the same order", () => {
    const a = Toolbox.for(TOOLSETS);
    expect(Toolbox.for([...TOOLSETS])).toBe(a);
    expect(a.tools()).toBe(a.tools());
    expect(a.tool("getBook")).toBe(a.tools().find((t) => t.name === "getBook"));
    expect(Toolbox.for([...TOOLSETS].reverse())).not.toBe(a);
    expect(Toolbox.for(TOOLSETS.slice(0, 1))).not.toBe(a);
    expect(ToolIndex.for(a)).toBe(ToolIndex.for(a));
    // The same entries as a toolbox built afresh.
    const fresh = new Toolbox(TOOLSETS);
    expect(a.entries.map((e) => [e.name, e.toolset.name, e.description])).toEqual(fresh.entries.map((e) => [e.name, e.toolset.name, e.description]));
    expect(a.entries.map((e) => e.parameters)).toEqual(fresh.entries.map((e) => e.parameters));
    expect(a.ofToolset("weather").map((e) => e.name)).toEqual(fresh.entries.filter((e) => e.toolset.name === "weather").map((e) => e.name));
  });

  it("rebuilds when a toolset's catalog was replaced", () => {
    const [first] = LOADED.map((l) => ({ ...l.toolset }));
    const a = Toolbox.for([first as EpisodeToolset]);
    (first as EpisodeToolset).catalog = loadFixture("bookstore").toolset.catalog;
    expect(Toolbox.for([first as EpisodeToolset])).not.toBe(a);
  });
});

describe("Memo: a bounded memo", () => {
  it("remembers recent keys and forgets the oldest beyond about twice its limit", () => {
    const memo = new Memo<number, string>(4);
    let computed = 0;
    const get = (k: number): string => memo.getOrCompute(k, (x) => (computed++, `v${x}`));
    for (let i = 0; i < 100; i++) get(i);
    expect(memo.size).toBeLessThanOrEqual(8);
    expect(computed).toBe(100);
    expect(get(99)).toBe("v99");
    expect(computed).toBe(100);
    expect(get(0)).toBe("v0");
    expect(computed).toBe(101);
    // A key read again moves to the young generation and survives.
    memo.set(1000, "a");
    for (let i = 0; i < 3; i++) {
      get(200 + i);
      expect(memo.get(1000)).toBe("a");
    }
  });
});
