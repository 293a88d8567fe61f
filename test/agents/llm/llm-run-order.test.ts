/**
 * The run-wide memory of LLM agents (the user's earlier instructions, the executor's run cache) used in an
 * order that does not depend on which episode's model call returns first.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { LlmResponder } from "../../../agents/executor/llm-responder.js";
import { RunAnswerCache, runCacheKey } from "../../../agents/llm/llm-run-cache.js";
import { RunInstructions } from "../../../agents/llm/llm-run-instructions.js";
import { EpisodeSequencer } from "../../../agents/llm/llm-sequencer.js";
import { LlmUser } from "../../../agents/user/llm-user.js";
import type { Plan } from "../../../agents/roles/plan.js";
import type { EpisodeToolset } from "../../../agents/roles/toolbox.js";
import type { Catalog } from "../../../specs/catalog/catalog.js";
import type { ResponderAnswer } from "../../../specs/respond/responder.js";
import { ResourceStore } from "../../../specs/respond/resource-store.js";
import { schemaResponder } from "../../../specs/respond/schema-responder.js";
import { simulateCall } from "../../../specs/call/simulate-call.js";
import { startOpenAIServer, type OpenAIServer, type ReceivedRequest } from "../../support/openai-server.js";
import { chatModelOn, contextOver, fixtureCatalog, fixtureToolset, promptOf } from "../../support/llm-agent-fixtures.js";

let forecast: EpisodeToolset;
let catalog: Catalog;
let server: OpenAIServer | undefined;

beforeAll(async () => {
  forecast = await fixtureToolset("forecast");
  catalog = await fixtureCatalog("forecast");
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe("EpisodeSequencer", () => {
  it("lets a decision at position p go once every earlier running episode has passed p", async () => {
    const s = new EpisodeSequencer();
    for (const e of [0, 1, 2]) s.enter(e);
    const order: string[] = [];
    const two = s.reach(2, 0).then(() => order.push("2@0"));
    const one = s.reach(1, 0).then(() => order.push("1@0"));
    await tick();
    expect(order).toEqual([]);
    s.pass(0, 0);
    await one;
    await tick();
    expect(order).toEqual(["1@0"]); // 2 still waits for 1
    s.pass(1, 0);
    await two;
    expect(order).toEqual(["1@0", "2@0"]);
  });

  it("is released by an episode's end, whatever its positions, and never waits for later or unregistered episodes", async () => {
    const s = new EpisodeSequencer();
    s.enter(3); // episodes 0-2 ran before (a resumed run): not registered, not waited for
    s.enter(4);
    await s.reach(3, 5);
    let done = false;
    const four = s.reach(4, 2).then(() => (done = true));
    s.pass(3, 0);
    await tick();
    expect(done).toBe(false);
    s.finish(3); // ended early (an error, a give-up): no later position will come
    await four;
    expect(done).toBe(true);
  });
});

const PLAN: Plan = {
  requests: [{ steps: [{ toolset: "forecast", tool: "getWeatherForecast", args: { city: "Lisbon", days: 3 }, links: [] }], withheld: [], style: "question" }],
};

/** Candidates for every episode, the same wording for all: which one an episode picks depends on the earlier episodes' picks. */
const CANDIDATES = [
  "Could you tell me the weather in Lisbon for the next 3 days?",
  "What will the weather be like in Lisbon over the coming 3 days?",
  "Lisbon, next 3 days: sun or rain? I'm packing tonight.",
  "I'm flying to Lisbon and need the forecast for 3 days.",
];

async function chooseAll(history: RunInstructions, latency: (episode: number) => number, episodes: number): Promise<string[]> {
  server = await startOpenAIServer(async (r: ReceivedRequest) => {
    const episode = Number(/episode (\d+)/.exec(promptOf(r))?.[1] ?? 0);
    await sleep(latency(episode));
    return { kind: "text", content: JSON.stringify({ instructions: CANDIDATES }) };
  });
  const model = chatModelOn(server);
  const texts = await Promise.all(
    Array.from({ length: episodes }, async (_, i) => {
      history.enter(i);
      // The episode's index in the prompt lets the server delay each episode differently.
      const user = new LlmUser({ model, history, candidates: 4, instructionPrompt: `episode ${i}: write {n} versions` });
      try {
        return await user.instruct({ plan: PLAN, request: 0, dialogue: [] }, contextOver([forecast], i));
      } finally {
        history.finish(i);
      }
    }),
  );
  await server.close();
  server = undefined;
  return texts;
}

describe("RunInstructions with LlmUser (real ChatOpenAI, local server)", () => {
  it("makes the same choices whichever episode's model call returns first", async () => {
    const inOrder = await chooseAll(new RunInstructions(), (e) => e * 15, 5);
    const reversed = await chooseAll(new RunInstructions(), (e) => (5 - e) * 15, 5);
    expect(reversed).toEqual(inOrder);
    // The choices did depend on the earlier episodes: each takes the candidate least like those before it.
    expect(new Set(inOrder).size).toBeGreaterThan(1);
    expect(inOrder[0]).toBe(CANDIDATES[0]);
  });

  it("compares an instruction with earlier episodes' instructions for the same or earlier requests and its own earlier ones", () => {
    const h = new RunInstructions();
    h.load([
      { episode: 0, request: 0, text: "weather in Lisbon for 3 days" },
      { episode: 0, request: 1, text: "hotels in Porto for two nights" },
      { episode: 5, request: 0, text: "flights to Madrid tomorrow" },
    ]);
    expect(h.nearest("weather in Lisbon for 3 days", 2, 0).similarity).toBe(1);
    expect(h.nearest("hotels in Porto for two nights", 2, 0).similarity).toBeLessThan(1); // request 1 of an earlier episode: not for request 0
    expect(h.nearest("hotels in Porto for two nights", 2, 1).similarity).toBe(1);
    expect(h.nearest("flights to Madrid tomorrow", 2, 3).similarity).toBeLessThan(1); // a later episode
    expect(h.nearest("flights to Madrid tomorrow", 5, 1).similarity).toBe(1); // its own earlier request
  });

  it("lets later episodes go on when an episode's model fails and the user throws", async () => {
    server = await startOpenAIServer(async (r) => {
      if (promptOf(r).includes("episode 0")) return { kind: "status", status: 400 };
      return { kind: "text", content: JSON.stringify({ instructions: CANDIDATES }) };
    });
    const model = chatModelOn(server);
    const history = new RunInstructions();
    history.enter(0);
    history.enter(1);
    const first = new LlmUser({ model, history, onModelError: "throw", instructionPrompt: "episode 0: write {n} versions" });
    const second = new LlmUser({ model, history, instructionPrompt: "episode 1: write {n} versions" });
    const plan2: Plan = { requests: [PLAN.requests[0]!, PLAN.requests[0]!] };
    const [a, b] = await Promise.allSettled([
      first.instruct({ plan: plan2, request: 0, dialogue: [] }, contextOver([forecast], 0)),
      second.instruct({ plan: plan2, request: 0, dialogue: [] }, contextOver([forecast], 1)),
    ]);
    expect(a.status).toBe("rejected");
    expect(b.status).toBe("fulfilled");
  });
});

const answer = (body: unknown, source: ResponderAnswer["source"] = "llm"): ResponderAnswer => ({ status: 200, body, source, notes: [source] });

describe("RunAnswerCache", () => {
  it("takes the earliest earlier episode's model answer whatever the order the calls come back in", async () => {
    const run = async (delays: number[]): Promise<Array<{ body: unknown; hit: boolean }>> => {
      const cache = new RunAnswerCache();
      for (let e = 0; e < delays.length; e++) cache.enter(e);
      return Promise.all(
        delays.map(async (ms, e) => {
          const got = await cache.forEpisode(e).answer("k", async () => {
            await sleep(ms);
            return answer({ from: e });
          });
          cache.finish(e);
          return { body: got.answer.body, hit: got.hit };
        }),
      );
    };
    const expected = [{ body: { from: 0 }, hit: false }, { body: { from: 0 }, hit: true }, { body: { from: 0 }, hit: true }];
    expect(await run([5, 5, 5])).toEqual(expected);
    expect(await run([40, 1, 1])).toEqual(expected); // episode 0's model is slowest: the others still wait for its answer
  });

  it("does not share replaced answers, and sees earlier episodes only at the same or an earlier look-up", async () => {
    const cache = new RunAnswerCache();
    cache.load([
      { episode: 0, position: 3, key: "late", answer: answer({ at: "0/3" }) },
      { episode: 1, position: 0, key: "k", answer: answer({ at: "1/0" }) },
    ]);
    cache.enter(2);
    cache.enter(3);
    const two = cache.forEpisode(2);
    const replaced = await two.answer("r", async () => answer({ schema: true }, "schema"));
    expect(replaced.hit).toBe(false);
    const shared = await two.answer("k", async () => answer({ own: true }));
    expect(shared).toMatchObject({ hit: true, answer: { body: { at: "1/0" } } });
    // Position 2 of episode 2 does not see episode 0's look-up at position 3.
    expect((await two.answer("late", async () => answer({ own: 2 }))).answer.body).toEqual({ own: 2 });
    cache.finish(2);
    const three = cache.forEpisode(3);
    // Episode 2's replacement is not shared: episode 3 asks its own model.
    expect((await three.answer("r", async () => answer({ own: 3 }))).hit).toBe(false);
    // Records carry hashed keys (no argument values reach the run folder); loaded records match either form.
    expect(cache.recordsOf(2).map((r) => [r.position, r.key])).toEqual([[1, runCacheKey("k")], [2, runCacheKey("late")]]);
  });

  it("serves LlmResponder through ChatOpenAI: one model call per normalized call across episodes", async () => {
    server = await startOpenAIServer(async () => {
      await sleep(10);
      return { kind: "text", content: JSON.stringify({ status: 200, body: { city: "Paris", days: [{ date: "2025-06-01", high: 24.5, low: 14 }] } }) };
    });
    const model = chatModelOn(server);
    const cache = new RunAnswerCache();
    const results = await Promise.all(
      [0, 1, 2].map(async (e) => {
        cache.enter(e);
        const responder = new LlmResponder({ model, runCache: cache.forEpisode(e) });
        const r = await simulateCall(catalog, { name: "getWeatherForecast", arguments: { city: "Paris", days: 1 } }, { seed: 1, state: new ResourceStore(), stages: { responders: [responder, schemaResponder] } });
        cache.finish(e);
        return r;
      }),
    );
    expect(server.requests).toHaveLength(1);
    expect(results.map((r) => r.source)).toEqual(["llm", "llm", "llm"]);
    expect(results.map((r) => r.notes.includes("llm cache hit"))).toEqual([false, true, true]);
  });
});
